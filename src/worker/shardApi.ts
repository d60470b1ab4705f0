/**
 * What a CPU-engine worker answers (src/model/reference/parallel.ts ReplicaShard behind a
 * message port): the page's workers (cpuShard.worker.ts) and the bench's Node workers
 * (scripts/cpu-shard-node.ts) expose the same object through Comlink. The arrays it answers
 * with are transferred, not copied (`transfer` is Comlink.transfer).
 */
import type { ModelConfig } from '../model/config.ts';
import { buffersOf, ReplicaShard, type Shard } from '../model/reference/parallel.ts';

export function shardApi(transfer: <T>(value: T, buffers: Transferable[]) => T) {
  let shard: ReplicaShard | null = null;
  const mine = () => {
    if (!shard) throw new Error('the worker was not given a model (init)');
    return shard;
  };
  return {
    /** The watchdog's ping (watchdog.ts). */
    ping: () => true,
    /** Stop answering, as a worker stuck in a loop: nothing errors, calls just never return (the watchdog's test). */
    hang(): void {
      setTimeout(() => { for (;;) { /* stuck */ } }, 0);
    },
    /** A replica of this model shape; true once it is ready (the page's start-up check). */
    init(config: ModelConfig): boolean {
      shard = new ReplicaShard(config);
      return true;
    },
    async forward(...a: Parameters<Shard['forward']>) {
      const r = await mine().forward(...a);
      return transfer(r, buffersOf(r));
    },
    async backward(...a: Parameters<Shard['backward']>) {
      const r = await mine().backward(...a);
      return transfer(r, buffersOf(r));
    },
    async sample(...a: Parameters<Shard['sample']>) {
      const r = await mine().sample(...a);
      return transfer(r, buffersOf(r));
    },
  };
}

export type ShardApi = ReturnType<typeof shardApi>;

/**
 * The CPU engine off the page's thread: the data-parallel reference (src/model/reference/
 * parallel.ts) with one shard per worker, reached through Comlink. The page keeps only the
 * coordinator's share of a step (the objective on per-token numbers, the gradient sum, AdamW:
 * well under a millisecond at the lab's sizes); forward, backward and sampling run in the workers.
 *
 * Faults, as the lab sees a lost GPU device: a worker that reports an error (or is stopped by
 * crash(), the test hook) or goes silent (watchdog.ts: a ping unanswered for its limit) resolves `lost`, every call in flight fails, and RecoverableBackend
 * rebuilds the engine from the run's committed state. Workers that do not start within the
 * time limit (a strict content-security policy, an old browser) make start() throw, and the
 * lab runs the reference on the page instead (src/lab/engine.ts cpuEngine).
 */
import * as Comlink from 'comlink';
import type { ModelConfig } from '../model/config.ts';
import { ParallelReferenceBackend, type Shard } from '../model/reference/parallel.ts';
import type { ShardApi } from './shardApi.ts';
import { watchWorker, type Watchdog } from './watchdog.ts';

/** One worker as this module needs it: its message port, a way to stop it, and its failures. */
export interface ShardWorker {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Call `cb` when the worker fails (an uncaught error, a message it cannot read). */
  onFailure(cb: (message: string) => void): void;
}

export interface EngineLoss { reason: string; message: string }

const transferBatch = <T extends { inputs: Int32Array; targets: Int32Array; mask: Float32Array }>(b: T) => Comlink.transfer(b, [b.inputs.buffer, b.targets.buffer, b.mask.buffer]);
const transferArray = <T extends Float32Array | Float64Array | null>(x: T): T => (x ? Comlink.transfer(x, [x.buffer]) : x);

/** The workers started but did not all answer in time (a machine too busy, not a refusal: the page may try them again). */
export class WorkersLate extends Error {}

export class WorkerCpuBackend extends ParallelReferenceBackend {
  /** Resolves when a worker fails (not when the engine is disposed), like a GPU device's `lost`. */
  readonly lost: Promise<EngineLoss>;

  private constructor(config: ModelConfig, weights: Float32Array, shards: Shard[], private readonly workers: ShardWorker[], lost: Promise<EngineLoss>, private readonly fail: (w: EngineLoss) => void, private readonly dogs: Watchdog[], private readonly remotes: Comlink.Remote<ShardApi>[]) {
    super(config, weights, shards);
    this.lost = lost;
  }

  /** Start the engine on these workers (each gets a replica); throws if they do not all answer within `timeoutMs` (WorkersLate) or one fails. */
  static async start(config: ModelConfig, weights: Float32Array, workers: ShardWorker[], timeoutMs = 20_000): Promise<WorkerCpuBackend> {
    let fail!: (w: EngineLoss) => void;
    const lost = new Promise<EngineLoss>((r) => { fail = r; });
    const dead = lost.then((w): never => { throw new Error(`a CPU engine worker stopped (${w.message})`); });
    dead.catch(() => {}); // read by the calls that race it
    const guard = <T>(p: Promise<T>) => Promise.race([p, dead]);
    workers.forEach((w) => w.onFailure((message) => fail({ reason: 'worker', message })));
    const remotes = workers.map((w) => Comlink.wrap<ShardApi>(w.endpoint));
    const dogs = remotes.map((r, k) => watchWorker(() => r.ping(), (ms) => { workers[k].terminate(); fail({ reason: 'worker', message: `worker ${k + 1} gave no answer for ${Math.round(ms / 1000)} s` }); }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new WorkersLate(`the workers did not answer within ${timeoutMs / 1000} s`)), timeoutMs); });
      await Promise.race([Promise.all(remotes.map((r) => r.init(config))), dead, late]);
    } catch (e) {
      for (const d of dogs) d.stop();
      for (const w of workers) w.terminate();
      throw e;
    } finally {
      clearTimeout(timer);
    }
    const shards: Shard[] = remotes.map((r) => ({
      forward: (part, tau, mode, policy, ref) => guard(r.forward(transferBatch(part), tau, mode, transferArray(policy), transferArray(ref))),
      backward: (gL, gE) => guard(r.backward(transferArray(gL), transferArray(gE))),
      sample: (req, from, to, policy) => guard(r.sample(req, from, to, transferArray(policy))),
    }));
    return new WorkerCpuBackend(config, weights, shards, workers, lost, fail, dogs, remotes);
  }

  /** How many workers share the batch. */
  get workerCount(): number {
    return this.workers.length;
  }

  /** Stop worker k as a crash would: the calls in flight fail and the run recovers (a test and soak hook). */
  crash(k = 0): void {
    this.workers[k]?.terminate();
    this.fail({ reason: 'worker', message: `worker ${k + 1} stopped` });
  }

  /** Make worker k stop answering without an error, as one stuck in a loop (the watchdog's test). */
  hang(k = 0): Promise<void> {
    return this.remotes[k].hang();
  }

  override dispose(): void {
    super.dispose();
    for (const d of this.dogs) d.stop();
    for (const w of this.workers) w.terminate();
    this.fail({ reason: 'disposed', message: 'the engine was closed' }); // calls still in flight end (RecoverableBackend ignores its own dispose)
  }
}

/** The page's workers: `n` dedicated module workers (bundled by Vite, precached by the service worker as any script). */
export function pageShardWorkers(n: number): ShardWorker[] {
  const made: Worker[] = [];
  try {
    for (let k = 0; k < n; k++) made.push(new Worker(new URL('./cpuShard.worker.ts', import.meta.url), { type: 'module', name: `cpu-engine-${k + 1}` }));
  } catch (e) {
    for (const w of made) w.terminate();
    throw e;
  }
  return made.map(pageWorker);
}

/** A page's worker as the engines need it: its port, a way to stop it, and its failures. */
export function pageWorker(w: Worker): ShardWorker {
  return {
    endpoint: w,
    terminate: () => w.terminate(),
    onFailure: (cb) => {
      w.addEventListener('error', (e) => { e.preventDefault(); cb(e.message || 'its script could not run'); });
      w.addEventListener('messageerror', () => cb('a message could not be read'));
    },
  };
}

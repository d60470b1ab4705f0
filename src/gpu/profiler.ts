/**
 * The engine's profiler: where the time of one training step (or one rollout) goes, per phase
 * (forward, loss, backward, optimizer, rollout) and per kernel family (matmul, attention,
 * layernorm, …).
 *
 * How: the step runs once normally with Ops.trace on, which keeps every dispatch (pipeline,
 * bind group, workgroup counts, phase). The trace is then REPLAYED group by group — all the
 * dispatches of one family (or one phase), in step order, `repeat` times in one compute pass —
 * and each group is timed:
 *   - with timestamp queries (the pass's beginning/end timestamps) where the device has
 *     'timestamp-query' (source 'timestamp-query'; Chromium quantises them to 100 µs, so a group
 *     is repeated until it is long enough to read);
 *   - otherwise by the CPU clock around submit → onSubmittedWorkDone (source 'cpu'; includes
 *     the submit's fixed cost, reported as `overheadMs` from an empty submit and subtracted).
 * ms per group = measured time / repeat, the fastest of three such replays (more while the three
 * groupings' totals disagree: measure()). The replay runs on the step's own buffers, so shapes
 * and data are the real ones (a rollout's decode passes are replayed after the same position
 * copy each had; its sampling then finds every row already finished, so sampling is the one
 * kernel the replay under-times); params and the AdamW moments are copied aside before the replay
 * and restored after it in the same submit, so profiling never changes the model.
 */
import type { AdamWSettings, TokenBatch } from '../model/backend.ts';
import type { WebGPUBackend } from './backend.ts';
import type { KernelName } from './kernels.ts';
import type { TracedDispatch } from './ops.ts';

/** Kernel family of each entry point (what a student sees in the panel). */
export function kernelFamily(k: KernelName): string {
  if (k.startsWith('matmul')) return 'matmul';
  if (k.startsWith('attention')) return 'attention';
  if (k.startsWith('layernorm')) return 'layernorm';
  if (k.startsWith('gelu')) return 'gelu';
  if (k.startsWith('encoder') || k === 'wte_index' || k === 'wte_backward' || k === 'wpe_backward') return 'embedding';
  if (k.startsWith('logprob_forward') || k.startsWith('logits_backward') || k === 'loss_reduce' || k.startsWith('policy_loss') || k.startsWith('logsoftmax') || k.startsWith('kl_')) return 'softmax + loss';
  if (k.startsWith('grad_') || k.startsWith('adamw')) return 'optimizer';
  if (k === 'sample_next') return 'sampling';
  if (k === 'decode_block') return 'decode block (fused)';
  return 'other';
}

export interface ProfileRow {
  name: string;
  /** GPU time per step (one replay of the group), ms. */
  ms: number;
  /** Share of the sum over rows of this table. */
  share: number;
  dispatches: number;
}

export interface Profile {
  /** What was profiled, e.g. 'trainStep B=64 T=32'. */
  label: string;
  source: 'timestamp-query' | 'cpu';
  /** Wall time of the real (traced) call, ms: includes uploads, submit and the readback. */
  wallMs: number;
  /** Sum of the phase rows: the GPU work of one step as the replay measured it. */
  gpuMs: number;
  /** CPU clock only: the cost of an empty submit + onSubmittedWorkDone, subtracted from each row. */
  overheadMs: number;
  dispatches: number;
  /** Replays of each group (the fastest is kept): 3, more while the groupings' totals disagree. */
  rounds: number;
  /** Largest over smallest of the three groupings' totals (phases, families, kernels): 1 when they agree. */
  spread: number;
  /** Whether the groupings agree (spread within AGREE): else other work was slowing the replays. */
  steady: boolean;
  phases: ProfileRow[];
  families: ProfileRow[];
  kernels: ProfileRow[];
}

/**
 * Replays at least this long are trusted: timestamps are quantised (100 µs in Chromium); the CPU
 * clock around a submit jitters by milliseconds, so there a replay is repeated to 25 ms.
 */
const TARGET_MS = { 'timestamp-query': 4, cpu: 25 } as const;
/** Groupings whose totals are within this factor agree (1–4 % apart on an idle machine here). */
const AGREE = 1.15;
/** At most this many replays of each group, calibration's included. */
const MAX_ROUNDS = 8;

export class Profiler {
  private querySet: GPUQuerySet | null = null;
  private resolveBuf: GPUBuffer | null = null;
  private backup: GPUBuffer | null = null;

  constructor(readonly backend: WebGPUBackend, readonly opts: { maxRepeat?: number } = {}) {}

  /** The GPU clock where the device has 'timestamp-query', else the CPU clock around each submit. */
  get source(): Profile['source'] {
    return this.backend.ctx.device.features.has('timestamp-query') ? 'timestamp-query' : 'cpu';
  }

  /** Profile one training step on `batch` (this step really trains: it is the step the run takes). */
  async profileTrainStep(batch: TokenBatch, opt: AdamWSettings, loss: Parameters<WebGPUBackend['trainStep']>[1] = { kind: 'ce' }): Promise<Profile> {
    return this.profile(`trainStep B=${batch.B} T=${batch.T}`, () => this.backend.trainStep(batch, loss, opt));
  }

  /** Profile whatever `run` records through the backend's Ops (one trainStep, one sample, …). */
  async profile(label: string, run: () => Promise<unknown>): Promise<Profile> {
    const trace = this.begin();
    const t0 = performance.now();
    try {
      await run();
    } finally {
      this.backend.ctx.ops.trace = null;
    }
    return this.measure(label, trace, performance.now() - t0);
  }

  /** Start keeping every dispatch (the step to profile runs next; then measure(), or ops.trace = null to give up). */
  begin(): TracedDispatch[] {
    const trace: TracedDispatch[] = [];
    this.backend.ctx.ops.trace = trace;
    return trace;
  }

  /** Replay and time what `trace` kept (profile()'s second half: the engine in a worker runs the step between the two calls). */
  async measure(label: string, trace: TracedDispatch[], wallMs: number): Promise<Profile> {
    this.backend.ctx.ops.trace = null;
    // A dispatch whose buffers were released later in the step (a buffer outgrown, a cache
    // trimmed) cannot be replayed: say so rather than time an invalid submit.
    const { arena, errors } = this.backend.ctx;
    const stale = trace.find((d) => d.buffers.some((b) => !arena.has(b)));
    if (stale) throw new Error(`the step released a buffer that its ${stale.kernel} dispatch used (buffers grew during the step); profile again: the buffers now fit`);
    const errorsBefore = errors.length;
    const overheadMs = this.source === 'cpu' ? await this.emptySubmitMs() : 0;
    // The three groupings of the same dispatches, each group timed by the fastest of its replays.
    // Replays come in rounds over all groups, so a burst of other work on a shared machine slows one
    // replay of many groups, not every replay of one. Each grouping sums to the same step: after the
    // third round, more rounds follow while those sums still disagree (other work kept slowing some
    // groups), up to MAX_ROUNDS; what is left of the disagreement is reported as `spread`.
    const groupings = [(d: TracedDispatch) => d.phase || 'other', (d: TracedDispatch) => kernelFamily(d.kernel), (d: TracedDispatch) => d.kernel].map((key) =>
      [...new Set(trace.map(key))].map((name) => ({ name, ds: trace.filter((d) => key(d) === name), repeat: 1, ms: Infinity })));
    const all = groupings.flat();
    const spread = () => {
      const totals = groupings.map((gs) => gs.reduce((a, g) => a + g.ms, 0));
      return Math.max(...totals) / Math.max(Math.min(...totals), 1e-9);
    };
    for (const g of all) Object.assign(g, await this.calibrate(g.ds, overheadMs));
    let rounds = 1;
    for (; rounds < MAX_ROUNDS && (rounds < 3 || spread() > AGREE); rounds++) {
      for (const g of all) g.ms = Math.min(g.ms, Math.max(0, (await this.replay(g.ds, g.repeat)) - overheadMs) / g.repeat);
    }
    const [phases, families, kernels] = groupings.map((gs) => {
      const total = gs.reduce((a, g) => a + g.ms, 0);
      return gs.map((g): ProfileRow => ({ name: g.name, ms: g.ms, share: total > 0 ? g.ms / total : 0, dispatches: g.ds.length }));
    });
    if (errors.length > errorsBefore) throw new Error(`the replay was not valid WebGPU: ${errors[errorsBefore]}`);
    families.sort((a, b) => b.ms - a.ms);
    kernels.sort((a, b) => b.ms - a.ms);
    return { label, source: this.source, wallMs, gpuMs: phases.reduce((a, r) => a + r.ms, 0), overheadMs, dispatches: trace.length, rounds, spread: spread(), steady: spread() <= AGREE, phases, families, kernels };
  }

  /** How many replays of `ds` make a run long enough to measure, and ms of one replay in that run (less the fixed overhead, divided). */
  private async calibrate(ds: TracedDispatch[], overheadMs: number): Promise<{ repeat: number; ms: number }> {
    let repeat = 1;
    const maxRepeat = this.opts.maxRepeat ?? 64;
    for (;;) {
      const ms = Math.max(0, (await this.replay(ds, repeat)) - overheadMs) / repeat;
      const target = TARGET_MS[this.source];
      if (ms * repeat >= target || repeat >= maxRepeat) return { repeat, ms };
      repeat = Math.min(maxRepeat, Math.max(repeat * 2, Math.ceil(target / Math.max(ms, 0.01))));
    }
  }

  /**
   * Total ms of `repeat` replays of `ds`, params/m/v saved and restored around it. Dispatches run
   * in one compute pass, except that a dispatch recorded after a prelude (the decode loop's
   * position copy) gets its own pass after that prelude, as in the real step. With timestamps,
   * an empty pass before and after the work carries the two timestamps.
   */
  private async replay(ds: TracedDispatch[], repeat: number): Promise<number> {
    const { device, arena } = this.backend.ctx;
    const m = this.backend.model;
    const n = m.layout.total * 4;
    this.backup ??= arena.create('profiler.backup', 3 * n, GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
    const enc = device.createCommandEncoder({ label: 'profiler replay' });
    const state = [m.params, m.m, m.v];
    state.forEach((b, i) => enc.copyBufferToBuffer(b, 0, this.backup!, i * n, n));
    const useTs = this.source === 'timestamp-query';
    if (useTs) {
      this.querySet ??= device.createQuerySet({ type: 'timestamp', count: 2 });
      this.resolveBuf ??= arena.create('profiler.resolve', 16, GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC);
      enc.beginComputePass({ timestampWrites: { querySet: this.querySet!, beginningOfPassWriteIndex: 0 } }).end();
    }
    let pass: GPUComputePassEncoder | null = null;
    let prelude: TracedDispatch['prelude'] = null;
    for (let r = 0; r < repeat; r++) {
      for (const d of ds) {
        if (d.prelude !== prelude) {
          prelude = d.prelude;
          if (prelude) {
            pass?.end();
            prelude(enc);
            pass = null;
          }
        }
        pass ??= enc.beginComputePass();
        pass.setPipeline(d.pipeline);
        pass.setBindGroup(0, d.bindGroup);
        pass.dispatchWorkgroups(d.groups[0], d.groups[1], d.groups[2]);
      }
    }
    pass?.end();
    if (useTs) enc.beginComputePass({ timestampWrites: { querySet: this.querySet!, endOfPassWriteIndex: 1 } }).end();
    state.forEach((b, i) => enc.copyBufferToBuffer(this.backup!, i * n, b, 0, n));
    if (useTs) {
      enc.resolveQuerySet(this.querySet!, 0, 2, this.resolveBuf!, 0);
      const [t] = await this.backend.ctx.submitAndRead(enc, [{ buffer: this.resolveBuf!, floats: 4 }]);
      const ns = new BigUint64Array(t.buffer, t.byteOffset, 2);
      return Number(ns[1] - ns[0]) / 1e6;
    }
    const t0 = performance.now();
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    return performance.now() - t0;
  }

  /** CPU clock: median ms of a replay of nothing (submit, save/restore copies, wait). */
  private async emptySubmitMs(): Promise<number> {
    const xs: number[] = [];
    for (let i = 0; i < 5; i++) xs.push(await this.replay([], 1));
    xs.sort((a, b) => a - b);
    return xs[2];
  }

  destroy(): void {
    this.querySet?.destroy();
    this.backend.ctx.arena.destroy(this.resolveBuf);
    this.backend.ctx.arena.destroy(this.backup);
    this.querySet = null;
    this.resolveBuf = null;
    this.backup = null;
  }
}

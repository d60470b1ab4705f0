/**
 * The WebGPU engine off the page's thread: the engine, its device, its shader compiling,
 * self-check and autotune live in one dedicated worker (gpuApi.ts); the page holds this proxy,
 * a Backend like any other. Per step the worker does what the engine did on the page (2 submits,
 * 2 readbacks); what the worker answers crosses by transfer (what the page sends is copied: the
 * trainer keeps its batches), and the state mirror that rides in the update's
 * readback comes back with the update (lastGoodState, as RecoverableBackend reads it).
 *
 * Faults, as the lab sees a lost GPU device (`lost` resolves, RecoverableBackend rebuilds the
 * engine from the run's committed state): the device lost in the worker; the worker failing
 * (an error event); the worker going silent (the watchdog: a ping unanswered for
 * watchdogLimits.limitMs). A worker that does not start (a strict content-security policy, an old
 * browser) makes start() throw WorkerStartError, and the lab runs the engine on the page instead.
 */
import * as Comlink from 'comlink';
import type { AdamWSettings, Backend, LossSpec, OptimizerState, PerTokenOutputs, SampleRequest, SampleResult, TokenBatch, TrainStepResult } from '../model/backend.ts';
import { paramLayout, type ModelConfig, type ParamLayout } from '../model/config.ts';
import type { SelfCheckReport } from '../gpu/selfCheck.ts';
import type { AutotuneReport } from '../gpu/autotune.ts';
import type { Forms } from '../gpu/forms.ts';
import type { Profile } from '../gpu/profiler.ts';
import type { GpuEngineApi } from './gpuApi.ts';
import { pageWorker, type EngineLoss, type ShardWorker } from './cpuEngine.ts';
import { watchWorker, type Watchdog } from './watchdog.ts';

/** The worker did not start or answer (the caller runs the engine on the page). */
export class WorkerStartError extends Error {}

export class WorkerGpuBackend implements Backend {
  readonly name = 'webgpu' as const;
  readonly layout: ParamLayout;
  /** The state after the last finite update (or setWeights / setOptimizerState): the mirror that came with the update. */
  lastGoodState: { weights: Float32Array; optimizer: OptimizerState } | null;
  /** Pipelines each worker of this page had compiled when last asked, by engine (debug hooks: engineWork). */
  private static readonly compiled: number[] = [];
  private readonly serial = WorkerGpuBackend.compiled.push(0) - 1;
  private disposed = false;

  private constructor(
    readonly config: ModelConfig,
    /** "vendor architecture" of the worker's adapter. */
    readonly description: string,
    weights: Float32Array,
    private readonly remote: Comlink.Remote<GpuEngineApi>,
    private readonly worker: ShardWorker,
    /** Resolves when the device is lost or the worker stops (not when the engine is disposed), like a GPU device's `lost`. */
    readonly lost: Promise<EngineLoss>,
    private readonly fail: (w: EngineLoss) => void,
    private readonly dead: Promise<never>,
    private readonly dog: Watchdog,
  ) {
    this.layout = paramLayout(config);
    const n = this.layout.total;
    this.lastGoodState = { weights, optimizer: { step: 0, m: new Float32Array(n), v: new Float32Array(n) } };
  }

  /**
   * Start the engine in `worker` with these weights. Throws WorkerStartError when the worker does
   * not answer within `timeoutMs` or has no WebGPU; any other error is the engine's (no adapter, a shader).
   */
  static async start(config: ModelConfig, weights: Float32Array, worker: ShardWorker, onProgress?: (p: { done: number; total: number }) => void, timeoutMs = 20_000): Promise<WorkerGpuBackend> {
    let fail!: (w: EngineLoss) => void;
    const lost = new Promise<EngineLoss>((r) => { fail = r; });
    const dead = lost.then((w): never => { throw new Error(`the WebGPU engine's worker stopped (${w.message})`); });
    dead.catch(() => {}); // read by the calls that race it
    worker.onFailure((message) => fail({ reason: 'worker', message }));
    const remote = Comlink.wrap<GpuEngineApi>(worker.endpoint);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const dog = watchWorker(() => remote.ping(), (ms) => { worker.terminate(); fail({ reason: 'worker', message: `no answer for ${Math.round(ms / 1000)} s` }); });
    try {
      try {
        const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs); });
        await Promise.race([remote.ping(), dead, late]);
      } catch (e) {
        throw new WorkerStartError(`the WebGPU engine's worker did not start (${(e as Error).message})`);
      } finally {
        clearTimeout(timer);
      }
      const made = await Promise.race([remote.create(config, Float32Array.from(weights), onProgress && Comlink.proxy(onProgress)), dead]);
      if (!made.gpu) throw new WorkerStartError('this browser has no WebGPU in workers');
      void remote.lost().then((info) => fail(info), () => {});
      const be = new WorkerGpuBackend(config, made.description, Float32Array.from(weights), remote, worker, lost, fail, dead, dog);
      await be.countPipelines();
      return be;
    } catch (e) {
      dog.stop();
      worker.terminate();
      throw e;
    }
  }

  private call<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.dead]);
  }

  /** Ask the worker how many pipelines it compiled. */
  async countPipelines(): Promise<void> {
    if (!this.disposed) WorkerGpuBackend.compiled[this.serial] = await this.call(this.remote.pipelines());
  }
  /** Pipelines compiled in all of this page's WebGPU workers so far (as last counted). */
  static pipelinesCompiled(): number {
    return WorkerGpuBackend.compiled.reduce((a, b) => a + b, 0);
  }

  async getWeights(): Promise<Float32Array> {
    return this.call(this.remote.getWeights());
  }
  async setWeights(weights: Float32Array): Promise<void> {
    await this.call(this.remote.setWeights(weights));
    if (this.lastGoodState) this.lastGoodState = { ...this.lastGoodState, weights: Float32Array.from(weights) };
  }
  getOptimizerState(): Promise<OptimizerState> {
    return this.call(this.remote.getOptimizerState());
  }
  async setOptimizerState(state: OptimizerState): Promise<void> {
    await this.call(this.remote.setOptimizerState(state));
    if (this.lastGoodState) this.lastGoodState = { ...this.lastGoodState, optimizer: { step: state.step, m: Float32Array.from(state.m), v: Float32Array.from(state.v) } };
  }
  snapshotReference(): Promise<void> {
    return this.call(this.remote.snapshotReference());
  }
  logprobs(batch: TokenBatch, opts?: { temperature?: number; reference?: boolean }): Promise<PerTokenOutputs> {
    return this.call(this.remote.logprobs(batch, opts));
  }
  async trainStep(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings, o?: { epochs?: number }): Promise<TrainStepResult> {
    const { result, good } = await this.call(this.remote.trainStep(batch, loss, opt, o));
    if (good) this.lastGoodState = good;
    return result;
  }
  gradient(batch: TokenBatch, loss: LossSpec): Promise<{ loss: number; grads: Float32Array }> {
    return this.call(this.remote.gradient(batch, loss));
  }
  sample(req: SampleRequest): Promise<SampleResult> {
    return this.call(this.remote.sample(req));
  }

  /** The self-check and autotune (timed on `rows` rows: the run's prompts × G), in the worker (the kernel forms it chose stay set there). */
  async selfCheck(onProgress?: (tried: number, total: number) => void, rows?: number): Promise<SelfCheckReport> {
    const r = await this.call(this.remote.selfCheck(onProgress && Comlink.proxy(onProgress), rows));
    await this.countPipelines();
    return r;
  }
  /** The tune alone for a run of `rows` rows on this engine, checked this session (`known`): selfCheck.ts retune. */
  async retune(known: SelfCheckReport, rows: number): Promise<SelfCheckReport> {
    const r = await this.call(this.remote.retune(known, rows));
    await this.countPipelines();
    return r;
  }
  /** One idle-time slice of an unfinished tune at `rows` rows (autotune.ts tuneSlice): the record so far, null when none is cached. */
  tuneSlice(rows: number, budgetMs: number): Promise<AutotuneReport | null> {
    return this.call(this.remote.tuneSlice(rows, budgetMs));
  }
  setForms(f: Forms): Promise<void> {
    return this.call(this.remote.setForms(f));
  }

  /** One profiled run of `run` (the page's step, calling this engine): its dispatches kept in the worker, then replayed and timed there. */
  async profile(label: string, rows: number, run: () => Promise<void>): Promise<Profile> {
    await this.call(this.remote.profileBegin(rows));
    const t0 = performance.now();
    try {
      await run();
    } catch (e) {
      void this.remote.profileEnd(label, 0, true).catch(() => {});
      throw e;
    }
    const profile = await this.call(this.remote.profileEnd(label, performance.now() - t0, false));
    if (!profile) throw new Error('the profiler kept nothing');
    return profile;
  }

  /** The test hooks' side (src/lab/debugHooks.ts). */
  get hooks(): Comlink.Remote<GpuEngineApi> {
    return this.remote;
  }
  /** Stop the worker as a crash would: the calls in flight fail and the run recovers (a test hook). */
  crash(): void {
    this.worker.terminate();
    this.fail({ reason: 'worker', message: 'the worker was stopped' });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.dog.stop();
    this.worker.terminate(); // the device goes with it
    this.fail({ reason: 'disposed', message: 'the engine was closed' }); // calls still in flight end (RecoverableBackend ignores its own dispose)
  }
}

/** The page's WebGPU worker (bundled by Vite, precached by the service worker as any script). */
export const pageGpuWorker = (): ShardWorker => pageWorker(new Worker(new URL('./gpuEngine.worker.ts', import.meta.url), { type: 'module', name: 'webgpu-engine' }));

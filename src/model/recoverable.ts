/**
 * RecoverableBackend wraps either engine for long interactive runs. It is the one owner of the
 * run's good state, on the CPU:
 *
 *   latest     weights + AdamW state after the last finite update (on WebGPU they ride in the
 *              update's one readback; on the CPU reference they are plain copies)
 *   committed  the state after the last step the run accepted (commit()); rollback() puts it
 *              back after a rejected step, replaceEngine() rebuilds a lost GPU engine from it
 *   referenceWeights  the frozen π_ref, read once when it is taken
 */
import type { AdamWSettings, Backend, LossSpec, OptimizerState, PerTokenOutputs, SampleRequest, SampleResult, TokenBatch, TrainStepResult } from './backend.ts';
import type { ModelConfig, ParamLayout } from './config.ts';

/** What the WebGPU engine adds for recovery (src/gpu/backend.ts): the device-lost promise and the CPU mirror. */
interface MirroredEngine extends Backend {
  readonly lost?: Promise<GPUDeviceLostInfo>;
  readonly lastGoodState?: { weights: Float32Array; optimizer: OptimizerState } | null;
}

/** The state a run can be restored to: the policy and its AdamW state (π_ref is kept apart: it never changes). */
export interface GoodState {
  weights: Float32Array;
  optimizer: OptimizerState;
}

/** Thrown by RecoverableBackend calls that failed because the engine's device was lost. */
export class DeviceLostError extends Error {
  constructor(readonly info: { reason: string; message: string }) {
    super(`the GPU device was lost (${info.reason}${info.message ? `: ${info.message}` : ''})`);
    this.name = 'DeviceLostError';
  }
}

const isFiniteArray = (x: Float32Array) => {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return false;
  return true;
};

/**
 * A Backend whose engine can be replaced. The trainer holds this; calls go to `engine`.
 *
 * - lastGood: after every finite trainStep, the new weights and AdamW state. On WebGPU they
 *   come from the engine's mirror (the update's one readback); on the CPU reference
 *   getWeights/getOptimizerState are plain copies. setWeights/setOptimizerState update it too.
 * - committed: lastGood as it was at the last commit() (the trainer commits each accepted step).
 * - referenceWeights: π_ref's weights, read once at snapshotReference (outside the hot loop).
 * - onLost: called once when the engine's device is lost (not when we dispose it ourselves).
 * - replaceEngine: swap in a new engine built from the committed state and referenceWeights.
 */
export class RecoverableBackend implements Backend {
  lastGood: GoodState | null = null;
  private committedValue: GoodState | null = null;
  referenceWeights: Float32Array | null = null;
  onLost: ((info: { reason: string; message: string }) => void) | null = null;
  private engineValue!: MirroredEngine;
  private disposedEngines = new WeakSet<Backend>();
  /** Engines whose device was lost (not by our dispose), with the browser's reason. */
  private lostEngines = new WeakMap<Backend, { reason: string; message: string }>();

  private constructor() {}

  /** Wrap `engine`, reading its current weights and AdamW state once as the first good state. */
  static async wrap(engine: Backend): Promise<RecoverableBackend> {
    const r = new RecoverableBackend();
    r.attach(engine);
    const mirrored = (engine as MirroredEngine).lastGoodState;
    r.lastGood = mirrored ? mirrored : { weights: await engine.getWeights(), optimizer: await engine.getOptimizerState() };
    r.committedValue = r.lastGood;
    return r;
  }

  /** The state after the last accepted step: what a rollback and a device-loss recovery restore, and what a save writes. */
  get committed(): GoodState | null {
    return this.committedValue;
  }

  /** Accept the state after the last finite update. False (nothing committed) if its weights are not all finite. */
  commit(): boolean {
    if (!this.lastGood || !isFiniteArray(this.lastGood.weights)) return false;
    this.committedValue = this.lastGood;
    return true;
  }

  /** Put the committed state back into the engine: the rollback after a rejected step. */
  async rollback(): Promise<void> {
    await this.restore(this.committedValue);
  }

  get engine(): Backend {
    return this.engineValue;
  }
  get name(): 'cpu' | 'webgpu' {
    return this.engineValue.name;
  }
  get config(): ModelConfig {
    return this.engineValue.config;
  }
  get layout(): ParamLayout {
    return this.engineValue.layout;
  }

  private attach(engine: Backend): void {
    this.engineValue = engine as MirroredEngine;
    const lost = (engine as MirroredEngine).lost;
    if (lost) {
      void lost.then((info) => {
        if (this.disposedEngines.has(engine)) return; // our own dispose
        const why = { reason: info.reason ?? 'unknown', message: info.message ?? '' };
        this.lostEngines.set(engine, why);
        if (this.engineValue === engine) this.onLost?.(why);
      });
    }
  }

  /**
   * Run an engine call; if it fails because the device was lost, throw DeviceLostError. A call
   * may fail a moment before device.lost resolves, so a failure waits briefly for the verdict.
   */
  private async guard<T>(f: () => Promise<T>): Promise<T> {
    const engine = this.engineValue;
    try {
      return await f();
    } catch (e) {
      // the call may fail a moment before device.lost resolves (or after the engine was replaced)
      if (!this.lostEngines.has(engine) && engine.lost) await Promise.race([engine.lost, new Promise((r) => setTimeout(r, 250))]);
      const why = this.lostEngines.get(engine);
      if (why) throw new DeviceLostError(why);
      throw e;
    }
  }

  getWeights(): Promise<Float32Array> {
    return this.guard(() => this.engineValue.getWeights());
  }
  async setWeights(weights: Float32Array): Promise<void> {
    await this.guard(() => this.engineValue.setWeights(weights));
    if (this.lastGood) this.lastGood = { ...this.lastGood, weights: Float32Array.from(weights) };
  }
  getOptimizerState(): Promise<OptimizerState> {
    return this.guard(() => this.engineValue.getOptimizerState());
  }
  async setOptimizerState(state: OptimizerState): Promise<void> {
    await this.guard(() => this.engineValue.setOptimizerState(state));
    if (this.lastGood) this.lastGood = { ...this.lastGood, optimizer: { step: state.step, m: Float32Array.from(state.m), v: Float32Array.from(state.v) } };
  }
  async snapshotReference(): Promise<void> {
    await this.guard(() => this.engineValue.snapshotReference());
    // π_ref = the current policy: the mirror has it already when it is in sync; otherwise one read (not in the hot loop)
    this.referenceWeights = await this.guard(() => this.engineValue.getWeights());
  }
  logprobs(batch: TokenBatch, opts?: { temperature?: number; reference?: boolean }): Promise<PerTokenOutputs> {
    return this.guard(() => this.engineValue.logprobs(batch, opts));
  }
  async trainStep(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings, o?: { epochs?: number }): Promise<TrainStepResult> {
    const engine = this.engineValue;
    const r = await this.guard(() => engine.trainStep(batch, loss, opt, o));
    if (r.finite) {
      const mirrored = engine.lastGoodState;
      // the WebGPU mirror came with the step's readback; the CPU reference copies for free
      this.lastGood = mirrored ?? { weights: await engine.getWeights(), optimizer: await engine.getOptimizerState() };
    }
    return r;
  }
  gradient(batch: TokenBatch, loss: LossSpec): Promise<{ loss: number; grads: Float32Array }> {
    return this.guard(() => this.engineValue.gradient(batch, loss));
  }
  sample(req: SampleRequest): Promise<SampleResult> {
    return this.guard(() => this.engineValue.sample(req));
  }

  /** Put `state` (default: lastGood) back into the engine: the rollback after a rejected step. */
  async restore(state: GoodState | null = this.lastGood): Promise<void> {
    if (!state) throw new Error('restore: no good state recorded yet');
    await this.setWeights(state.weights);
    await this.setOptimizerState(state.optimizer);
  }

  /** True if the last good weights are all finite (a rollback target must be). */
  get lastGoodIsFinite(): boolean {
    return !!this.lastGood && isFiniteArray(this.lastGood.weights);
  }

  /**
   * Replace the engine (after a device loss): `create(weights)` builds a fresh one; π_ref, then
   * the committed weights and AdamW state are restored. Returns the AdamW step restored.
   */
  async replaceEngine(create: (weights: Float32Array) => Promise<Backend>): Promise<number> {
    const good = this.committedValue;
    if (!good) throw new Error('cannot recover: no good state was recorded');
    const old = this.engineValue;
    this.disposedEngines.add(old);
    try { old.dispose(); } catch { /* the device is gone already */ }
    const ref = this.referenceWeights;
    const fresh = await create(ref ?? good.weights);
    this.attach(fresh);
    if (ref) await fresh.snapshotReference(); // π_ref = the weights the run started from
    await fresh.setWeights(good.weights);
    await fresh.setOptimizerState(good.optimizer);
    this.lastGood = good;
    return good.optimizer.step;
  }

  dispose(): void {
    this.disposedEngines.add(this.engineValue);
    this.engineValue.dispose();
  }
}

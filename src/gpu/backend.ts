/**
 * WebGPUBackend: the Backend interface (src/model/backend.ts) on WGSL kernels.
 *
 * - trainStep: forward, per-token log-probs, loss gradient, backward, global-norm clip and
 *   AdamW recorded into ONE command encoder, ONE submit, and ONE readback of the step's small
 *   metrics buffer (loss, grad norm, finite flag, entropy sums, the objective's metrics: the
 *   slots of src/gpu/metricSlots.ts). The loss's passes: src/gpu/lossPasses.ts.
 * - sample: batched decoding with a KV cache, every position in one submit, one readback at the
 *   end (src/gpu/sampler.ts).
 * - The state kept here: the weights and AdamW's moments (GPU buffers of GpuModel), AdamW's step
 *   count, the frozen π_ref, and the CPU mirror of the last good state.
 * - Same init as the reference (src/model/init.ts), so the same seed gives the same weights.
 */
import type {
  AdamWSettings,
  Backend,
  LossSpec,
  OptimizerState,
  PerTokenOutputs,
  SampleRequest,
  SampleResult,
  TokenBatch,
  TrainStepResult,
} from '../model/backend.ts';
import type { ModelConfig, ParamLayout } from '../model/config.ts';
import { paramLayout } from '../model/config.ts';
import { validateBatch } from '../model/batch.ts';
import { initWeights } from '../model/init.ts';
import type { ContextOptions } from './context.ts';
import { GpuContext } from './context.ts';
import type { CompileProgress } from './kernels.ts';
import { epochResult, LossPasses } from './lossPasses.ts';
import { M, METRIC_FLOATS } from './metricSlots.ts';
import { GpuModel } from './model.ts';
import { Ops } from './ops.ts';
import { Sampler } from './sampler.ts';

export interface WebGPUBackendOptions {
  /** Init seed (same weights as ReferenceBackend.create(config, seed)). */
  seed: number;
  /** Use this device instead of acquiring one. */
  device?: GPUDevice;
  /** 'default' (the default): WebGPU's default limits; 'adapter': the adapter's buffer sizes. */
  limits?: 'default' | 'adapter';
  /** Kernel compilation progress. */
  onProgress?: (p: CompileProgress) => void;
  /** Ask for 'timestamp-query' where the adapter has it (the profiler's GPU clock). */
  timestamps?: boolean;
  /** Override the per-adapter kernel forms (tests run the GPU forms on SwiftShader too). */
  matmulForm?: 'tiled' | 'direct';
  reductionForm?: 'row' | 'workgroup' | 'subgroup';
  attentionForm?: 'tiled' | 'row';
  decodeForm?: 'fused' | 'ops';
  /** Start from these weights [layout.total] instead of the seeded init. */
  weights?: Float32Array;
  /**
   * Keep a CPU copy of the last good state (weights, AdamW m and v, step) for device-loss
   * recovery and NaN rollback: trainStep's one readback then also carries params, m and v
   * (more bytes, not more readbacks). Off by default; the lab turns it on.
   */
  mirrorState?: boolean;
}

export async function createWebGPUBackend(config: ModelConfig, opts: WebGPUBackendOptions): Promise<WebGPUBackend> {
  const ctxOpts: ContextOptions = { device: opts.device, limits: opts.limits ?? 'default', onProgress: opts.onProgress, timestamps: opts.timestamps, matmulForm: opts.matmulForm, reductionForm: opts.reductionForm, attentionForm: opts.attentionForm, decodeForm: opts.decodeForm };
  const ctx = await GpuContext.create(ctxOpts);
  const layout = paramLayout(config);
  const weights = opts.weights ?? initWeights(layout, opts.seed);
  if (weights.length !== layout.total) throw new Error(`createWebGPUBackend: weights have ${weights.length} floats, the layout needs ${layout.total}`);
  const backend = new WebGPUBackend(ctx, config, weights);
  if (opts.mirrorState) backend.startMirror(weights);
  return backend;
}

export class WebGPUBackend implements Backend {
  readonly name = 'webgpu' as const;
  readonly layout: ParamLayout;
  readonly model: GpuModel;
  /** AdamW step count t. */
  private step = 0;
  /** Frozen π_ref weights (snapshotReference). */
  private refParams: GPUBuffer | null = null;
  /** The loss's passes and their scratch buffers (src/gpu/lossPasses.ts). */
  private readonly passes: LossPasses;
  /** sample(): the batched KV-cache decoding (src/gpu/sampler.ts). */
  private readonly sampler: Sampler;
  /** Uniforms rewritten every call (AdamW's: one per inner epoch, grown on demand). */
  private readonly adamUniforms: GPUBuffer[] = [];
  private readonly normUniform: GPUBuffer;
  private disposed = false;
  /**
   * CPU copy of the state after the last finite trainStep (or the last setWeights /
   * setOptimizerState), kept when mirrorState is on; null otherwise. Filled from trainStep's
   * existing readback, never by a readback of its own.
   */
  lastGoodState: { weights: Float32Array; optimizer: OptimizerState } | null = null;

  /** Resolves when the device is lost (driver reset, GPU sleep, device.destroy(), dispose()). */
  get lost(): Promise<GPUDeviceLostInfo> {
    return this.ctx.device.lost;
  }

  /** Turn the CPU mirror on, starting from `weights` with AdamW's initial state (m = v = 0, t = 0). */
  startMirror(weights: Float32Array): void {
    const n = this.layout.total;
    this.lastGoodState = { weights: Float32Array.from(weights), optimizer: { step: this.step, m: new Float32Array(n), v: new Float32Array(n) } };
  }

  constructor(readonly ctx: GpuContext, readonly config: ModelConfig, weights: Float32Array) {
    this.layout = paramLayout(config);
    this.model = new GpuModel(ctx, config, weights);
    this.normUniform = ctx.ops.dynamicUniform('gradnorm', 4);
    this.sampler = new Sampler(ctx, config, this.model);
    this.passes = new LossPasses(ctx, config, this.model);
  }

  /** Live GPU buffers owned by this backend (a leak test watches it). */
  get liveBuffers(): number {
    return this.ctx.arena.live;
  }

  async getWeights(): Promise<Float32Array> {
    const [w] = await this.ctx.submitAndRead(this.ctx.device.createCommandEncoder(), [{ buffer: this.model.params, floats: this.layout.total }]);
    return Float32Array.from(w);
  }

  async setWeights(weights: Float32Array): Promise<void> {
    this.checkLength('setWeights', weights.length);
    this.ctx.device.queue.writeBuffer(this.model.params, 0, weights);
    if (this.lastGoodState) this.lastGoodState = { ...this.lastGoodState, weights: Float32Array.from(weights) };
  }

  async getOptimizerState(): Promise<OptimizerState> {
    const n = this.layout.total;
    const [m, v] = await this.ctx.submitAndRead(this.ctx.device.createCommandEncoder(), [{ buffer: this.model.m, floats: n }, { buffer: this.model.v, floats: n }]);
    return { step: this.step, m: Float32Array.from(m), v: Float32Array.from(v) };
  }

  async setOptimizerState(state: OptimizerState): Promise<void> {
    this.checkLength('setOptimizerState (m)', state.m.length);
    this.checkLength('setOptimizerState (v)', state.v.length);
    if (!Number.isInteger(state.step) || state.step < 0) throw new Error(`setOptimizerState: step must be a non-negative integer, got ${state.step}`);
    this.ctx.device.queue.writeBuffer(this.model.m, 0, state.m);
    this.ctx.device.queue.writeBuffer(this.model.v, 0, state.v);
    this.step = state.step;
    if (this.lastGoodState) this.lastGoodState = { ...this.lastGoodState, optimizer: { step: state.step, m: Float32Array.from(state.m), v: Float32Array.from(state.v) } };
  }

  async snapshotReference(): Promise<void> {
    const n = this.layout.total;
    if (!this.refParams) this.refParams = this.ctx.arena.storage('refParams', n);
    const enc = this.ctx.device.createCommandEncoder();
    enc.copyBufferToBuffer(this.model.params, 0, this.refParams, 0, n * 4);
    this.ctx.device.queue.submit([enc.finish()]);
  }

  async logprobs(batch: TokenBatch, opts: { temperature?: number; reference?: boolean } = {}): Promise<PerTokenOutputs> {
    const tau = opts.temperature ?? 1;
    if (!(tau > 0)) throw new Error(`logprobs: temperature must be > 0, got ${tau}`);
    const P = opts.reference ? this.referenceParams() : this.model.params;
    const { B, T } = batch;
    validateBatch(batch, this.config, 'logprobs');
    this.ctx.ops.trimCaches();
    const a = this.passes.uploadBatch(batch);
    const N = B * T;
    const [lp, ent] = await this.ctx.run(
      (pass) => {
        this.model.recordForward(pass, P, B, T);
        this.model.recordLogsoftmax(pass, B, T, tau);
      },
      [{ buffer: a.logprobs, floats: N }, { buffer: a.entropy, floats: N }],
    );
    return { logprobs: Float32Array.from(lp), entropy: Float32Array.from(ent) };
  }

  /**
   * `epochs` AdamW steps on the same batch and loss (the trainer's µ inner epochs) in one
   * submit and one readback: π_ref's log-probs once, then per epoch forward, loss, backward,
   * clip and AdamW, each epoch's metrics copied aside for the single readback.
   */
  async trainStep(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings, o: { epochs?: number } = {}): Promise<TrainStepResult> {
    const epochs = o.epochs ?? 1;
    if (!Number.isInteger(epochs) || epochs < 1) throw new Error(`trainStep: epochs must be a whole number ≥ 1, got ${epochs}`);
    const t0 = this.step;
    const n = this.layout.total;
    const ops = this.ctx.ops;
    const enc = this.ctx.device.createCommandEncoder({ label: 'trainStep' });
    const prep = this.passes.prepare(enc, batch, loss, 'trainStep', () => this.referenceParams());
    // one AdamW uniform per epoch: each carries its own bias correction (t0 + e + 1)
    for (let e = 0; e < epochs; e++) ops.writeUniform(this.adamUniformOf(e), Ops.adamwUniform(n, t0 + e + 1, opt.lr, opt.beta1, opt.beta2, opt.eps, opt.weightDecay));
    ops.writeUniform(this.normUniform, ops.gradNormUniform(n, opt.gradClip));

    const m = this.model;
    const epochMetrics = epochs > 1 ? this.passes.scratch('epochMetrics', epochs * METRIC_FLOATS) : null;
    // the second epoch's per-row stats: each answer's Σ log ρ, how far the first epoch moved it
    const rowsOut = epochs > 1 && loss.kind === 'policy' && loss.oldLogprobs !== null ? this.passes.scratch('epoch2RowStats', Ops.POLICY_ROW_STATS * this.model.ensureActivations(batch.B, batch.T).capRows) : null;
    for (let e = 0; e < epochs; e++) {
      const pass = enc.beginComputePass({ label: `trainStep epoch ${e + 1}/${epochs}` });
      this.passes.record(pass, batch, loss, prep);
      ops.phase = 'optimizer';
      ops.optimizerStep(pass, m, n, this.normUniform, this.adamUniformOf(e));
      pass.end();
      if (epochMetrics) enc.copyBufferToBuffer(m.metrics, 0, epochMetrics, e * METRIC_FLOATS * 4, METRIC_FLOATS * 4);
      if (e === 1 && rowsOut) enc.copyBufferToBuffer(this.passes.policyRowStats(batch.B), 0, rowsOut, 0, batch.B * Ops.POLICY_ROW_STATS * 4);
    }
    const reads = [{ buffer: epochMetrics ?? m.metrics, floats: epochs * METRIC_FLOATS }];
    if (rowsOut) reads.push({ buffer: rowsOut, floats: batch.B * Ops.POLICY_ROW_STATS });
    // the mirror rides in the same staging buffer as the metrics: one readback either way
    if (this.lastGoodState) reads.push({ buffer: m.params, floats: n }, { buffer: m.m, floats: n }, { buffer: m.v, floats: n });
    const out = await this.ctx.submitAndRead(enc, reads);
    const met = out[0];
    const rows = rowsOut ? out[1] : null;
    const [mirrorW, mirrorM, mirrorV] = out.slice(rowsOut ? 2 : 1);

    // each epoch's result, up to the first that was not finite (AdamW skipped it; the caller rolls back)
    const results: TrainStepResult[] = [];
    for (let e = 0; e < epochs; e++) {
      const r = epochResult(met.subarray(e * METRIC_FLOATS, (e + 1) * METRIC_FLOATS), loss.kind === 'policy', prep.refLogprobs !== null);
      results.push(r);
      if (!r.finite) break;
    }
    const finite = results.length === epochs && results.every((r) => r.finite);
    if (finite) this.step = t0 + epochs;
    if (finite && this.lastGoodState) this.lastGoodState = { weights: mirrorW, optimizer: { step: this.step, m: mirrorM, v: mirrorV } };
    const answerLogRatio = rows ? Float32Array.from({ length: batch.B }, (_, b) => rows[b * Ops.POLICY_ROW_STATS + 9]) : undefined;
    return { ...results[results.length - 1], finite, ...(epochs > 1 ? { epochs: results } : {}), ...(answerLogRatio && results.length > 1 ? { answerLogRatio } : {}) };
  }

  /**
   * This batch's loss gradient at the current weights: forward, loss, backward (unclipped), in
   * one submit with one readback of every gradient; weights, AdamW state and π_ref unchanged.
   * For the step-through (this batch's gradient alone), not the training loop.
   */
  async gradient(batch: TokenBatch, loss: LossSpec): Promise<{ loss: number; grads: Float32Array }> {
    const enc = this.ctx.device.createCommandEncoder({ label: 'gradient' });
    const prep = this.passes.prepare(enc, batch, loss, 'gradient', () => this.referenceParams());
    const pass = enc.beginComputePass({ label: 'gradient' });
    this.passes.record(pass, batch, loss, prep);
    pass.end();
    const m = this.model;
    const [met, grads] = await this.ctx.submitAndRead(enc, [{ buffer: m.metrics, floats: METRIC_FLOATS }, { buffer: m.grads, floats: this.layout.total }]);
    return { loss: met[M.LOSS], grads: Float32Array.from(grads) };
  }

  /** AdamW's uniform for epoch e of a step (one per epoch: one submit carries them all). */
  private adamUniformOf(e: number): GPUBuffer {
    while (this.adamUniforms.length <= e) this.adamUniforms.push(this.ctx.ops.dynamicUniform(`adamw.${this.adamUniforms.length}`, 8));
    return this.adamUniforms[e];
  }

  sample(req: SampleRequest): Promise<SampleResult> {
    return this.sampler.sample(req);
  }

  /**
   * Size the activations and the decode buffers for up to `rows` rows of the full context now,
   * so the next rollout and update allocate nothing (buffers only grow; a profiled step must not
   * release buffers its own earlier dispatches used).
   */
  reserve(rows: number): void {
    this.model.ensureActivations(rows, this.config.seqLen);
    this.sampler.reserve(rows);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.ctx.destroy();
  }

  private referenceParams(): GPUBuffer {
    if (!this.refParams) throw new Error('no reference policy: call snapshotReference() before asking for π_ref');
    return this.refParams;
  }

  private checkLength(what: string, n: number): void {
    if (n !== this.layout.total) throw new Error(`${what}: ${n} floats, the layout of this config needs ${this.layout.total}`);
  }
}

/**
 * WebGPUBackend: the Backend interface (src/model/backend.ts) on WGSL kernels.
 *
 * - trainStep: forward, per-token log-probs, loss gradient, backward, global-norm clip and
 *   AdamW recorded into ONE command encoder, ONE submit, and ONE readback of the step's small
 *   metrics buffer (loss, grad norm, finite flag, entropy sums, the objective's metrics: the
 *   slots of src/gpu/metricSlots.ts). The loss gradient per token: uploaded for 'ce' (the
 *   gradient of src/model/crossEntropy.ts) and 'pertoken'; computed on the GPU for 'policy'
 *   (Ops.policyLoss, shaders/policy_loss.wgsl).
 * - sample: batched decoding of P·G rows with a KV cache (src/gpu/decoder.ts); every position of
 *   every row is decoded in the same submit (one compute pass per position, the position copied
 *   into a uniform between passes; a pass is one fused decode_block dispatch per layer and
 *   sample_next), tokens chosen on the GPU, one readback of tokens, log-probs and
 *   lengths at the end. Rows advance in lockstep from position 0: while a row is still inside
 *   its prompt the next token is the prompt's, so prompts of different lengths need no
 *   padding or masks, and the draw for response token i of row s is uniform4(seed, stream, s, i)
 *   exactly as in the reference.
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
import { validateBatch, validateLoss } from '../model/batch.ts';
import { crossEntropyGradLogprob } from '../model/crossEntropy.ts';
import { initWeights } from '../model/init.ts';
import { EOS } from '../tasks/tokenizer.ts';
import type { ContextOptions } from './context.ts';
import { GpuContext } from './context.ts';
import type { CompileProgress } from './kernels.ts';
import { M, METRIC_FLOATS, METRIC_SLOTS, POLICY_METRIC_SLOTS } from './metricSlots.ts';
import { Decoder } from './decoder.ts';
import { GpuModel } from './model.ts';
import { Ops } from './ops.ts';
import { policyInputs } from './policyLoss.ts';

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
  /**
   * Per-step scratch buffers by name (grown, never shrunk): π_ref's log-probs and logits, the
   * exact-KL rows, the policy loss's inputs (policyIn) and per-row partial sums.
   */
  private scratchBuffers = new Map<string, GPUBuffer>();
  /** The batched KV-cache decoder of sample() (src/gpu/decoder.ts). */
  private readonly decoder: Decoder;
  /** Uniforms rewritten every call (AdamW's: one per inner epoch, grown on demand). */
  private readonly adamUniforms: GPUBuffer[] = [];
  private readonly normUniform: GPUBuffer;
  private readonly sampleUniform: GPUBuffer;
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
    const o = ctx.ops;
    this.normUniform = o.dynamicUniform('gradnorm', 4);
    this.sampleUniform = o.dynamicUniform('sample', 8);
    this.decoder = new Decoder(ctx, config, this.model);
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
    const a = this.uploadBatch(batch);
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
    const prep = this.prepareLoss(enc, batch, loss, 'trainStep');
    // one AdamW uniform per epoch: each carries its own bias correction (t0 + e + 1)
    for (let e = 0; e < epochs; e++) ops.writeUniform(this.adamUniformOf(e), Ops.adamwUniform(n, t0 + e + 1, opt.lr, opt.beta1, opt.beta2, opt.eps, opt.weightDecay));
    ops.writeUniform(this.normUniform, ops.gradNormUniform(n, opt.gradClip));

    const m = this.model;
    const epochMetrics = epochs > 1 ? this.scratch('epochMetrics', epochs * METRIC_FLOATS) : null;
    // the second epoch's per-row stats: each answer's Σ log ρ, how far the first epoch moved it
    const rowsOut = epochs > 1 && loss.kind === 'policy' && loss.oldLogprobs !== null ? this.scratch('epoch2RowStats', Ops.POLICY_ROW_STATS * this.model.ensureActivations(batch.B, batch.T).capRows) : null;
    for (let e = 0; e < epochs; e++) {
      const pass = enc.beginComputePass({ label: `trainStep epoch ${e + 1}/${epochs}` });
      this.recordLossAndBackward(pass, batch, loss, prep);
      ops.phase = 'optimizer';
      ops.optimizerStep(pass, m, n, this.normUniform, this.adamUniformOf(e));
      pass.end();
      if (epochMetrics) enc.copyBufferToBuffer(m.metrics, 0, epochMetrics, e * METRIC_FLOATS * 4, METRIC_FLOATS * 4);
      if (e === 1 && rowsOut) enc.copyBufferToBuffer(this.policyRowStats(batch.B), 0, rowsOut, 0, batch.B * Ops.POLICY_ROW_STATS * 4);
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
      const r = this.epochResult(met.subarray(e * METRIC_FLOATS, (e + 1) * METRIC_FLOATS), loss.kind === 'policy', prep.refLogprobs !== null);
      results.push(r);
      if (!r.finite) break;
    }
    const finite = results.length === epochs && results.every((r) => r.finite);
    if (finite) this.step = t0 + epochs;
    if (finite && this.lastGoodState) this.lastGoodState = { weights: mirrorW, optimizer: { step: this.step, m: mirrorM, v: mirrorV } };
    const answerLogRatio = rows ? Float32Array.from({ length: batch.B }, (_, b) => rows[b * Ops.POLICY_ROW_STATS + 9]) : undefined;
    return { ...results[results.length - 1], finite, ...(epochs > 1 ? { epochs: results } : {}), ...(answerLogRatio && results.length > 1 ? { answerLogRatio } : {}) };
  }

  /** The policy loss's per-row stats scratch (Ops.POLICY_ROW_STATS floats a row). */
  private policyRowStats(B: number): GPUBuffer {
    return this.scratch('policyRowStats', Ops.POLICY_ROW_STATS * this.model.ensureActivations(B, 1).capRows);
  }

  /**
   * This batch's loss gradient at the current weights: forward, loss, backward (unclipped), in
   * one submit with one readback of every gradient; weights, AdamW state and π_ref unchanged.
   * For the step-through (this batch's gradient alone), not the training loop.
   */
  async gradient(batch: TokenBatch, loss: LossSpec): Promise<{ loss: number; grads: Float32Array }> {
    const enc = this.ctx.device.createCommandEncoder({ label: 'gradient' });
    const prep = this.prepareLoss(enc, batch, loss, 'gradient');
    const pass = enc.beginComputePass({ label: 'gradient' });
    this.recordLossAndBackward(pass, batch, loss, prep);
    pass.end();
    const m = this.model;
    const [met, grads] = await this.ctx.submitAndRead(enc, [{ buffer: m.metrics, floats: METRIC_FLOATS }, { buffer: m.grads, floats: this.layout.total }]);
    return { loss: met[M.LOSS], grads: Float32Array.from(grads) };
  }

  /**
   * Before a loss's first epoch: the batch and the per-token loss inputs uploaded, and π_ref's
   * log-probs (and logits, for the exact KL) recorded first when the objective needs them, so the
   * activations end on π_θ for the backward.
   */
  private prepareLoss(enc: GPUCommandEncoder, batch: TokenBatch, loss: LossSpec, what: string): { refLogprobs: GPUBuffer | null; policyIn: GPUBuffer | null } {
    const { B, T, mask } = batch;
    const N = B * T;
    const V = this.config.vocabSize;
    const tau = loss.kind === 'policy' ? loss.temperature : 1;
    if (!(tau > 0)) throw new Error(`${what}: temperature must be > 0, got ${tau}`);
    validateBatch(batch, this.config, what);
    validateLoss(batch, loss, what);
    this.ctx.ops.trimCaches();
    const a = this.uploadBatch(batch);
    const q = this.ctx.device.queue;
    // per-token loss gradients: for 'ce' and 'pertoken' they are known before the forward;
    // the policy objective computes them on the GPU from one upload of its per-step inputs
    const policyIn = loss.kind === 'policy' ? this.scratch('policyIn', 3 * a.capRows) : null; // ≥ B*T + 2B
    if (loss.kind === 'ce') {
      q.writeBuffer(a.gradLogprob, 0, Float32Array.from(crossEntropyGradLogprob(mask)));
      q.writeBuffer(a.gradEntropy, 0, new Float32Array(N));
    } else if (loss.kind === 'pertoken') {
      q.writeBuffer(a.gradLogprob, 0, Float32Array.from(loss.gradLogprob));
      q.writeBuffer(a.gradEntropy, 0, loss.gradEntropy ? Float32Array.from(loss.gradEntropy) : new Float32Array(N));
    } else {
      q.writeBuffer(policyIn!, 0, policyInputs(batch, loss));
    }
    const m = this.model;
    let refLogprobs: GPUBuffer | null = null;
    if (loss.kind === 'policy' && (loss.beta !== 0 || loss.measureKl)) {
      const pass = enc.beginComputePass({ label: 'reference forward' });
      m.recordForward(pass, this.referenceParams(), B, T);
      m.recordLogsoftmax(pass, B, T, tau);
      pass.end();
      refLogprobs = this.scratch('refLogprobs', a.capRows);
      enc.copyBufferToBuffer(a.logprobs, 0, refLogprobs, 0, N * 4);
      // and its logits, for the exact KL over the vocabulary (a metric: shaders/kl.wgsl)
      enc.copyBufferToBuffer(a.logits, 0, this.scratch('refLogits', a.capRows * V), 0, N * V * 4);
    }
    return { refLogprobs, policyIn };
  }

  /** One epoch's forward, loss (its gradients and metrics) and backward; the gradients end in model.grads. */
  private recordLossAndBackward(pass: GPUComputePassEncoder, batch: TokenBatch, loss: LossSpec, prep: { refLogprobs: GPUBuffer | null; policyIn: GPUBuffer | null }): void {
    const { B, T } = batch;
    const N = B * T;
    const V = this.config.vocabSize;
    const tau = loss.kind === 'policy' ? loss.temperature : 1;
    const m = this.model;
    const ops = this.ctx.ops;
    const a = m.ensureActivations(B, T);
    m.recordForward(pass, m.params, B, T);
    if (loss.kind === 'policy') {
      m.recordLogsoftmax(pass, B, T, tau);
      if (prep.refLogprobs) ops.klExact(pass, m.metrics, this.scratch('klRows', a.capRows), a.logits, this.scratch('refLogits', a.capRows * V), a.mask, tau, N, V);
      const rowStats = this.policyRowStats(B);
      ops.policyLoss(pass, m.metrics, a.gradLogprob, a.gradEntropy, rowStats, a.logprobs, a.entropy, a.mask, prep.refLogprobs, prep.policyIn!, loss, loss.oldLogprobs !== null, B, T);
    } else {
      // the per-token gradients are already uploaded: log-softmax and dlogits in one dispatch
      m.recordLogsoftmaxWithGrad(pass, B, T, tau);
      ops.lossReduce(pass, m.metrics, a.logprobs, a.entropy, a.mask, a.gradLogprob, a.gradEntropy, N);
    }
    m.recordBackward(pass, B, T, tau, { dlogitsReady: loss.kind !== 'policy' });
  }

  /** One epoch's metrics, as read back. */
  private epochResult(met: Float32Array, policy: boolean, kl: boolean): TrainStepResult {
    const metrics: Record<string, number> = {};
    if (policy) for (const s of POLICY_METRIC_SLOTS) metrics[s.metric!] = met[s.slot];
    if (kl) metrics[METRIC_SLOTS.KL_EXACT.metric] = met[M.KL_EXACT];
    if (!('entropy' in metrics)) metrics.entropy = met[M.MASK_SUM] > 0 ? met[M.ENTROPY_SUM] / met[M.MASK_SUM] : 0;
    return { loss: met[M.LOSS], gradNorm: met[M.GRAD_NORM], finite: met[M.FINITE] === 1, metrics };
  }

  /** AdamW's uniform for epoch e of a step (one per epoch: one submit carries them all). */
  private adamUniformOf(e: number): GPUBuffer {
    while (this.adamUniforms.length <= e) this.adamUniforms.push(this.ctx.ops.dynamicUniform(`adamw.${this.adamUniforms.length}`, 8));
    return this.adamUniforms[e];
  }

  async sample(req: SampleRequest): Promise<SampleResult> {
    const { prompts, numGenerations: G, temperature, maxNewTokens, seed, stream } = req;
    const { seqLen, vocabSize: V } = this.config;
    if (!(temperature >= 0)) throw new Error(`sample: temperature must be ≥ 0, got ${temperature}`);
    prompts.forEach((p, i) => {
      if (p.length < 1) throw new Error(`sample: prompt ${i} is empty (it must start with BOS)`);
      if (p.length > seqLen) throw new Error(`sample: prompt ${i} has ${p.length} tokens, longer than seqLen ${seqLen}`);
    });
    const R = prompts.length * G;
    if (R === 0) return { tokens: [], logprobs: [], finished: [] };
    const plen: number[] = [];
    const budget: number[] = [];
    let S = 1;
    for (let p = 0; p < prompts.length; p++) {
      for (let g = 0; g < G; g++) {
        plen.push(prompts[p].length);
        const b = Math.max(0, Math.min(maxNewTokens, seqLen - prompts[p].length));
        budget.push(b);
        S = Math.max(S, prompts[p].length + b);
      }
    }
    this.ctx.ops.trimCaches();
    const dec = this.decoder.ensure(R, S);
    const q = this.ctx.device.queue;
    // rows of the token table, the log-probs and the KV cache are `stride` positions apart;
    // positions S..stride-1 are never touched, so one allocation serves every rollout shape
    const stride = dec.capS;
    const table = new Int32Array(R * stride);
    const rowInfo = new Uint32Array(2 * R);
    for (let r = 0; r < R; r++) {
      table.set(prompts[Math.floor(r / G)], r * stride);
      rowInfo[2 * r] = plen[r];
      rowInfo[2 * r + 1] = budget[r];
    }
    q.writeBuffer(dec.tokens, 0, table);
    q.writeBuffer(dec.rows, 0, rowInfo);
    q.writeBuffer(dec.state, 0, new Uint32Array(R));
    const o = this.ctx.ops;
    o.phase = 'rollout';
    o.writeUniform(this.sampleUniform, Ops.sampleUniform(R, V, stride, seed >>> 0, stream >>> 0, temperature, EOS));

    const enc = this.ctx.device.createCommandEncoder({ label: 'sample' });
    this.decoder.record(enc, dec, R, S, this.sampleUniform);
    const [tok, lps, st] = await this.ctx.submitAndRead(enc, [
      { buffer: dec.tokens, floats: R * stride },
      { buffer: dec.logprobs, floats: R * stride },
      { buffer: dec.state, floats: R },
    ]);
    const tokI = new Int32Array(tok.buffer, tok.byteOffset, R * stride);
    const stU = new Uint32Array(st.buffer, st.byteOffset, R);
    const tokens: Int32Array[] = [];
    const logprobs: Float32Array[] = [];
    const finished: boolean[] = [];
    for (let r = 0; r < R; r++) {
      const len = stU[r] & 0x7fffffff;
      const start = r * stride + plen[r];
      tokens.push(tokI.slice(start, start + len));
      logprobs.push(lps.slice(start, start + len));
      finished.push((stU[r] & 0x80000000) !== 0);
    }
    return { tokens, logprobs, finished };
  }

  /**
   * Size the activations and the decode buffers for up to `rows` rows of the full context now,
   * so the next rollout and update allocate nothing (buffers only grow; a profiled step must not
   * release buffers its own earlier dispatches used).
   */
  reserve(rows: number): void {
    this.model.ensureActivations(rows, this.config.seqLen);
    this.decoder.ensure(rows, this.config.seqLen);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.ctx.destroy();
  }

  /** Write a batch's token ids, targets and mask into the activation buffers (validateBatch first). */
  private uploadBatch(batch: TokenBatch) {
    const { B, T, inputs, targets, mask } = batch;
    const a = this.model.ensureActivations(B, T);
    const q = this.ctx.device.queue;
    q.writeBuffer(a.inputs, 0, inputs);
    q.writeBuffer(a.targets, 0, targets);
    q.writeBuffer(a.mask, 0, Float32Array.from(mask));
    return a;
  }

  /** The scratch buffer `name` with room for at least `floats` floats. */
  private scratch(name: string, floats: number): GPUBuffer {
    let b = this.scratchBuffers.get(name);
    if (!b || b.size < floats * 4) {
      this.ctx.arena.destroy(b);
      b = this.ctx.arena.storage(name, floats);
      this.scratchBuffers.set(name, b);
    }
    return b;
  }

  private referenceParams(): GPUBuffer {
    if (!this.refParams) throw new Error('no reference policy: call snapshotReference() before asking for π_ref');
    return this.refParams;
  }

  private checkLength(what: string, n: number): void {
    if (n !== this.layout.total) throw new Error(`${what}: ${n} floats, the layout of this config needs ${this.layout.total}`);
  }
}

/**
 * ReferenceBackend: the Backend interface on the CPU reference model — the oracle the WebGPU
 * engine is checked against, and the fallback where there is no WebGPU.
 *
 * Everything is plain and synchronous behind the async interface: forward, per-token
 * log-probs at a temperature, loss gradient per token (mean CE, any given per-token gradient,
 * or the clipped policy objective of src/model/objective.ts), backward, global-norm clip,
 * AdamW with weight decay on matrices only (ops.decaysWeights). A step whose loss, gradients or
 * updated weights are not all finite is reported (finite = false) and NOT applied.
 *
 * Sampling decodes all rows in lockstep with a KV cache; sampleRecompute does the same with a
 * full forward per new token (slow, obviously right) and the two agree bit for bit.
 * The draw for response token i of sample p·G + g is uniform4(seed, stream, p·G + g, i).
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
} from '../backend.ts';
import type { ModelConfig, ParamLayout } from '../config.ts';
import { paramLayout } from '../config.ts';
import { initWeights } from '../init.ts';
import { policyObjective } from '../objective.ts';
import { uniform4 } from '../rng.ts';
import { EOS, PAD } from '../../tasks/tokenizer.ts';
import type { DType } from './model.ts';
import { validateBatch, validateLoss } from '../batch.ts';
import { crossEntropyGradLogprob, meanCrossEntropy } from '../crossEntropy.ts';
import { allocFloats, ReferenceModel } from './model.ts';
import type { Floats } from './ops.ts';
import { adamwUpdate, clipGradients, decaysWeights, exactKlRows, sampleToken } from './ops.ts';

/** Samples per forward in sampleRecompute(): bounds the activation memory of a large G. */
const SAMPLE_CHUNK = 512;

/** Which policy a forward pass evaluates: π_θ, π_ref, or both (π_ref first) with the exact KL per position. */
export type PassMode = 'policy' | 'reference' | 'both';

/** What a forward pass yields for the loss, [B*T] each (0 where mask is 0). */
export interface ForwardTerms {
  logprobs: Float32Array;
  entropy: Float32Array;
  /** π_ref's log-probs ('both' only). */
  refLogprobs: Float32Array | null;
  /** KL(π_θ ‖ π_ref) over the whole vocabulary at each position ('both' only). */
  klRows: Float64Array | null;
}

export class ReferenceBackend implements Backend {
  readonly name = 'cpu' as const;
  readonly config: ModelConfig;
  readonly layout: ParamLayout;
  /** The policy π_θ with its gradients and activation caches. */
  readonly model: ReferenceModel;
  /** AdamW first and second moments [layout.total] and the step count t. */
  private m: Floats;
  private v: Floats;
  private step = 0;
  /** Frozen weights of π_ref (snapshotReference), or null before the first snapshot. */
  private refWeights: Floats | null = null;
  /** Scratch copies for an update that is applied only if it stays finite. */
  private scratchParams: Floats;
  private scratchM: Floats;
  private scratchV: Floats;

  /** A backend on given weights [layout.total]; dtype 'f64' is for tests against float64 oracles. */
  constructor(config: ModelConfig, weights: Float32Array | Float64Array, opts: { dtype?: DType } = {}) {
    const dtype = opts.dtype ?? 'f32';
    this.config = config;
    this.layout = paramLayout(config);
    this.model = new ReferenceModel(config, dtype, weights);
    const n = this.layout.total;
    this.m = allocFloats(dtype, n);
    this.v = allocFloats(dtype, n);
    this.scratchParams = allocFloats(dtype, n);
    this.scratchM = allocFloats(dtype, n);
    this.scratchV = allocFloats(dtype, n);
  }

  /** A backend with freshly initialised weights (src/model/init.ts) for this seed. */
  static create(config: ModelConfig, seed: number, opts: { dtype?: DType } = {}): ReferenceBackend {
    return new ReferenceBackend(config, initWeights(paramLayout(config), seed), opts);
  }

  async getWeights(): Promise<Float32Array> {
    return Float32Array.from(this.model.params);
  }

  async setWeights(weights: Float32Array): Promise<void> {
    this.checkLength('setWeights', weights.length);
    this.model.params.set(weights);
  }

  async getOptimizerState(): Promise<OptimizerState> {
    return { step: this.step, m: Float32Array.from(this.m), v: Float32Array.from(this.v) };
  }

  async setOptimizerState(state: OptimizerState): Promise<void> {
    this.checkLength('setOptimizerState (m)', state.m.length);
    this.checkLength('setOptimizerState (v)', state.v.length);
    if (!Number.isInteger(state.step) || state.step < 0) throw new Error(`setOptimizerState: step must be a non-negative integer, got ${state.step}`);
    this.m.set(state.m);
    this.v.set(state.v);
    this.step = state.step;
  }

  async snapshotReference(): Promise<void> {
    this.refWeights = allocFloats(this.model.dtype, this.layout.total);
    this.refWeights.set(this.model.params);
  }

  async logprobs(batch: TokenBatch, opts: { temperature?: number; reference?: boolean } = {}): Promise<PerTokenOutputs> {
    validateBatch(batch, this.config, 'logprobs');
    const { logprobs, entropy } = await this.forwardPass(batch, opts.temperature ?? 1, opts.reference ? 'reference' : 'policy');
    return { logprobs, entropy };
  }

  /** `epochs` AdamW steps on the same batch and loss (the trainer's µ inner epochs), stopping after the first that is not finite. */
  async trainStep(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings, o: { epochs?: number } = {}): Promise<TrainStepResult> {
    const epochs = o.epochs ?? 1;
    if (!Number.isInteger(epochs) || epochs < 1) throw new Error(`trainStep: epochs must be a whole number ≥ 1, got ${epochs}`);
    validateBatch(batch, this.config, 'trainStep');
    validateLoss(batch, loss, 'trainStep');
    const results: TrainStepResult[] = [];
    for (let e = 0; e < epochs; e++) {
      results.push(await this.epoch(batch, loss, opt));
      if (!results[e].finite) break;
    }
    const finite = results.length === epochs && results.every((r) => r.finite);
    const answerLogRatio = results[1]?.answerLogRatio; // the second epoch's: how far the first moved each answer
    for (const r of results) delete r.answerLogRatio;
    return { ...results[results.length - 1], finite, ...(epochs > 1 ? { epochs: results } : {}), ...(answerLogRatio ? { answerLogRatio } : {}) };
  }

  /** This batch's loss gradient at the current weights: forward, loss, backward; nothing else changes. */
  async gradient(batch: TokenBatch, loss: LossSpec): Promise<{ loss: number; grads: Float32Array }> {
    validateBatch(batch, this.config, 'gradient');
    validateLoss(batch, loss, 'gradient');
    const { value } = await this.lossAndGradients(batch, loss);
    return { loss: value, grads: Float32Array.from(this.model.grads.subarray(0, this.layout.total)) };
  }

  /** Forward, the loss and its metrics, backward: the gradients are left in model.grads (unclipped). */
  private async lossAndGradients(batch: TokenBatch, loss: LossSpec): Promise<{ value: number; metrics: Record<string, number>; answerLogRatio?: Float32Array }> {
    const { B, T, mask } = batch;
    const N = B * T;
    const tau = loss.kind === 'policy' ? loss.temperature : 1;
    const withRef = loss.kind === 'policy' && (loss.beta !== 0 || loss.measureKl);
    const { logprobs, entropy, refLogprobs, klRows } = await this.forwardPass(batch, tau, withRef ? 'both' : 'policy');
    // the exact KL over the vocabulary, a metric beside the estimator (shaders/kl.wgsl's twin)
    let klExact: number | null = null;
    if (klRows) {
      let s = 0, n = 0;
      for (let i = 0; i < N; i++) { s += klRows[i]; n += mask[i]; }
      klExact = s / Math.max(n, 1);
    }
    let value: number;
    let gL: ArrayLike<number>;
    let gE: ArrayLike<number> | null = null;
    let metrics: Record<string, number> = {};
    if (loss.kind === 'ce') {
      value = meanCrossEntropy(logprobs, mask);
      gL = crossEntropyGradLogprob(mask);
    } else if (loss.kind === 'pertoken') {
      gL = loss.gradLogprob;
      gE = loss.gradEntropy ?? null;
      // the loss whose gradient this is: L = Σ gLogp·logp + Σ gEnt·H
      value = 0;
      for (let i = 0; i < N; i++) value += gL[i] * logprobs[i] + (gE ? gE[i] * entropy[i] : 0);
    } else {
      const r = policyObjective({ B, T, logprobs, entropy, mask, oldLogprobs: loss.oldLogprobs, refLogprobs, advantages: loss.advantages }, loss);
      value = r.loss;
      gL = r.gradLogprob;
      gE = r.gradEntropy;
      metrics = r.metrics;
    }
    if (!('entropy' in metrics)) {
      let s = 0;
      let n = 0;
      for (let i = 0; i < N; i++) {
        s += mask[i] * entropy[i];
        n += mask[i];
      }
      metrics.entropy = n > 0 ? s / n : 0;
    }
    if (klExact !== null) metrics.kl_exact = klExact;

    await this.backwardPass(gL, gE);
    // each row's Σ_t m·(log π_θ − log π_old), as policy_loss.wgsl keeps it (rowStats slot 9)
    let answerLogRatio: Float32Array | undefined;
    if (loss.kind === 'policy' && loss.oldLogprobs) {
      answerLogRatio = new Float32Array(B);
      for (let b = 0; b < B; b++) {
        let x = 0;
        for (let t = 0; t < T; t++) { const i = b * T + t; if (mask[i]) x += mask[i] * (logprobs[i] - loss.oldLogprobs[i]); }
        answerLogRatio[b] = x;
      }
    }
    return { value, metrics, answerLogRatio };
  }

  /**
   * The forward of a batch at temperature tau, what the loss needs of it: π_θ's per-token
   * log-probs and entropies ('policy'), π_ref's ('reference'), or both with the exact KL per
   * position ('both': π_ref first, so the activation caches end on π_θ for the backward).
   * Here on this thread; the data-parallel engine splits it over workers by rows (parallel.ts).
   */
  protected async forwardPass(batch: TokenBatch, tau: number, mode: PassMode): Promise<ForwardTerms> {
    return this.forwardRows(batch, tau, mode);
  }

  /** The backward of the last forwardPass from dL/dlogp and dL/dH per token: the loss gradient lands in model.grads (overwritten). */
  protected async backwardPass(gL: ArrayLike<number>, gE: ArrayLike<number> | null): Promise<void> {
    this.model.zeroGrad();
    this.model.backward(gL, gE);
  }

  /** forwardPass on this thread (a data-parallel worker runs it on its rows). The arrays are fresh copies. */
  forwardRows(batch: TokenBatch, tau: number, mode: PassMode): ForwardTerms {
    const N = batch.B * batch.T;
    if (mode === 'reference') {
      const r = this.perToken(batch, tau, this.referenceWeights());
      return { logprobs: Float32Array.from(r.logprobs), entropy: Float32Array.from(r.entropy), refLogprobs: null, klRows: null };
    }
    let refLogprobs: Float32Array | null = null;
    let refProbs: Float64Array | null = null;
    if (mode === 'both') {
      refLogprobs = Float32Array.from(this.perToken(batch, tau, this.referenceWeights()).logprobs);
      refProbs = Float64Array.from(this.model.probs.subarray(0, N * this.config.vocabSize));
    }
    const { logprobs, entropy } = this.perToken(batch, tau);
    const klRows = refProbs ? exactKlRows(this.model.probs, refProbs, batch.mask, N, this.config.vocabSize) : null;
    return { logprobs: Float32Array.from(logprobs), entropy: Float32Array.from(entropy), refLogprobs, klRows };
  }

  private async epoch(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings): Promise<TrainStepResult> {
    const { value, metrics, answerLogRatio } = await this.lossAndGradients(batch, loss);
    const model = this.model;
    const total = this.layout.total;
    const gradNorm = clipGradients(model.grads, total, opt.gradClip);
    let finite = Number.isFinite(value) && Number.isFinite(gradNorm);
    if (finite) {
      // update copies, keep them only if every number stayed finite
      const p = this.scratchParams;
      const m = this.scratchM;
      const v = this.scratchV;
      p.set(model.params);
      m.set(this.m);
      v.set(this.v);
      const t = this.step + 1;
      for (const spec of this.layout.tensors) {
        const a = spec.offset;
        const b = a + spec.size;
        const wd = decaysWeights(spec.shape) ? opt.weightDecay : 0;
        adamwUpdate(p.subarray(a, b), model.grads.subarray(a, b), m.subarray(a, b), v.subarray(a, b), t, opt.lr, opt.beta1, opt.beta2, opt.eps, wd, spec.size);
      }
      for (let i = 0; i < total && finite; i++) finite = Number.isFinite(p[i]) && Number.isFinite(m[i]) && Number.isFinite(v[i]);
      if (finite) {
        model.params.set(p);
        this.m.set(m);
        this.v.set(v);
        this.step = t;
      }
    }
    return { loss: value, gradNorm, finite, metrics, ...(answerLogRatio ? { answerLogRatio } : {}) };
  }

  /**
   * Batched sampling with a KV cache, all P·G rows in lockstep from position 0 (as the WebGPU
   * decoder does): while a row is inside its prompt the next input is the prompt's token, after
   * that its own last sample. Bit-identical to sampleRecompute (checked by a test).
   */
  async sample(req: SampleRequest): Promise<SampleResult> {
    return this.sampleSlice(req, 0, req.prompts.length * req.numGenerations);
  }

  /**
   * Rows [from, to) of sample(req) (row p·G + g). A row's draws depend on its index in the whole
   * request, not on its neighbours, so slices put together are sample(req) bit for bit: the
   * data-parallel engine decodes one slice per worker (parallel.ts).
   */
  sampleSlice(req: SampleRequest, from: number, to: number): SampleResult {
    const V = this.config.vocabSize;
    const all = this.sampleRows(req);
    const [rows, plen, budget] = [all.rows.slice(from, to), all.plen.slice(from, to), all.budget.slice(from, to)];
    const { temperature } = req;
    const R = rows.length;
    let S = 1;
    for (let r = 0; r < R; r++) S = Math.max(S, plen[r] + budget[r]);
    const tokens: number[][] = Array.from({ length: R }, () => []);
    const logps: number[][] = Array.from({ length: R }, () => []);
    const finished = new Array<boolean>(R).fill(false);
    const active = (r: number) => !finished[r] && tokens[r].length < budget[r];
    const feed = new Int32Array(R);
    this.model.beginDecode(R, S);
    // position pos predicts token pos+1: the last one needed is S − 2
    for (let pos = 0; pos + 1 < S; pos++) {
      let any = false;
      for (let r = 0; r < R; r++) {
        if (active(r)) any = true;
        feed[r] = pos < plen[r] ? rows[r][pos] : (tokens[r][pos - plen[r]] ?? PAD);
      }
      if (!any) break;
      const logits = this.model.decodeStep(feed, pos);
      for (let r = 0; r < R; r++) {
        if (pos < plen[r] - 1 || !active(r)) continue;
        const i = tokens[r].length; // = pos − plen[r] + 1
        const { token, logprob } = sampleToken(logits.subarray(r * V, (r + 1) * V), V, temperature, uniform4(req.seed, req.stream, from + r, i));
        tokens[r].push(token);
        logps[r].push(logprob);
        if (token === EOS) finished[r] = true;
      }
    }
    return { tokens: tokens.map((t) => Int32Array.from(t)), logprobs: logps.map((l) => Float32Array.from(l)), finished };
  }

  /**
   * The same sampling without a cache: the full forward over every live sequence for every new
   * token. Slow and obviously right; the oracle of sample().
   */
  async sampleRecompute(req: SampleRequest): Promise<SampleResult> {
    const { rows, budget } = this.sampleRows(req);
    const S = rows.length;
    const seqs = rows.map((r) => [...r]);
    const tokens: number[][] = Array.from({ length: S }, () => []);
    const logps: number[][] = Array.from({ length: S }, () => []);
    const finished = new Array<boolean>(S).fill(false);
    const active = (s: number) => !finished[s] && tokens[s].length < budget[s];
    for (;;) {
      const live: number[] = [];
      for (let s = 0; s < S; s++) if (active(s)) live.push(s);
      if (live.length === 0) break;
      for (let c = 0; c < live.length; c += SAMPLE_CHUNK) this.sampleStep(live.slice(c, c + SAMPLE_CHUNK), seqs, tokens, logps, finished, req);
    }
    return { tokens: tokens.map((t) => Int32Array.from(t)), logprobs: logps.map((l) => Float32Array.from(l)), finished };
  }

  /** Validated prompts per row (row p·G + g is prompt p), their lengths and response budgets (prompt + response ≤ seqLen). */
  private sampleRows(req: SampleRequest): { rows: number[][]; plen: number[]; budget: number[] } {
    const { prompts, numGenerations: G, temperature, maxNewTokens } = req;
    const { seqLen } = this.config;
    if (!(temperature >= 0)) throw new Error(`sample: temperature must be ≥ 0, got ${temperature}`);
    if (!Number.isInteger(G) || G < 1) throw new Error(`sample: numGenerations must be a positive integer, got ${G}`);
    prompts.forEach((p, i) => {
      if (p.length < 1) throw new Error(`sample: prompt ${i} is empty (it must start with BOS)`);
      if (p.length > seqLen) throw new Error(`sample: prompt ${i} has ${p.length} tokens, longer than seqLen ${seqLen}`);
    });
    const rows: number[][] = [];
    const plen: number[] = [];
    const budget: number[] = [];
    for (const p of prompts) {
      for (let g = 0; g < G; g++) {
        rows.push(p);
        plen.push(p.length);
        budget.push(Math.max(0, Math.min(maxNewTokens, seqLen - p.length)));
      }
    }
    return { rows, plen, budget };
  }

  /** One new token for each sample in `rows`: one forward over them, right-padded (causal: padding cannot affect earlier positions). */
  private sampleStep(rows: number[], seqs: number[][], tokens: number[][], logps: number[][], finished: boolean[], req: SampleRequest): void {
    const V = this.config.vocabSize;
    let T = 0;
    for (const s of rows) T = Math.max(T, seqs[s].length);
    const inputs = new Int32Array(rows.length * T).fill(PAD);
    rows.forEach((s, r) => inputs.set(seqs[s], r * T));
    const logits = this.model.forward(inputs, rows.length, T);
    rows.forEach((s, r) => {
      const pos = seqs[s].length - 1;
      const u = uniform4(req.seed, req.stream, s, tokens[s].length);
      const { token, logprob } = sampleToken(logits.subarray((r * T + pos) * V, (r * T + pos + 1) * V), V, req.temperature, u);
      seqs[s].push(token);
      tokens[s].push(token);
      logps[s].push(logprob);
      if (token === EOS) finished[s] = true;
    });
  }

  dispose(): void {
    this.refWeights = null;
  }

  /**
   * The exact KL(π_θ ‖ π_ref) at each position, summed over the whole vocabulary:
   *   KL_t = Σ_v π_θ(v | ·) (log π_θ(v | ·) − log π_ref(v | ·))        (0 where mask is 0)
   * What k1 and k3 estimate from one sampled token; the small vocabulary makes it cheap here.
   * (CPU reference only: lesson 7 and its test compare the estimators with it.)
   */
  exactKlToReference(batch: TokenBatch, temperature = 1): Float64Array {
    validateBatch(batch, this.config, 'exactKlToReference');
    const { B, T, mask } = batch;
    const V = this.config.vocabSize;
    this.perToken(batch, temperature, this.referenceWeights());
    const ref = Float64Array.from(this.model.probs.subarray(0, B * T * V));
    this.perToken(batch, temperature);
    return exactKlRows(this.model.probs, ref, mask, B * T, V);
  }

  /** Forward + log-softmax of a batch at tau, on the policy or on other weights (π_ref). */
  private perToken(batch: TokenBatch, tau: number, weights?: Floats) {
    const { B, T, inputs, targets, mask } = batch;
    this.model.forward(inputs, B, T, weights);
    return this.model.logsoftmax(targets, mask, tau);
  }

  private referenceWeights(): Floats {
    if (!this.refWeights) throw new Error('no reference policy: call snapshotReference() before asking for π_ref');
    return this.refWeights;
  }

  private checkLength(what: string, n: number): void {
    if (n !== this.layout.total) throw new Error(`${what}: ${n} floats, the layout of this config needs ${this.layout.total}`);
  }
}

/**
 * The canonical model on the GPU: parameter, gradient and AdamW-moment buffers laid out by the
 * shared offset table (src/model/config.ts), activation buffers for a (B, T) batch, and the
 * forward / backward / optimizer recorded as dispatches into ONE compute pass — the same
 * sequence of operations as the reference's ReferenceModel (src/model/reference/model.ts).
 *
 * Gradients are WRITTEN, not accumulated: each parameter tensor has exactly one producer per
 * step (wte_backward, matmul_tn for a linear layer's dW and, fused into the same dispatch, its
 * db, layernorm_backward_params), so the step needs no zeroing pass. The residual stream's
 * gradient lives in one buffer `dres` that the LayerNorm backwards accumulate into (llm.c's
 * dresidual).
 */
import type { ModelConfig, ParamLayout } from '../model/config.ts';
import { paramLayout } from '../model/config.ts';
import type { GpuContext } from './context.ts';
import { METRIC_FLOATS } from './metricSlots.ts';
import { Ops, type Binding } from './ops.ts';

/** Activations (and their gradients) of one block. */
export interface BlockActs {
  ln1: GPUBuffer; ln1Mean: GPUBuffer; ln1Rstd: GPUBuffer;
  qkv: GPUBuffer; att: GPUBuffer; atty: GPUBuffer; residual2: GPUBuffer;
  ln2: GPUBuffer; ln2Mean: GPUBuffer; ln2Rstd: GPUBuffer;
  fch: GPUBuffer; fchGelu: GPUBuffer; residual3: GPUBuffer;
}

/** Every activation buffer of a batch shape, with room for capRows = B*T rows and capAtt = B*H*T*T. */
export interface Activations {
  capRows: number;
  capAtt: number;
  /** Inputs of the step (written by queue.writeBuffer): token ids, targets, mask, per-token loss gradients. */
  inputs: GPUBuffer; targets: GPUBuffer; mask: GPUBuffer; gradLogprob: GPUBuffer; gradEntropy: GPUBuffer;
  encoded: GPUBuffer;
  blocks: BlockActs[];
  lnf: GPUBuffer; lnfMean: GPUBuffer; lnfRstd: GPUBuffer;
  logits: GPUBuffer; logprobs: GPUBuffer; entropy: GPUBuffer;
  // gradients of activations
  dlogits: GPUBuffer; dres: GPUBuffer; dln: GPUBuffer; datty: GPUBuffer; dqkv: GPUBuffer; dpreatt: GPUBuffer;
  dfch: GPUBuffer;
  all: GPUBuffer[];
}

export class GpuModel {
  readonly layout: ParamLayout;
  /** [layout.total] weights of π_θ. */
  readonly params: GPUBuffer;
  /** [layout.total] gradients of the last step (padding stays 0). */
  readonly grads: GPUBuffer;
  /** [layout.total] AdamW moments. */
  readonly m: GPUBuffer;
  readonly v: GPUBuffer;
  /** [layout.total] 1 where weight decay applies (2-D tensors), else 0. */
  readonly decay: GPUBuffer;
  /** [METRIC_FLOATS] per-step metrics, slots by src/gpu/metricSlots.ts: loss, grad norm, finite, clip scale, Σ mask·H, Σ mask, the policy metrics, the exact KL. */
  readonly metrics: GPUBuffer;
  /** Partial sums of the grad-norm reduction. */
  readonly normPartials: GPUBuffer;
  acts: Activations | null = null;

  constructor(readonly ctx: GpuContext, readonly config: ModelConfig, weights: Float32Array) {
    this.layout = paramLayout(config);
    const n = this.layout.total;
    const a = ctx.arena;
    this.params = ctx.upload('params', weights);
    this.grads = a.storage('grads', n);
    this.m = a.storage('adam.m', n);
    this.v = a.storage('adam.v', n);
    const decay = new Float32Array(n);
    for (const t of this.layout.tensors) if (t.shape.length >= 2) decay.fill(1, t.offset, t.offset + t.size);
    this.decay = ctx.upload('decay', decay);
    this.metrics = a.storage('metrics', METRIC_FLOATS);
    this.normPartials = a.storage('normPartials', Ops.NORM_PARTIAL_SLOTS);
  }

  /** A tensor of the offset table as a binding into a flat buffer (params, grads, π_ref, …). */
  t(flat: GPUBuffer, name: string): Binding {
    const s = this.layout.byName[name];
    return { buffer: flat, offset: s.offset, size: s.size };
  }

  /** Make sure activation buffers hold a (B, T) batch; reallocates only to grow. */
  ensureActivations(B: number, T: number): Activations {
    const { dModel: D, nHeads: H, vocabSize: V, nLayers: L } = this.config;
    const rows = B * T;
    const attN = B * H * T * T;
    if (this.acts && rows <= this.acts.capRows && attN <= this.acts.capAtt) return this.acts;
    const capRows = Math.max(rows, this.acts?.capRows ?? 0);
    const capAtt = Math.max(attN, this.acts?.capAtt ?? 0);
    this.releaseActivations();
    const all: GPUBuffer[] = [];
    const s = (label: string, floats: number) => {
      const b = this.ctx.arena.storage(label, floats);
      all.push(b);
      return b;
    };
    const blocks: BlockActs[] = [];
    for (let l = 0; l < L; l++) {
      blocks.push({
        ln1: s('ln1', capRows * D), ln1Mean: s('ln1Mean', capRows), ln1Rstd: s('ln1Rstd', capRows),
        qkv: s('qkv', capRows * 3 * D), att: s('att', capAtt), atty: s('atty', capRows * D), residual2: s('residual2', capRows * D),
        ln2: s('ln2', capRows * D), ln2Mean: s('ln2Mean', capRows), ln2Rstd: s('ln2Rstd', capRows),
        fch: s('fch', capRows * 4 * D), fchGelu: s('fchGelu', capRows * 4 * D), residual3: s('residual3', capRows * D),
      });
    }
    this.acts = {
      capRows, capAtt,
      inputs: s('inputs', capRows), targets: s('targets', capRows), mask: s('mask', capRows),
      gradLogprob: s('gradLogprob', capRows), gradEntropy: s('gradEntropy', capRows),
      encoded: s('encoded', capRows * D), blocks,
      lnf: s('lnf', capRows * D), lnfMean: s('lnfMean', capRows), lnfRstd: s('lnfRstd', capRows),
      logits: s('logits', capRows * V), logprobs: s('logprobs', capRows), entropy: s('entropy', capRows),
      dlogits: s('dlogits', capRows * V), dres: s('dres', capRows * D), dln: s('dln', capRows * D), datty: s('datty', capRows * D),
      dqkv: s('dqkv', capRows * 3 * D), dpreatt: s('dpreatt', capAtt), dfch: s('dfch', capRows * 4 * D),
      all,
    };
    return this.acts;
  }

  releaseActivations(): void {
    if (!this.acts) return;
    for (const b of this.acts.all) this.ctx.arena.destroy(b);
    this.acts = null;
    this.ctx.ops.clearBindGroups();
  }

  /** Forward of a (B, T) batch to the logits [B*T, V] (temperature 1), on weights `P` (π_θ or π_ref). */
  recordForward(pass: GPUComputePassEncoder, P: GPUBuffer, B: number, T: number): void {
    const { dModel: D, nHeads: H } = this.config;
    const o = this.ctx.ops;
    const a = this.acts!;
    const N = B * T;
    const p = (n: string) => this.t(P, n);
    o.phase = 'forward';
    o.embeddingForward(pass, a.encoded, a.inputs, p('wte'), p('wpe'), B, T, D);
    this.recordBlocks(pass, P, N, (x) => o.attentionForward(pass, x.atty, x.att, x.qkv, B, T, D, H));
  }

  /**
   * The L pre-LN blocks, the final LayerNorm and the LM head over the N rows of acts.encoded, on
   * weights `P`: shared by the batch forward and the KV-cache decode step, which differ only in
   * how attention is computed (`attention` writes block x's atty from its qkv).
   */
  recordBlocks(pass: GPUComputePassEncoder, P: GPUBuffer, N: number, attention: (x: BlockActs, layer: number) => void): void {
    const { dModel: D, vocabSize: V, nLayers: L } = this.config;
    const o = this.ctx.ops;
    const a = this.acts!;
    const p = (n: string) => this.t(P, n);
    let residual = a.encoded;
    for (let l = 0; l < L; l++) {
      const x = a.blocks[l];
      const h = `h${l}.`;
      o.layernormForward(pass, x.ln1, x.ln1Mean, x.ln1Rstd, residual, p(h + 'ln1.g'), p(h + 'ln1.b'), N, D);
      o.matmulForward(pass, x.qkv, x.ln1, p(h + 'qkv.w'), p(h + 'qkv.b'), N, D, 3 * D);
      attention(x, l);
      o.matmulForward(pass, x.residual2, x.atty, p(h + 'proj.w'), p(h + 'proj.b'), N, D, D, { res: residual });
      o.layernormForward(pass, x.ln2, x.ln2Mean, x.ln2Rstd, x.residual2, p(h + 'ln2.g'), p(h + 'ln2.b'), N, D);
      // fused bias + GELU: fch = ln2·W + b and fchGelu = gelu(fch) from one dispatch
      o.matmulForward(pass, x.fch, x.ln2, p(h + 'fc.w'), p(h + 'fc.b'), N, D, 4 * D, { geluOut: x.fchGelu });
      o.matmulForward(pass, x.residual3, x.fchGelu, p(h + 'fc2.w'), p(h + 'fc2.b'), N, 4 * D, D, { res: x.residual2 });
      residual = x.residual3;
    }
    o.layernormForward(pass, a.lnf, a.lnfMean, a.lnfRstd, residual, p('lnf.g'), p('lnf.b'), N, D);
    o.matmulForward(pass, a.logits, a.lnf, p('lm_head'), null, N, D, V);
  }

  /** Per-token log-probs and entropies at tau from the last forward (masked positions get 0). */
  recordLogsoftmax(pass: GPUComputePassEncoder, B: number, T: number, tau: number): void {
    const a = this.acts!;
    this.ctx.ops.phase = 'loss';
    this.ctx.ops.logsoftmaxForward(pass, a.logprobs, a.entropy, a.logits, a.targets, a.mask, tau, B * T, this.config.vocabSize);
  }

  /**
   * Per-token log-probs and entropies AND dlogits from acts.gradLogprob / gradEntropy in one
   * dispatch (the gradients must already be written: cross-entropy, 'pertoken'); the backward
   * then starts from dlogits (recordBackward with dlogitsReady).
   */
  recordLogsoftmaxWithGrad(pass: GPUComputePassEncoder, B: number, T: number, tau: number): void {
    const a = this.acts!;
    this.ctx.ops.phase = 'loss';
    this.ctx.ops.logsoftmaxFused(pass, a.logprobs, a.entropy, a.dlogits, a.logits, a.targets, a.mask, a.gradLogprob, a.gradEntropy, tau, B * T, this.config.vocabSize);
  }

  /**
   * Backward from the per-token gradients in acts.gradLogprob / acts.gradEntropy (whoever wrote
   * them: the CPU for 'ce'/'pertoken', Ops.policyLoss for the policy objective) to this.grads.
   */
  recordBackward(pass: GPUComputePassEncoder, B: number, T: number, tau: number, opts: { dlogitsReady?: boolean } = {}): void {
    const { dModel: D, nHeads: H, vocabSize: V, nLayers: L, seqLen } = this.config;
    const o = this.ctx.ops;
    const a = this.acts!;
    const N = B * T;
    const P = (n: string) => this.t(this.params, n);
    const G = (n: string) => this.t(this.grads, n);
    o.phase = 'backward';
    if (!opts.dlogitsReady) o.logitsBackward(pass, a.dlogits, a.logits, a.targets, a.gradLogprob, a.gradEntropy, tau, N, V);
    o.matmulBackward(pass, a.dln, G('lm_head'), null, a.dlogits, a.lnf, P('lm_head'), N, D, V);
    const last = L > 0 ? a.blocks[L - 1].residual3 : a.encoded;
    o.layernormBackward(pass, a.dres, G('lnf.g'), G('lnf.b'), a.dln, last, P('lnf.g'), a.lnfMean, a.lnfRstd, N, D, false);
    for (let l = L - 1; l >= 0; l--) {
      const x = a.blocks[l];
      const h = `h${l}.`;
      const residual = l === 0 ? a.encoded : a.blocks[l - 1].residual3;
      // residual3 = residual2 + fc2(gelu(fc(ln2(residual2)))): d(fcproj) = dres
      // dfch = (dres·fc2ᵀ) ⊙ gelu'(fch): the GELU backward fused into the NT matmul's epilogue
      o.matmulBackward(pass, a.dfch, G(h + 'fc2.w'), G(h + 'fc2.b'), a.dres, x.fchGelu, P(h + 'fc2.w'), N, 4 * D, D, false, x.fch);
      o.matmulBackward(pass, a.dln, G(h + 'fc.w'), G(h + 'fc.b'), a.dfch, x.ln2, P(h + 'fc.w'), N, D, 4 * D);
      o.layernormBackward(pass, a.dres, G(h + 'ln2.g'), G(h + 'ln2.b'), a.dln, x.residual2, P(h + 'ln2.g'), x.ln2Mean, x.ln2Rstd, N, D, true);
      // residual2 = residual + proj(attn(ln1(residual))): d(attproj) = dres (now d residual2)
      o.matmulBackward(pass, a.datty, G(h + 'proj.w'), G(h + 'proj.b'), a.dres, x.atty, P(h + 'proj.w'), N, D, D);
      o.attentionBackward(pass, a.dqkv, a.dpreatt, a.datty, x.qkv, x.att, B, T, D, H);
      o.matmulBackward(pass, a.dln, G(h + 'qkv.w'), G(h + 'qkv.b'), a.dqkv, x.ln1, P(h + 'qkv.w'), N, D, 3 * D);
      o.layernormBackward(pass, a.dres, G(h + 'ln1.g'), G(h + 'ln1.b'), a.dln, residual, P(h + 'ln1.g'), x.ln1Mean, x.ln1Rstd, N, D, true);
    }
    o.embeddingBackward(pass, G('wte'), G('wpe'), a.dres, a.inputs, B, T, D, V, seqLen);
  }

  destroy(): void {
    this.releaseActivations();
    for (const b of [this.params, this.grads, this.m, this.v, this.decay, this.metrics, this.normPartials]) this.ctx.arena.destroy(b);
  }
}

/**
 * The canonical model on the CPU: a char-level GPT in plain loops (llm.c's train_gpt2.c shape).
 *
 * Token + position embeddings; L pre-LayerNorm blocks
 *   x = x + proj(attn(ln1(x)))      fused qkv with bias, causal multi-head attention, proj with bias
 *   x = x + fc2(gelu(fc(ln2(x))))   MLP D → 4D → D with biases, tanh-GELU
 * final LayerNorm; lm_head [D,V] without bias. Parameters and their gradients are each ONE flat
 * array addressed by the offset table of src/model/config.ts (tensors are subarray views).
 * The forward caches every activation the backward needs; activation buffers are sized for
 * (B, T) and reallocated only when a batch needs more room.
 *
 * Loss interface: the forward ends in per-token log-probs of the targets and entropies at a
 * temperature tau (logsoftmax); the backward starts from any per-token gradient dL/dlogp and
 * optionally dL/dH, which covers mean cross-entropy and every policy objective alike.
 */
import type { ModelConfig, ParamLayout } from '../config.ts';
import { paramLayout } from '../config.ts';
import type { Floats } from './ops.ts';
import {
  attentionBackward,
  attentionDecodeForward,
  attentionForward,
  embeddingBackward,
  embeddingDecodeForward,
  embeddingForward,
  geluBackward,
  geluForward,
  layernormBackward,
  layernormForward,
  logitsBackward,
  logsoftmaxForward,
  matmulBackward,
  matmulForward,
  residualBackward,
  residualForward,
} from './ops.ts';

/** Precision of a reference model: f32 ships, f64 is for the gradient check. */
export type DType = 'f32' | 'f64';

export function allocFloats(dtype: DType, n: number): Floats {
  return dtype === 'f64' ? new Float64Array(n) : new Float32Array(n);
}

/** The parameter tensors of one block, as views into a flat buffer. */
export interface BlockParams {
  ln1g: Floats; ln1b: Floats;
  qkvw: Floats; qkvb: Floats;
  projw: Floats; projb: Floats;
  ln2g: Floats; ln2b: Floats;
  fcw: Floats; fcb: Floats;
  fc2w: Floats; fc2b: Floats;
}

/** All parameter tensors (or all gradient tensors) as views into one flat buffer. */
export interface ParamViews {
  wte: Floats;
  wpe: Floats;
  blocks: BlockParams[];
  lnfg: Floats;
  lnfb: Floats;
  lmHead: Floats;
}

/** Views of every tensor of the offset table into `flat` (no copy). */
export function paramViews(flat: Floats, layout: ParamLayout, nLayers: number): ParamViews {
  const v = (name: string): Floats => {
    const t = layout.byName[name];
    return flat.subarray(t.offset, t.offset + t.size);
  };
  const blocks: BlockParams[] = [];
  for (let l = 0; l < nLayers; l++) {
    const p = `h${l}.`;
    blocks.push({
      ln1g: v(p + 'ln1.g'), ln1b: v(p + 'ln1.b'),
      qkvw: v(p + 'qkv.w'), qkvb: v(p + 'qkv.b'),
      projw: v(p + 'proj.w'), projb: v(p + 'proj.b'),
      ln2g: v(p + 'ln2.g'), ln2b: v(p + 'ln2.b'),
      fcw: v(p + 'fc.w'), fcb: v(p + 'fc.b'),
      fc2w: v(p + 'fc2.w'), fc2b: v(p + 'fc2.b'),
    });
  }
  return { wte: v('wte'), wpe: v('wpe'), blocks, lnfg: v('lnf.g'), lnfb: v('lnf.b'), lmHead: v('lm_head') };
}

/** Cached activations of one block for one (B, T) batch; N = B*T. */
interface BlockActs {
  /** [N,D] ln1 output, with its mean and rstd [N]. */
  ln1: Floats; ln1Mean: Floats; ln1Rstd: Floats;
  /** [N,3D] fused q|k|v. */
  qkv: Floats;
  /** [N,D] attention output before proj. */
  atty: Floats;
  /** [B,H,T,T] scores and softmaxed weights. */
  preatt: Floats; att: Floats;
  /** [N,D] proj output. */
  attproj: Floats;
  /** [N,D] residual after attention. */
  residual2: Floats;
  /** [N,D] ln2 output, with mean and rstd [N]. */
  ln2: Floats; ln2Mean: Floats; ln2Rstd: Floats;
  /** [N,4D] fc output and its GELU. */
  fch: Floats; fchGelu: Floats;
  /** [N,D] fc2 output. */
  fcproj: Floats;
  /** [N,D] residual after the MLP: the block's output. */
  residual3: Floats;
}

/** Gradients of the activations of one block (same shapes as BlockActs). */
interface BlockGrads {
  ln1: Floats; qkv: Floats; atty: Floats; preatt: Floats; att: Floats; attproj: Floats; residual2: Floats;
  ln2: Floats; fch: Floats; fchGelu: Floats; fcproj: Floats; residual3: Floats;
}

export class ReferenceModel {
  readonly config: ModelConfig;
  readonly layout: ParamLayout;
  readonly dtype: DType;
  /** [layout.total] the weights. */
  readonly params: Floats;
  /** [layout.total] gradients, accumulated by backward(); zeroGrad() clears them. */
  readonly grads: Floats;
  private readonly P: ParamViews;
  private readonly G: ParamViews;

  /** Current batch shape and the room the activation buffers have. */
  private B = 0;
  private T = 0;
  private capRows = 0;
  private capAtt = 0;
  private gradCapRows = 0;
  private forwardWithOwnParams = false;
  private inputs = new Int32Array(0);
  private targets = new Int32Array(0);
  private tau = 1;

  // activations
  private encoded!: Floats;
  private blocks: BlockActs[] = [];
  private lnf!: Floats;
  private lnfMean!: Floats;
  private lnfRstd!: Floats;
  /** [N,V] raw logits (temperature 1). */
  logits!: Floats;
  /** [N,V] softmax(logits / tau), from the last logsoftmax(). */
  probs!: Floats;
  /** [N] log-prob of each target at tau (0 where masked). */
  logprobs!: Floats;
  /** [N] entropy at tau (0 where masked). */
  entropy!: Floats;

  // activation gradients
  private dencoded!: Floats;
  private dblocks: BlockGrads[] = [];
  private dlnf!: Floats;
  private dlogits!: Floats;

  constructor(config: ModelConfig, dtype: DType = 'f32', params?: Floats) {
    this.config = config;
    this.layout = paramLayout(config);
    this.dtype = dtype;
    this.params = allocFloats(dtype, this.layout.total);
    if (params) {
      if (params.length !== this.layout.total) throw new Error(`ReferenceModel: weights have ${params.length} floats, the layout needs ${this.layout.total}`);
      this.params.set(params);
    }
    this.grads = allocFloats(dtype, this.layout.total);
    this.P = paramViews(this.params, this.layout, config.nLayers);
    this.G = paramViews(this.grads, this.layout, config.nLayers);
  }

  /** Views of any flat weight buffer with this model's layout (e.g. the frozen π_ref). */
  views(flat: Floats): ParamViews {
    return paramViews(flat, this.layout, this.config.nLayers);
  }

  zeroGrad(): void {
    this.grads.fill(0);
  }

  /** Make sure the activation buffers hold a (B, T) batch; grows them only when needed. */
  private ensureCapacity(B: number, T: number): void {
    const { dModel: D, nHeads: H, vocabSize: V, nLayers: L } = this.config;
    const rows = B * T;
    const attN = B * H * T * T;
    if (rows <= this.capRows && attN <= this.capAtt) return;
    const capRows = Math.max(rows, this.capRows);
    const capAtt = Math.max(attN, this.capAtt);
    const a = (n: number) => allocFloats(this.dtype, n);
    this.encoded = a(capRows * D);
    this.blocks = [];
    for (let l = 0; l < L; l++) {
      this.blocks.push({
        ln1: a(capRows * D), ln1Mean: a(capRows), ln1Rstd: a(capRows),
        qkv: a(capRows * 3 * D), atty: a(capRows * D), preatt: a(capAtt), att: a(capAtt),
        attproj: a(capRows * D), residual2: a(capRows * D),
        ln2: a(capRows * D), ln2Mean: a(capRows), ln2Rstd: a(capRows),
        fch: a(capRows * 4 * D), fchGelu: a(capRows * 4 * D), fcproj: a(capRows * D), residual3: a(capRows * D),
      });
    }
    this.lnf = a(capRows * D);
    this.lnfMean = a(capRows);
    this.lnfRstd = a(capRows);
    this.logits = a(capRows * V);
    this.probs = a(capRows * V);
    this.logprobs = a(capRows);
    this.entropy = a(capRows);
    this.gradCapRows = 0; // gradient buffers follow on the next backward
    this.capRows = capRows;
    this.capAtt = capAtt;
  }

  /** Make sure the activation-gradient buffers match the forward buffers (allocated on the first backward only: sampling never needs them). */
  private ensureGradCapacity(): void {
    if (this.gradCapRows === this.capRows && this.dblocks.length === this.config.nLayers) return;
    const { dModel: D, vocabSize: V, nLayers: L } = this.config;
    const capRows = this.capRows;
    const capAtt = this.capAtt;
    const a = (n: number) => allocFloats(this.dtype, n);
    this.dblocks = [];
    for (let l = 0; l < L; l++) {
      this.dblocks.push({
        ln1: a(capRows * D), qkv: a(capRows * 3 * D), atty: a(capRows * D), preatt: a(capAtt), att: a(capAtt),
        attproj: a(capRows * D), residual2: a(capRows * D), ln2: a(capRows * D),
        fch: a(capRows * 4 * D), fchGelu: a(capRows * 4 * D), fcproj: a(capRows * D), residual3: a(capRows * D),
      });
    }
    this.dencoded = a(capRows * D);
    this.dlnf = a(capRows * D);
    this.dlogits = a(capRows * V);
    this.gradCapRows = capRows;
  }

  /**
   * Forward to the logits [B*T, V] (temperature 1; the view is valid until the next forward).
   * `weights` evaluates another weight buffer of the same layout (π_ref); backward() then refuses.
   */
  forward(inputs: Int32Array, B: number, T: number, weights?: Floats): Floats {
    const { dModel: D, nHeads: H, vocabSize: V, seqLen } = this.config;
    if (T > seqLen) throw new Error(`ReferenceModel.forward: T = ${T} exceeds seqLen ${seqLen}`);
    if (inputs.length < B * T) throw new Error(`ReferenceModel.forward: ${inputs.length} inputs for B*T = ${B * T}`);
    for (let i = 0; i < B * T; i++) {
      if (!(inputs[i] >= 0 && inputs[i] < V)) throw new Error(`ReferenceModel.forward: token id ${inputs[i]} at ${i} is outside 0..${V - 1}`);
    }
    this.ensureCapacity(B, T);
    this.B = B;
    this.T = T;
    this.inputs = Int32Array.from(inputs.subarray(0, B * T));
    this.forwardWithOwnParams = weights === undefined || weights === this.params;
    const P = weights === undefined ? this.P : this.views(weights);
    const N = B * T;

    embeddingForward(this.encoded, this.inputs, P.wte, P.wpe, B, T, D);
    let residual = this.encoded;
    for (let l = 0; l < this.config.nLayers; l++) {
      const p = P.blocks[l];
      const a = this.blocks[l];
      layernormForward(a.ln1, a.ln1Mean, a.ln1Rstd, residual, p.ln1g, p.ln1b, N, D);
      matmulForward(a.qkv, a.ln1, p.qkvw, p.qkvb, N, D, 3 * D);
      attentionForward(a.atty, a.preatt, a.att, a.qkv, B, T, D, H);
      matmulForward(a.attproj, a.atty, p.projw, p.projb, N, D, D);
      residualForward(a.residual2, residual, a.attproj, N * D);
      layernormForward(a.ln2, a.ln2Mean, a.ln2Rstd, a.residual2, p.ln2g, p.ln2b, N, D);
      matmulForward(a.fch, a.ln2, p.fcw, p.fcb, N, D, 4 * D);
      geluForward(a.fchGelu, a.fch, N * 4 * D);
      matmulForward(a.fcproj, a.fchGelu, p.fc2w, p.fc2b, N, 4 * D, D);
      residualForward(a.residual3, a.residual2, a.fcproj, N * D);
      residual = a.residual3;
    }
    layernormForward(this.lnf, this.lnfMean, this.lnfRstd, residual, P.lnfg, P.lnfb, N, D);
    matmulForward(this.logits, this.lnf, P.lmHead, null, N, D, V);
    return this.logits.subarray(0, N * V);
  }

  /** KV cache of the decoder: per layer [R,S,D] keys and values, or null before beginDecode. */
  private kv: { R: number; S: number; k: Floats[]; v: Floats[]; next: number } | null = null;

  /**
   * Start a KV-cached decode of R rows of at most S positions (S ≤ seqLen). Positions are then
   * fed in order 0, 1, 2, … with decodeStep, all rows in lockstep.
   */
  beginDecode(R: number, S: number): void {
    if (S > this.config.seqLen) throw new Error(`ReferenceModel.beginDecode: S = ${S} exceeds seqLen ${this.config.seqLen}`);
    const D = this.config.dModel;
    const k: Floats[] = [];
    const v: Floats[] = [];
    for (let l = 0; l < this.config.nLayers; l++) {
      k.push(allocFloats(this.dtype, R * S * D));
      v.push(allocFloats(this.dtype, R * S * D));
    }
    this.kv = { R, S, k, v, next: 0 };
    this.ensureCapacity(R, 1);
  }

  /**
   * Logits [R, V] at position pos for the tokens [R] fed at pos, reading positions < pos from
   * the KV cache and appending this one. The same numbers, bit for bit, as row pos of a full
   * forward over the rows' first pos+1 tokens. Overwrites the forward's activation cache.
   */
  decodeStep(tokens: Int32Array, pos: number): Floats {
    const kv = this.kv;
    if (!kv) throw new Error('ReferenceModel.decodeStep: call beginDecode first');
    if (pos !== kv.next || pos >= kv.S) throw new Error(`ReferenceModel.decodeStep: expected position ${kv.next} (< S = ${kv.S}), got ${pos}`);
    const { dModel: D, nHeads: H, vocabSize: V } = this.config;
    const { R, S } = kv;
    for (let r = 0; r < R; r++) {
      if (!(tokens[r] >= 0 && tokens[r] < V)) throw new Error(`ReferenceModel.decodeStep: token id ${tokens[r]} of row ${r} is outside 0..${V - 1}`);
    }
    this.forwardWithOwnParams = false; // the caches now hold one decode position, not a batch
    this.B = R;
    this.T = 1;
    const P = this.P;
    embeddingDecodeForward(this.encoded, tokens, P.wte, P.wpe, pos, R, D);
    let residual = this.encoded;
    for (let l = 0; l < this.config.nLayers; l++) {
      const p = P.blocks[l];
      const a = this.blocks[l];
      layernormForward(a.ln1, a.ln1Mean, a.ln1Rstd, residual, p.ln1g, p.ln1b, R, D);
      matmulForward(a.qkv, a.ln1, p.qkvw, p.qkvb, R, D, 3 * D);
      attentionDecodeForward(a.atty, kv.k[l], kv.v[l], a.qkv, pos, R, S, D, H);
      matmulForward(a.attproj, a.atty, p.projw, p.projb, R, D, D);
      residualForward(a.residual2, residual, a.attproj, R * D);
      layernormForward(a.ln2, a.ln2Mean, a.ln2Rstd, a.residual2, p.ln2g, p.ln2b, R, D);
      matmulForward(a.fch, a.ln2, p.fcw, p.fcb, R, D, 4 * D);
      geluForward(a.fchGelu, a.fch, R * 4 * D);
      matmulForward(a.fcproj, a.fchGelu, p.fc2w, p.fc2b, R, 4 * D, D);
      residualForward(a.residual3, a.residual2, a.fcproj, R * D);
      residual = a.residual3;
    }
    layernormForward(this.lnf, this.lnfMean, this.lnfRstd, residual, P.lnfg, P.lnfb, R, D);
    matmulForward(this.logits, this.lnf, P.lmHead, null, R, D, V);
    kv.next = pos + 1;
    return this.logits.subarray(0, R * V);
  }

  /**
   * Per-token log-probs of `targets` and entropies at temperature tau, from the last forward.
   * Fills this.logprobs, this.entropy (0 where mask is 0) and this.probs; returns views [B*T].
   */
  logsoftmax(targets: Int32Array, mask: ArrayLike<number> | null, tau = 1): { logprobs: Floats; entropy: Floats } {
    if (!(tau > 0)) throw new Error(`ReferenceModel.logsoftmax: temperature must be > 0, got ${tau}`);
    const N = this.B * this.T;
    const V = this.config.vocabSize;
    for (let i = 0; i < N; i++) {
      if (!(targets[i] >= 0 && targets[i] < V)) throw new Error(`ReferenceModel.logsoftmax: target id ${targets[i]} at ${i} is outside 0..${V - 1}`);
    }
    this.targets = Int32Array.from(targets.subarray(0, N));
    this.tau = tau;
    logsoftmaxForward(this.logprobs, this.entropy, this.probs, this.logits, this.targets, mask, tau, N, V);
    return { logprobs: this.logprobs.subarray(0, N), entropy: this.entropy.subarray(0, N) };
  }

  /**
   * Backward from per-token gradients dL/dlogp [B*T] and optionally dL/dH [B*T] of the last
   * forward + logsoftmax, ACCUMULATING into this.grads.
   */
  backward(gradLogprob: ArrayLike<number>, gradEntropy: ArrayLike<number> | null = null): void {
    if (!this.forwardWithOwnParams) throw new Error('ReferenceModel.backward: the last forward used other weights (π_ref); run forward on the model weights first');
    const { dModel: D, nHeads: H, vocabSize: V, nLayers: L } = this.config;
    const { B, T } = this;
    const N = B * T;
    const P = this.P;
    const G = this.G;
    this.ensureGradCapacity();

    // zero the activation gradients of this batch (they accumulate, like everything here)
    this.dencoded.fill(0, 0, N * D);
    this.dlnf.fill(0, 0, N * D);
    this.dlogits.fill(0, 0, N * V);
    for (const g of this.dblocks) for (const k of Object.keys(g) as (keyof BlockGrads)[]) g[k].fill(0);

    logitsBackward(this.dlogits, this.probs, this.targets, gradLogprob, gradEntropy, this.tau, N, V);
    matmulBackward(this.dlnf, G.lmHead, null, this.dlogits, this.lnf, P.lmHead, N, D, V);
    const last = L > 0 ? this.blocks[L - 1].residual3 : this.encoded;
    const dlast = L > 0 ? this.dblocks[L - 1].residual3 : this.dencoded;
    layernormBackward(dlast, G.lnfg, G.lnfb, this.dlnf, last, P.lnfg, this.lnfMean, this.lnfRstd, N, D);

    for (let l = L - 1; l >= 0; l--) {
      const p = P.blocks[l];
      const g = G.blocks[l];
      const a = this.blocks[l];
      const d = this.dblocks[l];
      const residual = l === 0 ? this.encoded : this.blocks[l - 1].residual3;
      const dresidual = l === 0 ? this.dencoded : this.dblocks[l - 1].residual3;
      // residual3 = residual2 + fcproj
      residualBackward(d.residual2, d.fcproj, d.residual3, N * D);
      matmulBackward(d.fchGelu, g.fc2w, g.fc2b, d.fcproj, a.fchGelu, p.fc2w, N, 4 * D, D);
      geluBackward(d.fch, a.fch, d.fchGelu, N * 4 * D);
      matmulBackward(d.ln2, g.fcw, g.fcb, d.fch, a.ln2, p.fcw, N, D, 4 * D);
      layernormBackward(d.residual2, g.ln2g, g.ln2b, d.ln2, a.residual2, p.ln2g, a.ln2Mean, a.ln2Rstd, N, D);
      // residual2 = residual + attproj
      residualBackward(dresidual, d.attproj, d.residual2, N * D);
      matmulBackward(d.atty, g.projw, g.projb, d.attproj, a.atty, p.projw, N, D, D);
      attentionBackward(d.qkv, d.preatt, d.att, d.atty, a.qkv, a.att, B, T, D, H);
      matmulBackward(d.ln1, g.qkvw, g.qkvb, d.qkv, a.ln1, p.qkvw, N, D, 3 * D);
      layernormBackward(dresidual, g.ln1g, g.ln1b, d.ln1, residual, p.ln1g, a.ln1Mean, a.ln1Rstd, N, D);
    }
    embeddingBackward(G.wte, G.wpe, this.dencoded, this.inputs, B, T, D);
  }
}

/**
 * The batched KV-cache decoder of WebGPUBackend.sample: its buffers (sized for R rows × S
 * positions, grown when needed) and the recording of every decode position into one command
 * encoder (one compute pass per position, the position copied into a uniform between passes).
 *
 * A position is, in the fused form (Ops.decodeForm 'fused', shaders/decode_block.wgsl), one
 * decode_block dispatch per layer (the embedding in the first, the final LayerNorm and LM head in
 * the last) and sample_next: L + 1 dispatches. The op-by-op form, kept for shapes past
 * decode_block's limits and as the self-check's fallback, is the batch forward's kernels on one
 * row per sequence with attention_decode: 7L + 4.
 */
import type { ModelConfig } from '../model/config.ts';
import type { GpuContext } from './context.ts';
import type { GpuModel } from './model.ts';
import { Ops } from './ops.ts';

/** Buffers of the batched decoder, sized for R rows × S positions (grown when needed). */
export interface DecodeBuffers {
  capR: number;
  capS: number;
  /** [R,S] i32 token table: prompts written by the CPU, responses by sample_next. */
  tokens: GPUBuffer;
  /** [R,2] u32: prompt length, response budget. */
  rows: GPUBuffer;
  /** [R] u32: response tokens so far, bit 31 once EOS came. */
  state: GPUBuffer;
  /** [R,S] f32 log-prob of each sampled token, at its position. */
  logprobs: GPUBuffer;
  /** [R,H,S] attention scores of the position being decoded (scratch of the op-by-op form, shared by the layers). */
  scores: GPUBuffer;
  /** Per layer [R,S,D] keys and values. */
  kcache: GPUBuffer[];
  vcache: GPUBuffer[];
}

/** decode_block's tensors of layer l, in the order of its Params (Ops.decodeBlock). */
export function decodeBlockTensors(l: number): string[] {
  const h = `h${l}.`;
  return ['wte', 'wpe', h + 'ln1.g', h + 'ln1.b', h + 'qkv.w', h + 'qkv.b', h + 'proj.w', h + 'proj.b', h + 'ln2.g', h + 'ln2.b', h + 'fc.w', h + 'fc.b', h + 'fc2.w', h + 'fc2.b', 'lnf.g', 'lnf.b', 'lm_head'];
}

export class Decoder {
  private bufs: DecodeBuffers | null = null;
  private readonly stepUniform: GPUBuffer;
  /** Row pos holds [pos, 0, 0, 0]: copied into stepUniform before each decode position. */
  private readonly posTable: GPUBuffer;

  constructor(readonly ctx: GpuContext, readonly config: ModelConfig, readonly model: GpuModel) {
    this.stepUniform = ctx.ops.dynamicUniform('decode.step', 4);
    const table = new Uint32Array(config.seqLen * 4);
    for (let p = 0; p < config.seqLen; p++) table[p * 4] = p;
    this.posTable = ctx.arena.create('decode.posTable', table.byteLength, GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
    ctx.device.queue.writeBuffer(this.posTable, 0, table);
  }

  /** The decoder's buffers for R rows × S positions (grown, never shrunk). */
  ensure(R: number, S: number): DecodeBuffers {
    const d = this.bufs;
    if (d && R <= d.capR && S <= d.capS) return d;
    const capR = Math.max(R, d?.capR ?? 0);
    const capS = Math.max(S, d?.capS ?? 0);
    const arena = this.ctx.arena;
    if (d) for (const b of [d.tokens, d.rows, d.state, d.logprobs, d.scores, ...d.kcache, ...d.vcache]) arena.destroy(b);
    if (d) this.ctx.ops.clearBindGroups();
    const D = this.config.dModel;
    const L = this.config.nLayers;
    this.bufs = {
      capR, capS,
      tokens: arena.storage('decode.tokens', capR * capS),
      rows: arena.storage('decode.rows', 2 * capR),
      state: arena.storage('decode.state', capR),
      logprobs: arena.storage('decode.logprobs', capR * capS),
      scores: arena.storage('decode.scores', capR * this.config.nHeads * capS),
      kcache: Array.from({ length: L }, () => arena.storage('decode.k', capR * capS * D)),
      vcache: Array.from({ length: L }, () => arena.storage('decode.v', capR * capS * D)),
    };
    return this.bufs;
  }

  /**
   * Record positions 0 … S − 2 of R rows into `enc` (dec from ensure(R, S), the token table,
   * rows and state already written; `sampleUniform` = Ops.sampleUniform(...)).
   */
  record(enc: GPUCommandEncoder, dec: DecodeBuffers, R: number, S: number, sampleUniform: GPUBuffer): void {
    const { dModel: D, nHeads: H, vocabSize: V, nLayers: L } = this.config;
    const o = this.ctx.ops;
    const m = this.model;
    const a = m.ensureActivations(R, 1);
    const stride = dec.capS;
    const fused = o.decodeForm === 'fused' && L > 0 && Ops.decodeFusable(D, H, stride);
    const offsets = Array.from({ length: L }, (_, l) => decodeBlockTensors(l).map((n) => m.layout.byName[n].offset));
    const P = (n: string) => m.t(m.params, n);
    // the last position whose next token is needed: S − 2
    for (let pos = 0; pos + 1 < S; pos++) {
      const setPos = (e: GPUCommandEncoder) => e.copyBufferToBuffer(this.posTable, pos * 16, this.stepUniform, 0, 16);
      setPos(enc);
      o.prelude = setPos; // a profiler replay sets the same position before this pass's dispatches
      const pass = enc.beginComputePass();
      if (fused) {
        for (let l = 0; l < L; l++) o.decodeBlock(pass, m.params, offsets[l], dec.tokens, a.encoded, dec.kcache[l], dec.vcache[l], a.logits, this.stepUniform, R, stride, D, H, V, l === 0, l === L - 1);
      } else {
        o.embeddingDecode(pass, a.encoded, dec.tokens, P('wte'), P('wpe'), this.stepUniform, R, stride, D);
        m.recordBlocks(pass, m.params, R, (x, l) => o.attentionDecode(pass, x.atty, dec.scores, dec.kcache[l], dec.vcache[l], x.qkv, this.stepUniform, R, stride, D, H));
      }
      o.sampleNext(pass, dec.tokens, dec.rows, dec.state, dec.logprobs, a.logits, this.stepUniform, sampleUniform, R);
      pass.end();
    }
    o.prelude = null;
  }
}

/**
 * WebGPUBackend.sample: batched decoding of P·G rows with a KV cache (src/gpu/decoder.ts). Every
 * position of every row is decoded in the same submit (one compute pass per position, the
 * position copied into a uniform between passes; a pass is one fused decode_block dispatch per
 * layer and sample_next), tokens chosen on the GPU, one readback of tokens, log-probs and
 * lengths at the end. Rows advance in lockstep from position 0: while a row is still inside its
 * prompt the next token is the prompt's, so prompts of different lengths need no padding or
 * masks, and the draw for response token i of row s is uniform4(seed, stream, s, i) exactly as in
 * the reference.
 */
import type { SampleRequest, SampleResult } from '../model/backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { EOS } from '../tasks/tokenizer.ts';
import type { GpuContext } from './context.ts';
import { Decoder } from './decoder.ts';
import type { GpuModel } from './model.ts';
import { Ops } from './ops.ts';

export class Sampler {
  /** The batched KV-cache decoder (src/gpu/decoder.ts). */
  private readonly decoder: Decoder;
  /** sample_next's uniform, rewritten every call (Ops.sampleUniform). */
  private readonly uniform: GPUBuffer;

  constructor(readonly ctx: GpuContext, readonly config: ModelConfig, model: GpuModel) {
    this.uniform = ctx.ops.dynamicUniform('sample', 8);
    this.decoder = new Decoder(ctx, config, model);
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
    o.writeUniform(this.uniform, Ops.sampleUniform(R, V, stride, seed >>> 0, stream >>> 0, temperature, EOS));

    const enc = this.ctx.device.createCommandEncoder({ label: 'sample' });
    this.decoder.record(enc, dec, R, S, this.uniform);
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

  /** Size the decode buffers for up to `rows` rows of the full context now. */
  reserve(rows: number): void {
    this.decoder.ensure(rows, this.config.seqLen);
  }
}

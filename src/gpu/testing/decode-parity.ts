/**
 * Parity of the fused decode block (shaders/decode_block.wgsl, Ops.decodeBlock) — part of
 * kernel-parity.ts's rows. At every position of a KV-cache decode of R rows, the logits [R,V]
 * of the fused form (one decode_block dispatch per layer) are compared with
 *   - the CPU reference: ReferenceModel.forward (f64) of each row's tokens 0..pos, the logits at pos;
 *   - the op-by-op decode it replaces (encoder_decode, LayerNorm, matmuls, attention_decode),
 *     on the same weights and tokens;
 * and the fused form's K/V cache with the op-by-op form's after the last position.
 * Weights are a seeded init × 4 (peakier than a fresh init); every output buffer starts as NaN.
 */
import type { ModelConfig } from '../../model/config.ts';
import { paramLayout } from '../../model/config.ts';
import { initWeights } from '../../model/init.ts';
import { ReferenceModel } from '../../model/reference/model.ts';
import { Rng } from '../../model/rng.ts';
import type { GpuContext } from '../context.ts';
import { decodeBlockTensors } from '../decoder.ts';
import { GpuModel } from '../model.ts';

/** [R, S, D, H, L, V]: D < 64 and D > 64 (several columns per invocation), hs 8 and 24, R past one 64-row grid step. */
const SHAPES: [number, number, number, number, number, number][] = [[3, 11, 40, 5, 2, 51], [70, 9, 96, 4, 1, 37]];

export async function decodeParityRows<Row>(ctx: GpuContext, compare: (kernel: string, shape: string, gpu: ArrayLike<number>, cpu: ArrayLike<number>) => Row): Promise<Row[]> {
  const rows: Row[] = [];
  const { ops } = ctx;
  for (const [R, S, D, H, L, V] of SHAPES) {
    const config: ModelConfig = { vocabSize: V, seqLen: S, dModel: D, nHeads: H, nLayers: L };
    const layout = paramLayout(config);
    const w = initWeights(layout, 31 + D);
    for (const t of layout.tensors) if (t.init === 'normal') for (let i = t.offset; i < t.offset + t.size; i++) w[i] *= 4;
    const rng = new Rng(77 + R);
    const tokens = Int32Array.from({ length: R * S }, () => rng.int(V));
    // the CPU reference: each row's logits at every position
    const refLogits = new ReferenceModel(config, 'f64', w).forward(tokens, R, S);
    const model = new GpuModel(ctx, config, w);
    const a = model.ensureActivations(R, 1);
    const nan = (n: number) => ctx.upload('decode-parity', new Float32Array(n).fill(NaN));
    const bTok = ctx.upload('decode-parity.tokens', tokens);
    const cacheF = { k: Array.from({ length: L }, () => nan(R * S * D)), v: Array.from({ length: L }, () => nan(R * S * D)) };
    const cacheO = { k: Array.from({ length: L }, () => nan(R * S * D)), v: Array.from({ length: L }, () => nan(R * S * D)) };
    const xres = nan(R * D);
    const logitsF = nan(R * V);
    const scores = nan(R * H * S);
    const step = ops.dynamicUniform('decode-parity.step', 4);
    const offsets = Array.from({ length: L }, (_, l) => decodeBlockTensors(l).map((n) => layout.byName[n].offset));
    const P = (n: string) => model.t(model.params, n);
    const shape = `R${R} S${S} D${D} H${H} L${L} V${V}`;
    const gotF = new Float32Array(R * V);
    const gotO = new Float32Array(R * V);
    const want = new Float32Array(R * V);
    const fusedAll: number[] = [];
    const opsAll: number[] = [];
    const refAll: number[] = [];
    for (let pos = 0; pos < S; pos++) {
      ctx.device.queue.writeBuffer(step, 0, new Uint32Array([pos, 0, 0, 0]));
      const [f, o] = await ctx.run(
        (pass) => {
          for (let l = 0; l < L; l++) ops.decodeBlock(pass, model.params, offsets[l], bTok, xres, cacheF.k[l], cacheF.v[l], logitsF, step, R, S, D, H, V, l === 0, l === L - 1);
          ops.embeddingDecode(pass, a.encoded, bTok, P('wte'), P('wpe'), step, R, S, D);
          model.recordBlocks(pass, model.params, R, (x, l) => ops.attentionDecode(pass, x.atty, scores, cacheO.k[l], cacheO.v[l], x.qkv, step, R, S, D, H));
        },
        [{ buffer: logitsF, floats: R * V }, { buffer: a.logits, floats: R * V }],
      );
      gotF.set(f);
      gotO.set(o);
      for (let r = 0; r < R; r++) want.set(Float32Array.from(refLogits.subarray((r * S + pos) * V, (r * S + pos + 1) * V)), r * V);
      fusedAll.push(...gotF);
      opsAll.push(...gotO);
      refAll.push(...want);
    }
    rows.push(compare('decode_block (logits, vs CPU reference)', shape, fusedAll, refAll));
    rows.push(compare('decode_block (logits, vs op-by-op decode)', shape, fusedAll, opsAll));
    rows.push(compare('op-by-op decode (logits, vs CPU reference)', shape, opsAll, refAll));
    const caches = await ctx.run(() => {}, [...cacheF.k, ...cacheF.v, ...cacheO.k, ...cacheO.v].map((buffer) => ({ buffer, floats: R * S * D })));
    for (let i = 0; i < 2 * L; i++) rows.push(compare(`decode_block (${i < L ? 'K' : 'V'} cache, layer ${i % L}, vs op-by-op)`, shape, caches[i], caches[2 * L + i]));
    model.destroy();
    for (const b of [bTok, xres, logitsF, scores, step, ...cacheF.k, ...cacheF.v, ...cacheO.k, ...cacheO.v]) ctx.arena.destroy(b);
  }
  return rows;
}

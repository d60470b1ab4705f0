/**
 * Browser-side body of e2e/gpu-kernels.spec.ts: every kernel against its CPU reference op
 * (src/model/reference/ops.ts) on shapes that are not multiples of any tile size.
 * Returns one row per kernel output with the max abs difference and the worst ratio
 * |gpu − ref| / (atol + rtol·|ref|) (≤ 1 passes).
 */
import * as ref from '../../model/reference/ops.ts';
import { Rng } from '../../model/rng.ts';
import { GpuContext } from '../context.ts';
import type { ContextOptions } from '../context.ts';
import { M, METRIC_FLOATS } from '../metricSlots.ts';
import { Ops } from '../ops.ts';
import { decodeParityRows } from './decode-parity.ts';

export const ATOL = 1e-5;
export const RTOL = 1e-4;

export interface ParityRow {
  kernel: string;
  shape: string;
  maxdiff: number;
  /** max |gpu − ref| / (atol + rtol·|ref|); the row passes when ≤ 1. */
  worst: number;
  /** First mismatch (index, gpu, ref), if any. */
  firstBad: string;
}

function compare(kernel: string, shape: string, gpu: ArrayLike<number>, cpu: ArrayLike<number>, n = cpu.length): ParityRow {
  let maxdiff = 0;
  let worst = 0;
  let firstBad = '';
  for (let i = 0; i < n; i++) {
    const d = Math.abs(gpu[i] - cpu[i]);
    const r = d / (ATOL + RTOL * Math.abs(cpu[i]));
    if (!(d <= maxdiff)) maxdiff = d;
    if (!(r <= worst)) worst = r;
    if (!(r <= 1) && !firstBad) firstBad = `[${i}] gpu ${gpu[i]} ref ${cpu[i]}`;
  }
  return { kernel, shape, maxdiff, worst, firstBad };
}

export async function runKernelParity(opts: ContextOptions = {}): Promise<ParityRow[]> {
  const ctx = await GpuContext.create(opts);
  const { ops } = ctx;
  const rng = new Rng(1234);
  const randn = (n: number, s = 1) => Float32Array.from({ length: n }, () => s * rng.normal());
  const ints = (n: number, hi: number) => Int32Array.from({ length: n }, () => rng.int(hi));
  const buf = (x: Float32Array | Int32Array, label = 'test') => ctx.upload(label, x);
  const empty = (n: number) => ctx.arena.storage('out', n);
  const rows: ParityRow[] = [];

  // ---- embedding: B=3, T=7, D=33, V=65, Tmax=9, and one where ids repeat many times (V=5)
  for (const [B, T, D, V, Tmax] of [[3, 7, 33, 65, 9], [9, 13, 20, 5, 16]]) {
    const inputs = ints(B * T, V);
    const wte = randn(V * D);
    const wpe = randn(Tmax * D);
    const dout = randn(B * T * D);
    const out = new Float32Array(B * T * D);
    ref.embeddingForward(out, inputs, wte, wpe, B, T, D);
    const dwte = new Float32Array(V * D);
    const dwpe = new Float32Array(Tmax * D);
    ref.embeddingBackward(dwte, dwpe, dout, inputs, B, T, D);
    const [bi, bwte, bwpe, bout, bd, bdwte, bdwpe] = [buf(inputs), buf(wte), buf(wpe), empty(B * T * D), buf(dout), empty(V * D), empty(Tmax * D)];
    const [g1, g2, g3] = await ctx.run(
      (p) => {
        ops.embeddingForward(p, bout, bi, bwte, bwpe, B, T, D);
        ops.embeddingBackward(p, bdwte, bdwpe, bd, bi, B, T, D, V, Tmax);
      },
      [{ buffer: bout, floats: B * T * D }, { buffer: bdwte, floats: V * D }, { buffer: bdwpe, floats: Tmax * D }],
    );
    const shape = `B${B} T${T} D${D} V${V}`;
    rows.push(compare('encoder_forward', shape, g1, out), compare('wte_backward', shape, g2, dwte), compare('wpe_backward', shape, g3, dwpe));
  }

  // ---- matmul forward/backward, several awkward shapes; also the residual-fused forward and the
  // bias gradient, which the backward's TN (dW) dispatch computes as it streams dout (no dispatch
  // of its own). The first six shapes take matmul.wgsl (the fifth the lm_head's V = 51), the
  // other five the vec4 kernels of matmul_vec4.wgsl, and again matmul.wgsl with the scalar path
  // forced; each in both forms: tiled through workgroup memory and direct from storage.
  // For dbias the TN product's K is N (rows): one 16-row K slice (N = 1, 5, 16), several with a
  // partial last one (17, 24, 33, 65, 70) or none (48); OC = 1 … 132, one to five 32-column
  // blocks, never a multiple of 64; C up to 65 (several row blocks: only the first sums).
  // Every output starts as NaN: each element must be written, and written rather than added to.
  const nan = (n: number) => buf(new Float32Array(n).fill(NaN));
  const matmulCases: [number, number, number, 'tiled' | 'direct', boolean][] = [];
  for (const form of ['tiled', 'direct'] as const) for (const [N, C, OC] of [[33, 7, 65], [1, 65, 7], [65, 33, 1], [17, 48, 31], [24, 32, 51], [16, 3, 33]]) matmulCases.push([N, C, OC, form, false]);
  for (const scalar of [false, true]) for (const form of ['tiled', 'direct'] as const) for (const [N, C, OC] of [[33, 12, 20], [70, 64, 36], [5, 36, 132], [48, 20, 100], [1, 8, 4]]) matmulCases.push([N, C, OC, form, scalar]);
  for (const [N, C, OC, form, scalar] of matmulCases) {
    ops.matmulForm = form;
    ops.forceScalarMatmul = scalar;
    const inp = randn(N * C);
    const w = randn(C * OC);
    const bias = randn(OC);
    const res = randn(N * OC);
    const dout = randn(N * OC);
    const out = new Float32Array(N * OC);
    ref.matmulForward(out, inp, w, bias, N, C, OC);
    const outRes = out.map((x, i) => x + res[i]);
    const dinp = new Float32Array(N * C);
    const dw = new Float32Array(C * OC);
    const db = new Float32Array(OC);
    ref.matmulBackward(dinp, dw, db, dout, inp, w, N, C, OC);
    const prior = randn(N * C);
    const dinpAcc = dinp.map((x, i) => x + prior[i]);
    // the TN kernel with its accumulate flag: dW and dbias both added to what was there
    const [priorW, priorB] = [randn(C * OC), randn(OC)];
    const [dwAcc, dbAcc] = [dw.map((x, i) => x + priorW[i]), db.map((x, i) => x + priorB[i])];
    const [bInp, bW, bB, bRes, bD] = [buf(inp), buf(w), buf(bias), buf(res), buf(dout)];
    const [bOut, bOutRes, bDinp, bDw, bDb, bAcc, bDw2, bDwAcc, bDbAcc] = [nan(N * OC), nan(N * OC), nan(N * C), nan(C * OC), nan(OC), buf(prior), nan(C * OC), buf(priorW), buf(priorB)];
    let backwardDispatches = 0;
    const [g1, g2, g3, g4, g5, g6, g7, g8, g9] = await ctx.run(
      (p) => {
        ops.matmulForward(p, bOut, bInp, bW, bB, N, C, OC);
        ops.matmulForward(p, bOutRes, bInp, bW, bB, N, C, OC, { res: bRes });
        const d0 = ops.dispatches;
        ops.matmulBackward(p, bDinp, bDw, bDb, bD, bInp, bW, N, C, OC);
        backwardDispatches = ops.dispatches - d0;
        ops.matmulBackward(p, bAcc, bDw2, null, bD, bInp, bW, N, C, OC, true);
        ops.matmul(p, 'tn', bDwAcc, bInp, bD, C, OC, N, { accumulate: true, dbias: bDbAcc });
      },
      [[bOut, N * OC], [bOutRes, N * OC], [bDinp, N * C], [bDw, C * OC], [bDb, OC], [bAcc, N * C], [bDw2, C * OC], [bDwAcc, C * OC], [bDbAcc, OC]]
        .map(([buffer, floats]) => ({ buffer: buffer as GPUBuffer, floats: floats as number })),
    );
    const shape = `N${N} C${C} OC${OC} ${scalar ? 'scalar ' : ''}${form}`;
    rows.push(
      compare('matmul_nn (+bias)', shape, g1, out),
      compare('matmul_nn (+bias +res)', shape, g2, outRes),
      compare('matmul_nt (dinp)', shape, g3, dinp),
      compare('matmul_tn (dw, with dbias fused)', shape, g4, dw),
      compare('matmul_tn (dbias, fused)', shape, g5, db),
      compare('matmul_nt (accumulate)', shape, g6, dinpAcc),
      compare('matmul_tn (dw, no dbias)', shape, g7, dw),
      compare('matmul_tn (accumulate dw)', shape, g8, dwAcc),
      compare('matmul_tn (accumulate dbias)', shape, g9, dbAcc),
      // dinp (NT) and dW with dbias (TN): two dispatches, the bias gradient has none of its own
      compare('matmul_backward (dispatches)', shape, [backwardDispatches], [2]),
    );
  }
  ops.forceScalarMatmul = false;

  // ---- layernorm, in every reduction form this device has (row per invocation, per workgroup, subgroups)
  const forms: ('row' | 'workgroup' | 'subgroup')[] = ['row', 'workgroup', ...(ctx.kernels.has('layernorm_forward_sg') ? ['subgroup' as const] : [])];
  const defaultForm = ops.reductionForm;
  for (const [N, C, form] of forms.flatMap((f) => [[33, 65, f], [1, 7, f], [7, 33, f], [5, 200, f]] as const)) {
    ops.reductionForm = form;
    const inp = randn(N * C, 2).map((x, i) => x + (i % 3));
    const g = randn(C);
    const b = randn(C);
    const dout = randn(N * C);
    const out = new Float32Array(N * C);
    const mean = new Float32Array(N);
    const rstd = new Float32Array(N);
    ref.layernormForward(out, mean, rstd, inp, g, b, N, C);
    const dinp = new Float32Array(N * C);
    const dg = new Float32Array(C);
    const db = new Float32Array(C);
    ref.layernormBackward(dinp, dg, db, dout, inp, g, mean, rstd, N, C);
    const [bInp, bG, bB, bD] = [buf(inp), buf(g), buf(b), buf(dout)];
    const [bOut, bMean, bRstd, bDinp, bDg, bDb] = [empty(N * C), empty(N), empty(N), empty(N * C), empty(C), empty(C)];
    // the unfused path too (dx, then layernorm_backward_params), into its own buffers
    const [uDinp, uDg, uDb] = [empty(N * C), empty(C), empty(C)];
    const dispatched = [0, 0];
    const r = await ctx.run(
      (p) => {
        ops.layernormForward(p, bOut, bMean, bRstd, bInp, bG, bB, N, C);
        for (const [i, fused] of [[0, true], [1, false]] as const) {
          ops.fuseLayernormParams = fused;
          const d0 = ops.dispatches;
          if (fused) ops.layernormBackward(p, bDinp, bDg, bDb, bD, bInp, bG, bMean, bRstd, N, C);
          else ops.layernormBackward(p, uDinp, uDg, uDb, bD, bInp, bG, bMean, bRstd, N, C);
          dispatched[i] = ops.dispatches - d0;
        }
        ops.fuseLayernormParams = true;
      },
      [[bOut, N * C], [bMean, N], [bRstd, N], [bDinp, N * C], [bDg, C], [bDb, C], [uDinp, N * C], [uDg, C], [uDb, C]].map(([buffer, floats]) => ({ buffer: buffer as GPUBuffer, floats: floats as number })),
    );
    const shape = `N${N} C${C} ${form}`;
    rows.push(
      compare('layernorm_forward', shape, r[0], out),
      compare('layernorm_forward (mean)', shape, r[1], mean),
      compare('layernorm_forward (rstd)', shape, r[2], rstd),
      // the fused backward (dx and the parameter gradients in one dispatch) against the reference
      compare('layernorm_backward_dx', shape, r[3], dinp),
      compare('layernorm_backward (dgamma)', shape, r[4], dg),
      compare('layernorm_backward (dbeta)', shape, r[5], db),
      // the unfused path against the reference, and the fused against it: the same sums in the same order
      compare('layernorm_backward_params (unfused dgamma)', shape, r[7], dg),
      compare('layernorm_backward_params (unfused dbeta)', shape, r[8], db),
      compare('layernorm_backward fused vs unfused (dx)', shape, r[3], r[6]),
      compare('layernorm_backward fused vs unfused (dgamma)', shape, r[4], r[7]),
      compare('layernorm_backward fused vs unfused (dbeta)', shape, r[5], r[8]),
      compare('layernorm_backward: 1 dispatch fused, 2 unfused', shape, dispatched, [1, 2]),
    );
  }

  // ---- attention, in both forms (row: one query row per invocation; tiled: 64-row query tiles,
  // K/V tiles of 1024/hs rows through workgroup memory): head sizes 4, 8, 16, 32, T = 1, T not a
  // multiple of either tile (70 = 64 + 6 queries, 32 + 32 + 6 keys at hs 32), T = 32 (two heads per
  // workgroup, 16-key tiles at hs 32) with an odd number of heads, H = 1 and 4.
  // att and dqkv start as NaN: every element, the masked future included, must be written.
  const defaultAttention = ops.attentionForm;
  const attentionCases = [[2, 7, 12, 3], [1, 33, 16, 2], [3, 1, 8, 1], [2, 70, 128, 4], [1, 65, 16, 1], [2, 33, 32, 4], [3, 32, 96, 3], [1, 1, 32, 1]] as const;
  for (const [B, T, D, H, form] of (['row', 'tiled'] as const).flatMap((f) => attentionCases.map(([b, t, d, h]) => [b, t, d, h, f] as const))) {
    ops.attentionForm = form;
    const qkv = randn(B * T * 3 * D);
    const dout = randn(B * T * D);
    const out = new Float32Array(B * T * D);
    const preatt = new Float32Array(B * H * T * T);
    const att = new Float32Array(B * H * T * T);
    ref.attentionForward(out, preatt, att, qkv, B, T, D, H);
    const dqkv = new Float32Array(B * T * 3 * D);
    ref.attentionBackward(dqkv, new Float32Array(B * H * T * T), new Float32Array(B * H * T * T), dout, qkv, att, B, T, D, H);
    const [bQkv, bD, bOut, bAtt, bDqkv, bDpre] = [buf(qkv), buf(dout), nan(B * T * D), nan(B * H * T * T), nan(B * T * 3 * D), empty(B * H * T * T)];
    const r = await ctx.run(
      (p) => {
        ops.attentionForward(p, bOut, bAtt, bQkv, B, T, D, H);
        ops.attentionBackward(p, bDqkv, bDpre, bD, bQkv, bAtt, B, T, D, H);
      },
      [{ buffer: bOut, floats: B * T * D }, { buffer: bAtt, floats: B * H * T * T }, { buffer: bDqkv, floats: B * T * 3 * D }],
    );
    const shape = `B${B} T${T} D${D} H${H} ${form}`;
    rows.push(compare('attention_forward', shape, r[0], out), compare('attention_forward (att)', shape, r[1], att), compare('attention_backward (dqkv)', shape, r[2], dqkv));
  }
  ops.attentionForm = defaultAttention;

  // ---- fused bias + GELU (forward) and GELU-backward epilogue (fc2's dinp), vec4 and scalar paths
  for (const [N, C, OC, scalar, form] of [[33, 12, 20, false, 'tiled'], [70, 64, 36, false, 'tiled'], [33, 12, 20, false, 'direct'], [70, 64, 36, false, 'direct'], [33, 12, 20, true, 'tiled'], [33, 12, 20, true, 'direct'], [17, 9, 31, false, 'tiled'], [17, 9, 31, false, 'direct']] as const) {
    ops.matmulForm = form;
    const inp = randn(N * C);
    const w = randn(C * OC, 0.5);
    const bias = randn(OC);
    const pre = new Float32Array(N * OC);
    ref.matmulForward(pre, inp, w, bias, N, C, OC);
    const act = new Float32Array(N * OC);
    ref.geluForward(act, pre, N * OC);
    // backward: dinp = (dout·wᵀ) ⊙ gelu'(x) with x [N,C] the pre-activation of the layer's input
    const dout = randn(N * OC);
    const x = randn(N * C, 2);
    const dAct = new Float32Array(N * C);
    ref.matmulBackward(dAct, new Float32Array(C * OC), new Float32Array(OC), dout, inp, w, N, C, OC);
    const dinp = new Float32Array(N * C);
    ref.geluBackward(dinp, x, dAct, N * C);
    const [bInp, bW, bB, bD, bX] = [buf(inp), buf(w), buf(bias), buf(dout), buf(x)];
    const [bPre, bAct, bDinp, bDw] = [empty(N * OC), empty(N * OC), empty(N * C), empty(C * OC)];
    ops.forceScalarMatmul = scalar;
    const r = await ctx.run(
      (p) => {
        ops.matmulForward(p, bPre, bInp, bW, bB, N, C, OC, { geluOut: bAct });
        ops.matmulBackward(p, bDinp, bDw, null, bD, bInp, bW, N, C, OC, false, bX);
      },
      [{ buffer: bPre, floats: N * OC }, { buffer: bAct, floats: N * OC }, { buffer: bDinp, floats: N * C }],
    );
    ops.forceScalarMatmul = false;
    const shape = `N${N} C${C} OC${OC} ${scalar ? 'scalar ' : ''}${form}`;
    rows.push(
      compare('matmul_nn +bias +gelu (pre-activation)', shape, r[0], pre),
      compare('matmul_nn +bias +gelu (gelu)', shape, r[1], act),
      compare("matmul_nt ⊙ gelu' (dinp)", shape, r[2], dinp),
    );
  }

  // ---- GELU
  {
    const n = 1031;
    const inp = randn(n, 3);
    inp[0] = 40; // far tail: tanh saturates
    inp[1] = -40;
    const dout = randn(n);
    const out = new Float32Array(n);
    ref.geluForward(out, inp, n);
    const dinp = new Float32Array(n);
    ref.geluBackward(dinp, inp, dout, n);
    const [bI, bD, bO, bDi] = [buf(inp), buf(dout), empty(n), empty(n)];
    const r = await ctx.run(
      (p) => {
        ops.geluForward(p, bO, bI, n);
        ops.geluBackward(p, bDi, bI, bD, n);
      },
      [{ buffer: bO, floats: n }, { buffer: bDi, floats: n }],
    );
    rows.push(compare('gelu_forward', `n${n}`, r[0], out), compare('gelu_backward', `n${n}`, r[1], dinp));
  }

  // ---- log-softmax, loss, logits backward (temperature 0.7), separate and fused, row and workgroup forms
  for (const [N, V, tau, form] of (['row', 'workgroup'] as const).flatMap((f) => [[33, 65, 0.7, f], [7, 1, 1, f], [1, 51, 1.3, f], [9, 150, 1, f]] as const)) {
    ops.reductionForm = form;
    const logits = randn(N * V, 3);
    const targets = ints(N, V);
    const mask = Float32Array.from({ length: N }, (_, i) => (i % 4 === 1 ? 0 : 1));
    const gL = randn(N).map((x, i) => mask[i] * x);
    const gE = randn(N).map((x, i) => mask[i] * x);
    const lp = new Float32Array(N);
    const ent = new Float32Array(N);
    const probs = new Float32Array(N * V);
    ref.logsoftmaxForward(lp, ent, probs, logits, targets, mask, tau, N, V);
    const dlogits = new Float32Array(N * V);
    ref.logitsBackward(dlogits, probs, targets, gL, gE, tau, N, V);
    let loss = 0;
    for (let i = 0; i < N; i++) loss += gL[i] * lp[i] + gE[i] * ent[i];
    const [bL, bT, bM, bGL, bGE] = [buf(logits), buf(targets), buf(mask), buf(gL), buf(gE)];
    const [bLp, bEnt, bDl, bMet] = [empty(N), empty(N), empty(N * V), empty(16)];
    const [fLp, fEnt, fDl] = [empty(N), empty(N), empty(N * V)];
    const r = await ctx.run(
      (p) => {
        ops.logsoftmaxForward(p, bLp, bEnt, bL, bT, bM, tau, N, V);
        ops.logitsBackward(p, bDl, bL, bT, bGL, bGE, tau, N, V);
        ops.lossReduce(p, bMet, bLp, bEnt, bM, bGL, bGE, N);
        ops.logsoftmaxFused(p, fLp, fEnt, fDl, bL, bT, bM, bGL, bGE, tau, N, V);
      },
      [{ buffer: bLp, floats: N }, { buffer: bEnt, floats: N }, { buffer: bDl, floats: N * V }, { buffer: bMet, floats: 1 },
        { buffer: fLp, floats: N }, { buffer: fEnt, floats: N }, { buffer: fDl, floats: N * V }],
    );
    const shape = `N${N} V${V} tau${tau} ${form}`;
    rows.push(
      compare('logprob_forward (logp)', shape, r[0], lp),
      compare('logprob_forward (entropy)', shape, r[1], ent),
      compare('logits_backward', shape, r[2], dlogits),
      compare('loss_reduce', shape, r[3], [loss]),
      compare('logsoftmax_fused (logp)', shape, r[4], lp),
      compare('logsoftmax_fused (entropy)', shape, r[5], ent),
      compare('logsoftmax_fused (dlogits)', shape, r[6], dlogits),
    );
  }

  ops.reductionForm = defaultForm;

  // ---- grad norm + clip + AdamW (the reference's clipGradients then adamwUpdate, wd on a decay mask),
  // in both grad-norm forms: barrier-free (CPU adapters) and the workgroup tree; in the tree form also
  // the fused adamw_clip_step (the finalize and AdamW in one dispatch: Ops.optimizerStep), against the
  // reference and against the two dispatches it replaces. n = 20011 fills every partial of the tree
  // form (64 workgroups × 256 lanes) and strides past them. A NaN loss: the step is skipped, flag 0.
  for (const form of ['row', 'workgroup'] as const) for (const [n, clip, lossValue] of [[4097, 1.0, 0], [20011, 1.0, 0], [65, 0, 0], [1, 1e6, 0], [300, 1.0, NaN]]) {
    ops.reductionForm = form;
    const finite = Number.isFinite(lossValue);
    const grads = randn(n, 0.1);
    const params = randn(n);
    const m = randn(n, 0.01);
    const v = randn(n, 0.01).map(Math.abs);
    const decay = Float32Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 0 : 1));
    const [t, lr, b1, b2, eps, wd] = [3, 1e-2, 0.9, 0.95, 1e-8, 0.1];
    const g = Float32Array.from(grads);
    const norm = ref.clipGradients(g, n, clip);
    const p2 = Float32Array.from(params);
    const m2 = Float32Array.from(m);
    const v2 = Float32Array.from(v);
    for (let i = 0; i < n && finite; i++) {
      ref.adamwUpdate(p2.subarray(i, i + 1), g.subarray(i, i + 1), m2.subarray(i, i + 1), v2.subarray(i, i + 1), t, lr, b1, b2, eps, decay[i] ? wd : 0, 1);
    }
    const met = new Float32Array(METRIC_FLOATS).fill(NaN); // every slot it writes must be written
    met[M.LOSS] = lossValue;
    const fused = form !== 'row';
    const state = () => ({ params: buf(params), grads: buf(grads), m: buf(m), v: buf(v), decay: buf(decay), metrics: buf(met), normPartials: empty(Ops.NORM_PARTIAL_SLOTS) });
    const [a, b] = [state(), state()];
    const un = ops.uniform(ops.gradNormUniform(n, clip));
    const ua = ops.uniform(Ops.adamwUniform(n, t, lr, b1, b2, eps, wd));
    let fusedDispatches = 0;
    const out = (x: typeof a) => [{ buffer: x.metrics, floats: METRIC_FLOATS }, { buffer: x.params, floats: n }, { buffer: x.m, floats: n }, { buffer: x.v, floats: n }];
    const r = await ctx.run(
      (p) => {
        ops.gradNorm(p, a.metrics, a.normPartials, a.grads, un);
        ops.adamw(p, a.params, a.grads, a.m, a.v, a.metrics, a.decay, n, ua);
        const d0 = ops.dispatches;
        if (fused) ops.optimizerStep(p, b, n, un, ua);
        fusedDispatches = ops.dispatches - d0;
      },
      [...out(a), ...(fused ? out(b) : [])],
    );
    const shape = `n${n} clip${clip}${finite ? '' : ' loss NaN'} ${form}`;
    const rowsOf = (name: string, x: Float32Array[], want: { norm: number; flag: number; p: Float32Array; m: Float32Array; v: Float32Array }) => [
      compare(`${name}: grad_norm`, shape, [x[0][M.GRAD_NORM]], [want.norm]),
      compare(`${name}: finite flag`, shape, [x[0][M.FINITE]], [want.flag]),
      compare(`${name}: params`, shape, x[1], want.p),
      compare(`${name}: m`, shape, x[2], want.m),
      compare(`${name}: v`, shape, x[3], want.v),
    ];
    // the step is skipped on a NaN loss; the norm itself is still reported
    rows.push(...rowsOf('grad_norm + adamw_step', r.slice(0, 4), { norm, flag: finite ? 1 : 0, p: p2, m: m2, v: v2 }));
    if (fused) {
      const fr = r.slice(4, 8);
      rows.push(...rowsOf('adamw_clip_step', fr, { norm, flag: finite ? 1 : 0, p: p2, m: m2, v: v2 }));
      rows.push(...rowsOf('adamw_clip_step vs grad_norm_finalize + adamw_step', fr, { norm: r[0][M.GRAD_NORM], flag: r[0][M.FINITE], p: r[1], m: r[2], v: r[3] }));
      rows.push(compare('adamw_clip_step: clip scale vs grad_norm_finalize', shape, [fr[0][M.CLIP_SCALE]], [r[0][M.CLIP_SCALE]]));
      rows.push(compare('optimizerStep (tree form): 2 dispatches', shape, [fusedDispatches], [2]));
    }
  }
  ops.reductionForm = defaultForm;
  // ---- the fused decode block against the CPU reference and the op-by-op decode (decode-parity.ts)
  rows.push(...(await decodeParityRows(ctx, compare)));
  ctx.destroy();
  return rows;
}

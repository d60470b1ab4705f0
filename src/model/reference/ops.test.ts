/**
 * The contracts of ops.ts that the WGSL twins must reproduce exactly and that the whole-model
 * gradient check cannot see: the sampling procedure's bin edges and ties, causality, masked
 * outputs, the accumulate (+=) convention, clipping and the AdamW formula.
 * (Every backward is also checked by finite differences in gradcheck.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { adamwUpdate, attentionForward, clipGradients, decaysWeights, logsoftmaxForward, matmulBackward, sampleToken } from './ops.ts';

describe('sampleToken: first j with cumsum(e) > u·S', () => {
  const logits = Float64Array.from([0, 0, Math.log(2)]); // p = 1/4, 1/4, 1/2; e = 0.5, 0.5, 1; S = 2
  it('bin edges belong to the next token', () => {
    expect(sampleToken(logits, 3, 1, 0).token).toBe(0);
    expect(sampleToken(logits, 3, 1, 0.2499).token).toBe(0);
    expect(sampleToken(logits, 3, 1, 0.25).token).toBe(1); // c = 0.5 is not > 0.5
    expect(sampleToken(logits, 3, 1, 0.5).token).toBe(2);
    expect(sampleToken(logits, 3, 1, 1 - 2 ** -24).token).toBe(2);
  });
  it('returns the log-prob of the token at the temperature', () => {
    const r = sampleToken(logits, 3, 1, 0.9);
    expect(r.logprob).toBeCloseTo(Math.log(0.5), 12);
    const t2 = sampleToken(logits, 3, 2, 0.9); // softmax(z/2): e = 1, 1, √2
    expect(t2.logprob).toBeCloseTo(Math.log(Math.SQRT2 / (2 + Math.SQRT2)), 12);
  });
  it('temperature 0 is argmax with ties to the lowest id, log-prob at temperature 1', () => {
    const z = Float32Array.from([1, 3, 3, 2]);
    const r = sampleToken(z, 4, 0, 0.99);
    expect(r.token).toBe(1);
    const S = Math.exp(1) + 2 * Math.exp(3) + Math.exp(2);
    expect(r.logprob).toBeCloseTo(3 - Math.log(S), 6);
  });
  it('never picks a token with probability 0', () => {
    const z = Float64Array.from([0, 0, -Infinity]);
    expect(sampleToken(z, 3, 1, 1 - 2 ** -24).token).toBe(1);
  });
});

describe('attentionForward', () => {
  it('is causal, rows of att sum to 1, the future is exactly 0', () => {
    const B = 1, T = 4, D = 4, H = 2;
    const qkv = Float64Array.from({ length: B * T * 3 * D }, (_, i) => Math.sin(i * 1.7));
    const out1 = new Float64Array(B * T * D);
    const pre = new Float64Array(B * H * T * T);
    const att = new Float64Array(B * H * T * T);
    attentionForward(out1, pre, att, qkv, B, T, D, H);
    for (let h = 0; h < H; h++) {
      for (let t = 0; t < T; t++) {
        let s = 0;
        for (let t2 = 0; t2 < T; t2++) {
          const a = att[(h * T + t) * T + t2];
          if (t2 > t) expect(a).toBe(0);
          s += a;
        }
        expect(s).toBeCloseTo(1, 12);
      }
    }
    // change the last position's q, k and v: outputs at t < T-1 must not move
    const qkv2 = qkv.slice();
    for (let i = (T - 1) * 3 * D; i < T * 3 * D; i++) qkv2[i] += 5;
    const out2 = new Float64Array(B * T * D);
    attentionForward(out2, pre, att, qkv2, B, T, D, H);
    expect(Array.from(out2.subarray(0, (T - 1) * D))).toEqual(Array.from(out1.subarray(0, (T - 1) * D)));
    expect(out2[(T - 1) * D]).not.toBe(out1[(T - 1) * D]);
  });
});

describe('logsoftmaxForward', () => {
  it('uniform logits: entropy log V, log-prob −log V; masked positions give 0', () => {
    const V = 5;
    const logits = new Float64Array(2 * V).fill(0.3);
    const lp = new Float64Array(2);
    const H = new Float64Array(2);
    const probs = new Float64Array(2 * V);
    logsoftmaxForward(lp, H, probs, logits, Int32Array.from([2, 4]), [1, 0], 0.5, 2, V);
    expect(lp[0]).toBeCloseTo(-Math.log(V), 12);
    expect(H[0]).toBeCloseTo(Math.log(V), 12);
    expect(lp[1]).toBe(0);
    expect(H[1]).toBe(0);
    expect(probs[V + 1]).toBeCloseTo(1 / V, 12); // probabilities still filled for masked rows
  });
});

describe('backward accumulates (+=), like llm.c', () => {
  it('two matmulBackward calls give twice the gradient', () => {
    const N = 3, C = 2, OC = 4;
    const inp = Float64Array.from({ length: N * C }, (_, i) => i - 2.5);
    const w = Float64Array.from({ length: C * OC }, (_, i) => 0.1 * i);
    const dout = Float64Array.from({ length: N * OC }, (_, i) => Math.cos(i));
    const once = { dinp: new Float64Array(N * C), dw: new Float64Array(C * OC), db: new Float64Array(OC) };
    const twice = { dinp: new Float64Array(N * C), dw: new Float64Array(C * OC), db: new Float64Array(OC) };
    matmulBackward(once.dinp, once.dw, once.db, dout, inp, w, N, C, OC);
    for (let k = 0; k < 2; k++) matmulBackward(twice.dinp, twice.dw, twice.db, dout, inp, w, N, C, OC);
    for (const key of ['dinp', 'dw', 'db'] as const) once[key].forEach((x, i) => expect(twice[key][i]).toBeCloseTo(2 * x, 12));
    // and the values themselves: dw[c,o] = Σ_n inp[n,c]·dout[n,o]
    let s = 0;
    for (let n = 0; n < N; n++) s += inp[n * C + 1] * dout[n * OC + 3];
    expect(once.dw[1 * OC + 3]).toBeCloseTo(s, 12);
  });
});

describe('optimizer', () => {
  it('clipGradients scales to maxNorm, returns the pre-clip norm, 0 is off', () => {
    const g = Float64Array.from([3, 4]);
    expect(clipGradients(g, 2, 1)).toBe(5);
    expect(g[0]).toBeCloseTo(0.6, 15);
    expect(g[1]).toBeCloseTo(0.8, 15);
    const h = Float64Array.from([3, 4]);
    expect(clipGradients(h, 2, 0)).toBe(5);
    expect(Array.from(h)).toEqual([3, 4]);
    const k = Float64Array.from([0.3, 0.4]);
    clipGradients(k, 2, 1);
    expect(Array.from(k)).toEqual([0.3, 0.4]); // below the limit: untouched
  });

  it('adamwUpdate follows the bias-corrected formula with decoupled decay, two steps by hand', () => {
    const p = Float64Array.from([0.5]);
    const m = new Float64Array(1);
    const v = new Float64Array(1);
    const [lr, b1, b2, eps, wd] = [0.1, 0.9, 0.99, 1e-8, 0.01];
    let P = 0.5, M = 0, Vv = 0;
    for (const [t, g] of [[1, 0.2], [2, -0.1]] as const) {
      adamwUpdate(p, Float64Array.from([g]), m, v, t, lr, b1, b2, eps, wd, 1);
      M = b1 * M + (1 - b1) * g;
      Vv = b2 * Vv + (1 - b2) * g * g;
      P = P - lr * (M / (1 - b1 ** t) / (Math.sqrt(Vv / (1 - b2 ** t)) + eps) + wd * P);
      expect(p[0]).toBeCloseTo(P, 14);
    }
  });

  it('weight decay applies to 2-D tensors only', () => {
    expect(decaysWeights([16, 48])).toBe(true);
    expect(decaysWeights([48])).toBe(false);
  });
});

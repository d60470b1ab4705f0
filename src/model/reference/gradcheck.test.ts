/**
 * Gradient check of the whole reference model in float64: for EVERY parameter tensor, the
 * analytic gradient of backward() against central finite differences
 *   n_i = (L(θ + h·e_i) − L(θ − h·e_i)) / 2h,   h = 1e-5,
 * on 20 random entries per tensor plus the entry with the largest analytic gradient.
 *
 * Relative error of one entry: |a − n| / max(|a| + |n|, 1e-3 · max_j |a_j|) with the max over
 * the tensor's analytic gradient — entries far below the tensor's own scale are judged
 * against that scale, so round-off on a near-zero entry cannot pass for a bug or hide one.
 * Threshold: max relative error per tensor < 1e-4.
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../config.ts';
import { initWeights } from '../init.ts';
import { Rng } from '../rng.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { crossEntropyGradLogprob, meanCrossEntropy } from '../crossEntropy.ts';
import { ReferenceModel } from './model.ts';

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 8, dModel: 16, nHeads: 2, nLayers: 2 };
const B = 2;
const T = 8;
const H_STEP = 1e-5;
const THRESHOLD = 1e-4;

function makeBatch(seed: number) {
  const rng = new Rng(seed);
  const inputs = new Int32Array(B * T);
  const targets = new Int32Array(B * T);
  const mask = new Float64Array(B * T);
  for (let i = 0; i < B * T; i++) {
    inputs[i] = rng.int(VOCAB_SIZE);
    targets[i] = rng.int(VOCAB_SIZE);
    mask[i] = i % T >= 2 ? 1 : 0; // a "prompt" of 2 unscored positions per row
  }
  mask[B * T - 1] = 0; // and some padding
  return { inputs, targets, mask };
}

/** A float64 model with non-trivial weights: init, then jitter every parameter (LN gains and biases included) so no gradient is structurally zero. */
function makeModel(): ReferenceModel {
  const model = new ReferenceModel(config, 'f64');
  const w = initWeights(model.layout, 1234);
  const rng = new Rng(99);
  for (const t of model.layout.tensors) {
    for (let i = 0; i < t.size; i++) {
      // scaled-up weights so attention is not uniform and GELU is not in its linear regime
      const base = t.init === 'normal' ? 10 * w[t.offset + i] : w[t.offset + i];
      model.params[t.offset + i] = base + 0.1 * rng.normal();
    }
  }
  return model;
}

interface Objective {
  name: string;
  tau: number;
  /** The scalar loss of the current forward + logsoftmax. */
  value: (m: ReferenceModel) => number;
  /** Its per-token gradients. */
  grads: (m: ReferenceModel) => { gL: ArrayLike<number>; gE: ArrayLike<number> | null };
}

function runCheck(obj: Objective) {
  const { inputs, targets, mask } = makeBatch(7);
  const model = makeModel();
  const loss = () => {
    model.forward(inputs, B, T);
    model.logsoftmax(targets, mask, obj.tau);
    return obj.value(model);
  };
  loss();
  const { gL, gE } = obj.grads(model);
  model.zeroGrad();
  model.backward(gL, gE);
  const analytic = Float64Array.from(model.grads);

  const rng = new Rng(2024);
  const rows: { tensor: string; entries: number; maxAbsGrad: number; maxRelErr: number }[] = [];
  for (const t of model.layout.tensors) {
    let scale = 0;
    let argmax = 0;
    for (let i = 0; i < t.size; i++) {
      const a = Math.abs(analytic[t.offset + i]);
      if (a > scale) {
        scale = a;
        argmax = i;
      }
    }
    const picks = new Set<number>([argmax]);
    while (picks.size < Math.min(21, t.size)) picks.add(rng.int(t.size));
    let maxRel = 0;
    for (const i of picks) {
      const k = t.offset + i;
      const orig = model.params[k];
      model.params[k] = orig + H_STEP;
      const lp = loss();
      model.params[k] = orig - H_STEP;
      const lm = loss();
      model.params[k] = orig;
      const num = (lp - lm) / (2 * H_STEP);
      const a = analytic[k];
      const rel = Math.abs(a - num) / Math.max(Math.abs(a) + Math.abs(num), 1e-3 * scale);
      maxRel = Math.max(maxRel, rel);
    }
    rows.push({ tensor: t.name, entries: picks.size, maxAbsGrad: scale, maxRelErr: maxRel });
  }
  console.log(`gradcheck (${obj.name}, tau=${obj.tau}), float64, h=${H_STEP}:`);
  console.table(rows.map((r) => ({ ...r, maxAbsGrad: r.maxAbsGrad.toExponential(2), maxRelErr: r.maxRelErr.toExponential(2) })));
  return rows;
}

describe('reference model gradient check (float64, finite differences)', () => {
  it('mean cross-entropy: every tensor within 1e-4', () => {
    const rows = runCheck({
      name: 'mean CE',
      tau: 1,
      value: (m) => meanCrossEntropy(m.logprobs.subarray(0, B * T), makeBatch(7).mask),
      grads: () => ({ gL: crossEntropyGradLogprob(makeBatch(7).mask), gE: null }),
    });
    expect(rows.length).toBe(29); // every tensor of the L = 2 layout
    for (const r of rows) {
      expect(r.maxAbsGrad, r.tensor).toBeGreaterThan(0);
      expect(r.maxRelErr, r.tensor).toBeLessThan(THRESHOLD);
    }
  });

  it('arbitrary per-token gradient with an entropy term at temperature 0.7: every tensor within 1e-4', () => {
    // L = Σ_n gL[n]·logp[n] + Σ_n gE[n]·H[n] with fixed random coefficients: its exact gradient is backward(gL, gE)
    const rng = new Rng(5);
    const { mask } = makeBatch(7);
    const gL = new Float64Array(B * T);
    const gE = new Float64Array(B * T);
    for (let i = 0; i < B * T; i++) {
      gL[i] = mask[i] * rng.normal();
      gE[i] = mask[i] * rng.normal();
    }
    const rows = runCheck({
      name: 'per-token logp + entropy',
      tau: 0.7,
      value: (m) => {
        let s = 0;
        for (let i = 0; i < B * T; i++) s += gL[i] * m.logprobs[i] + gE[i] * m.entropy[i];
        return s;
      },
      grads: () => ({ gL, gE }),
    });
    for (const r of rows) {
      expect(r.maxAbsGrad, r.tensor).toBeGreaterThan(0);
      expect(r.maxRelErr, r.tensor).toBeLessThan(THRESHOLD);
    }
  });

  it('the check can fail: a wrong gradient (lm_head entry perturbed) is caught', () => {
    // Guards the guard: a 1% error in one analytic entry must exceed the threshold.
    const { inputs, targets, mask } = makeBatch(7);
    const model = makeModel();
    model.forward(inputs, B, T);
    model.logsoftmax(targets, mask, 1);
    model.zeroGrad();
    model.backward(crossEntropyGradLogprob(mask));
    const t = model.layout.byName['lm_head'];
    const k = t.offset + 3;
    const wrong = model.grads[k] * 1.01;
    const orig = model.params[k];
    const f = (x: number) => {
      model.params[k] = x;
      model.forward(inputs, B, T);
      model.logsoftmax(targets, mask, 1);
      return meanCrossEntropy(model.logprobs.subarray(0, B * T), mask);
    };
    const num = (f(orig + H_STEP) - f(orig - H_STEP)) / (2 * H_STEP);
    expect(Math.abs(wrong - num) / (Math.abs(wrong) + Math.abs(num))).toBeGreaterThan(THRESHOLD);
  });
});

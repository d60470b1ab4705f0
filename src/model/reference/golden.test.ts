/**
 * The reference model against PyTorch (src/model/goldens/micro.json, written by scripts/golden.py
 * in float64 from the weights and batch of scripts/golden-input.ts; CI needs no torch).
 *
 * Compared: logits, mean-CE loss and every parameter gradient; the gradients of a per-token
 * logp + entropy loss at temperature 0.7; the losses and gradient norms of 10 AdamW steps with
 * clipping on. Error of a tensor = max_i |ref_i − golden_i| / max_i |golden_i| (relative to the
 * tensor's scale), of a scalar = |ref − golden| / |golden|.
 * Thresholds: the shipped float32 model 1e-4; the same code in float64 1e-7 (the goldens keep
 * 10 significant digits), which catches small discrepancies float32 noise would hide.
 */
import { describe, expect, it } from 'vitest';
import golden from '../goldens/micro.json';
import type { ModelConfig } from '../config.ts';
import { paramLayout } from '../config.ts';
import { initWeights } from '../init.ts';
import { ReferenceBackend } from './backend.ts';
import type { DType } from './model.ts';
import { crossEntropyGradLogprob, meanCrossEntropy } from '../crossEntropy.ts';
import { ReferenceModel } from './model.ts';

const config = golden.config as ModelConfig;
const layout = paramLayout(config);
const { B, T } = golden.batch;
const inputs = Int32Array.from(golden.batch.inputs);
const targets = Int32Array.from(golden.batch.targets);
const mask = Float32Array.from(golden.batch.mask);
const TOL: Record<DType, number> = { f32: 1e-4, f64: 1e-7 };

/** The golden's initial weights, rebuilt exactly as scripts/golden-input.ts builds them. */
function goldenWeights(): Float32Array {
  const w = initWeights(layout, golden.seed);
  for (const t of layout.tensors) if (t.init === 'normal') for (let i = t.offset; i < t.offset + t.size; i++) w[i] *= golden.initScale;
  return w;
}

function scaledErr(ref: ArrayLike<number>, gold: number[]): number {
  let scale = 0;
  let diff = 0;
  for (let i = 0; i < gold.length; i++) {
    scale = Math.max(scale, Math.abs(gold[i]));
    diff = Math.max(diff, Math.abs(ref[i] - gold[i]));
  }
  return diff / scale;
}

const relErr = (a: number, g: number) => Math.abs(a - g) / Math.abs(g);

/** Gradients of one loss on a model of this dtype, compared tensor by tensor. */
function gradErrors(dtype: DType, kind: 'ce' | 'pertoken'): { loss: number; logits: number; tensors: Record<string, number> } {
  const model = new ReferenceModel(config, dtype, goldenWeights());
  const logits = model.forward(inputs, B, T);
  const logitsErr = scaledErr(logits, golden.ce.logits);
  let loss: number;
  if (kind === 'ce') {
    model.logsoftmax(targets, mask, 1);
    loss = meanCrossEntropy(model.logprobs.subarray(0, B * T), mask);
    model.zeroGrad();
    model.backward(crossEntropyGradLogprob(mask));
  } else {
    const pt = golden.pertoken;
    model.logsoftmax(targets, mask, pt.tau);
    loss = 0;
    for (let i = 0; i < B * T; i++) loss += pt.gradLogprob[i] * model.logprobs[i] + pt.gradEntropy[i] * model.entropy[i];
    model.zeroGrad();
    model.backward(pt.gradLogprob, pt.gradEntropy);
  }
  const gold = kind === 'ce' ? golden.ce : golden.pertoken;
  const tensors: Record<string, number> = {};
  for (const t of layout.tensors) tensors[t.name] = scaledErr(model.grads.subarray(t.offset, t.offset + t.size), (gold.grads as Record<string, number[]>)[t.name]);
  return { loss: relErr(loss, gold.loss), logits: logitsErr, tensors };
}

describe('reference model vs PyTorch goldens (micro config)', () => {
  it('rebuilds the golden initial weights bit-exactly (init draw order unchanged)', () => {
    const w = goldenWeights();
    let s = 0;
    let s2 = 0;
    for (const x of w) {
      s += x;
      s2 += x * x;
    }
    expect(relErr(s, golden.initWeightSum)).toBeLessThan(1e-8);
    expect(relErr(s2, golden.initWeightSumSq)).toBeLessThan(1e-8);
  });

  it('logits, losses and every parameter gradient match (CE and logp+entropy at tau 0.7)', () => {
    const rows: Record<string, string>[] = [];
    const results = {
      f32: { ce: gradErrors('f32', 'ce'), pt: gradErrors('f32', 'pertoken') },
      f64: { ce: gradErrors('f64', 'ce'), pt: gradErrors('f64', 'pertoken') },
    };
    const fmt = (x: number) => x.toExponential(2);
    rows.push({ what: 'logits', f32_ce: fmt(results.f32.ce.logits), f64_ce: fmt(results.f64.ce.logits), f32_pertoken: '', f64_pertoken: '' });
    rows.push({ what: 'loss', f32_ce: fmt(results.f32.ce.loss), f64_ce: fmt(results.f64.ce.loss), f32_pertoken: fmt(results.f32.pt.loss), f64_pertoken: fmt(results.f64.pt.loss) });
    for (const t of layout.tensors) {
      rows.push({ what: t.name, f32_ce: fmt(results.f32.ce.tensors[t.name]), f64_ce: fmt(results.f64.ce.tensors[t.name]), f32_pertoken: fmt(results.f32.pt.tensors[t.name]), f64_pertoken: fmt(results.f64.pt.tensors[t.name]) });
    }
    console.log('golden comparison: max |ref − torch| / max |torch| per tensor (scalars: relative error)');
    console.table(rows);
    for (const dtype of ['f32', 'f64'] as const) {
      const tol = TOL[dtype];
      for (const r of [results[dtype].ce, results[dtype].pt]) {
        expect(r.logits, `${dtype} logits`).toBeLessThan(tol);
        expect(r.loss, `${dtype} loss`).toBeLessThan(tol);
        for (const [name, e] of Object.entries(r.tensors)) expect(e, `${dtype} grad ${name}`).toBeLessThan(tol);
      }
    }
  });

  it('10 AdamW steps (clip on, decay on matrices) give the golden losses and gradient norms', async () => {
    const a = golden.train.adamw;
    const opt = { lr: a.lr, beta1: a.beta1, beta2: a.beta2, eps: a.eps, weightDecay: a.weightDecay, gradClip: a.gradClip };
    const table: Record<string, string | number>[] = [];
    const errs: Record<DType, { loss: number; norm: number }> = { f32: { loss: 0, norm: 0 }, f64: { loss: 0, norm: 0 } };
    const runs: Record<DType, number[]> = { f32: [], f64: [] };
    for (const dtype of ['f32', 'f64'] as const) {
      const be = new ReferenceBackend(config, goldenWeights(), { dtype });
      for (let s = 0; s < a.steps; s++) {
        const r = await be.trainStep({ B, T, inputs, targets, mask }, { kind: 'ce' }, opt);
        expect(r.finite).toBe(true);
        runs[dtype].push(r.loss);
        errs[dtype].loss = Math.max(errs[dtype].loss, relErr(r.loss, golden.train.losses[s]));
        errs[dtype].norm = Math.max(errs[dtype].norm, relErr(r.gradNorm, golden.train.gradNorms[s]));
      }
      expect((await be.getOptimizerState()).step).toBe(a.steps);
    }
    for (let s = 0; s < a.steps; s++) table.push({ step: s + 1, torch: golden.train.losses[s].toFixed(7), f32: runs.f32[s].toFixed(7), f64: runs.f64[s].toFixed(7) });
    console.log(`10 AdamW steps (lr ${a.lr}, wd ${a.weightDecay} on matrices, clip ${a.gradClip}): max rel err loss f32 ${errs.f32.loss.toExponential(2)}, f64 ${errs.f64.loss.toExponential(2)}; grad norm f32 ${errs.f32.norm.toExponential(2)}, f64 ${errs.f64.norm.toExponential(2)}`);
    console.table(table);
    for (const dtype of ['f32', 'f64'] as const) {
      expect(errs[dtype].loss, `${dtype} losses`).toBeLessThan(TOL[dtype]);
      expect(errs[dtype].norm, `${dtype} grad norms`).toBeLessThan(TOL[dtype]);
    }
  });
});

/**
 * ReferenceBackend plumbing: the policy loss path, the frozen reference policy, non-finite steps,
 * weight decay on matrices only, and resuming from a checkpoint.
 */
import { describe, expect, it } from 'vitest';
import type { AdamWSettings, PolicyLossSettings, TokenBatch } from '../backend.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../checkpoint.ts';
import type { ModelConfig } from '../config.ts';
import { Rng } from '../rng.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { ReferenceBackend } from './backend.ts';

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 10, dModel: 16, nHeads: 2, nLayers: 1 };
const opt: AdamWSettings = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1.0 };
const B = 3;
const T = 10;

function batch(seed: number): TokenBatch {
  const rng = new Rng(seed);
  const inputs = new Int32Array(B * T).map(() => rng.int(VOCAB_SIZE));
  const targets = new Int32Array(B * T).map(() => rng.int(VOCAB_SIZE));
  // response tokens start at position 3; row b has 7 - b of them
  const mask = new Float32Array(B * T).map((_, i) => (i % T >= 3 && i % T < 10 - Math.floor(i / T) ? 1 : 0));
  return { B, T, inputs, targets, mask };
}

const policy = (over: Partial<PolicyLossSettings> = {}): PolicyLossSettings => ({
  epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token',
  entropyCoef: 0, maxCompletionLength: 7, temperature: 0.9, ...over,
});

describe('ReferenceBackend', () => {
  it('on-policy GRPO (β = 0) has the gradient of its per-token policy gradient −A/(B·|o|); the temperature reaches the loss', async () => {
    // gradients are compared (clip off), not updated weights: Adam's first step is ≈ sign(g) and
    // would amplify the float32 rounding of the hand-made per-token gradient on near-zero entries
    const bt = batch(1);
    const advantages = Float32Array.from([1.5, -0.5, 0.25]);
    const noClip = { ...opt, gradClip: 0 };
    const a = ReferenceBackend.create(config, 9);
    const b = ReferenceBackend.create(config, 9);
    const c = ReferenceBackend.create(config, 9);
    const ra = await a.trainStep(bt, { kind: 'policy', advantages, oldLogprobs: null, ...policy() }, noClip);
    // a 'pertoken' loss runs at temperature 1: compare it with the policy loss at temperature 1
    const rc = await c.trainStep(bt, { kind: 'policy', advantages, oldLogprobs: null, ...policy({ temperature: 1 }) }, noClip);
    const gL = new Float32Array(B * T);
    for (let r = 0; r < B; r++) {
      let len = 0;
      for (let t = 0; t < T; t++) len += bt.mask[r * T + t];
      for (let t = 0; t < T; t++) gL[r * T + t] = (bt.mask[r * T + t] * -advantages[r]) / (B * len);
    }
    const rb = await b.trainStep(bt, { kind: 'pertoken', gradLogprob: gL }, noClip);
    expect(rc.finite && rb.finite && ra.finite).toBe(true);
    const rel = (x: ArrayLike<number>, y: ArrayLike<number>) => {
      let d = 0;
      let s = 0;
      for (let i = 0; i < x.length; i++) {
        d = Math.max(d, Math.abs(x[i] - y[i]));
        s = Math.max(s, Math.abs(y[i]));
      }
      return d / s;
    };
    expect(rel(c.model.grads, b.model.grads)).toBeLessThan(1e-5);
    expect(rc.gradNorm).toBeCloseTo(rb.gradNorm, 6);
    expect(rel(a.model.grads, c.model.grads)).toBeGreaterThan(1e-2); // temperature 0.9 is another gradient
    expect(ra.metrics.ratio_mean).toBe(1);
    expect(ra.metrics['clip_ratio/region_mean']).toBe(0);
  });

  it('β > 0: π_ref is frozen at snapshotReference, KL starts at 0 and grows as π_θ moves', async () => {
    const bt = batch(2);
    const be = ReferenceBackend.create(config, 4);
    await expect(be.logprobs(bt, { reference: true })).rejects.toThrow(/snapshotReference/);
    await be.snapshotReference();
    const before = await be.logprobs(bt, { reference: true, temperature: 0.9 });
    const loss = { kind: 'policy' as const, advantages: Float32Array.from([1, -1, 0.5]), oldLogprobs: null, ...policy({ beta: 0.04 }) };
    const first = await be.trainStep(bt, loss, opt);
    expect(first.metrics.kl).toBeCloseTo(0, 12);
    let last = first;
    for (let i = 0; i < 4; i++) last = await be.trainStep(bt, loss, opt);
    expect(last.metrics.kl).toBeGreaterThan(1e-4);
    // the exact KL over the vocabulary (a metric): 0 at the start, then the token mean of exactKlToReference
    expect(first.metrics.kl_exact).toBeCloseTo(0, 12);
    const exact = be.exactKlToReference(bt, 0.9);
    let s = 0, n = 0;
    for (let i = 0; i < B * T; i++) { s += exact[i]; n += bt.mask[i]; }
    const next = await be.trainStep(bt, loss, opt); // measures at the weights `exact` saw, then updates
    expect(next.metrics.kl_exact).toBeGreaterThan(1e-4);
    expect(next.metrics.kl_exact).toBeCloseTo(s / n, 12);
    // with no leash and no measurement, no π_ref pass and no KL metrics
    const free = await be.trainStep(bt, { ...loss, beta: 0, measureKl: false }, opt);
    expect(free.metrics.kl_exact).toBeUndefined();
    const after = await be.logprobs(bt, { reference: true, temperature: 0.9 });
    expect(Array.from(after.logprobs)).toEqual(Array.from(before.logprobs));
    const policyNow = await be.logprobs(bt, { temperature: 0.9 });
    expect(Array.from(policyNow.logprobs)).not.toEqual(Array.from(before.logprobs));
  });

  it('a step with a non-finite gradient is reported and not applied', async () => {
    const bt = batch(3);
    const be = ReferenceBackend.create(config, 5);
    const w0 = await be.getWeights();
    const gL = new Float32Array(B * T);
    gL[5] = NaN;
    const r = await be.trainStep(bt, { kind: 'pertoken', gradLogprob: gL }, opt);
    expect(r.finite).toBe(false);
    expect(Array.from(await be.getWeights())).toEqual(Array.from(w0));
    expect((await be.getOptimizerState()).step).toBe(0);
    // overflowing learning rate: finite gradients, infinite update
    const r2 = await be.trainStep(bt, { kind: 'ce' }, { ...opt, lr: 1e308, weightDecay: 1e308 });
    expect(r2.finite).toBe(false);
    expect(Array.from(await be.getWeights())).toEqual(Array.from(w0));
  });

  it('weight decay shrinks matrices only: with zero gradient, p ← p(1 − lr·wd) for 2-D tensors, the rest unchanged', async () => {
    const be = ReferenceBackend.create(config, 6);
    const w0 = await be.getWeights();
    const r = await be.trainStep(batch(4), { kind: 'pertoken', gradLogprob: new Float32Array(B * T) }, opt);
    expect(r.gradNorm).toBe(0);
    const w1 = await be.getWeights();
    for (const t of be.layout.tensors) {
      const f = t.shape.length >= 2 ? 1 - opt.lr * opt.weightDecay : 1;
      for (let i = t.offset; i < t.offset + t.size; i++) expect(w1[i], t.name).toBeCloseTo(w0[i] * f, 7);
    }
  });

  it('resuming from a checkpoint with optimizer state continues bit-identically', async () => {
    const bt = batch(5);
    const a = ReferenceBackend.create(config, 7);
    for (let i = 0; i < 3; i++) await a.trainStep(bt, { kind: 'ce' }, opt);
    const bytes = encodeCheckpoint({ config, weights: await a.getWeights(), optimizer: await a.getOptimizerState(), metadata: { step: 3 } });
    const d = decodeCheckpoint(bytes, { config });
    const b = new ReferenceBackend(config, d.weights);
    await b.setOptimizerState(d.optimizer!);
    const ra = await a.trainStep(bt, { kind: 'ce' }, opt);
    const rb = await b.trainStep(bt, { kind: 'ce' }, opt);
    expect(rb.loss).toBe(ra.loss);
    expect(Array.from(await b.getWeights())).toEqual(Array.from(await a.getWeights()));
    expect((await b.getOptimizerState()).step).toBe(4);
  });
});

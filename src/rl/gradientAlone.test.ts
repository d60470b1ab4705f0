// The step-through's "this batch's gradient alone" beside AdamW's applied step, and what it rests on:
// Backend.gradient() (checked against finite differences of the loss, and leaving the state alone),
// TrainStepResult.answerLogRatio (each answer's shift after the first inner epoch, checked against
// log-probs read after a one-epoch update), and the inspection's step geometry and counts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adamwSettings } from '../model/backend.ts';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { baseCheckpointPath } from './bases.ts';
import { pushCounts, SHORT_STEP } from './inspection.ts';
import { policyLossOf } from './lossSpec.ts';
import { defaultSettings, type Settings } from './settings.ts';
import { rolloutWithAdvantages } from './testing/phases.ts';
import { GrpoTrainer, type StepPhase } from './trainer.ts';

const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath('add', 2)!)));
const settings: Settings = { ...defaultSettings(), task: 'add', difficulty: 2, promptsPerStep: 4, numGenerations: 8, formatReward: 0, numIterations: 2, warmupSteps: 0, beta: 0.04, seed: 5 };
const fresh = () => new ReferenceBackend(ck.config, ck.weights);
const norm = (x: ArrayLike<number>) => Math.sqrt(Array.from(x).reduce((a, v) => a + v * v, 0));

describe('Backend.gradient and answerLogRatio (CPU reference)', async () => {
  const be = fresh();
  await be.snapshotReference();
  const tr = new GrpoTrainer(be, settings, { evalSize: 4, evalPassAtK: false });
  await tr.trainStep(); // π_θ ≠ π_ref, AdamW has moments
  const { rollout, batch } = await rolloutWithAdvantages(tr);
  const spec = policyLossOf(rollout, batch, settings);

  it('gradient() is the loss gradient (central differences along three random directions) and changes nothing', async () => {
    const w0 = await be.getWeights();
    const opt0 = await be.getOptimizerState();
    const { loss, grads } = await be.gradient(batch, spec);
    expect(norm(grads)).toBeGreaterThan(1e-4);
    expect(await be.getWeights()).toEqual(w0);
    expect((await be.getOptimizerState()).m).toEqual(opt0.m);
    const lossAt = async (w: Float32Array) => { await be.setWeights(w); return (await be.gradient(batch, spec)).loss; };
    let seed = 11;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5;
    for (let k = 0; k < 3; k++) {
      const u = Float32Array.from(w0, () => rand());
      const un = norm(u);
      const h = 1e-3;
      const plus = Float32Array.from(w0, (x, i) => x + (h * u[i]) / un);
      const minus = Float32Array.from(w0, (x, i) => x - (h * u[i]) / un);
      const fd = ((await lossAt(plus)) - (await lossAt(minus))) / (2 * h);
      const analytic = grads.reduce((a, g, i) => a + (g * u[i]) / un, 0);
      expect(Math.abs(fd - analytic), `direction ${k}: fd ${fd} vs g·u ${analytic}`).toBeLessThan(2e-2 * Math.abs(analytic) + 1e-5);
    }
    await be.setWeights(w0);
    expect(await lossAt(w0)).toBeCloseTo(loss, 10);
  });

  it('answerLogRatio at µ = 2 is each answer\'s Σ log π after one epoch minus π_old', async () => {
    const w0 = await be.getWeights();
    const opt0 = await be.getOptimizerState();
    const adamw = adamwSettings(settings.learningRate, settings.maxGradNorm);
    const two = await be.trainStep(batch, spec, adamw, { epochs: 2 });
    expect(two.answerLogRatio!.length).toBe(batch.B);
    await be.setWeights(w0);
    await be.setOptimizerState(opt0);
    const one = await be.trainStep(batch, spec, adamw, { epochs: 1 });
    expect(one.answerLogRatio).toBeUndefined(); // µ = 1: no second epoch to read it at
    const after = await be.logprobs(batch, { temperature: settings.temperature });
    const { B, T, mask } = batch;
    let worst = 0, scale = 0;
    for (let b = 0; b < B; b++) {
      let x = 0;
      for (let t = 0; t < T; t++) x += mask[b * T + t] * (after.logprobs[b * T + t] - spec.oldLogprobs![b * T + t]);
      worst = Math.max(worst, Math.abs(x - two.answerLogRatio![b]));
      scale = Math.max(scale, Math.abs(x));
    }
    expect(scale).toBeGreaterThan(1e-3); // the first epoch moved the answers
    expect(worst).toBeLessThan(1e-5 * scale + 1e-6);
    await be.setWeights(w0);
    await be.setOptimizerState(opt0);
  });
});

describe('the update phase: this batch\'s gradient alone beside the applied step', async () => {
  const be = fresh();
  const tr = new GrpoTrainer(be, settings, { evalSize: 4, evalPassAtK: false });
  for (let i = 0; i < 3; i++) await tr.trainStep();
  const w0 = await be.getWeights();
  let update: Extract<StepPhase, { kind: 'update' }> | null = null;
  for await (const ph of tr.runStep(settings, { inspect: true })) if (ph.kind === 'update') update = ph;
  const applied = await be.getWeights();
  const ins = update!.inspection!;
  const answers = ins.answers.flat();

  it('measures a plain step that moves the policy as far as the applied one, then leaves the applied weights in place', () => {
    const d = Float32Array.from(applied, (x, i) => x - w0[i]);
    expect(ins.step).not.toBeNull();
    expect(ins.step!.length).toBeCloseTo(norm(d), 5);
    // sized by the policy's change on this batch (mean |Δ log π| a token), not by ‖Δw‖
    console.log('step geometry:', JSON.stringify(ins.step));
    expect(ins.step!.shiftApplied).toBeGreaterThan(0);
    expect(Math.abs(ins.step!.shiftGradient - ins.step!.shiftApplied)).toBeLessThan(0.1 * ins.step!.shiftApplied);
    expect(Math.abs(ins.step!.cosine)).toBeLessThanOrEqual(1);
    expect(answers.every((a) => a.logpGradientAlone !== null && Number.isFinite(a.logpGradientAlone))).toBe(true);
    // the gradient-alone step moved the answers (it is not the applied step, nor no step)
    expect(answers.some((a) => Math.abs(a.logpGradientAlone! - a.logpBefore) > 1e-4)).toBe(true);
    expect(answers.some((a) => Math.abs(a.logpGradientAlone! - a.logpAfter) > 1e-4)).toBe(true);
  });

  it('the gradient-alone step raises the objective\'s own push: Σ A·Δ log π over the batch is positive', () => {
    // a step down the loss gradient raises Σ_i w_i A_i log π_i to first order (β small): the advantages, weighted, move the right way on the whole
    const s = answers.reduce((a, x) => a + x.advantage * (x.logpGradientAlone! - x.logpBefore), 0);
    expect(s).toBeGreaterThan(0);
  });

  it('pushCounts counts each answer by the way its A asks, for both steps', () => {
    const c = pushCounts(answers);
    expect(c.positive).toBe(answers.filter((a) => a.advantage > 0).length);
    expect(c.applied.up).toBe(answers.filter((a) => a.advantage > 0 && a.logpAfter > a.logpBefore).length);
    expect(c.gradientAlone!.down).toBe(answers.filter((a) => a.advantage < 0 && a.logpGradientAlone! < a.logpBefore).length);
    expect(pushCounts(answers.map((a) => ({ ...a, logpGradientAlone: null }))).gradientAlone).toBeNull();
  });
});

describe('GRPO\'s promise on a real batch: the surrogate Σ w·A·Δ log π rises, by s·‖g‖ to first order', async () => {
  // β = 0 and no entropy bonus: the surrogate is the whole loss, so a step −s·g/‖g‖ raises it by s·‖g‖ to first order
  const s0: Settings = { ...settings, beta: 0, seed: 3 };
  const be = fresh();
  const tr = new GrpoTrainer(be, s0, { evalSize: 4, evalPassAtK: false });
  for (let i = 0; i < 3; i++) await tr.trainStep();
  let update: Extract<StepPhase, { kind: 'update' }> | null = null;
  for await (const ph of tr.runStep(s0, { inspect: true })) if (ph.kind === 'update') update = ph;
  const ins = update!.inspection!;
  const answers = ins.answers.flat();
  const J = ins.step!.objective;

  it('at a step 10× shorter the sum is positive and within 10 % of the first-order prediction; at the full step it falls further from it', () => {
    console.log('objective rise:', JSON.stringify(J), 'counts:', JSON.stringify(pushCounts(answers)));
    expect(SHORT_STEP).toBe(10);
    expect(J.predictedShort).not.toBeNull();
    expect(J.predictedShort!).toBeCloseTo(ins.step!.gradientLength * ins.step!.gradientNorm / 10, 12);
    expect(J.gradientShort).toBeGreaterThan(0);
    expect(Math.abs(J.gradientShort - J.predictedShort!)).toBeLessThan(0.1 * J.predictedShort!);
    // the second-order error grows with the step: relatively larger at the full step than at a tenth of it
    expect(Math.abs(J.gradientAlone / J.predictedAlone! - 1)).toBeGreaterThan(Math.abs(J.gradientShort / J.predictedShort! - 1));
  });

  it('is the weighted sum over answers of A·Δ log π, each answer weighted as the loss weights its tokens', () => {
    // per answer: its tokens' weight (one value per answer) × A × the change of its summed log π
    const byAnswer = (f: (a: (typeof answers)[number]) => number) => answers.reduce((acc, a) => acc + (a.tokens![0]?.weight ?? 0) * a.advantage * (f(a) - a.logpBefore), 0);
    const scale = Math.abs(J.gradientShort);
    expect(Math.abs(byAnswer((a) => a.logpGradientShort!) - J.gradientShort)).toBeLessThan(1e-3 * scale);
    expect(Math.abs(byAnswer((a) => a.logpGradientAlone!) - J.gradientAlone)).toBeLessThan(1e-3 * Math.abs(J.gradientAlone));
    expect(Math.abs(byAnswer((a) => a.logpAfter) - J.applied)).toBeLessThan(1e-3 * Math.abs(J.applied));
  });

  it('a KL leash in the loss: the sums are still measured, the straight-line prediction is not claimed', async () => {
    const leashed = fresh();
    await leashed.snapshotReference();
    const t2 = new GrpoTrainer(leashed, { ...s0, beta: 0.04 }, { evalSize: 4, evalPassAtK: false });
    await t2.trainStep();
    let up: Extract<StepPhase, { kind: 'update' }> | null = null;
    for await (const ph of t2.runStep({ ...s0, beta: 0.04 }, { inspect: true })) if (ph.kind === 'update') up = ph;
    const o = up!.inspection!.step!.objective;
    expect(o.predictedAlone).toBeNull();
    expect(o.predictedShort).toBeNull();
    expect(Number.isFinite(o.gradientShort)).toBe(true);
  });
});

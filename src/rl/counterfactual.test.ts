import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import type { TokenBatch } from '../model/backend.ts';
import { ADVANTAGE_EPS, rewardStd } from './advantages.ts';
import { baseCheckpointPath } from './bases.ts';
import { objectiveOf, OBJECTIVES, wrongPush, type ObjectiveComparison } from './counterfactual.ts';
import { defaultSettings, type Settings } from './settings.ts';
import { GrpoTrainer, type Rollout, type StepPhase } from './trainer.ts';

// The counterfactual update on the digit-sum base (answers of 2 to ~12 tokens: direct and thinking),
// from the same weights: what each objective would push, and the run's own update afterwards unchanged.
const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath('digitsum', 1)!)));
const settings: Settings = { ...defaultSettings(), task: 'digitsum', difficulty: 1, maxCompletionLength: 14, promptsPerStep: 6, numGenerations: 8, formatReward: 0, numIterations: 2, warmupSteps: 0, seed: 3 };

/** One step through the trainer; `compare` runs the comparison while the step waits after its advantages. */
async function step(compare: boolean) {
  const be = new ReferenceBackend(ck.config, ck.weights);
  const tr = new GrpoTrainer(be, settings, { evalSize: 4 });
  let cmp: ObjectiveComparison | null = null;
  let rollout: Rollout | null = null;
  let update: Extract<StepPhase, { kind: 'update' }> | null = null;
  for await (const ph of tr.runStep(settings, { inspect: true })) {
    if (ph.kind === 'advantages') {
      rollout = ph.rollout;
      if (compare) cmp = await tr.compareObjectives(ph.rollout, ph.batch);
    }
    if (ph.kind === 'update') update = ph;
  }
  return { cmp, rollout: rollout!, update: update!, weights: await be.getWeights(), optimizer: await be.getOptimizerState() };
}

describe('compareObjectives: one batch under GRPO, Dr. GRPO, DAPO and GSPO', async () => {
  const withCmp = await step(true);
  const cmp = withCmp.cmp!;
  const by = Object.fromEntries(cmp.objectives.map((o) => [o.id, o]));
  const { rollout } = withCmp;
  const B = cmp.answers;
  const Lmax = settings.maxCompletionLength;

  it('the comparison leaves the run as it was: the step then applies the same update as a step without it', async () => {
    const without = await step(false);
    expect(Array.from(withCmp.weights)).toEqual(Array.from(without.weights));
    expect(withCmp.optimizer.step).toBe(without.optimizer.step);
    // and the run's objective (GRPO here) moved each answer exactly as the applied update did
    expect(cmp.runObjective).toBe('grpo');
    const applied = withCmp.update.inspection!.answers.flat().map((a) => a.logpAfter - a.logpBefore);
    by.grpo.answers.flat().forEach((a, k) => expect(a.deltaLogp).toBeCloseTo(applied[k], 4));
  });

  it('advantages: Dr. GRPO drops the std division; DAPO and GSPO keep GRPO\'s', () => {
    rollout.groups.forEach((g, p) => {
      const mean = g.rewards.reduce((a, b) => a + b, 0) / g.rewards.length;
      const sd = rewardStd(g.rewards);
      g.rewards.forEach((r, i) => {
        expect(by.dr_grpo.answers[p][i].advantage).toBeCloseTo(r - mean, 6);
        expect(by.grpo.answers[p][i].advantage).toBeCloseTo((r - mean) / (sd + ADVANTAGE_EPS), 5);
        expect(by.dapo.answers[p][i].advantage).toBe(by.grpo.answers[p][i].advantage);
        expect(by.gspo.answers[p][i].advantage).toBe(by.grpo.answers[p][i].advantage);
      });
    });
  });

  it('per-token weights: GRPO 1/(B·|o_i|), Dr. GRPO 1/(B·L_max) for every answer, DAPO 1/Σ|o_i|', () => {
    const total = by.grpo.answers.flat().reduce((a, x) => a + x.length, 0);
    const lengths = new Set(by.grpo.answers.flat().map((a) => a.length));
    expect(lengths.size).toBeGreaterThan(2); // the base writes answers of several lengths
    for (const a of by.grpo.answers.flat()) expect(a.weight * B * a.length).toBeCloseTo(1, 9);
    for (const a of by.gspo.answers.flat()) expect(a.weight * B * a.length).toBeCloseTo(1, 9);
    for (const a of by.dr_grpo.answers.flat()) expect(a.weight).toBeCloseTo(1 / (B * Lmax), 12);
    for (const a of by.dapo.answers.flat()) expect(a.weight).toBeCloseTo(1 / total, 12);
  });

  it('the push at the start of the update: GRPO\'s total per answer ignores its length, Dr. GRPO\'s grows with it', () => {
    // at π_θ = π_old every ratio is 1 and nothing is clipped: push_i = Σ_t w_{i,t}·A_i (β = 0)
    for (const id of ['grpo', 'gspo'] as const) for (const a of by[id].answers.flat()) expect(a.push).toBeCloseTo(a.advantage / B, 9);
    for (const a of by.dr_grpo.answers.flat()) expect(a.push).toBeCloseTo((a.advantage * a.length) / (B * Lmax), 9);
    // a group with wrong answers of two lengths: GRPO pushes the long one less per token, Dr. GRPO the same
    const p = rollout.groups.findIndex((g) => wrongPush(by.grpo.answers[rollout.groups.indexOf(g)], g.correct) !== null && g.correct.some(Boolean));
    expect(p).toBeGreaterThanOrEqual(0);
    const g = wrongPush(by.grpo.answers[p], rollout.groups[p].correct)!;
    const d = wrongPush(by.dr_grpo.answers[p], rollout.groups[p].correct)!;
    expect(Math.abs(g.long.push) / g.long.length).toBeLessThan(Math.abs(g.short.push) / g.short.length);
    expect(g.long.push).toBeCloseTo(g.short.push, 12); // the same total push on each
    expect(d.long.push / d.long.length).toBeCloseTo(d.short.push / d.short.length, 12);
  });

  it('each objective is its own update: the four Δ log π differ, and each lifts its favoured answers above its disfavoured ones', () => {
    const deltas = cmp.objectives.map((o) => o.answers.flat().map((a) => a.deltaLogp));
    for (let i = 0; i < deltas.length; i++) for (let j = i + 1; j < deltas.length; j++) expect(deltas[i]).not.toEqual(deltas[j]);
    for (const o of cmp.objectives) {
      expect(o.finite).toBe(true);
      // shared weights: not every favoured answer rises, but the update separates them from the disfavoured ones
      const meanDelta = (f: (A: number) => boolean) => { const xs = o.answers.flat().filter((a) => f(a.advantage)); return xs.reduce((x, a) => x + a.deltaLogp, 0) / xs.length; };
      expect(meanDelta((A) => A > 0)).toBeGreaterThan(meanDelta((A) => A < 0) + 0.05);
    }
    expect(cmp.engineCalls).toBe(1 + OBJECTIVES.length * 2);
  });

  it('objectiveOf names the run\'s objective only when every knob matches', () => {
    expect(objectiveOf(defaultSettings())).toBe('grpo');
    expect(objectiveOf({ ...defaultSettings(), advantage: 'dr_grpo', lossType: 'dr_grpo' })).toBe('dr_grpo');
    expect(objectiveOf({ ...defaultSettings(), lossType: 'dapo' })).toBe('dapo');
    expect(objectiveOf({ ...defaultSettings(), importanceSamplingLevel: 'sequence' })).toBe('gspo');
    expect(objectiveOf({ ...defaultSettings(), advantage: 'leave_one_out' })).toBeNull();
    expect(objectiveOf({ ...defaultSettings(), algorithm: 'rft' })).toBeNull();
  });
});

describe('compareObjectives with a KL leash (β > 0, π_θ away from π_ref)', async () => {
  const s: Settings = { ...settings, beta: 0.5, measureKl: true, learningRate: 3e-3 };
  const be = new ReferenceBackend(ck.config, ck.weights);
  const tr = new GrpoTrainer(be, s, { evalSize: 4 });
  for (let i = 0; i < 2; i++) await tr.trainStep(s); // π_θ leaves π_ref: the leash now pushes
  let cmp: ObjectiveComparison | null = null;
  let batch: TokenBatch | null = null;
  let start: { lp: Float32Array; ref: Float32Array } | null = null;
  for await (const ph of tr.runStep(s)) {
    if (ph.kind !== 'advantages') continue;
    batch = ph.batch;
    start = { lp: (await be.logprobs(ph.batch, { temperature: s.temperature })).logprobs, ref: (await be.logprobs(ph.batch, { temperature: s.temperature, reference: true })).logprobs };
    cmp = await tr.compareObjectives(ph.rollout, ph.batch);
  }
  it('the push shown is the objective\'s own (its surrogate), not the leash\'s β·∂KL added to it', () => {
    const B = cmp!.answers;
    const grpo = cmp!.objectives.find((o) => o.id === 'grpo')!;
    // at π_θ = π_old every ratio is 1: push_i = A_i / B exactly, whatever β is
    for (const a of grpo.answers.flat()) expect(a.push).toBeCloseTo(a.advantage / B, 9);
  });
  it('the leash\'s pull is shown apart: −β·Σ_t w·∂k3/∂log π = −β/(B·|o_i|)·Σ_t (1 − π_ref/π_θ) under GRPO', () => {
    const B = cmp!.answers;
    const grpo = cmp!.objectives.find((o) => o.id === 'grpo')!;
    const { T, mask } = batch!;
    const expected = grpo.answers.flat().map((a, row) => {
      let sum = 0;
      for (let t = 0; t < T; t++) if (mask[row * T + t]) sum += 1 - Math.exp(start!.ref[row * T + t] - start!.lp[row * T + t]);
      return (-s.beta * sum) / (B * a.length);
    });
    grpo.answers.flat().forEach((a, i) => expect(a.pull).toBeCloseTo(expected[i], 6));
    expect(grpo.answers.flat().some((a) => Math.abs(a.pull) > 1e-4)).toBe(true); // π_θ has left π_ref: the leash pulls
  });
});

/**
 * Objectives that mean what the chapter says (issue 21):
 *  - algorithm rloo is the chapter's RLOO: REINFORCE on each answer's summed log-probability with
 *    the leave-one-out baseline, L = −1/B Σ_i A_i Σ_t log π(o_i,t) — no token ratio, no clip, no
 *    1/|o_i|, one update per batch — whatever ε, µ, the aggregation or the ratio level say. The
 *    advantage estimator of the same name inside the clipped objective is "leave_one_out".
 *  - GSPO's sequence ratio clips at ε / ε_high, as TRL's does (issue 29); choosing the sequence
 *    level in the page sets GSPO's 3e-4 / 4e-4, and at µ = 2 TRL's default 0.2 leaves it unclipped.
 * CPU reference, from the shipped reverse base.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { baseCheckpointPath } from './bases.ts';
import { groupAdvantages } from './advantages.ts';
import { clipRange, policyLossOf } from './lossSpec.ts';
import { defaultSettings, parseSetting, SETTINGS_BY_KEY, withSetting, type Settings } from './settings.ts';
import { rolloutWithAdvantages } from './testing/phases.ts';
import { GrpoTrainer } from './trainer.ts';

function fromBase(s: Settings): { be: ReferenceBackend; tr: GrpoTrainer } {
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty)!)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  return { be, tr: new GrpoTrainer(be, s, { evalSize: 4, evalPassAtK: false }) };
}
const reverse: Settings = { ...defaultSettings(), task: 'reverse', difficulty: 2, promptsPerStep: 6, numGenerations: 6, beta: 0, entropyCoef: 0, warmupSteps: 0 };
const norm = (x: Float32Array) => Math.sqrt(x.reduce((a, v) => a + v * v, 0));
const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

describe('RLOO is REINFORCE with the leave-one-out baseline on the whole answer', () => {
  it('its gradient is −1/B Σ_i A_i Σ_t ∇log π(o_i,t) with leave-one-out A, whatever ε, µ, the aggregation and the ratio level say', async () => {
    const s: Settings = { ...reverse, algorithm: 'rloo', advantage: 'grpo', numIterations: 4, epsilon: 0.01, epsilonHigh: 0.01, lossType: 'dapo', importanceSamplingLevel: 'sequence' };
    const { be, tr } = fromBase(s);
    const { rollout, batch } = await rolloutWithAdvantages(tr);
    const rewards = rollout.groups.flatMap((g) => g.rewards);
    const A = rollout.groups.flatMap((g) => g.advantages);
    const loo = groupAdvantages(rewards, s.numGenerations, 'leave_one_out');
    A.forEach((a, i) => expect(a).toBeCloseTo(loo[i], 6));
    expect(A.some((a) => a !== 0)).toBe(true); // some group is mixed: the test measures something

    // REINFORCE, written out: dL/dlog π(o_b,t) = −A_b / B on each answer token
    const B = batch.B;
    const reinforce = Float32Array.from(batch.mask, (m, i) => (-m * A[Math.floor(i / batch.T)]) / B);
    const want = (await be.gradient(batch, { kind: 'pertoken', gradLogprob: reinforce })).grads;
    const got = (await be.gradient(batch, policyLossOf(rollout, batch, s))).grads;
    expect(maxDiff(got, want)).toBeLessThan(1e-6 * norm(want) + 1e-9);

    // before: the same advantages inside the clipped objective (the old "advantage = rloo"): per-token ratios, 1/|o_i|
    const clipped = { ...s, algorithm: 'grpo' as const, advantage: 'leave_one_out' as const, lossType: 'grpo' as const, importanceSamplingLevel: 'token' as const };
    const old = (await be.gradient(batch, policyLossOf(rollout, batch, clipped))).grads;
    const cos = old.reduce((a, v, i) => a + v * want[i], 0) / (norm(old) * norm(want));
    console.log(`one batch (B = ${B}): REINFORCE-RLOO gradient norm ${norm(want).toExponential(3)}; the clipped objective with leave-one-out advantages ${norm(old).toExponential(3)}, cosine ${cos.toFixed(3)}`);
    expect(maxDiff(old, want)).toBeGreaterThan(0.1 * norm(want) / Math.sqrt(want.length)); // a different estimator
  });

  it('the trainer applies one update per batch under RLOO (REINFORCE is on-policy), µ under GRPO', async () => {
    for (const [algorithm, epochs] of [['rloo', 1], ['grpo', 3]] as const) {
      const { be, tr } = fromBase({ ...reverse, algorithm, numIterations: 3, promptsPerStep: 2 });
      const seen: number[] = [];
      const trainStep = be.trainStep.bind(be);
      be.trainStep = (batch, loss, opt, o) => { seen.push(o?.epochs ?? 1); return trainStep(batch, loss, opt, o); };
      await tr.trainStep();
      expect(seen, algorithm).toEqual([epochs]);
    }
  });

  it('"rloo" as an advantage estimator (old links) reads as leave_one_out', () => {
    expect(parseSetting(SETTINGS_BY_KEY.advantage, 'rloo')).toEqual({ ok: true, value: 'leave_one_out' });
    expect(parseSetting(SETTINGS_BY_KEY.advantage, 'loo')).toMatchObject({ ok: false });
  });
});

describe('GSPO: the sequence ratio clips at ε / ε_high, as TRL\'s; the page\'s preset sets 3e-4 / 4e-4', () => {
  it('choosing the sequence level sets 3e-4 / 4e-4; TRL\'s default ε = 0.2 on the sequence ratio clips nothing at µ = 2', async () => {
    const s: Settings = { ...withSetting(reverse, 'importanceSamplingLevel', 'sequence'), numIterations: 2, learningRate: 7e-4, warmupSteps: 10 }; // the lab's default first step
    expect(clipRange(s)).toEqual({ epsilon: 3e-4, epsilonHigh: 4e-4 });
    expect(clipRange(withSetting(s, 'importanceSamplingLevel', 'token'))).toEqual({ epsilon: 0.2, epsilonHigh: 0.2 }); // back from the preset: the token defaults
    expect(clipRange({ ...s, epsilon: 0.1, epsilonHigh: 0.15 })).toEqual({ epsilon: 0.1, epsilonHigh: 0.15 }); // one ε at both levels
    const clipShare = async (settings: Settings) => {
      const { tr } = fromBase(settings);
      return (await tr.trainStep()).metrics['clip_ratio/region_mean']; // the mean over µ = 2 epochs; the first clips nothing (π_θ = π_old: s = 1)
    };
    const preset = await clipShare(s);
    const trlDefault = await clipShare({ ...s, epsilon: 0.2, epsilonHigh: 0.2 }); // importance_sampling_level="sequence" alone in TRL
    console.log(`GSPO, µ = 2, one batch: clip_ratio/region_mean ${preset.toFixed(3)} at the preset 3e-4 / 4e-4, ${trlDefault.toFixed(3)} at TRL's default ε 0.2`);
    expect(preset).toBeGreaterThan(0.1);
    expect(trlDefault).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { estimatorWords, groupAdvantages, type AdvantageEstimator, type ScaleRewards } from './advantages.ts';

const round = (a: Float64Array, d = 2) => Array.from(a, (x) => Number(x.toFixed(d)) + 0);

describe('group advantages: the chapter\'s hand values', () => {
  it('rewards [1,0,1,0]: GRPO gives ±0.866 (mean 0.5, TRL\'s std √(1/3): torch.std divides by G − 1)', () => {
    expect(round(groupAdvantages([1, 0, 1, 0], 4, 'grpo'), 3)).toEqual([0.866, -0.866, 0.866, -0.866]);
  });
  it('rewards [1,0,1,0]: RLOO gives [0.67, −0.67, 0.67, −0.67]', () => {
    expect(round(groupAdvantages([1, 0, 1, 0], 4, 'leave_one_out'))).toEqual([0.67, -0.67, 0.67, -0.67]);
  });
  it('Dr. GRPO only centres; reinforce uses the batch mean', () => {
    expect(round(groupAdvantages([1, 0, 1, 0], 4, 'dr_grpo'))).toEqual([0.5, -0.5, 0.5, -0.5]);
    expect(round(groupAdvantages([1, 1, 0, 0, 1, 1], 2, 'reinforce'))).toEqual([0.33, 0.33, -0.67, -0.67, 0.33, 0.33]);
  });
  it('all-equal rewards give zero advantages under every estimator', () => {
    for (const e of ['grpo', 'dr_grpo', 'leave_one_out'] as const) expect(round(groupAdvantages([1, 1, 1, 0.1, 0.1, 0.1], 3, e))).toEqual([0, 0, 0, 0, 0, 0]);
  });
  it('scale_rewards: batch divides by one std over all answers, none does not divide', () => {
    const r = [1, 0, 0, 0, 1, 1, 1, 1];
    const batch = groupAdvantages(r, 4, 'grpo', 'batch');
    const none = groupAdvantages(r, 4, 'grpo', 'none');
    expect(round(none)).toEqual([0.75, -0.25, -0.25, -0.25, 0, 0, 0, 0]);
    const s = Math.sqrt(r.reduce((a, x) => a + (x - 0.625) ** 2, 0) / 7); // torch.std over the 8 answers: n − 1
    expect(batch[0]).toBeCloseTo(0.75 / (s + 1e-4), 10);
  });
  it('rejects rewards that are not whole groups', () => {
    expect(() => groupAdvantages([1, 0, 1], 2, 'grpo')).toThrow(/whole groups/);
  });
});

// What the step-through and the tour say of the estimator: in words, one sentence per choice, no setting's field name.
describe('the estimator in words', () => {
  it('names what each reward is measured against and what divides it, with no field name', () => {
    const choices: [AdvantageEstimator, ScaleRewards][] = [['grpo', 'group'], ['grpo', 'batch'], ['grpo', 'none'], ['dr_grpo', 'group'], ['leave_one_out', 'group'], ['reinforce', 'group']];
    const words = choices.map(([e, s]) => estimatorWords(e, s));
    expect(new Set(words).size).toBe(words.length);
    for (const w of words) expect(w).not.toMatch(/_|scale_rewards|grpo\b|=/);
    expect(estimatorWords('grpo', 'group')).toBe("GRPO: each reward minus its group's mean, divided by the group's standard deviation");
  });
});

import { describe, expect, it } from 'vitest';
import { groupAdvantages } from '../rl/advantages.ts';
import { groupTeaches } from './views.ts';

/** Groups of G answers with these rewards and the advantages the estimator gives them. */
function groups(rewards: number[], G: number, estimator: 'grpo' | 'reinforce') {
  const A = groupAdvantages(rewards, G, estimator);
  return Array.from({ length: rewards.length / G }, (_, p) => ({ answers: rewards.slice(p * G, p * G + G).map((reward, i) => ({ reward, advantage: A[p * G + i] })) }));
}

describe('groupTeaches (the step-through strip)', () => {
  const rewards = [1, 0, 1, 0, /* all pass */ 1, 1, 1, 1, /* all fail with a format reward */ 0.1, 0.1, 0.1, 0.1];
  it('under GRPO only a spread of rewards teaches: an all-equal group has A = 0', () => {
    expect(groups(rewards, 4, 'grpo').map(groupTeaches)).toEqual(['spread', 'none', 'none']);
  });
  it("under REINFORCE the batch-mean baseline gives an all-equal group A ≠ 0: it teaches", () => {
    expect(groups(rewards, 4, 'reinforce').map(groupTeaches)).toEqual(['spread', 'baseline', 'baseline']);
  });
});

import { expect, it } from 'vitest';
import { learnFromBase } from './testing/learnFromBase.ts';

// It must learn: GRPO from the shipped add-d2 base raises held-out greedy accuracy by ≥ 20 points
// (arithmetic task, CPU reference, fixed seed: the same run every time). 40 steps (was 50): evaluated
// along this run, greedy 0.375 → 0.563 / 0.500 / 0.625 / 0.641 / 0.656 / 0.656 at steps 25 / 30 /
// 35 / 40 / 45 / 50 (pass@1 0.205 → 0.303 / 0.295 / 0.342 / 0.332 / 0.398 / 0.365): 40 clears the bar by 0.07.
it('GRPO raises held-out accuracy on add d2 by at least 20 points', async () => {
  const r = await learnFromBase('add', 2, 40);
  const m = r.metrics;
  console.log(`add d2: held-out greedy ${r.before.heldout_accuracy.toFixed(3)} → ${r.after.heldout_accuracy.toFixed(3)}, ` +
    `pass@1 ${r.before.pass_at_k['1'].toFixed(3)} → ${r.after.pass_at_k['1'].toFixed(3)}, ` +
    `training reward ${m[0].reward.toFixed(3)} → ${m.at(-1)!.reward.toFixed(3)}, mixed groups ${m[0].frac_mixed.toFixed(2)} → ${m.at(-1)!.frac_mixed.toFixed(2)}`);
  expect(r.after.heldout_accuracy - r.before.heldout_accuracy).toBeGreaterThanOrEqual(0.2);
}, 900_000);

import { expect, it } from 'vitest';
import { learnFromBase } from './testing/learnFromBase.ts';

// It must learn: GRPO from the shipped reverse-d2 base raises held-out greedy accuracy by ≥ 20 points
// (string task, CPU reference, fixed seed: the same run every time).
it('GRPO raises held-out accuracy on reverse d2 by at least 20 points', async () => {
  const r = await learnFromBase('reverse', 2, 60);
  const m = r.metrics;
  console.log(`reverse d2: held-out greedy ${r.before.heldout_accuracy.toFixed(3)} → ${r.after.heldout_accuracy.toFixed(3)}, ` +
    `pass@1 ${r.before.pass_at_k['1'].toFixed(3)} → ${r.after.pass_at_k['1'].toFixed(3)}, ` +
    `training reward ${m[0].reward.toFixed(3)} → ${m.at(-1)!.reward.toFixed(3)}, mixed groups ${m[0].frac_mixed.toFixed(2)} → ${m.at(-1)!.frac_mixed.toFixed(2)}`);
  expect(r.after.heldout_accuracy - r.before.heldout_accuracy).toBeGreaterThanOrEqual(0.2);
}, 900_000);

// The step-through's words on AdamW's step: at a run's first update its momentum holds this batch
// alone, so the page must not say that 90 % of it is earlier batches (there are none yet).
import { describe, expect, it } from 'vitest';
import { momentumWords, updateWhy } from './updateWords.ts';
import type { PushCounts } from '../rl/inspection.ts';

const counts: PushCounts = { positive: 2, negative: 2, applied: { up: 2, down: 2 }, gradientAlone: { up: 1, down: 2 }, gradientShort: null };

describe('AdamW in words', () => {
  it('at the first update: no earlier batches in its momentum', () => {
    expect(momentumWords(true)).toBe("the run's first, whose momentum holds this batch alone");
    const why = updateWhy(counts, null, true);
    expect(why).not.toContain('earlier batches pointed');
    expect(why).not.toMatch(/90 % of its momentum/);
    expect(why).toContain('no earlier batch is in its momentum');
    expect(why).toContain('made more of them this time —');
  });
  it('later: most of its momentum is earlier batches (β₁ = 0.9)', () => {
    expect(momentumWords(false)).toBe('whose momentum is 90 % earlier batches');
    const why = updateWhy(counts, null, false);
    expect(why).toContain('90 % of its momentum is earlier batches (β₁ = 0.9)');
    expect(why).toContain('more of them this time: the earlier batches pointed the same way');
  });
});

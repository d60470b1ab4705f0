import { describe, expect, it } from 'vitest';
import { pushBounded } from './history.ts';

describe('pushBounded', () => {
  it('keeps every point until the bound, then thins the older half 2:1', () => {
    let s: { step: number }[] = [];
    for (let i = 0; i < 10; i++) s = pushBounded(s, { step: i }, 10);
    expect(s.map((p) => p.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    s = pushBounded(s, { step: 10 }, 10);
    // 11 points: older half (0..4) thinned to 0, 2, 4; recent half kept whole.
    expect(s.map((p) => p.step)).toEqual([0, 2, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('never exceeds the bound over a long run, keeps the first and the last step, and stays sorted', () => {
    let s: { step: number }[] = [];
    for (let i = 0; i < 5000; i++) {
      s = pushBounded(s, { step: i }, 500);
      expect(s.length).toBeLessThanOrEqual(500);
    }
    expect(s[0].step).toBe(0);
    expect(s.at(-1)!.step).toBe(4999);
    for (let i = 1; i < s.length; i++) expect(s[i].step).toBeGreaterThan(s[i - 1].step);
    // the most recent 100 steps are at full resolution
    expect(s.slice(-100).map((p) => p.step)).toEqual(Array.from({ length: 100 }, (_, i) => 4900 + i));
    console.log(`after 5000 pushes: ${s.length} points, first ${s[0].step}, last ${s.at(-1)!.step}`);
  });
});

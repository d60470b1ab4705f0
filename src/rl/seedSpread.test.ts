import { describe, expect, it } from 'vitest';
import { LESSON_RECORDS } from './lessonRecords.ts';
import { seedSpread } from './seedSpread.ts';

const run = (value: number, halfWidth: number) => ({ seed: 0, verdict: 'holds', value, lo: value - halfWidth, hi: value + halfWidth });

describe('seedSpread: the spread across seeds over the spread one run\'s interval implies', () => {
  it('is sd(values) / median((hi − lo) / (2 · 1.6449))', () => {
    // values 1, 2, 3: sd 1; half-widths 1.6449 · {0.5, 1, 4}: standard errors 0.5, 1, 4, median 1
    expect(seedSpread({ runs: [run(1, 1.6449 * 0.5), run(2, 1.6449), run(3, 1.6449 * 4)] })).toBeCloseTo(1, 10);
    // intervals half as wide: the seeds spread twice as far as one run says
    expect(seedSpread({ runs: [run(1, 1.6449 / 2), run(2, 1.6449 / 2), run(3, 1.6449 / 2)] })).toBeCloseTo(2, 10);
    // an even count takes the middle two
    expect(seedSpread({ runs: [run(0, 1.6449), run(0, 1.6449), run(2, 3 * 1.6449), run(2, 3 * 1.6449)] })).toBeCloseTo(Math.sqrt(4 / 3) / 2, 10);
  });

  it('needs three runs with a finite value and interval', () => {
    expect(seedSpread({ runs: [run(1, 1), run(2, 1)] })).toBeNull();
    expect(seedSpread({ runs: [run(1, 1), run(2, 1), { ...run(3, 1), lo: NaN }] })).toBeNull();
    expect(seedSpread({ runs: [run(1, 1), run(2, 1), run(3, 1), { ...run(3, 1), hi: NaN }] })).not.toBeNull();
    expect(seedSpread({ runs: [run(1, 0), run(2, 0), run(3, 0)] })).toBeNull(); // no width: no standard error to compare with
  });

  it('reads every committed record (ten seeds per variant)', () => {
    for (const r of LESSON_RECORDS.lessons) for (const v of r.variants) {
      const f = seedSpread(v);
      expect(f, `${r.lesson}, ${v.label}`).not.toBeNull();
      expect(f!, `${r.lesson}, ${v.label}`).toBeGreaterThan(0);
    }
  });
});

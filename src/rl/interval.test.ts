import { describe, expect, it } from 'vitest';
import { Rng } from '../model/rng.ts';
import { bootstrapMean, iqm, pairedDiff, quantile, verdictFrom } from './interval.ts';

const normals = (rng: Rng, n: number, mu: number, sd: number) => Array.from({ length: n }, () => {
  const u = 1 - rng.next(), v = rng.next();
  return mu + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
});

describe('interval estimates', () => {
  it('a 90 % bootstrap interval of a mean covers the true mean about 90 % of the time, with the normal width', () => {
    const rng = new Rng(7);
    let covered = 0, width = 0;
    const trials = 300;
    for (let t = 0; t < trials; t++) {
      const xs = normals(rng, 60, 0.3, 1);
      const e = bootstrapMean(xs, { reps: 400, seed: t });
      if (e.lo <= 0.3 && 0.3 <= e.hi) covered++;
      width += (e.hi - e.lo) / trials;
    }
    // binomial(300, 0.9): sd 0.017, so 0.84–0.96 is ±3.5 sd; the percentile bootstrap runs slightly narrow at n = 60
    expect(covered / trials).toBeGreaterThan(0.84);
    expect(covered / trials).toBeLessThan(0.96);
    // the normal interval's width, 2 · 1.645 · σ/√n = 0.425
    expect(width).toBeGreaterThan(0.38);
    expect(width).toBeLessThan(0.45);
  });

  it('is seeded: the same data and seed give the same interval', () => {
    const xs = normals(new Rng(3), 40, 0, 1);
    expect(bootstrapMean(xs, { seed: 5 })).toEqual(bootstrapMean(xs, { seed: 5 }));
  });

  it('pairs cancel what the items share: a paired difference is tighter than the unpaired spread', () => {
    const rng = new Rng(11);
    const base = normals(rng, 200, 0, 1); // per-prompt difficulty, shared before and after
    const before = base.map((b) => b + 0.05 * rng.next());
    const after = base.map((b) => b + 0.1 + 0.05 * rng.next());
    const d = pairedDiff(before, after);
    expect(d.value).toBeCloseTo(0.1, 2);
    expect(d.hi - d.lo).toBeLessThan(0.02);
    expect(() => pairedDiff([1], [1, 2])).toThrow(/1 items before, 2 after/);
  });

  it('the interquartile mean is the mean of the middle half and ignores the tails', () => {
    expect(iqm([1, 2, 3, 4, 5, 6, 7, 8])).toBeCloseTo(4.5);
    expect(iqm([0, 1, 1, 1, 1, 1, 1, 100])).toBeCloseTo(1);
    expect(iqm([1, 2, 3, 4, 5])).toBeCloseTo(3); // 5 values: 1.25 of them weighted in each quartile's share
    expect(iqm([2, 4])).toBe(3);
    expect(quantile([0, 10], 0.5)).toBe(5);
  });

  it('a verdict holds only with the whole interval on the claim side, fails only wholly on the other, else unclear', () => {
    expect(verdictFrom([0.04, 0.1], 0.03, 'above')).toBe('holds');
    expect(verdictFrom([0.01, 0.1], 0.03, 'above')).toBe('unclear');
    expect(verdictFrom([-0.1, 0.03], 0.03, 'above')).toBe('fails');
    expect(verdictFrom([-0.2, 0], 0, 'below')).toBe('holds');
    expect(verdictFrom([-0.2, 0.01], 0, 'below')).toBe('unclear');
    expect(verdictFrom([0.01, 0.2], 0, 'below')).toBe('fails');
    expect(verdictFrom([NaN, NaN], 0, 'below')).toBe('unclear');
  });
});

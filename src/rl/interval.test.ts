import { describe, expect, it } from 'vitest';
import { Rng } from '../model/rng.ts';
import { blockIndices, bootstrapMean, iqm, meanInterval, MIN_CLASS_RUNS, normalQuantile, pairedDiff, pairedMeanInterval, quantile, stepBlockLength, tQuantile, verdictFrom } from './interval.ts';

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

  it('the t quantile matches the table at 0.95 (and 0.975) to 1e-4', () => {
    const table: [number, number, number][] = [[1, 6.3138, 12.7062], [2, 2.92, 4.3027], [4, 2.1318, 2.7764], [9, 1.8331, 2.2622], [29, 1.6991, 2.0452], [Infinity, 1.6449, 1.96]];
    for (const [df, q95, q975] of table) {
      expect(Math.abs(tQuantile(0.95, df) - q95), `df ${df}`).toBeLessThan(1e-4);
      expect(Math.abs(tQuantile(0.975, df) - q975), `df ${df}`).toBeLessThan(1e-4);
      expect(tQuantile(0.05, df)).toBe(-tQuantile(0.95, df));
    }
    expect(tQuantile(0.95, 1e6)).toBeCloseTo(normalQuantile(0.95), 5);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758, 4);
    expect(tQuantile(0.5, 3)).toBe(0);
    expect(tQuantile(1, 3)).toBeNaN();
    expect(tQuantile(0.95, 0)).toBeNaN();
  });

  it('the t interval of a mean: x̄ ± t(n − 1) · s/√n, NaN ends below two items', () => {
    const e = meanInterval([1, 2, 3, 4, 5]); // s = √2.5, t(4) = 2.1318
    expect(e.value).toBe(3);
    expect(e.hi - 3).toBeCloseTo(2.131847 * Math.sqrt(2.5 / 5), 5);
    expect(3 - e.lo).toBeCloseTo(e.hi - 3, 12);
    expect(meanInterval([1, 2, 3, 4, 5], { level: 0.95 }).hi - 3).toBeCloseTo(2.776445 * Math.sqrt(0.5), 5);
    expect(meanInterval([0.4])).toEqual({ value: 0.4, lo: NaN, hi: NaN });
    expect(meanInterval([]).value).toBeNaN();
    const d = pairedMeanInterval([1, 2, 3], [1.5, 2.4, 3.7]); // differences 0.5, 0.4, 0.7
    expect(d.value).toBeCloseTo(1.6 / 3, 12);
    expect(d).toEqual(meanInterval([1.5 - 1, 2.4 - 2, 3.7 - 3]));
    expect(() => pairedMeanInterval([1], [1, 2])).toThrow(/1 items before, 2 after/);
    expect(MIN_CLASS_RUNS).toBe(5);
  });

  it('a block draw keeps neighbouring steps together, wraps within its window, and is i.i.d. at length 1', () => {
    const rng = new Rng(5);
    const draw = (n: number) => Int32Array.from({ length: n }, () => rng.int(n));
    for (let t = 0; t < 50; t++) {
      const idx = blockIndices(draw, 10, 3);
      expect(idx.length).toBe(10);
      for (let j = 0; j < 10; j++) {
        expect(idx[j]).toBeGreaterThanOrEqual(0);
        expect(idx[j]).toBeLessThan(10);
        if (j % 3) expect(idx[j]).toBe((idx[j - 1] + 1) % 10); // inside a block: the next step (circular)
      }
    }
    const fixed = (n: number) => Int32Array.from({ length: n }, (_, i) => (n - 1 - i)); // starts 9, 8, 7, …
    expect(Array.from(blockIndices(fixed, 10, 4))).toEqual([9, 0, 1, 2, 8, 9, 0, 1, 7, 8]);
    expect(Array.from(blockIndices(fixed, 5, 1))).toEqual([4, 3, 2, 1, 0]);
    // windows under 8 steps stay i.i.d. (the lessons' 15- and 30-step runs: windows of 3 and 7); 2 from 8 steps, 3 from 16
    expect([3, 7, 8, 10, 15, 16, 42, 43].map(stepBlockLength)).toEqual([1, 1, 2, 2, 2, 3, 3, 4]);
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

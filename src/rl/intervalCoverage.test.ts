/**
 * Intervals that cover what they say (issue 47): a nominal 90 % interval, computed on seeded
 * simulated data whose truth is known, must contain the truth about 90 % of the time. The full
 * table, before and after, is `npm run coverage` (scripts/coverage.ts, the same simulation with
 * more datasets); this file asserts its bands on fewer, to stay fast.
 *
 * Bands. 2000 datasets per cell: a binomial(2000, 0.9) share has sd 0.0067, so 87–93 % is ±4.5 sd
 * around 90 % (a correct interval never fails it by chance; 80 % coverage never passes it).
 */
import { describe, expect, it } from 'vitest';
import { blockResample, iidResample, LOG_NORMAL, meanCoverage, NORMAL, percentileMean, tMean, trendCoverage } from '../../scripts/coverage.ts';
import { stepBlockLength } from './interval.ts';
import { windowSize } from './claims.ts';

describe('coverage of nominal 90 % intervals', () => {
  it('the t interval of a mean of n runs covers 87–93 % from a normal population at n = 5, 10, 30, and ≥ 85 % from a log-normal at n = 10, 30', () => {
    for (const n of [5, 10, 30]) {
      const c = meanCoverage(tMean, NORMAL, n, 2000);
      expect(c, `normal, n = ${n}`).toBeGreaterThanOrEqual(0.87);
      expect(c, `normal, n = ${n}`).toBeLessThanOrEqual(0.93);
    }
    // skewed (σ = 0.5: skewness 1.75): the t interval runs a little short (87–89 % at 2000 datasets)
    for (const n of [10, 30]) expect(meanCoverage(tMean, LOG_NORMAL, n, 2000), `log-normal, n = ${n}`).toBeGreaterThanOrEqual(0.85);
  });

  it('before: the percentile bootstrap of a mean of 5 runs fails that band (77 %: too narrow with few runs)', () => {
    // no t correction (1.645 where t(4) = 2.132) and the plug-in spread √((n−1)/n) · s: the class pool's old interval
    expect(meanCoverage(percentileMean(500), NORMAL, 5, 2000)).toBeLessThan(0.87);
  });

  it('a run\'s trend (late − early window mean) on AR(1) steps: blocks cover more than i.i.d. steps at 40 steps; at the lessons\' lengths neither reaches 90 %', () => {
    // Runs of 40 steps (windows of 10): blocks of 2 neighbouring steps. i.i.d. → blocks on the same
    // seeded series, here (800 per cell, 300 resamples) φ = 0.5: 62.8 → 67.9 %, φ = 0.7: 46.0 → 51.4 %;
    // `npm run coverage` (2000, 500): 60.4 → 65.1 %, 44.1 → 50.4 %; over eight seeds the gain was
    // 3.7–6.8 points. The band: at least 2 points more than i.i.d. steps on the same series. The
    // old resampleRun (steps i.i.d.) fails it: 0 points more (seen red: 0.6275 → 0.6275).
    expect(stepBlockLength(windowSize(40))).toBe(2);
    for (const phi of [0.5, 0.7]) {
      const before = trendCoverage(iidResample, 40, phi, 800, 300), after = trendCoverage(blockResample, 40, phi, 800, 300);
      expect(after - before, `φ = ${phi}: ${before} → ${after}`).toBeGreaterThanOrEqual(0.02);
      // Known limit, not a target: a window's own 10 steps cannot show how far its mean wanders
      // (at φ = 0.5 they understate its variance about 3×); no block length reaches 85 % within
      // windows under about 50 steps. If this goes red the interval got better: update the docs.
      expect(after, `φ = ${phi}`).toBeLessThan(0.85);
    }
    // Runs of 15 and 30 steps (windows of 3 and 7): still i.i.d., where blocks only narrowed the
    // interval (at φ = 0: 74 → 68 % in windows of 3, 84 → 80 % in windows of 7); 51 % and 58 % at φ = 0.5.
    expect(stepBlockLength(windowSize(15))).toBe(1);
    expect(stepBlockLength(windowSize(30))).toBe(1);
    expect(trendCoverage(blockResample, 15, 0.5, 400, 300)).toBe(trendCoverage(iidResample, 15, 0.5, 400, 300));
  });
});

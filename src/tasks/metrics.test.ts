import { describe, expect, it } from 'vitest';
import { mixedGroupProbability, passAtK } from './metrics.ts';

/** C(n, k) exactly, as a BigInt. */
function binom(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}

describe('passAtK (Chen et al. 2021, unbiased)', () => {
  it('matches hand values', () => {
    expect(passAtK(10, 1, 1)).toBeCloseTo(0.1, 12);
    expect(passAtK(10, 3, 5)).toBeCloseTo(1 - 21 / 252, 12); // 1 - C(7,5)/C(10,5)
    expect(passAtK(4, 2, 2)).toBeCloseTo(1 - 1 / 6, 12); // 1 - C(2,2)/C(4,2)
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 5, 1)).toBe(1);
    expect(passAtK(5, 3, 3)).toBe(1); // n - c < k: every draw of 3 contains a correct one
    expect(passAtK(8, 1, 8)).toBe(1);
  });

  it('pass@1 is c/n, and it agrees with exact binomials where those are huge', () => {
    for (let n = 1; n <= 30; n++) for (let c = 0; c <= n; c++) expect(passAtK(n, c, 1)).toBeCloseTo(c / n, 12);
    for (const [n, c, k] of [[200, 10, 100], [200, 3, 50], [100, 50, 10], [1000, 1, 500]] as const) {
      const scale = 10n ** 15n;
      const exact = 1 - Number((binom(n - c, k) * scale) / binom(n, k)) / Number(scale);
      expect(passAtK(n, c, k)).toBeCloseTo(exact, 12);
    }
  });

  it('rejects nonsense arguments', () => {
    expect(() => passAtK(5, 6, 1)).toThrow(/passAtK/);
    expect(() => passAtK(5, 1, 0)).toThrow(/passAtK/);
    expect(() => passAtK(5, 1, 6)).toThrow(/passAtK/);
  });
});

describe('mixedGroupProbability = 1 - p^G - (1-p)^G', () => {
  it('G=8: p=0.01/0.10/0.50 give 0.077/0.570/0.992', () => {
    const rows = [0.01, 0.1, 0.5].map((p) => [p, mixedGroupProbability(p, 8)]);
    console.table(rows.map(([p, m]) => ({ p, G: 8, mixed: m.toFixed(3) })));
    expect(rows.map(([, m]) => m.toFixed(3))).toEqual(['0.077', '0.570', '0.992']);
    expect(mixedGroupProbability(0.5, 8)).toBeCloseTo(1 - 2 / 256, 15);
  });

  it('is 0 for certain outcomes, symmetric in p, and grows with G', () => {
    expect(mixedGroupProbability(0, 8)).toBe(0);
    expect(mixedGroupProbability(1, 8)).toBe(0);
    expect(mixedGroupProbability(0.3, 1)).toBeCloseTo(0, 15);
    expect(mixedGroupProbability(0.3, 8)).toBeCloseTo(mixedGroupProbability(0.7, 8), 15);
    expect(mixedGroupProbability(0.1, 16)).toBeGreaterThan(mixedGroupProbability(0.1, 8));
    expect(() => mixedGroupProbability(1.5, 8)).toThrow();
  });
});

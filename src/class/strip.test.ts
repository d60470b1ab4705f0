/** The strip plot's axis: round ticks, 0 exactly 0, the threshold and every point inside. */
import { describe, expect, it } from 'vitest';
import { niceAxis } from '../ui/ClassStrip.tsx';

describe('strip plot axis', () => {
  it('ticks are k × (1, 2 or 5 × 10^n), 0 is exactly 0, and the domain holds the points and the threshold', () => {
    for (const [lo, hi] of [[-0.2376, 0], [0.03, 0.0644], [-0.15, 0.15], [0.9, 0.9], [-3, 1e-3], [0, 0]]) {
      const { domain, ticks } = niceAxis(lo, hi);
      expect(domain[0]).toBeLessThanOrEqual(lo);
      expect(domain[1]).toBeGreaterThanOrEqual(hi);
      for (const t of ticks) expect(String(t)).not.toMatch(/e-1[0-9]/);
      if (domain[0] < 0 && domain[1] > 0) expect(ticks).toContain(0);
      expect(ticks.length).toBeLessThanOrEqual(20);
    }
    expect(niceAxis(-0.2376, 0).ticks).toEqual([-0.25, -0.2, -0.15, -0.1, -0.05, 0, 0.05]);
  });
});

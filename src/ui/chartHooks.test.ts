/** The tick label every chart uses (issue 29: an imported run's y axis printed "7158", "7529 / 3375": long decimals cut to their last digits). */
import { describe, expect, it } from 'vitest';
import { axisTick } from './chartHooks.ts';

describe('axisTick', () => {
  it('long decimals and large counts are short numbers of at most 3 significant digits', () => {
    const cases: [number, string][] = [
      [0.30000000000000004, '0.3'], [0.7157999999997158, '0.716'], [-4.522222222222222, '−4.52'], [-9.66, '−9.66'], [10.9, '10.9'],
      [0.25, '0.25'], [1, '1'], [150, '150'], [7158.333, '7.16k'], [51234, '51.2k'], [999_600, '1M'], [25_617_000, '25.6M'], [2.5e9, '2.5B'],
      [0.000123, '1.23e−4'], [0.00015, '1.5e−4'], [-0.0625, '−0.0625'], [0, '0'], [-0, '0'], [3e13, '3e13'],
    ];
    for (const [v, want] of cases) expect([v, axisTick(v)]).toEqual([v, want]);
    expect(axisTick(NaN)).toBe('');
    expect(axisTick(Infinity)).toBe('');
  });

  it('any tick, of any size, is at most 8 characters (and a sign) with at most 3 significant digits', () => {
    let seed = 1;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 5000; i++) {
      const v = (rnd() - 0.5) * 10 ** (rnd() * 24 - 8);
      const t = axisTick(v);
      expect(t.replace(/^−/, '').length, `${v} → ${t}`).toBeLessThanOrEqual(8);
      const digits = t.split(/e/)[0].replace(/[^0-9]/g, '').replace(/^0+/, '');
      expect(digits.length, `${v} → ${t}`).toBeLessThanOrEqual(3);
      // the label is the value to 3 significant digits
      const back = Number(t.replace(/−/g, '-').replace(/k$/, 'e3').replace(/M$/, 'e6').replace(/B$/, 'e9'));
      expect(Math.abs(back - v), `${v} → ${t}`).toBeLessThanOrEqual(Math.abs(v) * 0.006);
    }
  });
});

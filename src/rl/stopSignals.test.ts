import { describe, expect, it } from 'vitest';
import { detectStopSignals } from './stopSignals.ts';
import type { EvalMetrics, StepMetrics } from './trainer.ts';

function steps(n: number, f: (i: number) => Partial<StepMetrics>): StepMetrics[] {
  return Array.from({ length: n }, (_, i) => ({ step: i, reward: 0.5, accuracy: 0.5, mean_length: 4, frac_mixed: 0.6, frac_all_pass: 0.2, frac_all_fail: 0.2, entropy: 1, ...f(i) }) as StepMetrics);
}
const ev = (h: number[]): EvalMetrics[] => h.map((x, i) => ({ step: i * 10, heldout_accuracy: x, pass_at_k: {}, by_difficulty: {}, samples: [] }));
const ids = (s: StepMetrics[], e: EvalMetrics[]) => detectStopSignals(s, e).map((x) => x.id);

describe('stop signals', () => {
  it('a healthy run raises none', () => {
    expect(ids(steps(30, (i) => ({ reward: 0.3 + i * 0.01, accuracy: 0.3 + i * 0.01 })), ev([0.3, 0.45, 0.6]))).toEqual([]);
  });
  it('reward rising with flat held-out accuracy', () => {
    const s = detectStopSignals(steps(30, (i) => ({ reward: 0.3 + i * 0.01 })), ev([0.3, 0.3, 0.31]));
    expect(s.map((x) => x.id)).toEqual(['reward-without-heldout']);
    expect(s[0].evidence.heldout_end).toBe(0.31);
  });
  it('reads held-out pass@1 (sampled) where the evaluations have it: greedy flat but pass@1 rising raises nothing', () => {
    const withPass = (h: number[], p: number[]) => ev(h).map((e, i) => ({ ...e, pass_at_k: { '1': p[i] } }));
    const rising = steps(30, (i) => ({ reward: 0.3 + i * 0.01 }));
    expect(ids(rising, withPass([0.3, 0.3, 0.3], [0.24, 0.28, 0.34]))).toEqual([]);
    const s = detectStopSignals(rising, withPass([0.3, 0.4, 0.5], [0.24, 0.24, 0.23]));
    expect(s.map((x) => x.id)).toEqual(['reward-without-heldout']);
    expect(s[0].message).toMatch(/held-out pass@1 \(sampled\) moved −0\.01/);
  });
  it('length rising without accuracy', () => {
    expect(ids(steps(30, (i) => ({ mean_length: 4 + i * 0.2 })), ev([0.5, 0.5]))).toEqual(['length-without-accuracy']);
  });
  it('mixed groups vanishing, with the advice that fits', () => {
    const s = detectStopSignals(steps(30, (i) => (i > 15 ? { frac_mixed: 0.05, frac_all_pass: 0.9, frac_all_fail: 0.05 } : {})), ev([0.5, 0.6]));
    expect(s.map((x) => x.id)).toEqual(['mixed-groups-vanishing']);
    expect(s[0].message).toMatch(/Raise the difficulty/);
  });
  it('entropy collapse', () => {
    expect(ids(steps(30, (i) => ({ entropy: i < 10 ? 1 : 0.1 })), ev([0.5, 0.6]))).toEqual(['entropy-collapse']);
  });
  it('held-out accuracy falling over two evaluations (one low evaluation is not enough)', () => {
    const s = detectStopSignals(steps(30, () => ({})), ev([0.46, 0.54, 0.42, 0.25, 0.21]));
    expect(s.map((x) => x.id)).toEqual(['heldout-falling']);
    expect(s[0].evidence.heldout_last_two).toBeCloseTo(0.23, 12);
    expect(ids(steps(30, () => ({})), ev([0.46, 0.5, 0.25]))).toEqual([]);
    expect(ids(steps(30, () => ({})), ev([0.46, 0.3]))).toEqual([]);
  });
  it('needs enough history before judging', () => {
    expect(ids(steps(8, (i) => ({ entropy: i < 4 ? 1 : 0.01 })), ev([0.5]))).toEqual([]);
  });
  it('each signal\'s numbers read in words with their windows, the same numbers as its evidence, no field names', () => {
    const all = [
      ...detectStopSignals(steps(30, (i) => ({ reward: 0.3 + i * 0.01 })), ev([0.3, 0.3, 0.31])),
      ...detectStopSignals(steps(30, () => ({})), ev([0.6, 0.4, 0.3])),
      ...detectStopSignals(steps(30, (i) => ({ mean_length: 4 + i * 0.2 })), ev([0.5, 0.5])),
      ...detectStopSignals(steps(30, (i) => (i > 15 ? { frac_mixed: 0.05, frac_all_pass: 0.9, frac_all_fail: 0.05 } : {})), ev([0.5, 0.6])),
      ...detectStopSignals(steps(30, (i) => ({ entropy: i < 10 ? 1 : 0.1 })), ev([0.5, 0.6])),
    ];
    expect(new Set(all.map((s) => s.id)).size).toBe(5);
    for (const s of all) {
      expect(s.readout, s.id).not.toMatch(/[a-z]_[a-z]/); // heldout_start, frac_mixed, …
      expect(s.readout, s.id).toMatch(/first|mean/);
      for (const [k, v] of Object.entries(s.evidence)) {
        if (k === 'all_pass' || k === 'all_fail') continue; // in the message, as percentages
        const shown = k.startsWith('entropy') ? v.toFixed(3) : k.startsWith('length') ? v.toFixed(1) : v.toFixed(2);
        expect(s.readout, `${s.id} ${k}`).toContain(shown);
      }
    }
  });
});

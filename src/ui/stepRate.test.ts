import { describe, expect, it } from 'vitest';
import { markStep, stepRate, type StepMark } from './stepRate.ts';

const play = (updates: [number, number][]) => updates.reduce<StepMark[]>((m, [n, t]) => markStep(m, n, t), []);

describe('the lesson card\'s step rate', () => {
  it('counts steps, not page updates: two paced updates that land 3 steps give a rate', () => {
    // Play pressed at step 1 (t = 0); the next paced update lands steps 2–4 at once, 750 ms later
    expect(stepRate(play([[1, 0], [4, 750]]))).toBeCloseTo(4, 10);
  });
  it('gives nothing before two steps are timed', () => {
    expect(stepRate(play([[0, 0]]))).toBeNull();
    expect(stepRate(play([[0, 0], [1, 300]]))).toBeNull();
    expect(stepRate(play([[0, 0], [0, 300]]))).toBeNull(); // the same count again is not a step
  });
  it('takes the last 10 updates, and starts over when the count goes back (a restart)', () => {
    const slow = play(Array.from({ length: 20 }, (_, i) => [i, i * 1000] as [number, number]));
    expect(slow).toHaveLength(11);
    expect(stepRate(slow)).toBeCloseTo(1, 10);
    const restarted = [...slow.map((m) => [m.n, m.t] as [number, number]), [0, 30_000], [3, 30_300]] as [number, number][];
    expect(stepRate(play(restarted))).toBeCloseTo(10, 10);
  });
});

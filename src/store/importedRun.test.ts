/** The x axis with an imported run: each run's steps as a % of its own, so a 6-step browser run beside a 500-step import spans the width (issue 29). */
import { describe, expect, it } from 'vitest';
import { onAxis, onProgressAxis } from './importedRun.ts';

const run = (n: number, from = 1) => Array.from({ length: n }, (_, i) => ({ step: from + i, num_tokens: 100 * (from + i) }));

describe('x axis as % of each run\'s steps', () => {
  it('a 6-step run and a 500-step run both end at 100 %', () => {
    const lab = onProgressAxis(run(6, 0), run(6, 0));
    const trl = onProgressAxis(run(500), run(500));
    expect(lab.map((m) => m.step)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(trl[0].step).toBeCloseTo(0.2, 12);
    expect(trl.at(-1)!.step).toBe(100);
    expect(trl[249].step).toBe(50);
    // evaluations on their run's steps; a run without steps yet stays at 0
    expect(onProgressAxis([{ step: 0 }, { step: 3 }], run(6, 0)).map((m) => m.step)).toEqual([0, 60]);
    expect(onProgressAxis([{ step: 0 }], [])).toEqual([{ step: 0 }]);
  });

  it('onAxis: steps as they are, % of the run, or tokens', () => {
    const h = run(4);
    expect(onAxis('step', h, h)).toBe(h);
    expect(onAxis('progress', h, h).map((m) => m.step)).toEqual([25, 50, 75, 100]);
    expect(onAxis('tokens', h, h).map((m) => m.step)).toEqual([100, 200, 300, 400]);
  });
});

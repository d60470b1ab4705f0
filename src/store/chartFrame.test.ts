import { describe, expect, it } from 'vitest';
import { FRAME_KEY, chartFrame, roundDown, roundUp, sameFrame, withFrame } from './chartFrame.ts';
import { chartRows, lineKey, type LineRow } from './thin.ts';

describe('chartFrame: the axes a streaming chart is drawn for', () => {
  it('rounds out to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k, at most a third wider', () => {
    expect([1, 29, 30, 31, 99, 101, 1099, 0.83, 0.051, 7].map(roundUp)).toEqual([1, 30, 30, 40, 100, 120, 1200, 1, 0.06, 8]);
    expect([1, 29, 0.83, 0.051, 7, 0.3].map(roundDown)).toEqual([1, 25, 0.8, 0.05, 6, 0.3]);
    for (let v = 0.013; v < 5000; v *= 1.07) {
      expect(roundUp(v)).toBeGreaterThanOrEqual(v);
      expect(roundUp(v)).toBeLessThanOrEqual((4 / 3) * v + 1e-12);
      expect(roundDown(v)).toBeLessThanOrEqual(v);
    }
    expect([0, -1, NaN].map(roundUp)).toEqual([0, -1, NaN]);
  });

  it('spans the rows: first step to the last rounded up, lowest value rounded down to highest rounded up (negative values outward)', () => {
    const rows = [{ step: 0, l0: 0.83, l1: null }, { step: 12, l0: 1.9, l1: -0.31 }, { step: 29, l0: null, l1: 2.2 }] as LineRow[];
    expect(chartFrame(rows)).toEqual([{ step: 0, [FRAME_KEY]: -0.4 }, { step: 30, [FRAME_KEY]: 2.5 }]);
    expect(chartFrame([{ step: 3, l0: null } as LineRow])).toEqual([{ step: 3 }, { step: 3 }]);
    expect(chartFrame([])).toEqual([]);
  });

  it('a streaming run changes it rarely: 500 steps of a noisy reward give under 40 frames, not 500 data updates', () => {
    const history: { step: number; reward: number; accuracy: number }[] = [];
    let frames = 0, last: LineRow[] = [];
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let step = 0; step < 500; step++) {
      history.push({ step, reward: Math.min(1, 0.2 + step / 600 + 0.2 * rand()), accuracy: Math.min(1, 0.1 + step / 700 + 0.2 * rand()) });
      const frame = chartFrame(chartRows(history, [(m) => m.reward, (m) => m.accuracy]));
      if (!sameFrame(frame, last)) frames++;
      last = frame;
    }
    expect(frames).toBeGreaterThan(10); // it does follow the run
    expect(frames).toBeLessThan(40);
    expect(last[1].step).toBe(500);
  });

  it('withFrame: the rows and the frame in step order, a frame row at a step the rows have merged into a copy of it', () => {
    const rows = [{ step: 0, [lineKey(0)]: 0.5 }, { step: 7, [lineKey(0)]: 0.7 }] as LineRow[];
    const frame = chartFrame(rows);
    const both = withFrame(rows, frame);
    expect(both).toEqual([{ step: 0, [lineKey(0)]: 0.5, [FRAME_KEY]: 0.5 }, { step: 7, [lineKey(0)]: 0.7 }, { step: 8, [FRAME_KEY]: 0.8 }]);
    expect(rows[0]).toEqual({ step: 0, [lineKey(0)]: 0.5 }); // the rows are not changed
  });
});

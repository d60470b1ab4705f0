/** The tooltip's lookup on the x axis in % of each run's steps: two runs' points rarely share an x (issue 29). */
import { describe, expect, it } from 'vitest';
import { onProgressAxis } from '../store/importedRun.ts';
import { atX } from './importedLines.tsx';

describe('atX', () => {
  const lab = onProgressAxis(Array.from({ length: 6 }, (_, i) => ({ step: i, v: i })), Array.from({ length: 6 }, (_, i) => ({ step: i })));
  const trl = onProgressAxis(Array.from({ length: 500 }, (_, i) => ({ step: i + 1, v: i + 1 })), Array.from({ length: 500 }, (_, i) => ({ step: i + 1 })));

  it('in % of each run\'s steps: the nearest point of each run, within half its spacing', () => {
    expect(atX('progress', lab, 52.2)?.v).toBe(3); // 60 %
    expect(atX('progress', trl, 52.2)?.v).toBe(261); // 52.2 %
    expect(atX('progress', lab, 49)?.v).toBe(2); // 40 % is nearer than 60 %
    expect(atX('progress', trl, 0.1)?.v).toBe(1);
    const evals = [{ step: 0, v: 0 }, { step: 10, v: 1 }]; // a run's evaluations up to 10 %
    expect(atX('progress', evals, 30)).toBeUndefined(); // 20 past the last one: more than half the spacing (5)
    expect(atX('progress', evals, 14)?.v).toBe(1);
    expect(atX('progress', [], 3)).toBeUndefined();
  });

  it('on steps or tokens: the exact x only', () => {
    const h = [{ step: 1, v: 1 }, { step: 2, v: 2 }];
    expect(atX('step', h, 2)?.v).toBe(2);
    expect(atX('step', h, 1.5)).toBeUndefined();
    expect(atX('tokens', h, 1)?.v).toBe(1);
  });
});

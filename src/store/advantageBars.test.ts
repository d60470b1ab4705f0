import { describe, expect, it } from 'vitest';
import { advantageFrame, advantageLayout, advantageTicks, walkKey } from './advantageBars.ts';
import { FRAME_KEY, sameFrame } from './chartFrame.ts';
import { barsPath } from '../ui/liveMarks.tsx';
import { answerSaid } from '../ui/RolloutCharts.tsx';
import type { LineRow } from './thin.ts';

const answer = (advantage: number, correct: boolean, formatOk = true) => ({ advantage, correct, formatOk });

describe('advantageLayout: one bar an answer, groups apart', () => {
  it('puts each group’s answers in consecutive slots with one empty slot between groups, names P and P.i', () => {
    const l = advantageLayout([
      { answers: [answer(1, true), answer(-1, false)] },
      { answers: [answer(0, false, false), answer(NaN, false), answer(0, true)] },
    ]);
    expect(l.bars.map((b) => [b.x, b.label, b.kind, b.advantage])).toEqual([
      [0, 'P1', 'correct', 1], [1, 'P1.2', 'wrong', -1],
      [3, 'P2', 'unparseable', 0], [4, 'P2.2', 'wrong', null], [5, 'P2.3', 'correct', 0],
    ]);
    expect(l.slots).toBe(6);
    expect(l.ticks).toEqual([0, 3]);
    expect([0, 3, 1].map(l.tickLabel)).toEqual(['P1', 'P2', '']);
    expect(l.key).toBe('2,3');
  });

  it('labels at most 8 prompts (32 prompts: every 4th)', () => {
    const l = advantageLayout(Array.from({ length: 32 }, () => ({ answers: [answer(0, true), answer(0, true)] })));
    expect(l.ticks.map(l.tickLabel)).toEqual(['P1', 'P5', 'P9', 'P13', 'P17', 'P21', 'P25', 'P29']);
  });
});

describe('advantageFrame: the y extent recharts gets', () => {
  it('spans the slots’ outer edges and the advantages with 0, out to a tick; −1 to 1 where no group is mixed; [] without answers', () => {
    const l = advantageLayout([{ answers: [answer(2.47, true), answer(-0.35, false), answer(-0.35, false)] }]);
    expect(advantageFrame(l)).toEqual([{ step: -0.5, [FRAME_KEY]: -1 }, { step: 2.5, [FRAME_KEY]: 3 }]);
    expect(advantageTicks(advantageFrame(l))).toEqual([-1, 0, 1, 2, 3]);
    const mixed = advantageLayout([{ answers: [answer(-1.14, false), answer(2.24, true)] }]);
    expect(advantageTicks(advantageFrame(mixed))).toEqual([-2, -1, 0, 1, 2, 3]);
    const positive = advantageLayout([{ answers: [answer(0.7, true), answer(0.2, true)] }]);
    expect(advantageFrame(positive).map((r) => r[FRAME_KEY])).toEqual([0, 0.8]);
    expect(advantageTicks(advantageFrame(positive))).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    const none = advantageFrame(advantageLayout([{ answers: [answer(0, true), answer(0, true)] }]));
    expect(none.map((r) => r[FRAME_KEY])).toEqual([-1, 1]);
    expect(advantageTicks(none)).toEqual([-1, -0.5, 0, 0.5, 1]);
    expect(advantageFrame(advantageLayout([]))).toEqual([]);
    expect(advantageTicks([])).toEqual([]);
    const wide = advantageFrame(advantageLayout([{ answers: [answer(-2.47, false), answer(2.24, true)] }]));
    expect(wide.map((r) => r[FRAME_KEY])).toEqual([-3, 3]);
    expect(advantageTicks(wide)).toEqual([-3, -2, -1, 0, 1, 2, 3]); // both ends are ticks
  });

  it('keeps the frame drawn while the bars fit in it and fill half its height; else follows them', () => {
    const kept = advantageFrame(advantageLayout([{ answers: [answer(2.47, true), answer(-0.35, false), answer(-0.35, false)] }]));
    const of = (...a: number[]) => advantageLayout([{ answers: a.map((v) => answer(v, v > 0)) }]);
    expect(advantageFrame(of(1.5, -0.6, 0), kept)).toBe(kept); // 2.1 of 4
    expect(advantageFrame(of(1, -0.3, 0), kept).map((r) => r[FRAME_KEY])).toEqual([-0.5, 1]); // 1.3 of 4: rescaled
    expect(advantageFrame(of(3.2, -0.3, 0), kept).map((r) => r[FRAME_KEY])).toEqual([-1, 4]); // leaves it
    expect(advantageFrame(of(1.5, -0.6), kept)[1].step).toBe(1.5); // another layout: its own frame
  });

  it('changes rarely while a run streams: 300 steps of 32 groups of 8 pass/fail answers give under 10 frames, each with ticks at its ends and 0', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    let frames = 0, last: LineRow[] = [];
    for (let step = 0; step < 300; step++) {
      const p = Math.min(0.95, 0.2 + step / 400);
      const groups = Array.from({ length: 32 }, () => {
        const r = Array.from({ length: 8 }, () => (rand() < p ? 1 : 0) as number);
        const mean = r.reduce((a, b) => a + b, 0) / 8;
        const std = Math.sqrt(r.reduce((a, b) => a + (b - mean) ** 2, 0) / 7);
        return { answers: r.map((x) => answer((x - mean) / (std + 1e-4), x === 1)) };
      });
      const f = advantageFrame(advantageLayout(groups), last);
      if (!sameFrame(f, last)) {
        frames++;
        const t = advantageTicks(f);
        expect([t[0], t.at(-1)]).toEqual(f.map((r) => r[FRAME_KEY])); // the axis is labelled at both ends,
        expect(t).toContain(0); // at 0,
        expect(t.length).toBeLessThanOrEqual(7); // and not crowded
      }
      last = f;
    }
    expect(frames).toBeGreaterThan(1); // it does follow the rollouts
    expect(frames).toBeLessThan(10);
  });
});

describe('barsPath: the bars of one verdict as one path', () => {
  const x = (v: number) => 10 * v + 100, y = (v: number) => 50 - 20 * v;
  it('a rectangle a bar, from 0 to its advantage, a pixel inside its slot’s edges; none for 0 or a missing value', () => {
    const l = advantageLayout([{ answers: [answer(1, true), answer(-0.5, false), answer(0, false), answer(NaN, false)] }]);
    expect(barsPath(l.bars, x, y)).toBe('M95.5,50H104.5V30H95.5ZM105.5,50H114.5V60H105.5Z');
    expect(barsPath([], x, y)).toBe('');
  });
});

describe('the advantages chart by keyboard: answer by answer, each announced', () => {
  it('→ ← walk every answer across the groups (the gaps between groups are no stop), Home and End the ends; other keys are not the walk\'s', () => {
    const l = advantageLayout([{ answers: [answer(1, true), answer(-1, false)] }, { answers: [answer(0, false, false), answer(0.5, true)] }]);
    const seen: string[] = [];
    let at: number | null = null;
    for (let k = 0; k < 5; k++) { at = walkKey('ArrowRight', at, l.bars.length)!; seen.push(answerSaid(l.bars[at])); }
    expect(seen).toEqual([
      'Prompt 1, answer 1 of 2: correct, A = 1', 'Prompt 1, answer 2 of 2: wrong, A = -1',
      'Prompt 2, answer 1 of 2: unparseable, A = 0', 'Prompt 2, answer 2 of 2: correct, A = 0.5', 'Prompt 2, answer 2 of 2: correct, A = 0.5', // stays at the last
    ]);
    expect(walkKey('ArrowLeft', 3, 4)).toBe(2);
    expect(walkKey('ArrowLeft', 0, 4)).toBe(0);
    expect(walkKey('ArrowLeft', null, 4)).toBe(3);
    expect([walkKey('Home', 2, 4), walkKey('End', 0, 4)]).toEqual([0, 3]);
    expect(walkKey('a', 1, 4)).toBeUndefined();
    expect(walkKey('ArrowRight', null, 0)).toBeUndefined();
  });
});

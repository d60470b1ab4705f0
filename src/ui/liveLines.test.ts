/** The live lines drawn through recharts' scales (liveLines.tsx): the points, the path, the one item recharts keeps, the legend entries. */
import { describe, expect, it } from 'vitest';
import { chartRows, lineKey, type LineRow } from '../store/thin.ts';
import { LIVE_ITEM, LIVE_WIDTH, liveExtent, liveLegendEntries, livePath, livePoints, type LiveLine } from './liveLines.tsx';

const row = (step: number, ...vs: (number | null)[]) => ({ step, ...Object.fromEntries(vs.map((v, i) => [lineKey(i), v])) }) as LineRow;
const x = (v: number) => 10 * v;
const y = (v: number) => 100 - 100 * v;

describe('livePoints', () => {
  it('maps each row with a value through the scales, in row order', () => {
    const rows = [row(1, 0.5, 0), row(2, 0.25, 1), row(4, 1, 0.5)];
    expect(livePoints(rows, 0, x, y)).toEqual([[10, 50], [20, 75], [40, 0]]);
    expect(livePoints(rows, 1, x, y)).toEqual([[10, 100], [20, 0], [40, 50]]);
  });

  it('skips rows without a value, so the line joins its neighbours (connectNulls)', () => {
    const rows = [row(1, 0.5), row(2, null), row(3), row(5, 0)];
    expect(livePoints(rows, 0, x, y)).toEqual([[10, 50], [50, 100]]);
    expect(livePath(livePoints(rows, 0, x, y))).toBe('M10,50L50,100');
  });

  it('skips a value the scale does not place (outside a domain that does not stretch)', () => {
    const clipped = (v: number) => (v > 1 ? undefined : y(v));
    expect(livePoints([row(1, 0.5), row(2, 2), row(3, 1)], 0, x, clipped)).toEqual([[10, 50], [30, 0]]);
  });

  it('draws every line of chartRows through the same recorded steps', () => {
    const hist = Array.from({ length: 400 }, (_, i) => ({ step: i, a: Math.sin(i / 7), b: i % 50 === 0 ? NaN : i / 400 }));
    const rows = chartRows(hist, [(m) => m.a, (m) => m.b]);
    const a = livePoints(rows, 0, x, y), b = livePoints(rows, 1, x, y);
    expect(a).toHaveLength(rows.length);
    expect(b).toHaveLength(rows.filter((r) => r[lineKey(1)] !== null).length);
    expect(a.map(([px]) => px)).toEqual(rows.map((r) => x(r.step)));
  });
});

describe('livePath', () => {
  it('draws nothing under two points, else straight segments', () => {
    expect(livePath([])).toBe('');
    expect(livePath([[1, 2]])).toBe('');
    expect(livePath([[0, 1], [2, 3], [4, 5]])).toBe('M0,1L2,3L4,5');
  });

  it('to 1/100 px (a path recharts would write with 17 digits draws the same)', () => {
    expect(livePath([[10.123456789, 0.30000000000000004], [439.999999, 12.345]])).toBe('M10.12,0.3L440,12.35');
  });
});

describe('liveExtent', () => {
  it("a row's lowest and highest live value: what the axes' domains and the tooltip read", () => {
    expect(liveExtent(row(1, 0.5, 0.25, 0.75))).toEqual([0.25, 0.75]);
    expect(liveExtent(row(1, 3))).toEqual([3, 3]);
    expect(liveExtent(row(1, null, -2, 5))).toEqual([-2, 5]); // a gap in one line: the others' values
    expect(liveExtent(row(4000, 0.1, 0.2))).toEqual([0.1, 0.2]); // the step is not a value
  });

  it('null where no live line has a value (a row only another line keeps: no tooltip entry)', () => {
    expect(liveExtent(row(7))).toBeNull();
    expect(liveExtent(row(7, null, null))).toBeNull();
  });

  it('over chartRows, the extents span every line, gaps included', () => {
    const hist = Array.from({ length: 300 }, (_, i) => ({ step: i, a: i === 17 ? -1 : 0.5, b: i % 3 ? NaN : i / 100 }));
    const rows = chartRows(hist, [(m) => m.a, (m) => m.b]);
    const ex = rows.map(liveExtent).filter((e): e is [number, number] => e !== null);
    expect(ex).toHaveLength(rows.length);
    expect(Math.min(...ex.map((e) => e[0]))).toBe(-1); // line a's spike, kept by the thinning
    expect(Math.max(...ex.map((e) => e[1]))).toBe(2.97); // line b's last number
  });
});

describe('LIVE_ITEM', () => {
  it('one hidden recharts Line reading the extents, in no legend (recharts draws nothing for it: LiveLines does)', () => {
    const p = LIVE_ITEM.props as Record<string, unknown>;
    expect(p.hide).toBe(true);
    expect(p.dataKey).toBe(liveExtent);
    expect(p.legendType).toBe('none');
  });
});

describe('liveLegendEntries', () => {
  it("each live line's entry as recharts makes a Line's: its name, colour and dashes, shown active, in order", () => {
    const lines: LiveLine[] = [{ name: 'reward', color: '#00f' }, { name: 'accuracy', color: '#0ff', dash: '2 3', width: 2 }];
    const e = liveLegendEntries(lines);
    expect(e.map((x) => [x.value, x.type, x.color, x.inactive])).toEqual([['reward', 'line', '#00f', false], ['accuracy', 'line', '#0ff', false]]);
    expect(e[1].payload).toEqual({ stroke: '#0ff', strokeDasharray: '2 3', strokeWidth: 2 });
    expect((e[0].payload as { strokeWidth: number }).strokeWidth).toBe(LIVE_WIDTH);
  });
});

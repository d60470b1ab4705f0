/** The live lines drawn through recharts' scales (liveLines.tsx): the points, the path, and the items recharts keeps. */
import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { chartRows, lineKey, type LineRow } from '../store/thin.ts';
import { LIVE_WIDTH, liveItems, liveLegend, livePath, livePoints, type LiveLine } from './liveLines.tsx';

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
});

describe('liveItems', () => {
  const lines: LiveLine[] = [{ name: 'reward', color: '#00f' }, { name: 'accuracy', color: '#0ff', dash: '2 3', width: 2, dot: { r: 4 } }];
  it('one hidden recharts Line a live line, reading its rows key, with its legend name and look', () => {
    const items = liveItems(lines) as ReactElement<Record<string, unknown>>[];
    expect(items).toHaveLength(2);
    items.forEach((el, i) => {
      expect(isValidElement(el)).toBe(true);
      expect(el.props.hide).toBe(true); // recharts draws nothing for it: LiveLines does
      expect(el.props.dataKey).toBe(lineKey(i));
      expect(el.props.name).toBe(lines[i].name);
      expect(el.props.stroke).toBe(lines[i].color);
      expect(el.props.connectNulls).toBe(true);
    });
    expect(items[0].props.strokeWidth).toBe(LIVE_WIDTH);
    expect(items[1].props.strokeDasharray).toBe('2 3');
  });
});

describe('liveLegend', () => {
  it('shows the hidden live lines as active entries (recharts greys hidden items out)', () => {
    const payload = [{ value: 'reward', color: '#00f', type: 'line' as const, inactive: true }, { value: 'other', color: '#888', type: 'line' as const }];
    const el = liveLegend({ payload }) as ReactElement<{ payload: { inactive?: boolean; value: string }[] }>;
    expect(el.props.payload.map((e) => [e.value, !!e.inactive])).toEqual([['reward', false], ['other', false]]);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_LINE_POINTS, lineKey, mergeLines, stepLine, stepRows, thinSeries } from './thin.ts';

interface P { step: number; v: number | null }
const series = (n: number, f: (i: number) => number | null): P[] => Array.from({ length: n }, (_, i) => ({ step: i * 3, v: f(i) }));
const noisy = (i: number) => Math.sin(i * 0.37) + 0.3 * Math.sin(i * 5.1) + (i === 123 ? 4 : 0) + (i === 377 ? -3 : 0);
const val = (p: P) => p.v;

describe('thinSeries', () => {
  it('leaves a short series as it is (the same array)', () => {
    const s = series(100, noisy);
    expect(thinSeries(s, val, 240)).toBe(s);
  });

  it('keeps at most max points, the first and the last', () => {
    for (const [n, max] of [[500, 240], [241, 240], [1000, 100], [500, 5], [17, 4]] as const) {
      const s = series(n, noisy);
      const t = thinSeries(s, val, max);
      expect(t.length).toBeLessThanOrEqual(max);
      expect(t[0]).toBe(s[0]);
      expect(t.at(-1)).toBe(s.at(-1));
    }
  });

  it('keeps the extremes: the highest and the lowest point of the line', () => {
    const s = series(500, noisy);
    const t = thinSeries(s, val, 60);
    const vs = s.map((p) => p.v as number);
    expect(t).toContain(s[vs.indexOf(Math.max(...vs))]);
    expect(t).toContain(s[vs.indexOf(Math.min(...vs))]);
    expect(t).toContain(s[123]);
    expect(t).toContain(s[377]);
    // and every run's extremes: the thinned line spans the same range in each stretch
    expect(Math.max(...t.map((p) => p.v as number))).toBe(Math.max(...vs));
  });

  it('returns real points only: the same objects, in order, none made up', () => {
    const s = series(500, noisy);
    const t = thinSeries(s, val);
    expect(t.length).toBeLessThanOrEqual(MAX_LINE_POINTS);
    const idx = t.map((p) => s.indexOf(p));
    expect(idx.every((i) => i >= 0)).toBe(true);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    expect(new Set(idx).size).toBe(idx.length);
  });

  it('is stable: the same input gives the same points', () => {
    const s = series(500, noisy);
    expect(thinSeries(s, val, 100)).toEqual(thinSeries([...s], val, 100));
    expect(thinSeries(s, val, 100).map((p) => p.step)).toEqual(thinSeries(s, val, 100).map((p) => p.step));
  });

  it('skips missing values when choosing extremes, and keeps a point of a run that has none', () => {
    const s = series(400, (i) => (i >= 100 && i < 200 ? null : i % 7 === 0 ? NaN : noisy(i)));
    const t = thinSeries(s, val, 40);
    expect(t.length).toBeLessThanOrEqual(40);
    expect(t.some((p) => p.step >= 300 && p.step < 600)).toBe(true); // the gap is still there, not bridged by made-up points
    expect(t.slice(1, -1).filter((p) => p.v !== null && Number.isNaN(p.v))).toEqual([]); // first and last are kept whatever they hold
  });

  it('keeps the first and the last point that holds a number, as well as the line\'s ends, within max', () => {
    // a line that starts and ends without numbers (KL before π_ref is evaluated, a share with no answers yet)
    const s = series(500, (i) => (i < 7 ? NaN : i >= 496 ? null : 0.5 + 0.1 * Math.sin(i * 0.9) + (i === 200 ? 2 : 0) + (i === 301 ? -2 : 0)));
    s[7].v = 0.5; s[495].v = 0.5; // middling: no run's low or high, so only the rule keeps them
    for (const max of [120, 60, 9, 4]) {
      const t = thinSeries(s, val, max);
      expect(t.length).toBeLessThanOrEqual(max);
      expect(t[0]).toBe(s[0]);
      expect(t.at(-1)).toBe(s.at(-1));
      expect(t).toContain(s[7]);
      expect(t).toContain(s[495]);
      if (max >= 9) { expect(t).toContain(s[200]); expect(t).toContain(s[301]); }
    }
  });

  it('draws at most MAX_LINE_POINTS points a line, fewer than the 240 a 440 px plot cannot show', () => {
    expect(MAX_LINE_POINTS).toBeLessThanOrEqual(120);
    expect(thinSeries(series(500, noisy), val).length).toBeLessThanOrEqual(MAX_LINE_POINTS);
  });

  it('refuses a max too small to keep first, last and the extremes', () => {
    expect(() => thinSeries(series(10, noisy), val, 3)).toThrow(/at least 4/);
  });
});

describe('stepLine on a recorded run (scripts/fixtures/page-run.json.gz)', () => {
  it('draws only points of the store\'s history: each (step, value) is a recorded step\'s own number', async () => {
    const { readFileSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const { readRecordedRun } = await import('../lab/replay.ts');
    const { stepLine } = await import('./thin.ts');
    const { pushBounded } = await import('./history.ts');
    const run = readRecordedRun(gunzipSync(readFileSync(new URL('../../scripts/fixtures/page-run.json.gz', import.meta.url))).toString('utf8'));
    // the history as the store holds it after the whole run (bounded: src/store/history.ts)
    const history = run.steps.reduce<typeof run.steps>((h, m) => pushBounded(h, m), []);
    expect(history.length).toBeGreaterThan(MAX_LINE_POINTS);
    const byStep = new Map(history.map((m) => [m.step, m]));
    for (const value of [(m: (typeof history)[number]) => m.reward, (m: (typeof history)[number]) => m.kl, (m: (typeof history)[number]) => m.process_reward]) {
      const line = stepLine(history, value);
      expect(line.length).toBeLessThanOrEqual(MAX_LINE_POINTS);
      expect(line[0].step).toBe(history[0].step);
      expect(line.at(-1)!.step).toBe(history.at(-1)!.step); // no missing tail
      for (const p of line) {
        const m = byStep.get(p.step);
        expect(m).toBeDefined();
        const v = value(m!);
        expect(p.v).toBe(Number.isFinite(v) ? v : null);
      }
      const finite = history.map(value).filter(Number.isFinite);
      if (finite.length) {
        expect(Math.max(...line.map((p) => p.v ?? -Infinity))).toBe(Math.max(...finite)); // extremes kept
        expect(Math.min(...line.map((p) => p.v ?? Infinity))).toBe(Math.min(...finite));
      }
    }
  });
});

describe('the chart readout (presenterView.chartReadout) quotes drawn points', () => {
  it('each first and last point it reads is a point the chart\'s thinned line draws', async () => {
    const { readFileSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const { readRecordedRun } = await import('../lab/replay.ts');
    const { pushBounded } = await import('./history.ts');
    const { chartReadout } = await import('./presenterView.ts');
    const run = readRecordedRun(gunzipSync(readFileSync(new URL('../../scripts/fixtures/page-run.json.gz', import.meta.url))).toString('utf8'));
    const full = run.steps.reduce<typeof run.steps>((h, m) => pushBounded(h, m), []);
    // the predicted share without a number at the first and the last steps: its first and last points are then inside the line
    const history = full.map((m, i) => (i < 5 || i >= full.length - 3 ? { ...m, mixed_predicted: NaN } : m));
    type M = (typeof history)[number];
    const drawn: Record<string, (m: M) => number> = { // the groups chart's lines (Charts.tsx GroupsChart)
      mixed: (m) => m.frac_mixed, 'mixed, predicted (batch pass rate)': (m) => m.mixed_predicted, 'all pass': (m) => m.frac_all_pass, 'all fail': (m) => m.frac_all_fail,
    };
    const lines = chartReadout('groups', { steps: history, evals: [] })!;
    expect(lines.map((l) => l.name).sort()).toEqual(Object.keys(drawn).sort());
    for (const l of lines) {
      const line = stepLine(history, drawn[l.name]);
      for (const p of l.points) expect(line, `${l.name} at step ${p.step}`).toContainEqual({ step: p.step, v: p.value });
    }
  });
});

describe('stepRows', () => {
  it('gives each step any line keeps once, in order, and nothing else', () => {
    const history = Array.from({ length: 500 }, (_, i) => ({ step: i, a: noisy(i), b: Math.cos(i * 0.21) * (i % 7) }));
    const lines = [stepLine(history, (m) => m.a), stepLine(history, (m) => m.b), [{ step: 3, v: 1 }, { step: 499, v: null }]];
    const rows = stepRows(lines);
    const kept = new Set(lines.flat().map((p) => p.step));
    expect(rows.map((r) => r.step)).toEqual([...kept].sort((x, y) => x - y));
    expect(rows.length).toBeLessThan(500); // two thinned lines do not keep every step
    expect(stepRows([])).toEqual([]);
    expect(stepRows([[{ step: 5, v: 1 }, { step: 2, v: 0 }], [{ step: 5, v: 3 }]])).toEqual([{ step: 2 }, { step: 5 }]);
  });
});

describe('mergeLines', () => {
  it('gives each line exactly its own points under its key, every step once and in order, and other lines\' steps without values', () => {
    const history = Array.from({ length: 500 }, (_, i) => ({ step: i, a: noisy(i), b: i % 9 === 0 ? NaN : Math.cos(i * 0.21) * (i % 7) }));
    const lines = [stepLine(history, (m) => m.a), stepLine(history, (m) => m.b)];
    const other = [{ step: 2.5, v: 1 }, { step: 7, v: 0 }];
    const rows = mergeLines(lines, [other]);
    expect(rows.map((r) => r.step)).toEqual([...new Set([...lines.flat(), ...other].map((p) => p.step))].sort((x, y) => x - y));
    lines.forEach((l, i) => {
      const drawn = rows.filter((r) => lineKey(i) in r).map((r) => ({ step: r.step, v: r[lineKey(i)] }));
      expect(drawn).toEqual(l); // the line draws its thinned points, nothing else (a null stays null)
    });
    expect(rows.find((r) => r.step === 2.5)).toEqual({ step: 2.5 });
    expect(mergeLines([])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_LINE_POINTS, chartRows, chartRowsWith, lineKey, stepLine, thinSeries, thinShared, withSteps, type LineRow } from './thin.ts';

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
    const names = Object.keys(drawn);
    const rows = chartRows(history, names.map((n) => drawn[n])); // the chart's rows (one line per name, in this order)
    for (const l of lines) {
      const line = rows.filter((r) => r[lineKey(names.indexOf(l.name))] !== null).map((r) => ({ step: r.step, v: r[lineKey(names.indexOf(l.name))] }));
      for (const p of l.points) expect(line, `${l.name} at step ${p.step}`).toContainEqual({ step: p.step, v: p.value });
    }
  });
});

/** Lines of one chart over a 500-step history: moving apart, with spikes, gaps and lines that start and end without numbers. */
const chartHistory = () => Array.from({ length: 500 }, (_, i) => ({
  step: i + 1,
  a: noisy(i),
  b: i % 9 === 0 ? NaN : Math.cos(i * 0.21) * (i % 7) + (i === 250 ? 9 : 0),
  c: i < 11 || i > 480 ? NaN : 0.5 + 0.01 * i + (i === 40 ? -5 : 0),
  d: i >= 100 && i < 180 ? NaN : Math.sin(i * 1.3),
  e: (i * 7919) % 101 / 101,
}));
type CH = ReturnType<typeof chartHistory>[number];
const LINES: ((m: CH) => number)[] = [(m) => m.a, (m) => m.b, (m) => m.c, (m) => m.d, (m) => m.e];

describe('thinShared', () => {
  it('keeps, for every line, its extremes in each run, its first and last number, and the ends: within max', () => {
    const h = chartHistory();
    for (const max of [120, 60, 22]) {
      const t = thinShared(h, LINES, max);
      expect(t.length).toBeLessThanOrEqual(max);
      expect(t[0]).toBe(h[0]);
      expect(t.at(-1)).toBe(h.at(-1));
      const idx = t.map((m) => h.indexOf(m));
      expect(idx.every((i) => i >= 0)).toBe(true); // the same objects: recorded steps, none made up
      expect(idx).toEqual([...new Set(idx)].sort((x, y) => x - y));
      for (const f of LINES) {
        const vs = h.map(f);
        const fin = vs.map((v, i) => [v, i] as const).filter(([v]) => Number.isFinite(v));
        expect(t).toContain(h[fin[0][1]]); // first and last with a number
        expect(t).toContain(h[fin.at(-1)![1]]);
        const kept = t.map(f).filter(Number.isFinite);
        expect(Math.max(...kept)).toBe(Math.max(...fin.map(([v]) => v))); // the line's extremes
        expect(Math.min(...kept)).toBe(Math.min(...fin.map(([v]) => v)));
      }
    }
    const t = thinShared(h, LINES, 120);
    for (const i of [250, 40]) expect(t).toContain(h[i]); // the one-step spikes of b and c
  });

  it('keeps each line\'s low and high in every one of its equal runs (the envelope a wider plot would show)', () => {
    const h = chartHistory();
    const t = thinShared(h, LINES, 120);
    // the runs thinShared chose: the largest count whose kept points fit; with it, each run's extremes of each line are kept
    const kept = new Set(t);
    let runs = 0;
    for (let r = 1; r <= 498; r++) {
      const ok = LINES.every((f) => {
        for (let b = 0; b < r; b++) {
          const lo = 1 + Math.floor((b * 498) / r), hi = 1 + Math.floor(((b + 1) * 498) / r);
          const run = h.slice(lo, hi).filter((m) => Number.isFinite(f(m)));
          if (!run.length) continue;
          const vs = run.map(f);
          if (!run.some((m) => kept.has(m) && f(m) === Math.max(...vs)) || !run.some((m) => kept.has(m) && f(m) === Math.min(...vs))) return false;
        }
        return true;
      });
      if (ok) runs = r;
    }
    expect(runs).toBeGreaterThanOrEqual(Math.floor((120 - 12) / 10)); // at least the runs that always fit (ends: 2 + 2 a line)
  });

  it('leaves a short history as it is, is stable, and refuses a max too small', () => {
    const h = chartHistory().slice(0, 100);
    expect(thinShared(h, LINES, 120)).toBe(h);
    const full = chartHistory();
    expect(thinShared(full, LINES, 90).map((m) => m.step)).toEqual(thinShared([...full], LINES, 90).map((m) => m.step));
    expect(() => thinShared(full, LINES, 21)).toThrow(/at least 2 \+ 4/);
  });
});

describe('chartRows', () => {
  it('gives every line its recorded value at each kept step (null where not a number), at most MAX_LINE_POINTS rows', () => {
    const h = chartHistory();
    const rows = chartRows(h, LINES);
    expect(rows.length).toBeLessThanOrEqual(MAX_LINE_POINTS);
    const byStep = new Map(h.map((m) => [m.step, m]));
    for (const r of rows) {
      const m = byStep.get(r.step)!;
      expect(m).toBeDefined();
      LINES.forEach((f, i) => expect(r[lineKey(i)]).toBe(Number.isFinite(f(m)) ? f(m) : null));
    }
    expect(rows.map((r) => r.step)).toEqual(thinShared(h, LINES).map((m) => m.step));
  });

  it('on a recorded run: the groups chart\'s five lines each keep their extremes, in fewer rows than five thinned lines merged', async () => {
    const { readFileSync } = await import('node:fs');
    const { gunzipSync } = await import('node:zlib');
    const { readRecordedRun } = await import('../lab/replay.ts');
    const { pushBounded } = await import('./history.ts');
    const run = readRecordedRun(gunzipSync(readFileSync(new URL('../../scripts/fixtures/page-run.json.gz', import.meta.url))).toString('utf8'));
    const history = run.steps.reduce<typeof run.steps>((h, m) => pushBounded(h, m), []);
    type M = (typeof history)[number];
    const groups: ((m: M) => number)[] = [(m) => m.frac_mixed, (m) => m.mixed_predicted, (m) => m.mixed_predicted_per_prompt, (m) => m.frac_all_pass, (m) => m.frac_all_fail];
    const rows = chartRows(history, groups);
    const merged = new Set(groups.flatMap((f) => stepLine(history, f).map((p) => p.step)));
    expect(rows.length).toBeLessThanOrEqual(MAX_LINE_POINTS);
    expect(rows.length).toBeLessThan(merged.size); // what the per-line thinning drew as rows (221 here)
    groups.forEach((f, i) => {
      const fin = history.map(f).filter(Number.isFinite);
      const drawn = rows.map((r) => r[lineKey(i)]).filter((v): v is number => v !== null);
      expect(Math.max(...drawn)).toBe(Math.max(...fin));
      expect(Math.min(...drawn)).toBe(Math.min(...fin));
    });
  });
});

describe('chartRowsWith', () => {
  it('adds another history\'s line under the next key at its own steps, with the recorded values there, within max rows', () => {
    const h = chartHistory();
    const two = LINES.slice(0, 2);
    const evals = [{ step: 0, v: 0.5 }, ...Array.from({ length: 50 }, (_, j) => ({ step: 10 * (j + 1), v: j % 7 === 3 ? null : j / 50 }))];
    const rows = chartRowsWith(h, two, evals);
    expect(rows.length).toBeLessThanOrEqual(MAX_LINE_POINTS);
    // however many evaluations, the thinned lines keep at least half the rows (a run's held-out line must not crowd them out)
    const many = Array.from({ length: 100 }, (_, j) => ({ step: 5 * j + 3, v: j / 100 }));
    const rowsMany = chartRowsWith(h, two, many);
    expect(rowsMany.length).toBeLessThanOrEqual(Math.floor(MAX_LINE_POINTS / 2) + many.length);
    const steps = new Set(rowsMany.map((r) => r.step));
    for (const m of thinShared(h, two, Math.floor(MAX_LINE_POINTS / 2))) expect(steps.has(m.step), `step ${m.step}`).toBe(true);
    expect(rows.map((r) => r.step)).toEqual([...rows.map((r) => r.step)].sort((a, b) => a - b));
    const byStep = new Map(h.map((m) => [m.step, m]));
    for (const p of evals) expect(rows.find((r) => r.step === p.step)?.[lineKey(2)], `step ${p.step}`).toBe(p.v); // every evaluation drawn, as recorded
    for (const r of rows) {
      const m = byStep.get(r.step);
      if (!m) { expect(r.step).toBe(0); expect(lineKey(0) in r).toBe(false); continue; } // step 0: no training step recorded there
      two.forEach((f, i) => expect(r[lineKey(i)]).toBe(Number.isFinite(f(m)) ? f(m) : null));
      if (!evals.some((p) => p.step === r.step)) expect(lineKey(2) in r).toBe(false);
    }
    for (const f of two) { // each thinned line still keeps its extremes
      const drawn = rows.map((r) => r[lineKey(two.indexOf(f))]).filter((v): v is number => typeof v === 'number');
      const fin = h.map(f).filter(Number.isFinite);
      expect(Math.max(...drawn)).toBe(Math.max(...fin));
      expect(Math.min(...drawn)).toBe(Math.min(...fin));
    }
    expect(chartRowsWith(h, two, [])).toEqual(chartRows(h, two));
  });
});

describe('withSteps', () => {
  it('adds a row without values for each step of the other lines the rows lack, in order, and keeps the rows as they are', () => {
    const rows = chartRows(chartHistory(), LINES, 40);
    const other = [{ step: 2.5, v: 1 }, { step: 7, v: 0 }, { step: rows[3].step, v: 0.2 }];
    const out = withSteps(rows, [other]);
    expect(out.map((r) => r.step)).toEqual([...new Set([...rows.map((r) => r.step), ...other.map((p) => p.step)])].sort((x, y) => x - y));
    for (const r of rows) expect(out).toContain(r);
    expect(out.find((r: LineRow) => r.step === 2.5)).toEqual({ step: 2.5 });
    expect(withSteps(rows, [])).toBe(rows);
    expect(withSteps(rows, [[{ step: rows[0].step, v: 3 }]])).toBe(rows);
  });
});

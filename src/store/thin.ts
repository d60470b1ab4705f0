/**
 * Thinning a chart's line to a bounded number of points by CHOOSING real points, never by
 * averaging, smoothing or inventing: the first and the last point, the first and the last point
 * that holds a number (what the chart's readout and the class tour quote: presenterView.ts
 * firstLast), and in each of the equal runs of the points between them, the lowest and the
 * highest (by `value`): min/max decimation, so a spike of one step is still drawn. The result is
 * a subsequence of the input — the same objects, in order — so every point drawn is a point the
 * run recorded, and the line's extremes (the run's best and worst step) are always among them.
 * The same input gives the same output; an input already within `max` comes back as it is.
 */

/**
 * Points per line, and rows per chart, the charts draw at most (the history holds up to 500:
 * src/store/history.ts). A chart's plot is about 440 px wide at 1280×800, so 100 rows is one
 * recorded step per 4.4 px, each line's low and high in every run among them (thinShared): the
 * envelope a wider drawing would show. What a redraw costs grows with rows × lines
 * (page-bench: redraw_cpu_ms), so the rows are shared by a chart's lines, not 120 a line.
 */
export const MAX_LINE_POINTS = 100;

const finite = (v: number | null | undefined): v is number => v !== null && v !== undefined && Number.isFinite(v);

export function thinSeries<T>(points: readonly T[], value: (p: T) => number | null | undefined, max = MAX_LINE_POINTS): readonly T[] {
  if (!(max >= 4)) throw new Error(`thinSeries: max must be at least 4 (first, last, a low and a high), got ${max}`);
  const n = points.length;
  if (n <= max) return points;
  let first = 0, last = n - 1; // the first and the last point with a number
  while (first < n && !finite(value(points[first]))) first++;
  while (last >= 0 && !finite(value(points[last]))) last--;
  const ends = [0, n - 1, ...(first < n ? [first, last] : [])];
  const extra = new Set(ends).size - 2;
  const runs = Math.floor((max - 2 - extra) / 2);
  const inner = n - 2;
  const keep: number[] = [...ends];
  for (let b = 0; b < runs; b++) {
    const lo = 1 + Math.floor((b * inner) / runs);
    const hi = 1 + Math.floor(((b + 1) * inner) / runs);
    let iMin = -1, iMax = -1, vMin = Infinity, vMax = -Infinity;
    for (let i = lo; i < hi; i++) {
      const v = value(points[i]);
      if (!finite(v)) continue;
      if (v < vMin) { vMin = v; iMin = i; }
      if (v > vMax) { vMax = v; iMax = i; }
    }
    if (iMin < 0) { if (lo < hi) keep.push(lo); continue; } // no number in this run: one of its points (a gap stays a gap)
    if (iMin === iMax) keep.push(iMin);
    else keep.push(Math.min(iMin, iMax), Math.max(iMin, iMax));
  }
  return [...new Set(keep)].sort((a, b) => a - b).map((i) => points[i]);
}

/** One point of a per-step chart line: the step and the value recorded for it (null where not a finite number). */
export interface LinePoint {
  step: number;
  v: number | null;
}

/** A per-step line of a chart, thinned: each point is a recorded step and the value `value` reads from it. */
export function stepLine<M extends { step: number }>(history: readonly M[], value: (m: M) => number, max = MAX_LINE_POINTS): LinePoint[] {
  return thinSeries(history, value, max).map((m) => {
    const v = value(m);
    return { step: m.step, v: Number.isFinite(v) ? v : null };
  });
}

/** The key of the `i`-th live line's value in a chart's rows (chartRows). */
export const lineKey = (i: number) => `l${i}`;

/** A chart row: a step and, under lineKey(i), line i's value recorded at that step (null where not a finite number). */
export type LineRow = { step: number } & Record<string, number | null>;

/**
 * Thinning several lines of one chart to shared points: a subsequence of `points` (the same
 * objects, in order) that keeps, for EVERY line, what thinSeries keeps for one: the first and the
 * last point, the line's first and last point with a number, and in each of B equal runs of the
 * points between, the line's lowest and highest. The runs are the same for all lines, and B is the
 * most (by bisection from the count that always fits) whose kept points fit in `max`: lines that
 * move together share their extremes, so B is usually well above the worst case's
 * (max − ends) / (2 × lines). A run where no line has a number keeps one of its points.
 */
export function thinShared<T>(points: readonly T[], values: readonly ((p: T) => number | null | undefined)[], max = MAX_LINE_POINTS): readonly T[] {
  const L = values.length;
  if (!(L >= 1) || !(max >= 2 + 4 * L)) throw new Error(`thinShared: max must be at least 2 + 4 × lines (first, last, each line's first and last number and one run's low and high), got ${max} for ${L} lines`);
  const n = points.length;
  if (n <= max) return points;
  const vals = values.map((f) => points.map((p) => { const v = f(p); return finite(v) ? v : NaN; }));
  const ends = new Set([0, n - 1]);
  for (const vs of vals) {
    const first = vs.findIndex((v) => !Number.isNaN(v));
    if (first < 0) continue;
    let last = n - 1;
    while (Number.isNaN(vs[last])) last--;
    ends.add(first).add(last);
  }
  const inner = n - 2;
  const pick = (runs: number): Set<number> => {
    const keep = new Set(ends);
    for (let b = 0; b < runs; b++) {
      const lo = 1 + Math.floor((b * inner) / runs);
      const hi = 1 + Math.floor(((b + 1) * inner) / runs);
      let any = false;
      for (const vs of vals) {
        let iMin = -1, iMax = -1, vMin = Infinity, vMax = -Infinity;
        for (let i = lo; i < hi; i++) {
          const v = vs[i];
          if (v < vMin) { vMin = v; iMin = i; } // NaN compares false: skipped
          if (v > vMax) { vMax = v; iMax = i; }
        }
        if (iMin < 0) continue;
        any = true;
        keep.add(iMin).add(iMax);
      }
      if (!any && lo < hi) keep.add(lo); // no number in this run: one of its points (a gap stays a gap)
    }
    return keep;
  };
  let lo = Math.max(1, Math.floor((max - ends.size) / (2 * L))), hi = Math.max(lo, Math.min(inner, max - ends.size));
  let best = pick(lo);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const k = pick(mid);
    if (k.size <= max) { lo = mid; best = k; } else hi = mid - 1;
  }
  return [...best].sort((a, b) => a - b).map((i) => points[i]);
}

/**
 * A chart's live lines as ONE table of rows (the chart's `data`): the steps thinShared keeps for
 * all of them, each row holding every line's value recorded at that step under lineKey(i). Every
 * line is drawn through the same recorded steps (its own extremes among them), so a redraw is one
 * data update for recharts, its <Line>s keep their props, and no line carries empty points for the
 * steps only another line keeps.
 */
export function chartRows<M extends { step: number }>(history: readonly M[], values: readonly ((m: M) => number)[], max = MAX_LINE_POINTS): LineRow[] {
  return thinShared(history, values, max).map((m) => {
    const r = { step: m.step } as LineRow;
    values.forEach((f, i) => {
      const v = f(m);
      r[lineKey(i)] = Number.isFinite(v) ? v : null;
    });
    return r;
  });
}

/**
 * chartRows with one more line from another history (the evaluations on the reward chart): its
 * points under lineKey(values.length), each at its own step. A step both histories hold gets the
 * other lines' recorded values there too. The thinned lines get the rows the extra line leaves of
 * `max`, and at least half of them (rows: at most max / 2 + the extra line's points). One table, so the extra line, which changes at
 * each evaluation, does not carry its own data (recharts then registers its data, legend entry and
 * tooltip settings anew and measures the legend again).
 */
export function chartRowsWith<M extends { step: number }>(history: readonly M[], values: readonly ((m: M) => number)[], extra: readonly LinePoint[], max = MAX_LINE_POINTS): LineRow[] {
  const rows = chartRows(history, values, Math.max(2 + 4 * values.length, Math.floor(max / 2), max - extra.length));
  if (!extra.length) return rows;
  const at = new Map(rows.map((r) => [r.step, r]));
  const byStep = new Map(history.map((m) => [m.step, m]));
  const k = lineKey(values.length);
  for (const p of extra) {
    let r = at.get(p.step);
    if (!r) {
      const m = byStep.get(p.step);
      r = { step: p.step } as LineRow;
      if (m) values.forEach((f, i) => { const v = f(m); r![lineKey(i)] = Number.isFinite(v) ? v : null; });
      at.set(p.step, r);
    }
    r[k] = p.v;
  }
  return [...at.values()].sort((a, b) => a.step - b.step);
}

/**
 * The rows with a row (a step and no values) for each step of `extra` they lack, in step order:
 * recharts' tooltip finds the hovered step only among the chart's rows, and other lines (finished
 * runs, an import, evaluations: their own `data`) may keep steps the live lines do not.
 */
export function withSteps(rows: readonly LineRow[], extra: readonly (readonly LinePoint[])[]): readonly LineRow[] {
  if (!extra.length) return rows;
  const have = new Set(rows.map((r) => r.step));
  const add: LineRow[] = [];
  for (const l of extra) for (const p of l) if (!have.has(p.step)) { have.add(p.step); add.push({ step: p.step } as LineRow); }
  return add.length ? [...rows, ...add].sort((a, b) => a.step - b.step) : rows;
}

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
 * Points per line the charts draw at most (the history holds up to 500: src/store/history.ts).
 * A chart's plot is about 440 px wide at 1280×800, so 120 points (60 runs, each its low and its
 * high) is one run per 7 px: the envelope a wider drawing would show, at half the points of the
 * 240 drawn before, which is what a redraw costs most (page-bench: redraw_ms).
 */
export const MAX_LINE_POINTS = 120;

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

/**
 * The steps of a chart's lines, once each, in order: the chart's own rows. recharts' tooltip
 * finds the hovered step only in rows given to the chart; lines that carry their own data (each
 * its own thinned points) leave it empty. The tooltip then reads every line's exact value at
 * that step from the history.
 */
export function stepRows(lines: readonly (readonly LinePoint[])[]): { step: number }[] {
  return [...new Set(lines.flatMap((l) => l.map((p) => p.step)))].sort((a, b) => a - b).map((step) => ({ step }));
}

/** The key of the `i`-th live line's value in a chart's rows (mergeLines). */
export const lineKey = (i: number) => `l${i}`;

/** A chart row: a step and, under lineKey(i), the value line i draws there (absent where line i keeps no point at that step). */
export type LineRow = { step: number } & Record<string, number | null>;

/**
 * The live run's thinned lines as ONE table of rows for the chart (its `data`): each step any
 * line keeps, once, in order, with each line's value there under lineKey(i). A line draws only
 * its own points (connectNulls joins them across the steps other lines keep). The chart then
 * takes one data update a redraw instead of three store updates per line (recharts registers a
 * line's data, its legend entry and its tooltip settings each time its own `data` changes), and
 * its lines, legend and axes keep their props, so React and recharts skip them.
 * `extra`: other lines (finished runs, an import: their own `data`) whose steps are added as
 * rows without values, so the tooltip finds a step that only they keep.
 */
export function mergeLines(lines: readonly (readonly LinePoint[])[], extra: readonly (readonly LinePoint[])[] = []): LineRow[] {
  const rows = new Map<number, LineRow>();
  lines.forEach((l, i) => {
    const k = lineKey(i);
    for (const p of l) {
      let r = rows.get(p.step);
      if (!r) rows.set(p.step, (r = { step: p.step } as LineRow));
      r[k] = p.v;
    }
  });
  for (const l of extra) for (const p of l) if (!rows.has(p.step)) rows.set(p.step, { step: p.step } as LineRow);
  return [...rows.values()].sort((a, b) => a.step - b.step);
}

/**
 * Thinning a chart's line to a bounded number of points by CHOOSING real points, never by
 * averaging, smoothing or inventing: the first and the last point, and in each of ⌊(max − 2)/2⌋
 * equal runs of the points between them, the lowest and the highest (by `value`). The result is
 * a subsequence of the input — the same objects, in order — so every point drawn is a point the
 * run recorded, and the line's extremes (the run's best and worst step) are always among them.
 * The same input gives the same output; an input already within `max` comes back as it is.
 */

/** Points per line the charts draw at most (the history holds up to 500: src/store/history.ts). */
export const MAX_LINE_POINTS = 240;

export function thinSeries<T>(points: readonly T[], value: (p: T) => number | null | undefined, max = MAX_LINE_POINTS): readonly T[] {
  if (!(max >= 4)) throw new Error(`thinSeries: max must be at least 4 (first, last, a low and a high), got ${max}`);
  const n = points.length;
  if (n <= max) return points;
  const runs = Math.floor((max - 2) / 2);
  const inner = n - 2;
  const keep: number[] = [0];
  for (let b = 0; b < runs; b++) {
    const lo = 1 + Math.floor((b * inner) / runs);
    const hi = 1 + Math.floor(((b + 1) * inner) / runs);
    let iMin = -1, iMax = -1, vMin = Infinity, vMax = -Infinity;
    for (let i = lo; i < hi; i++) {
      const v = value(points[i]);
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      if (v < vMin) { vMin = v; iMin = i; }
      if (v > vMax) { vMax = v; iMax = i; }
    }
    if (iMin < 0) { if (lo < hi) keep.push(lo); continue; } // no number in this run: one of its points (a gap stays a gap)
    if (iMin === iMax) keep.push(iMin);
    else keep.push(Math.min(iMin, iMax), Math.max(iMin, iMax));
  }
  keep.push(n - 1);
  return keep.map((i) => points[i]);
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

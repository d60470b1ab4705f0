/**
 * A per-step chart's frame: the x and y extent its axes are drawn for, rounded out to round
 * numbers, so that while a run streams the axes change only when a line leaves the frame.
 *
 * recharts recomputes its whole chart (every selector of its store: domains, ticks, the grid,
 * the tooltip's positions, each item's points) whenever the chart's `data` changes. A streaming
 * chart used to hand it new rows at every redraw, so every redraw paid for all of it to move the
 * live lines by one step. Now recharts gets the frame as its data (two rows: the first step with
 * the frame's lowest value, the frame's last step with its highest): the axes take their domains
 * from it, and it stays the same object until a value or a step leaves it. The live lines are drawn
 * from the rows through recharts' scales (liveLines.tsx), which change only with the frame.
 *
 * Round numbers are the ladder 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k: a frame is never more
 * than a third wider than what it holds (1.5 → 2, 3 → 4, 6 → 8): a 30-step lesson's axis ends at 30, and step 31 widens it to 40.
 */
import type { LineRow } from './thin.ts';

const LADDER = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/** The smallest ladder number ≥ v (v > 0), or v itself where it is not a positive finite number. */
export function roundUp(v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) return v;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of LADDER) {
    const r = Number((m * p).toPrecision(12)); // 1.2 × 0.1 is 0.12, not 0.12000000000000001
    if (r >= v) return r;
  }
  return 10 * p;
}

/** The largest ladder number ≤ v (v > 0), or v itself where it is not a positive finite number. */
export function roundDown(v: number): number {
  if (!(v > 0) || !Number.isFinite(v)) return v;
  const p = 10 ** Math.floor(Math.log10(v));
  let best = p;
  for (const m of LADDER) {
    const r = Number((m * p).toPrecision(12));
    if (r <= v) best = r;
  }
  return best;
}

/** Rounded away from the frame's middle: a high value up, a low value down (0 stays 0). */
const outward = (v: number, high: boolean) => (v === 0 ? 0 : (v > 0) === high ? Math.sign(v) * roundUp(Math.abs(v)) : Math.sign(v) * roundDown(Math.abs(v)));

/** The key the frame's value sits under in its rows (not a line's: the live lines do not draw it). */
export const FRAME_KEY = 'frame';

/**
 * The frame of a chart's rows (chartRows): [] for no rows; else the first row's step with the
 * lowest line value rounded down, and the last step rounded up with the highest rounded up (no
 * value where no line has one). The steps are ≥ 0 (a step, a % of the run's steps, tokens).
 */
export function chartFrame(rows: readonly LineRow[]): LineRow[] {
  if (!rows.length) return [];
  let lo = Infinity, hi = -Infinity;
  for (const r of rows) {
    for (const k in r) {
      if (k === 'step' || k === FRAME_KEY) continue;
      const v = r[k];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  const x0 = rows[0].step, x1 = roundUp(rows[rows.length - 1].step);
  const has = lo <= hi;
  return [
    { step: x0, ...(has ? { [FRAME_KEY]: outward(lo, false) } : {}) } as LineRow,
    { step: Math.max(x0, x1), ...(has ? { [FRAME_KEY]: outward(hi, true) } : {}) } as LineRow,
  ];
}

/** Whether two frames are the same (then the chart keeps the one it has). */
export function sameFrame(a: readonly LineRow[], b: readonly LineRow[]): boolean {
  return a.length === b.length && a.every((r, i) => r.step === b[i].step && r[FRAME_KEY] === b[i][FRAME_KEY]);
}

/**
 * The rows with the frame's two rows among them, in step order (a frame row at a step the rows
 * have is merged into a copy of that row): what recharts gets while the pointer is on the chart
 * (its tooltip finds the hovered step among the rows), with the same axes as the frame alone.
 */
export function withFrame(rows: readonly LineRow[], frame: readonly LineRow[]): LineRow[] {
  const at = new Map<number, LineRow>();
  for (const r of rows) at.set(r.step, r);
  for (const f of frame) {
    const r = at.get(f.step);
    at.set(f.step, r ? { ...r, ...f } : f);
  }
  return [...at.values()].sort((a, b) => a.step - b.step);
}

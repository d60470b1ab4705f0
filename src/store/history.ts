/**
 * Bounded metric history: long runs keep at most `max` points per series. When a series is
 * full, its older half is downsampled 2:1 (every second point kept), so recent steps stay at
 * full resolution and the whole run still spans the chart. Points keep their own `step`, so
 * the x axis stays true.
 */
export const MAX_POINTS = 500;

/** Append `x`; if the series then exceeds `max`, thin the older half 2:1. Returns a new array. */
export function pushBounded<T>(series: readonly T[], x: T, max = MAX_POINTS): T[] {
  const out = [...series, x];
  if (out.length <= max) return out;
  const half = Math.floor(out.length / 2);
  const older = out.slice(0, half).filter((_, i) => i % 2 === 0);
  return [...older, ...out.slice(half)];
}

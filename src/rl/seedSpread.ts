/**
 * How far a lesson's single-run intervals understate the spread across seeds. A run's 90 %
 * interval (claims.ts) resamples that run's own prompts and steps; a fresh seed also draws a new
 * trajectory, which no resampling of one run can see. The records (records/*.json) ran every
 * variant on ten fresh seeds, so they show both: the spread of the claim numbers across seeds, and
 * each run's interval.
 *
 *   factor = sd(values across seeds) / median over runs of (hi − lo) / (2 · z₀.₉₅),  z₀.₉₅ = 1.6449
 *
 * (hi − lo)/(2 · 1.6449) is the standard error a normal 90 % interval of that width implies. A
 * factor near 1: a run's interval is about as wide as the seeds' spread; 2: the seeds spread twice
 * as far as one run's interval says (pool seeds before trusting a verdict near its threshold).
 * Engine layer: pure.
 */
import type { LessonRecord } from './lessonRecords.ts';

/** The standard normal's 0.95 quantile: a 90 % two-sided normal interval is ± this many standard errors. */
const Z90 = 1.6449;

/** The factor for one variant of a lesson record; null with fewer than 3 runs whose value and interval are finite (or intervals of no width). */
export function seedSpread(variant: Pick<LessonRecord['variants'][number], 'runs'>): number | null {
  const runs = variant.runs.filter((r) => Number.isFinite(r.value) && Number.isFinite(r.lo) && Number.isFinite(r.hi));
  if (runs.length < 3) return null;
  const values = runs.map((r) => r.value);
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - m) * (v - m), 0) / (values.length - 1));
  const ses = runs.map((r) => (r.hi - r.lo) / (2 * Z90)).sort((a, b) => a - b);
  const h = ses.length >> 1;
  const se = ses.length % 2 ? ses[h] : (ses[h - 1] + ses[h]) / 2;
  return se > 0 ? sd / se : null;
}

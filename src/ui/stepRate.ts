/** A step count the page showed while the run played, and when (performance.now(), ms). */
export interface StepMark { n: number; t: number }

/** The most marks kept: the rate is taken over the last 10 page updates. */
const KEEP = 11;

/**
 * The marks after the page showed `done` steps at time `t` while playing: a mark only where the
 * count grew; a count that went back (a restart) starts over. The page's updates are paced
 * (lab/frameBatch): one may land several steps at once, so a mark is a step count, not a step.
 */
export function markStep(marks: readonly StepMark[], done: number, t: number): StepMark[] {
  const last = marks[marks.length - 1];
  if (last && done < last.n) return [{ n: done, t }];
  if (last && done === last.n) return marks as StepMark[];
  return [...marks, { n: done, t }].slice(-KEEP);
}

/** Steps per second over the marks; null until two steps have been timed. */
export function stepRate(marks: readonly StepMark[]): number | null {
  const a = marks[0], b = marks[marks.length - 1];
  return a && b && b.n - a.n >= 2 && b.t > a.t ? ((b.n - a.n) * 1000) / (b.t - a.t) : null;
}

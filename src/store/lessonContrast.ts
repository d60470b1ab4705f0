/**
 * The lesson's contrast for the live run: the question's other variant, run on the same seed from
 * comparable weights (one rule: rl/comparable.ts) and already at its verdict step (the one overlaid
 * on the charts, else the newest), judged against the live run at the same step (rl/contrast.ts).
 * Judged once, when the live run's verdict is frozen (lab/lessonVerdict.ts); the card, the
 * presenter, the tour, the prediction and the share code read the frozen contrast. Pure.
 */
import { judgeContrast, type ContrastVerdict } from '../rl/contrast.ts';
import type { RunRecord } from '../rl/claims.ts';
import type { Lesson } from '../rl/lessons.ts';
import { lessonQuestionVariants } from '../rl/lessons.ts';
import type { LabState, SavedRun } from './labStore.ts';
import { comparable } from './overlays.ts';

/** The finished run the live one is compared with (null: none comparable at its verdict step, or the lesson asks nothing). */
export function contrastSibling(s: Pick<LabState, 'runs' | 'liveOrigin' | 'overlayRunId'>, lesson: Lesson, variant: number): SavedRun | null {
  const q = lessonQuestionVariants(lesson);
  const live = s.liveOrigin;
  if (!q || !live || live.lessonId !== lesson.id || live.variant !== variant || (variant !== q.asked && variant !== q.against)) return null;
  const other = variant === q.asked ? q.against : q.asked;
  const steps = lesson.variants[other].claim.steps;
  const siblings = s.runs.filter((r) => r.origin.lessonId === lesson.id && r.origin.variant === other && r.steps.length >= steps && comparable(r.origin, live));
  return siblings.find((r) => r.id === s.overlayRunId) ?? siblings[0] ?? null;
}

/** The contrast of the live run (its record up to now) with its sibling, at the lesson's verdict step (null: no sibling). */
export function judgeLiveContrast(s: Pick<LabState, 'runs' | 'liveOrigin' | 'overlayRunId'>, lesson: Lesson, variant: number, live: RunRecord, o: { reps?: number } = {}): ContrastVerdict | null {
  const sib = contrastSibling(s, lesson, variant);
  const q = lessonQuestionVariants(lesson);
  if (!sib || !q || !lesson.contrast) return null;
  const here = { variant, claim: lesson.variants[variant].claim, run: live };
  const there = { variant: sib.origin.variant, claim: lesson.variants[sib.origin.variant].claim, run: { steps: sib.steps, evals: sib.evals } };
  const [asked, against] = variant === q.asked ? [here, there] : [there, here];
  return judgeContrast(lesson.contrast, asked, against, lesson.variants[variant].claim.steps, o);
}

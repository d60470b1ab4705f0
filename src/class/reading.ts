/**
 * The prediction's outcome on this seed, as the lesson card reads it: once the live run has its
 * verdict's steps, its contrast number beside that of a finished run of the question's other
 * variant that is comparable to it (same seed, same starting weights: store/overlays.ts), each
 * from its own claim evidence. Pure: the card's hook (ui/Predict.tsx) passes the store's state.
 */
import type { Lesson } from '../rl/lessons.ts';
import type { LabState } from '../store/labStore.ts';
import { comparable } from '../store/overlays.ts';
import { lessonQuestion } from './question.ts';

/** Both numbers (asked: the question's variant, against: the lesson's first), or the variant still to run on this seed. */
export type QuestionReading = { asked: number; against: number } | { other: number };

export function questionReading(s: Pick<LabState, 'steps' | 'evals' | 'runs' | 'liveOrigin'>, lesson: Lesson, variant: number): QuestionReading | null {
  const q = lessonQuestion(lesson);
  const claim = lesson.variants[variant]?.claim;
  const live = s.liveOrigin;
  if (!q || !claim || !lesson.contrast || !live || live.lessonId !== lesson.id || live.variant !== variant || s.steps.length < claim.steps) return null;
  if (variant !== q.asked && variant !== q.against) return null;
  const otherVariant = variant === q.asked ? q.against : q.asked;
  const otherClaim = lesson.variants[otherVariant].claim;
  const sib = s.runs.find((r) => r.origin.lessonId === lesson.id && r.origin.variant === otherVariant && r.steps.length >= otherClaim.steps && comparable(r.origin, live));
  if (!sib) return { other: otherVariant };
  const here = lesson.contrast.of(claim.judge({ steps: s.steps, evals: s.evals }).measured);
  const there = lesson.contrast.of((sib.verdict ?? otherClaim.judge({ steps: sib.steps, evals: sib.evals })).measured); // its frozen verdict's numbers
  return variant === q.asked ? { asked: here, against: there } : { asked: there, against: here };
}

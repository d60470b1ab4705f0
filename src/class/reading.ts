/**
 * The prediction's outcome on this seed, as the lesson card reads it: the live run's frozen
 * contrast (judged once at its verdict step against a comparable run of the question's other
 * variant: store/lessonContrast.ts), or which variant is still to run on this seed. Pure: the
 * card's hook (ui/Predict.tsx) passes the store's state.
 */
import type { ContrastVerdict } from '../rl/contrast.ts';
import { lessonQuestionVariants, type Lesson } from '../rl/lessons.ts';
import type { LabState } from '../store/labStore.ts';
import { frozenFor } from '../store/verdictView.ts';

/** The frozen contrast, or the variant still to run on this seed (null: no question, or no verdict yet). */
export type QuestionReading = { contrast: ContrastVerdict } | { other: number };

export function questionReading(s: Pick<LabState, 'verdict' | 'liveOrigin'>, lesson: Lesson, variant: number): QuestionReading | null {
  const q = lessonQuestionVariants(lesson);
  const frozen = frozenFor(s, lesson.id, variant);
  if (!q || !frozen?.judged || (variant !== q.asked && variant !== q.against)) return null;
  return frozen.contrast ? { contrast: frozen.contrast } : { other: variant === q.asked ? q.against : q.asked };
}

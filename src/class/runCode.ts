/**
 * The one function that makes a lesson run's share code (issue 48): the lesson card's "Share
 * result" (the live run, its frozen verdict) and the runs list's "Share" (a finished run, the
 * verdict it kept) both call it, so a run shared from either gives the same code. Pure: what it
 * reads is handed to it (the prediction from this browser's store, src/class/local.ts; the student's
 * explain choice and concept answers, as concepts.ts StudentAnswers, from wherever the card keeps them).
 */
import type { ClaimVerdict } from '../rl/claims.ts';
import type { ContrastVerdict } from '../rl/contrast.ts';
import { getLesson, type Lesson } from '../rl/lessons.ts';
import { contractHash } from '../rl/lessonContract.ts';
import type { SavedRun } from '../store/labStore.ts';
import type { RunOrigin } from '../store/overlays.ts';
import { claimNumber } from './claimNumber.ts';
import { APP_VERSION, encodeResult } from './code.ts';
import type { Prediction } from './local.ts';
import { codeAnswers, type StudentAnswers } from './concepts.ts';

/** A lesson run as its code needs it: where it started, its verdict as judged once, the step it was judged at, and the contrast judged with it. */
export interface JudgedRun {
  origin: Pick<RunOrigin, 'seed' | 'weights' | 'base'>;
  judged: ClaimVerdict | null | undefined;
  step: number;
  contrast?: ContrastVerdict | null;
}

/** The run's code, or null where it has none (no verdict judged, or the starting weights not known). */
export function runResultCode(lesson: Lesson, variant: number, run: JudgedRun, prediction: Prediction | undefined, answers?: StudentAnswers): string | null {
  const v = run.judged;
  if (!v || v.state === 'pending' || !run.origin.weights) return null;
  const cn = claimNumber(lesson.id, variant);
  return encodeResult({
    app: APP_VERSION, lessonId: lesson.id, variant, seed: run.origin.seed, weights: run.origin.weights, verdict: v.state, held: v.state === 'holds', contract: contractHash(lesson), steps: run.step,
    claim: cn ? cn.of(v.measured) : NaN, contrast: lesson.contrast ? lesson.contrast.of(v.measured) : NaN,
    prediction: prediction === 0 || prediction === 1 || prediction === 2 ? prediction : null,
    pairedContrast: run.contrast ? { value: run.contrast.value, outcome: run.contrast.outcome } : null,
    shippedBase: run.origin.base === '',
    ...codeAnswers(lesson.id, answers),
  });
}

/** A finished run's code from the runs list (null: not a lesson run of this version, or no verdict). The step: the verdict's own, which is the variant's verdict step. */
export function finishedRunCode(run: Pick<SavedRun, 'origin' | 'verdict' | 'contrast'>, predictions: Record<string, Prediction>, answers: Record<string, StudentAnswers> = {}): string | null {
  const lesson = run.origin.lessonId === null ? undefined : getLesson(run.origin.lessonId);
  const claim = lesson?.variants[run.origin.variant]?.claim;
  if (!lesson || !claim || !run.verdict) return null;
  const p = Object.prototype.hasOwnProperty.call(predictions, lesson.id) ? predictions[lesson.id] : undefined;
  const a = Object.prototype.hasOwnProperty.call(answers, lesson.id) ? answers[lesson.id] : undefined;
  return runResultCode(lesson, run.origin.variant, { origin: run.origin, judged: run.verdict, step: run.verdict.step ?? claim.steps, contrast: run.contrast }, p, a);
}

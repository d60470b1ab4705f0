/**
 * Predict, then run (issue 31): the lesson card asks the lesson's question (src/class/question.ts)
 * before its first Play — one click, skippable, never in Play's way — keeps the answer in this
 * browser, and after the verdict puts it beside the outcome on this seed (the other variant's run
 * of the same seed and starting weights, from the runs panel's list). In class mode it also says
 * the seed this browser runs on.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Lesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { comparable } from '../store/overlays.ts';
import { CHOICES, lessonQuestion, outcomeSentence, type Choice } from '../class/question.ts';
import { readPredictions, writePrediction, type Prediction } from '../class/local.ts';

/** This browser's predictions, and a setter that keeps them (localStorage). */
export function usePredictions(): [Record<string, Prediction>, (lessonId: string, p: Prediction) => void] {
  const [all, setAll] = useState(readPredictions);
  return [all, (id, p) => setAll(writePrediction(id, p))];
}

/**
 * The question's two numbers on this seed, once the live run has its verdict: the live run's
 * contrast number and that of a finished run of the question's other variant, comparable to it
 * (same seed, same starting weights). `other`: the variant to run when there is none yet.
 */
export function useQuestionReading(lesson: Lesson, variant: number): { asked: number; against: number } | { other: number } | null {
  const steps = useLab((s) => s.steps);
  const evals = useLab((s) => s.evals);
  const runs = useLab((s) => s.runs);
  const live = useLab((s) => s.liveOrigin);
  return useMemo(() => {
    const q = lessonQuestion(lesson);
    const claim = lesson.variants[variant]?.claim;
    if (!q || !claim || !lesson.contrast || !live || live.lessonId !== lesson.id || live.variant !== variant || steps.length < claim.steps) return null;
    if (variant !== q.asked && variant !== q.against) return null;
    const otherVariant = variant === q.asked ? q.against : q.asked;
    const otherClaim = lesson.variants[otherVariant].claim;
    const sib = runs.find((r) => r.origin.lessonId === lesson.id && r.origin.variant === otherVariant && r.steps.length >= otherClaim.steps && comparable(r.origin, live));
    if (!sib) return { other: otherVariant };
    const here = lesson.contrast.of(claim.judge({ steps, evals }).measured);
    const there = lesson.contrast.of(otherClaim.judge({ steps: sib.steps, evals: sib.evals }).measured);
    return variant === q.asked ? { asked: here, against: there } : { asked: there, against: here };
  }, [lesson, variant, steps, evals, runs, live]);
}

export function Predict({ lesson, variant }: { lesson: Lesson; variant: number }) {
  const [predictions, setPrediction] = usePredictions();
  const q = useMemo(() => lessonQuestion(lesson), [lesson]);
  const done = useLab((s) => s.stepsCompleted);
  const live = useLab((s) => s.liveOrigin);
  const classMode = useLab((s) => s.classMode);
  const seed = useLab((s) => s.settings.seed);
  const reading = useQuestionReading(lesson, variant);
  const p = Object.prototype.hasOwnProperty.call(predictions, lesson.id) ? predictions[lesson.id] : undefined;
  const started = done > 0 && live?.lessonId === lesson.id;
  // the question is asked before the lesson's first Play: a run that starts unanswered skips it (never asked after seeing a run)
  useEffect(() => { if (q && started && p === undefined) setPrediction(lesson.id, 'skipped'); }, [q, started, p, lesson.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const seedLine = classMode && (
    <p className="note class-seed" data-testid="class-seed">Class mode: this browser runs every lesson on its own seed, <strong>{seed}</strong> (kept in this browser; the teacher's page keeps seed 1).</p>
  );
  if (!q) return seedLine || null;
  const choice: Choice | null = p === 0 || p === 1 || p === 2 ? p : null;
  return (
    <div className="predict" data-testid="predict">
      {seedLine}
      {p === undefined && !started && (
        <p role="group" aria-label="Predict first" data-testid="predict-question">
          <strong>Predict first:</strong> {q.text}{' '}
          {CHOICES.map((c, i) => (
            <button key={c} className="small" onClick={() => setPrediction(lesson.id, i as Choice)} data-testid={`predict-${i}`}>{c}</button>
          ))}{' '}
          <button className="small dismiss" onClick={() => setPrediction(lesson.id, 'skipped')} title="No prediction for this lesson">Skip</button>
          <span className="note"> One click, kept in this browser; Play works without it.</span>
        </p>
      )}
      {choice !== null && (
        <p className="prediction" data-testid="prediction">
          <strong>Your prediction</strong> ({q.text.replace(/ will be:$/, '')}):{' '}
          {reading && 'asked' in reading
            ? outcomeSentence(lesson, q, choice, reading.asked, reading.against)
            : reading && 'other' in reading
              ? `you predicted ${CHOICES[choice]}; run ${lesson.variants[reading.other].short ?? lesson.variants[reading.other].label} on this seed too (its button below) to see how the two compare.`
              : `${CHOICES[choice]} — compared with the outcome once this lesson's runs reach their verdicts.`}
        </p>
      )}
    </div>
  );
}

/**
 * Predict, then run (issue 31): the lesson card asks the lesson's question (src/class/question.ts)
 * before its first Play — one click, skippable, never in Play's way — keeps the answer in this
 * browser, and after the verdict puts it beside the outcome on this seed (the other variant's run
 * of the same seed and starting weights, from the runs panel's list): whether the prediction was
 * borne out, and on a line of its own whether the lesson's claim held. In class mode SeedLine says
 * the seed this browser runs on.
 */
import { useEffect, useMemo } from 'react';
import { useStore } from 'zustand';
import { getLesson } from '../rl/lessons.ts';
import type { Lesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { CHOICES, lessonQuestion, outcomeSentence, type Choice } from '../class/question.ts';
import { choosePrediction, predictionStore, type Prediction } from '../class/local.ts';
import { questionReading, type QuestionReading } from '../class/reading.ts';

/** This browser's predictions (src/class/local.ts: the card and the tour's card read one store), and the setter that keeps them. */
export function usePredictions(): [Record<string, Prediction>, (lessonId: string, p: Prediction) => void] {
  return [useStore(predictionStore, (s) => s.all), choosePrediction];
}

/** The question's frozen contrast on this seed once the live run has its verdict (src/class/reading.ts). */
export function useQuestionReading(lesson: Lesson, variant: number): QuestionReading | null {
  const verdict = useLab((s) => s.verdict);
  const liveOrigin = useLab((s) => s.liveOrigin);
  return useMemo(() => questionReading({ verdict, liveOrigin }, lesson, variant), [lesson, variant, verdict, liveOrigin]);
}

/**
 * The card is blind: the lesson asks a question, the student has neither predicted nor skipped, and
 * no run of it has begun. Until then the card shows the setup and the question only.
 */
export function useBlind(lesson: Lesson | undefined): boolean {
  const [predictions] = usePredictions();
  const done = useLab((s) => s.stepsCompleted);
  const live = useLab((s) => s.liveOrigin);
  if (!lesson || !lessonQuestion(lesson)) return false;
  const answered = Object.prototype.hasOwnProperty.call(predictions, lesson.id);
  return !answered && !(done > 0 && live?.lessonId === lesson.id);
}

/** Class mode: the seed this browser runs every lesson on (on the card, under "More" / "Why?"). */
export function SeedLine() {
  const classMode = useLab((s) => s.classMode);
  const seed = useLab((s) => s.settings.seed);
  return classMode ? <p className="note class-seed" data-testid="class-seed">Class mode: this browser runs every lesson on its own seed, <strong>{seed}</strong> (kept in this browser; the teacher's page keeps seed 1).</p> : null;
}

export function Predict({ lesson, variant }: { lesson: Lesson; variant: number }) {
  const [predictions, setPrediction] = usePredictions();
  const q = useMemo(() => lessonQuestion(lesson), [lesson]);
  const done = useLab((s) => s.stepsCompleted);
  const live = useLab((s) => s.liveOrigin);
  const reading = useQuestionReading(lesson, variant);
  const p = Object.prototype.hasOwnProperty.call(predictions, lesson.id) ? predictions[lesson.id] : undefined;
  const started = done > 0 && live?.lessonId === lesson.id;
  // the question is asked before the lesson's first Play: a run that starts unanswered skips it (never asked after seeing a run)
  useEffect(() => { if (q && started && p === undefined) setPrediction(lesson.id, 'skipped'); }, [q, started, p, lesson.id]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!q) return null;
  const choice: Choice | null = p === 0 || p === 1 || p === 2 ? p : null;
  const name = (v: number) => `“${lesson.variants[v].short ?? lesson.variants[v].label}”`;
  const asked = `${lesson.contrast?.what}, ${name(q.asked)} against ${name(q.against)}`;
  // once both runs of this seed are judged: the prediction (or none) beside what they showed, and the lesson's claim on its own line
  const outcome = p !== undefined && reading && 'contrast' in reading ? outcomeSentence(choice, reading.contrast) : null;
  return (
    <div className="predict" data-testid="predict">
      {p === undefined && !started && <Ask lesson={lesson} text={q.text} choose={(c) => setPrediction(lesson.id, c)} />}
      {outcome && (
        <div className="prediction" data-testid="prediction">
          <p className="note">The question: the {asked}.</p>
          <p className="prediction-outcome" data-testid="prediction-outcome">{outcome.prediction}</p>
          {outcome.claim && <p className="claim-outcome" data-testid="claim-outcome">{outcome.claim}</p>}
        </div>
      )}
      {!outcome && choice !== null && (
        <p className="prediction" data-testid="prediction">
          <strong>Your prediction:</strong> {asked}: you predicted {CHOICES[choice]}. {reading && 'other' in reading
            ? <>Now run {name(reading.other)} on this seed too (its button below) to see how the two compare.</>
            : 'The two runs on this seed will tell.'}
        </p>
      )}
    </div>
  );
}

/** The question and its one-click answers (the card's and the tour's; `tour`: test ids of its own). */
function Ask({ lesson, text, choose, tour = false }: { lesson: Lesson; text: string; choose: (p: Prediction) => void; tour?: boolean }) {
  const id = tour ? 'tour-predict' : 'predict';
  return (
    <p role="group" aria-label={`Predict first: ${lesson.title}`} data-testid={`${id}-question`}>
      <strong>Predict first:</strong> {text}{' '}
      {CHOICES.map((c, i) => (
        <button key={c} className="small" onClick={() => choose(i as Choice)} data-testid={`${id}-${i}`}>{c}</button>
      ))}{' '}
      <button className="small dismiss" onClick={() => choose('skipped')} title="No prediction for this lesson">Skip</button>
      {tour && <span className="note"> One click, kept in this browser; Play works without it.</span>}
    </p>
  );
}

/** The class tour's lesson stops, by stop id: the lesson each loads (src/store/tour.ts). */
const TOUR_LESSONS: Record<string, string> = { 'mixed-groups': 'mixed-groups', thinking: 'scratchpad', hacking: 'reward-hacking' };

/**
 * The class tour asks the lesson card's question at its lesson stops, once the stop's lesson is
 * loaded and before its first step (the same answer: one per lesson, in this browser); after
 * that it says the answer given.
 */
export function TourPredict({ stopId }: { stopId: string }) {
  const [predictions, setPrediction] = usePredictions();
  const lessonId = useLab((s) => s.lessonId);
  const done = useLab((s) => s.stepsCompleted);
  const lesson = TOUR_LESSONS[stopId] && lessonId === TOUR_LESSONS[stopId] ? getLesson(lessonId) : undefined;
  const q = lesson ? lessonQuestion(lesson) : null;
  if (!lesson || !q) return null;
  const p = Object.prototype.hasOwnProperty.call(predictions, lesson.id) ? predictions[lesson.id] : undefined;
  if (p === undefined) return done === 0 ? <Ask lesson={lesson} text={q.text} choose={(c) => setPrediction(lesson.id, c)} tour /> : null;
  return p === 'skipped' ? null : <p className="note" data-testid="tour-prediction">Your prediction: {q.text.replace(/ will be:$/, '')} — {CHOICES[p]}.</p>;
}

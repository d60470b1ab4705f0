/**
 * Predict → observe → explain (issue 49), the student's side on the lesson card: the lesson's
 * concept question before its first Play (one click, skippable, never in Play's way: a run that
 * starts unanswered skips it), and once this seed's runs are judged (where the lesson compares
 * variants, both: the frozen contrast, as Predict's useQuestionReading knows it) the "Why?" with
 * its reasons in this student's order (concepts.ts reasonOrder), one click, then the chosen reason
 * marked and the lesson's explanation; then the concept question again with its numbers changed.
 * The questions and their answer keys are concepts.ts's (computed by the lab's own code); the
 * answers are kept in this browser (class/answers.ts) and the share code carries them.
 *
 * Blind: the explain question states the lesson's outcome, so nothing of it is on the page (not
 * even folded) before the verdict; before the prediction, nothing of this component at all.
 */
import { useEffect, useId, useMemo } from 'react';
import { useStore } from 'zustand';
import { lessonQuestionVariants, type Lesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { frozenFor } from '../store/verdictView.ts';
import { lessonConcepts, reasonOrder, type ConceptQuestion, type LessonConcepts, type StudentAnswers } from '../class/concepts.ts';
import { answerStore, answersFor, chooseAnswer } from '../class/answers.ts';
import { useBlind, useQuestionReading } from './Predict.tsx';
import { withCode } from './Lessons.tsx';

/** This browser's answers to one lesson's questions (class/answers.ts). */
export function useAnswers(lessonId: string): StudentAnswers {
  return useStore(answerStore, (s) => answersFor(s.all, lessonId)) ?? NONE;
}
const NONE: StudentAnswers = Object.freeze({});

/** This seed's runs are judged: where the lesson compares variants, both (the frozen contrast); else the live run's verdict. */
function useJudged(lesson: Lesson, variant: number): boolean {
  const reading = useQuestionReading(lesson, variant);
  const frozen = useLab((s) => frozenFor(s, lesson.id, variant));
  return lessonQuestionVariants(lesson) ? !!reading && 'contrast' in reading : !!frozen?.judged;
}

export function Understand({ lesson, variant }: { lesson: Lesson; variant: number }) {
  const c = useMemo(() => lessonConcepts(lesson.id), [lesson.id]);
  const a = useAnswers(lesson.id);
  const blind = useBlind(lesson);
  const judged = useJudged(lesson, variant);
  const done = useLab((s) => s.stepsCompleted);
  const live = useLab((s) => s.liveOrigin);
  const started = done > 0 && live?.lessonId === lesson.id;
  // asked before the lesson's first Play: a run that starts unanswered skips it (never asked after seeing a run)
  useEffect(() => { if (c && started && a.pre === undefined) chooseAnswer(lesson.id, 'pre', 'skipped'); }, [c, started, a.pre, lesson.id]);
  if (!c || blind) return null;
  if (a.pre === undefined) return started ? null : <Ask id="concept-pre" lead="Before you run it:" q={c.concept.pre} choose={(i) => chooseAnswer(lesson.id, 'pre', i)} />;
  const explained = typeof a.explain === 'number';
  if (!explained && !judged) return null; // the reasons state the outcome: not on the page before the verdict
  return (
    <div className="understand" data-testid="understand">
      <Explain lesson={lesson} c={c} chosen={explained ? a.explain! : null} />
      {explained && <After lesson={lesson} c={c} a={a} />}
    </div>
  );
}

/** A concept question and its one-click choices, with Skip. */
function Ask({ id, lead, q, choose }: { id: string; lead: string; q: ConceptQuestion; choose: (i: number | 'skipped') => void }) {
  const label = useId();
  return (
    <p className="concept" role="group" aria-labelledby={label} data-testid={`${id}-question`}>
      <span id={label}><strong>{lead}</strong> {withCode(q.text)}</span>{' '}
      {q.choices.map((x, i) => <button key={i} className="small" onClick={() => choose(i)} data-testid={`${id}-${i}`}>{x.text}</button>)}{' '}
      <button className="small dismiss" onClick={() => choose('skipped')} title="No answer to this question" data-testid={`${id}-skip`}>Skip</button>
    </p>
  );
}

/** The "Why?": the reasons in this student's order, one click; then the choice marked, the right reason named, and the lesson's explanation. */
function Explain({ lesson, c, chosen }: { lesson: Lesson; c: LessonConcepts; chosen: number | null }) {
  const seed = useLab((s) => s.settings.seed);
  const order = useMemo(() => reasonOrder(lesson.id, seed), [lesson.id, seed]);
  const label = useId();
  const e = c.explain;
  if (chosen === null || !e.reasons[chosen]) {
    return (
      <div className="explain" role="group" aria-labelledby={label} data-testid="explain-question">
        <p id={label}><strong>Explain it.</strong> {withCode(e.prompt)} Choose the reason you think is right:</p>
        <ul className="reasons" style={{ listStyle: 'none', paddingLeft: 0, margin: '4px 0' }}>
          {order.map((i) => <li key={i} style={{ margin: '4px 0' }}><button className="small reason" style={{ textAlign: 'left' }} onClick={() => chooseAnswer(lesson.id, 'explain', i)} data-testid={`explain-reason-${i}`}>{withCode(e.reasons[i].text)}</button></li>)}
        </ul>
      </div>
    );
  }
  const mine = e.reasons[chosen], right = e.reasons[e.right];
  return (
    <div className="explain" data-testid="explain-marked" data-right={String(mine.right)}>
      <p><strong>Explain it.</strong> {withCode(e.prompt)}</p>
      <p data-testid="explain-mark"><strong>{mine.right ? 'Right.' : 'Not quite.'}</strong> You chose: “{withCode(mine.text)}” {withCode(mine.why)}</p>
      {!mine.right && <p data-testid="explain-right"><strong>The right reason:</strong> {withCode(right.text)} {withCode(right.why)}</p>}
      <p data-testid="explain-explanation"><strong>The lesson's explanation:</strong> {withCode(e.explanation)}</p>
    </div>
  );
}

const answered = (q: ConceptQuestion, x: StudentAnswers['pre']): number | null => (typeof x === 'number' && q.choices[x] ? x : null);

/** The concept question again, its numbers changed, after the explanation; once answered, both answers marked. */
function After({ lesson, c, a }: { lesson: Lesson; c: LessonConcepts; a: StudentAnswers }) {
  const { pre, post } = c.concept;
  if (a.post === undefined || a.post === null) return <Ask id="concept-post" lead="Now the question from before, with other numbers:" q={post} choose={(i) => chooseAnswer(lesson.id, 'post', i)} />;
  const mark = (q: ConceptQuestion, x: StudentAnswers['pre']) => {
    const i = answered(q, x);
    const key = q.choices[q.answer].text;
    return i === null ? `not answered; the answer: ${key}` : i === q.answer ? `you answered ${key}: right` : `you answered ${q.choices[i].text}; the answer: ${key}`;
  };
  return (
    <p className="note concept-marked" data-testid="concept-marked">
      <strong>The question, after the runs</strong> ({withCode(post.text)}): {mark(post, a.post)}.{' '}
      <strong>Before the runs</strong> ({withCode(pre.text)}): {mark(pre, a.pre)}.
    </p>
  );
}

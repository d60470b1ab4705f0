/**
 * The presenter view for classroom demos: one thing at a time, filling the screen — a lesson's
 * chart (the live chart itself, re-rendered large) or the step-through's current phase — with a
 * title bar, a one-line caption and the keys. Controls are hidden; the keyboard drives it:
 * → next (on the step-through: the next phase of a real update), ← back, a lesson by its number (1–9, 0 the tenth, "1" "1" within 0.6 s the eleventh),
 * Space play/pause, ↑ ↓ scroll a tall phase, C the class results (PresenterClass.tsx; ← or Esc back), T the class tour, Esc back to the page.
 * The address carries it: ?present=1&lesson=<id>.
 * With the class tour open (T), its card takes the caption's place and → ← Esc are the tour's (T closes it too);
 * C still opens the class results, where every key is theirs (the tour's card stays docked under them).
 */
import { useEffect, useMemo, useRef, type ComponentType, type RefObject } from 'react';
import { LESSONS, getLesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import { LESSON_KEY_MS, chartReadout, presenterIndex, presenterItems, presenterTitle, readLessonKey, readoutText, type PresenterChart } from '../store/presenterView.ts';
import { EntropyChart, GroupsChart, KlChart, LengthChart, PassAtKChart, RewardChart, ThinkingChart } from './Charts.tsx';
import { AdvantagesChart, TheoryChart } from './RolloutCharts.tsx';
import { Inspector } from './Inspector.tsx';
import { Verdict, withCode } from './Lessons.tsx';
import { usePresenter } from './session.tsx';
import { ClassTour, useTour, useTourStop } from './ClassTour.tsx';
import { PresenterClass } from './PresenterClass.tsx';
import { useBlind } from './Predict.tsx';
import { choosePrediction } from '../class/local.ts';
import { CHOICES, lessonQuestion } from '../class/question.ts';

const CHARTS: Record<PresenterChart, ComponentType> = {
  reward: RewardChart, groups: GroupsChart, advantages: AdvantagesChart, theory: TheoryChart, entropy: EntropyChart,
  length: LengthChart, thinking: ThinkingChart, kl: KlChart, passk: PassAtKChart,
};

/** The button on the page that opens the presenter view (Esc in the view comes back to it). */
export function PresenterButton() {
  const presenter = usePresenter();
  return (
    <button className="presenter-open" data-testid="presenter-open" onClick={() => presenter.open()} title="One chart or one phase at a time, in large type, driven by the keyboard (→ ← a lesson's number, Space, C class results, T class tour, Esc)">
      Presenter view
    </button>
  );
}

/** The lesson on the projector while it waits for the class's prediction (Presenter writes it on its view), else null. */
const blindLesson = () => document.querySelector('[data-testid="presenter"][data-blind]')?.getAttribute('data-blind') || null;

/** The lessons the class results pooled, in order (PresenterClass.tsx writes them on its view). */
const pooledLessons = () => (document.querySelector('[data-item="class-results"]')?.getAttribute('data-lessons') ?? '').split(' ').filter(Boolean);

/** The view's keys, on the window (capture phase, before the page's transport keys): no click needed first. */
function usePresenterKeys(stage: RefObject<HTMLDivElement | null>) {
  const presenter = usePresenter();
  const tour = useTour();
  const pending = useRef('');
  const wait = useRef<number | undefined>(undefined);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return; // the browser's own shortcuts
      if (useLab.getState().presenter?.classResults) {
        // the class results (PresenterClass.tsx): Esc back; ← (or C) too, ↑ ↓ scroll, Space play/pause, → nothing — unless the paste box has the keyboard (typing)
        const typing = e.target instanceof HTMLTextAreaElement;
        const act = e.key === 'Escape' ? () => presenter.closeClass()
          : typing ? null
          // one lesson a screen: → and PageDown the next pooled lesson, ← and PageUp the previous one (from the first: back)
          : e.key === 'ArrowRight' || e.key === 'PageDown' ? () => { presenter.classLesson(pooledLessons(), 1); }
          : e.key === 'ArrowLeft' || e.key === 'PageUp' ? () => { if (!presenter.classLesson(pooledLessons(), -1)) presenter.closeClass(); }
          : e.key === 'c' || e.key === 'C' ? () => presenter.closeClass()
          : e.key === 'ArrowDown' || e.key === 'ArrowUp' ? () => document.querySelector('[data-testid="presenter-stage"]')?.scrollBy({ top: (e.key === 'ArrowDown' ? 0.4 : -0.4) * window.innerHeight })
          : e.key === ' ' ? () => presenter.togglePlay()
          : null;
        if (act) { e.preventDefault(); e.stopPropagation(); act(); }
        return;
      }
      if (tour.stop !== null && /^(Arrow(Left|Right)|Page(Up|Down)|Escape)$/.test(e.key)) return; // the class tour's keys while it is open (ClassTour.tsx)
      const digit = /^[0-9]$/.test(e.key);
      const typed = digit ? readLessonKey(pending.current, e.key, LESSONS.length) : null;
      const act =
        e.key === 'ArrowRight' || e.key === 'PageDown' ? () => void presenter.next()
        : e.key === 'ArrowLeft' || e.key === 'PageUp' ? () => presenter.back()
        : e.key === 'Escape' ? () => presenter.close()
        : e.key === ' ' ? () => presenter.togglePlay()
        : e.key === 'c' || e.key === 'C' ? () => presenter.openClass()
        : e.key === 't' || e.key === 'T' ? () => presenter.toggleTour()
        : (e.key === 'r' || e.key === 'R') && blindLesson() ? () => choosePrediction(blindLesson()!, 'skipped') // the class has predicted: the explanation shows
        : e.key === 'ArrowDown' || e.key === 'ArrowUp' ? () => stage.current?.scrollBy({ top: (e.key === 'ArrowDown' ? 0.4 : -0.4) * stage.current.clientHeight })
        : typed ? () => {
            // a digit: a lesson now, or (it could begin "11") after the next digit or a short wait
            window.clearTimeout(wait.current);
            pending.current = typed.pending;
            if (typed.lesson) void presenter.lesson(typed.lesson);
            else if (typed.pending) wait.current = window.setTimeout(() => { const n = Number(pending.current); pending.current = ''; if (n) void presenter.lesson(n); }, LESSON_KEY_MS);
          }
        : null;
      if (!act) return;
      e.preventDefault();
      e.stopPropagation();
      act();
    };
    window.addEventListener('keydown', onKey, true);
    return () => { window.removeEventListener('keydown', onKey, true); window.clearTimeout(wait.current); };
  }, [presenter, stage, tour]);
}

export function Presenter() {
  const state = useLab((s) => s.presenter);
  const lessonId = useLab((s) => s.lessonId);
  const settings = useLab((s) => s.settings);
  const inspector = useLab((s) => s.inspector);
  const stepMode = useLab((s) => s.stepMode);
  const status = useLab((s) => s.status);
  const steps = useLab((s) => s.stepsCompleted);
  const error = useLab((s) => s.error);
  const backend = useLab((s) => s.backendName);
  const leftLesson = useLab((s) => s.leftLesson);
  const verdict = useLab((s) => s.verdict);
  const touring = useTourStop() !== null;
  const runSteps = useLab((s) => s.steps);
  const evals = useLab((s) => s.evals);
  const ref = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  usePresenterKeys(stage);
  const classResults = state?.classResults;
  useEffect(() => {
    if (!classResults && !touring) ref.current?.focus(); // back from the class results or the tour too: the keys work at once (an open tour's card takes the focus itself)
  }, [classResults, touring]);
  useEffect(() => {
    // leaving: the keyboard goes back to the button that opens the view (or the class results' own, when they opened it)
    return () => { setTimeout(() => document.querySelector<HTMLElement>(classResults === 'page' ? '[data-testid="class-present-open"]' : '[data-testid="presenter-open"]')?.focus(), 0); };
  }, [classResults]);
  const items = useMemo(() => presenterItems({ lessonId, settings }), [lessonId, settings]);
  const variant = useLab((s) => s.lessonVariant);
  const lesson = lessonId ? getLesson(lessonId) : undefined; // its verdict under the chart: the class sees what the card says
  const blind = useBlind(lesson); // the page's rule: until this browser's prediction (R here: the class has predicted) or a run of the lesson
  const question = blind && lesson ? lessonQuestion(lesson) : null;
  if (!state) return null;
  const index = presenterIndex(state, items);
  const item = items[index];
  const title = presenterTitle({ lessonId, settings, inspector, stepMode, leftLesson, verdict, blind }, item, index, items.length - 1);
  const Chart = item.kind === 'chart' ? CHARTS[item.chart] : null;
  const readout = item.kind === 'chart' ? chartReadout(item.chart, { steps: runSteps, evals }) : null;
  const run = status === 'loading' ? 'loading…' : status === 'error' ? 'error' : `${status === 'running' ? 'running' : 'paused'} · ${steps} step${steps === 1 ? '' : 's'}`;
  if (state.classResults) return <PresenterClass back={state.classResults === 'page' ? 'back to the page' : `back to ${title.item}`} touring={touring} run={run} />;
  return (
    <div className="presenter" role="dialog" aria-modal="true" aria-label="Presenter view" tabIndex={-1} ref={ref} data-testid="presenter" data-blind={blind && lesson ? lesson.id : undefined} data-item={item.kind === 'chart' ? item.chart : 'step-through'}>
      <header className="presenter-bar">
        <h1 data-testid="presenter-heading">{title.heading}</h1>
        <p className="presenter-item" data-testid="presenter-item" aria-live="polite">{title.item}{inspector?.busy && item.kind === 'step' ? ' (computing…)' : ''}</p>
      </header>
      {error && <p className="presenter-error" role="alert">{error}</p>}
      <div className={`presenter-stage ${item.kind}`} data-testid="presenter-stage" ref={stage}>
        {Chart ? <Chart key={item.kind === 'chart' ? item.chart : ''} /> : stepMode ? <Inspector /> : <p className="presenter-empty">Press → to step through one real GRPO update, phase by phase.</p>}
      </div>
      {readout && (
        <p className="presenter-readout note" data-testid="presenter-readout" style={{ margin: 0, fontSize: '1em' }}>
          Read off the chart: {readout.map(readoutText).join('; ')}.
        </p>
      )}
      {touring ? <ClassTour docked /> : <p className="presenter-caption" data-testid="presenter-caption">{withCode(title.caption)}</p>}
      {question && !touring && (
        <p className="presenter-question" data-testid="presenter-question"><strong>The class predicts first.</strong> {question.text} {CHOICES.join(' · ')}. <span className="note">R when the class has predicted: the explanation shows.</span></p>
      )}
      {/* the lesson's verdict under its charts, with the tour too: a stop that plays to the verdict's step shows it */}
      {lesson && item.kind === 'chart' && <div className="presenter-verdict"><Verdict lesson={lesson} variant={variant} rate={null} compact blind={blind} /></div>}
      <footer className="presenter-keys" aria-label="Keys">
        <span><kbd>→</kbd> next{touring ? ' stop' : ''}</span> <span><kbd>←</kbd> back</span> <span><kbd>1</kbd>–<kbd>{LESSONS.length}</kbd> lesson</span> <span><kbd>Space</kbd> play / pause</span>
        <span><kbd>↑</kbd><kbd>↓</kbd> scroll</span> <span><kbd>C</kbd> class results</span>{' '}
        {question && !touring && <><span><kbd>R</kbd> the class has predicted</span>{' '}</>}
        {touring ? <span><kbd>T</kbd> or <kbd>Esc</kbd> leave the tour</span> : <><span><kbd>T</kbd> class tour</span> <span><kbd>Esc</kbd> leave</span></>}
        <span className="presenter-run" data-testid="presenter-run" role="status">{run}{backend === 'cpu' ? ' · CPU reference' : ''}</span>
      </footer>
    </div>
  );
}

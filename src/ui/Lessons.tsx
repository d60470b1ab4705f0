/**
 * The lessons bar (one click each) and the current lesson's card: short, beside the lesson's first
 * chart on a laptop (App.tsx puts the lessons in the settings' column once a lesson is chosen, its
 * bar then numbers only). The card shows the question (blind) or the prediction, when the verdict
 * comes (at the run's measured speed) or the frozen verdict, and the variants; the rest — the
 * explanation, the claim and its numbers, the record — behind "Why?" (or "More" while blind) and
 * the verdict's own disclosure. The card folds away (on a phone it is most of a screen); with no
 * lesson chosen, a line at the top says where to start.
 */
import { createElement, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { LESSONS, getLesson, lessonSettings, type Lesson } from '../rl/lessons.ts';
import { settingsChangedFrom } from '../rl/lessonContract.ts';
import { SETTINGS_BY_KEY, defaultSettings } from '../rl/settings.ts';
import { useLab } from '../store/labStore.ts';
import { contrastSentence } from '../rl/contrast.ts';
import { recordSentence, spreadSentence } from '../rl/lessonRecords.ts';
import { heldoutWindowNote } from '../store/verdictWindow.ts';
import { frozenFor, VERDICT_WORDS } from '../store/verdictView.ts';
import { useSession } from './session.tsx';
import { Predict, SeedLine, useBlind } from './Predict.tsx';
import { ClassShare } from './ClassShare.tsx';
import { Understand } from './Understand.tsx';
import { markStep, stepRate, type StepMark } from './stepRate.ts';
import { chartList } from '../store/chartNames.ts';
import { mathParts } from './mathText.ts';

/** A text's symbols as math (mathText.ts): "|o_i|" as o with a subscript i, "p^G" with a superscript G. */
function withMath(text: string, key: number | string = 0): ReactNode {
  const parts = mathParts(text);
  if (parts.length < 2) return text;
  return parts.map((p, i) => (typeof p === 'string' ? p : 'sub' in p ? createElement('sub', { key: `${key}.${i}` }, p.sub) : createElement('sup', { key: `${key}.${i}` }, p.sup)));
}

/**
 * A lesson text with its inline `code` as <code> elements (backticks only, nothing else of
 * markdown; React elements, never HTML) and its symbols as math (withMath). An unpaired backtick stays as it is.
 */
export function withCode(text: string): ReactNode {
  const parts = text.split('`');
  if (parts.length < 3) return withMath(text);
  return parts.map((p, i) => (i % 2 === 0 ? createElement('span', { key: i }, withMath(p, i)) : i < parts.length - 1 || parts.length % 2 === 1 ? createElement('code', { key: i }, p) : `\`${p}`));
}

/** A setting as the page names it: its label from the settings table ("Group size G"), not its code name. */
export const settingLabel = (key: string) => SETTINGS_BY_KEY[key]?.label ?? key;

/** The lesson's charts first, in its order: CSS variables the chart grid reads (app.css, "order"). */
export function chartOrder(lessonId: string | null): CSSProperties | undefined {
  const charts = lessonId ? getLesson(lessonId)?.charts : undefined;
  return charts ? (Object.fromEntries(charts.map((c, i) => [`--order-${c}`, i - charts.length])) as CSSProperties) : undefined;
}

/**
 * Steps per second of the live run (stepRate over the page's last updates while it played). Only a
 * playing run is timed (a pause is not its speed); a new lesson or variant starts over, since its
 * speed differs. The last rate stays shown through a pause.
 */
function useStepRate(key: string): number | null {
  const done = useLab((s) => s.stepsCompleted);
  const running = useLab((s) => s.status === 'running');
  const marks = useRef<{ key: string; at: StepMark[] }>({ key, at: [] });
  const [rate, setRate] = useState<{ key: string; value: number } | null>(null);
  useEffect(() => {
    const m = marks.current;
    if (m.key !== key || !running) m.at = [];
    m.key = key;
    if (!running) return;
    m.at = markStep(m.at, done, performance.now());
    const value = stepRate(m.at);
    if (value !== null) setRate({ key, value });
  }, [done, running, key]);
  return rate && rate.key === key ? rate.value : null;
}

const duration = (s: number) => (s < 90 ? `${Math.max(1, Math.round(s))} s` : s < 90 * 60 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`);
const perSecond = (r: number) => (r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toPrecision(1));

/** ", about 2 min at 0.3 steps/s" to the verdict's step (" more" once the run has begun); nothing before a rate is measured or after the step. */
function timeToVerdict(at: number, done: number, rate: number | null): string {
  if (rate === null || !(rate > 0) || done >= at) return '';
  return `, about ${duration((at - done) / rate)}${done > 0 ? ' more' : ''} at ${perSecond(rate)} steps/s`;
}

/**
 * The variant's claim and its verdict. Before the verdict step: when it comes (Play runs to it and
 * stops), and after the prediction the numbers so far. At the step the session judges it once and
 * freezes it (store `verdict`): from then on the card shows that verdict — its claim number with
 * the 90 % interval and threshold, the evaluation set, what would settle an unclear one — and never
 * judges the longer run. On the card the verdict's line shows, the claim and its numbers fold under
 * it (a disclosure). `blind`: before the student predicts, the step only (no claim, no numbers).
 * `compact` (the presenter view): the verdict and the contrast lines only, unfolded, under their own test id.
 */
export function Verdict({ lesson, variant, rate, compact = false, blind = false }: { lesson: Lesson; variant: number; rate: number | null; compact?: boolean; blind?: boolean }) {
  const lab = useSession();
  const steps = useLab((s) => s.steps);
  const evals = useLab((s) => s.evals);
  const settings = useLab((s) => s.settings);
  const done = useLab((s) => s.stepsCompleted);
  const frozen = useLab((s) => frozenFor(s, lesson.id, variant));
  const notice = useLab((s) => s.lessonNotice);
  const claim = lesson.variants[variant]?.claim;
  // before the step: the numbers so far (judge() says pending); after it, the frozen verdict only
  const v = useMemo(() => (frozen ? frozen.judged : claim && !blind ? claim.judge({ steps, evals }) : null), [frozen, claim, blind, steps, evals]);
  const changed = useMemo(() => settingsChangedFrom(lesson, variant, settings), [lesson, variant, settings]);
  const contrast = frozen?.judged && frozen.contrast && lesson.contrast ? frozen.contrast : null; // judged once with the verdict (store/lessonContrast.ts)
  const spread = useMemo(() => spreadSentence(lesson, variant), [lesson, variant]);
  if (!claim) return null;
  const id = compact ? 'presenter-verdict' : 'lesson-verdict';
  const claimLine = !compact && !blind && <p><strong>Claim:</strong> {withCode(claim.text)}{claim.frequency ? ` (${claim.frequency})` : ''}</p>;
  /** The card's fold under the verdict line (the presenter's lines stay unfolded). */
  const fold = (summary: string, body: ReactNode) => (compact ? body : <details className="verdict-more" data-testid="lesson-verdict-more"><summary>{summary}</summary>{body}</details>);
  if ((changed.length || frozen?.offVariant) && !(frozen && frozen.judged)) {
    const want = lessonSettings(lesson, defaultSettings(), variant);
    const why = changed.length ? `this run's ${changed.map((k) => `${settingLabel(k)} is ${String(settings[k])} (the variant sets ${String(want[k])})`).join(', ')}` : frozen!.offVariant;
    return (
      <div className="claim claim-pending" data-testid={id} data-state="changed" role="status" aria-live="polite">
        <p className="verdict-line">Not judged: {why}. The claim is about the variant as set: press its button to restart it.</p>
        {claimLine && fold('The claim', claimLine)}
      </div>
    );
  }
  const after = frozen?.continued && done > frozen.step ? done - frozen.step : 0;
  if (frozen?.judged) {
    const j = frozen.judged, state = j.state;
    return (
      <div className={`claim claim-${state}`} data-testid={id} data-state={state} data-step={frozen.step} role="status" aria-live="polite">
        <p className="verdict-line" data-testid={compact ? undefined : 'lesson-verdict-number'}>Verdict at step {frozen.step}, judged once: {VERDICT_WORDS[state]}.</p>
        {!compact && (frozen.continued
          ? <p className="note after-verdict" data-testid="lesson-after-verdict">{after > 0 ? `${after} step${after === 1 ? '' : 's'} after the verdict (${after === 1 ? `step ${frozen.step}` : `steps ${frozen.step}–${done - 1}`} on the charts): the charts go on; the verdict above stays as judged at step ${frozen.step}.` : `Continued past the verdict: later steps are after it; the verdict above stays as judged at step ${frozen.step}.`}</p>
          : <p className="note"><button className="small" onClick={() => void lab.continuePastVerdict()} data-testid="lesson-continue">Continue past the verdict</button> {notice ?? 'Play stopped here; the verdict stays as judged.'}</p>)}
        {fold('The claim and its numbers', <>
          {claimLine}
          <p className="verdict-sentence" data-testid={compact ? undefined : 'lesson-verdict-sentence'}>{withCode(j.sentence)}</p>
          <p className="note verdict-window" data-testid={compact ? 'presenter-verdict-window' : 'lesson-verdict-window'}>Windows: {j.number.window}.</p>
          {!compact && spread && <p className="note" data-testid="lesson-verdict-spread">{spread}</p>}
          {state === 'unclear' && j.settle && <p className="note" data-testid={compact ? undefined : 'lesson-verdict-settle'}>What would settle it: {withCode(j.settle)}</p>}
          {state === 'fails' && j.hint && !compact && <p className="note">Try: {withCode(j.hint)}</p>}
          {contrast && lesson.contrast && <p className="contrast" data-testid={compact ? 'presenter-contrast' : 'lesson-contrast'} data-state={contrast.state}><strong>The comparison the question asks about:</strong> {withCode(contrastSentence(lesson.contrast, contrast, lesson.variants.map((x) => x.short ?? x.label)))}</p>}
        </>)}
      </div>
    );
  }
  const timing = timeToVerdict(claim.steps, done, rate);
  const heldNote = v && !blind && steps.length ? heldoutWindowNote(v.sentence, evals) : null; // "→ 0.23" is a mean of two evaluations: say so
  const soFar = v && steps.length ? v.sentence.replace(/^Pending[^.]*\.\s*/, '') : '';
  const timed = timing && <span className="timing" data-testid="lesson-timing">{` (${timing.slice(2)})`}</span>;
  if (compact) {
    return (
      <div className="claim claim-pending" data-testid={id} data-state="pending" role="status" aria-live="polite">
        <p className="verdict-line">
          {steps.length ? `Play runs to step ${claim.steps} and stops: the verdict comes at step ${claim.steps}, judged once (now ${done})` : `Press play: the verdict comes at step ${claim.steps} (Play runs to step ${claim.steps} and stops there; the verdict is judged once)`}
          {timed}.
        </p>
        {heldNote && <p className="note verdict-window" data-testid="presenter-verdict-window">{heldNote}</p>}
      </div>
    );
  }
  return (
    <div className="claim claim-pending" data-testid={id} data-state="pending" role="status" aria-live="polite">
      <p className="verdict-line">Play runs to step {claim.steps} and stops for the verdict{steps.length ? ` (now ${done})` : ''}{timed}.</p>
      {claimLine && fold('The claim', <>
        {claimLine}
        <p className="note">The verdict comes at step {claim.steps}, judged once on this run's numbers, and stays as judged.</p>
        {soFar && <p className="note" data-testid="lesson-so-far">{withCode(soFar)}</p>}
        {heldNote && <p className="note verdict-window" data-testid="lesson-verdict-window">{heldNote}</p>}
      </>)}
    </div>
  );
}

/** The lesson's record on fresh seeds (lessonRecords.ts), once the student has predicted: how often each claim held, and where the record disagrees. */
function RecordLine({ lesson }: { lesson: Lesson }) {
  const text = recordSentence(lesson);
  return text ? <p className="note lesson-record" data-testid="lesson-record">{text}</p> : null;
}

/** What the lesson varies, in the settings' own labels ("Group size G: G = 2 · G = 8 · G = 16"): the setup a blind card shows. */
export function variedLine(lesson: Lesson): string {
  const keys = [...new Set(lesson.variants.flatMap((v) => Object.keys(v.settings)))].filter((k) => new Set(lesson.variants.map((v) => JSON.stringify((v.settings as Record<string, unknown>)[k]))).size > 1);
  return `${keys.map(settingLabel).join(', ') || 'The variants'}: ${lesson.variants.map((v) => v.short ?? v.label).join(' · ')}`;
}

/** A lesson's number, as its title starts ("1. Mixed groups …" → "1"). */
const lessonNumber = (l: Lesson, i: number) => /^(\d+)\./.exec(l.title)?.[1] ?? String(i + 1);

/**
 * The lessons bar and, with a lesson chosen, its card. With no lesson the bar names every lesson;
 * in a lesson it numbers them (each button named and titled by its lesson), so the card sits high.
 */
export function Lessons() {
  const lab = useSession();
  const lessonId = useLab((s) => s.lessonId);
  const lesson = lessonId ? getLesson(lessonId) : undefined;
  const [open, setOpen] = useState(true);
  return (
    <section className={`lessons card${open ? '' : ' folded'}${lesson ? ' in-lesson' : ''}`} aria-label="Lessons">
      <div className="lesson-buttons">
        <button className="small fold" aria-expanded={open} data-testid="lessons-fold" onClick={() => setOpen(!open)}
          title={open ? 'Fold the lessons away' : 'Show the lessons'}>{open ? '▾' : '▸'} Lessons{open ? ':' : ''}</button>
        {!open && lesson && <span className="lesson-folded" data-testid="lesson-folded">{lesson.title}</span>}
        {open && LESSONS.map((l, i) => (
          <button key={l.id} className={`${l.id === lessonId ? 'current' : ''}${lesson ? ' number' : ''}`} aria-pressed={l.id === lessonId} onClick={() => void lab.applyLesson(l.id)} data-testid={`lesson-${l.id}`}
            aria-label={lesson ? l.title : undefined} title={lesson ? l.title : undefined}>{lesson ? lessonNumber(l, i) : l.title}</button>
        ))}
        {open && lesson && <button className="small leave" onClick={() => lab.view.leaveLesson()}>Leave lesson</button>}
      </div>
      {open && lesson && <LessonCard lesson={lesson} />}
    </section>
  );
}

/**
 * The lesson's card, short: its title, the question (blind) or the prediction, the verdict's line,
 * the variants, "Share result" after a verdict; the rest behind "More" (blind: the setup) or
 * "Why?" (the explanation, the charts to watch, the record on fresh seeds), with the class seed
 * and "New student".
 */
function LessonCard({ lesson }: { lesson: Lesson }) {
  const lab = useSession();
  const variant = useLab((s) => s.lessonVariant);
  const rate = useStepRate(`${lesson.id}:${variant}`);
  // predict blind: until the student predicts (or skips), the setup and the question only
  const blind = useBlind(lesson);
  return (
    <div className="lesson-text" data-testid="lesson-text" data-blind={String(blind)}>
      <h2>{lesson.title}</h2>
      <Predict lesson={lesson} variant={variant} />
      <Verdict lesson={lesson} variant={variant} rate={rate} blind={blind} />
      <Understand lesson={lesson} variant={variant} />
      {!blind && <ClassShare lesson={lesson} variant={variant} />}
      <div className="variants">
        Compare:{' '}
        {lesson.variants.map((v, i) => (
          <button key={i} className={i === variant ? 'current' : ''} aria-pressed={i === variant} onClick={() => void lab.applyLesson(lesson.id, i)}
            aria-label={v.short ? v.label : undefined} title={`${v.short ? `${v.label}. ` : ''}Verdict at step ${v.claim.steps}`}>{withCode(v.short ?? v.label)}</button>
        ))}
      </div>
      <details className="lesson-more" data-testid="lesson-more">
        <summary>{blind ? 'More' : 'Why?'}</summary>
        {blind
          ? <p data-testid="lesson-setup">Varied: {withCode(variedLine(lesson))}. Watch: {withCode(chartList(lesson.charts))}. Predict first (one click, kept in this browser; Play works without it); the explanation comes after.</p>
          : <>
            <p data-testid="lesson-watch">{withCode(lesson.watch)}</p>
            <p className="note">Watch: {withCode(chartList(lesson.charts))} (highlighted, first among the charts).</p>
            <RecordLine lesson={lesson} />
          </>}
        <p className="note">Each variant restarts from the base; the previous run stays on the charts as an overlay (choose another under Runs).</p>
        <SeedLine />
        <NewStudent />
      </details>
    </div>
  );
}

/** "New student": after asking, this browser forgets its predictions, seed, runs and saved run (the session's newStudent). */
function NewStudent() {
  const lab = useSession();
  return (
    <button className="small" data-testid="new-student" title="Forget this browser's predictions, seed, runs and saved run"
      onClick={() => { if (window.confirm('New student: forget this browser\'s predictions, seed, runs and saved run? The lesson starts over from its base.')) void lab.newStudent(); }}>New student</button>
  );
}

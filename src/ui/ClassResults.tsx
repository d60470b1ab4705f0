/**
 * Class results (issue 31): the teacher pastes anything — a whole chat log — under "Paste
 * results"; the one-way decoder (src/class/code.ts) finds every code, refuses each bad one with
 * one sentence, drops repeats, and the pool (src/class/pool.ts) shows per lesson and variant the
 * runs, how many held ✓, a strip plot of the claim's number per seed against its threshold, the
 * contrast on seeds with both variants, and the class's predictions against the outcomes. Every
 * pasted character reaches the page as text (React text nodes), never as HTML. CSV and PNG out;
 * on the projector, the presenter view's class results (PresenterClass.tsx: the same paste, large).
 * The teacher's panel: a student's page (`class=1`, which gives that browser its own seed) does
 * not show it (App.tsx); a link `#result=<code>` opens it with that code (src/class/paste.ts).
 */
import { useDeferredValue, useMemo, useRef, useState, type ReactNode, type Ref, type RefObject } from 'react';
import { useStore } from 'zustand';
import { getLesson } from '../rl/lessons.ts';
import { download } from '../store/exports.ts';
import { MAX_PASTE } from '../class/code.ts';
import { pasteStore, setPaste } from '../class/paste.ts';
import { classVariantLine, classVerdictLine, conceptLine, contrastIntervalLine, explainLine, poolCsv, poolPaste, predictionLine, type ClassPool as ClassPoolData, type LessonPool } from '../class/pool.ts';
import { usePresenter } from './session.tsx';
import { ClassStrip, ContrastStrip } from './ClassStrip.tsx';
import { panelPng } from './panelPng.ts';
import './class.css';

/**
 * One lesson's class results, as one screen on the projector and one slide: first what the class
 * predicted against what its runs showed, then the contrast seed by seed (a strip plot with the
 * class's interval), then each variant's runs in one line and a strip. The page's panel shows the same.
 */
function LessonResults({ l, stripHeight, dot, compact = false }: { l: LessonPool; stripHeight?: number; dot?: number; compact?: boolean }) {
  const variants = getLesson(l.lessonId)?.variants ?? [];
  const name = (v: number) => variants[v]?.short ?? variants[v]?.label;
  const lesson = l.question ? { asked: name(l.question.asked), against: name(l.question.against) } : null; // named from the lesson: a variant nobody ran is still named
  const pred = predictionLine(l);
  const interval = lesson?.asked && lesson.against ? contrastIntervalLine(l, lesson.asked, lesson.against) : null;
  return (
    <section className="class-lesson" data-testid={`class-lesson-${l.lessonId}`}>
      <h3 data-png-line="h">{l.title}</h3>
      {pred && lesson && <p className="class-predictions" data-testid="class-predictions" data-png-line="h"><strong>{lesson.asked} against {lesson.against}, {l.question!.text.replace(/^.*, the (.*) will be:$/, 'the $1')}:</strong> {pred}</p>}
      {l.question && lesson?.asked && lesson.against && (
        <p className="class-contrast" data-testid="class-contrast" data-png-line="t">{interval ?? `No seed has both ${lesson.asked} and ${lesson.against} from comparable starting weights yet.`}</p>
      )}
      {lesson?.asked && lesson.against && <ContrastStrip lesson={l} asked={lesson.asked} against={lesson.against} height={stripHeight} dot={dot} />}
      {l.understanding && (explainLine(l.understanding) || conceptLine(l.understanding)) && (
        <p className="class-understood" data-testid="class-understood" data-png-line="t">
          {explainLine(l.understanding)}{explainLine(l.understanding) && conceptLine(l.understanding) ? ' ' : ''}{conceptLine(l.understanding)}
        </p>
      )}
      {compact
        ? l.variants.map((v) => (
          <div key={v.variant} className="class-variant">
            <p data-testid={`class-variant-${v.variant}`} data-png-line="t" className={`class-verdict class-verdict-${v.verdict}`} data-verdict={v.verdict ?? ''}>{classVariantLine(v)}</p>
            <ClassStrip pool={v} height={stripHeight} dot={dot} compact />
          </div>
        ))
        : <>
          <ul className="class-variants">
            {l.variants.map((v) => (
              <li key={v.variant} data-testid={`class-variant-${v.variant}`} data-png-line="t">
                {v.name}: {v.runs.length} run{v.runs.length === 1 ? '' : 's'}, {v.held} held ✓, {v.failed} failed ✗, {v.unclear} unclear (seed{v.runs.length === 1 ? '' : 's'} {v.runs.slice(0, 12).map((r) => r.seed).join(', ')}{v.runs.length > 12 ? ', …' : ''})
                {classVerdictLine(v) && <><br /><span className={`class-verdict class-verdict-${v.verdict}`} data-testid={`class-verdict-${v.variant}`} data-verdict={v.verdict ?? ''}>{classVerdictLine(v)}</span></>}
              </li>
            ))}
          </ul>
          {l.variants.map((v) => <ClassStrip key={v.variant} pool={v} height={stripHeight} dot={dot} />)}
        </>}
    </section>
  );
}

/** The pasted text, shared by the page's panel and the presenter view's class results (src/class/paste.ts). */
export const usePaste = () => useStore(pasteStore, (s) => s.text);

/** The "Paste results" box. `rows`: its height in lines. */
export function PasteBox({ rows = 5 }: { rows?: number }) {
  const text = usePaste();
  return (
    <label className="class-paste">Paste results
      <textarea value={text} maxLength={MAX_PASTE} rows={rows} spellCheck={false} onChange={(e) => setPaste(e.target.value)} data-testid="class-paste"
        placeholder="Paste the class chat, or codes like rlvr1.eyJhIjoi….1a2b3c4d" />
    </label>
  );
}

/** What the pasted text pools to: the summary, the refusals, each lesson's runs, strip plots, contrast and predictions. `stripHeight`, `dot`: the strip plots' height and their points' area in px (ClassStrip). While the pool of the text in the box is still being computed (usePool's `of` is older), the summary says "reading…", never the last pool's count. */
export function ClassPool({ pool, stripHeight, dot, ref, only }: { pool: ClassPoolData & { of?: string }; stripHeight?: number; dot?: number; ref?: Ref<HTMLDivElement>; /** The projector: this lesson only, one screen (each variant in one line), the refusals folded. */ only?: string }) {
  const text = usePaste();
  const reading = pool.of !== undefined && pool.of !== text;
  return (
    <div ref={ref} className="class-pool" data-testid="class-pool">
      <p className="class-summary" role="status" data-testid="class-summary" data-png-line="t">
        {reading ? 'Pasted text: reading…' : <>{pool.accepted} run{pool.accepted === 1 ? '' : 's'} pooled
        {pool.duplicates > 0 && `, ${pool.duplicates} repeat${pool.duplicates === 1 ? '' : 's'} dropped (same lesson, variant and seed as an earlier code)`}
        {pool.refused.length > 0 && `, ${pool.refused.length} refused`}.
        {pool.cut.chars && ` Only the first ${MAX_PASTE.toLocaleString('en')} characters were read.`}
        {pool.cut.codes && ' Only the first 20,000 codes were read.'}</>}
      </p>
      {pool.refused.length > 0 && only !== undefined && (
        <details className="class-refused-fold"><summary>{pool.refused.length} code{pool.refused.length === 1 ? '' : 's'} refused: why</summary><Refused pool={pool} /></details>
      )}
      {pool.refused.length > 0 && only === undefined && <Refused pool={pool} />}
      {pool.lessons.filter((l) => only === undefined || l.lessonId === only).map((l) => <LessonResults key={l.lessonId} l={l} stripHeight={stripHeight} dot={dot} compact={only !== undefined} />)}
    </div>
  );
}

/** Each refused code in one sentence: on the page, not on the slide (no data-png-line). */
function Refused({ pool }: { pool: ClassPoolData }) {
  return (
        <ul className="class-refused" data-testid="class-refused">
          {pool.refused.slice(0, 50).map((r, i) => <li key={i}>{r.sentence}</li>)} {/* on the page, not on the slide (no data-png-line) */}
          {pool.refused.length > 50 && <li>… and {pool.refused.length - 50} more.</li>}
        </ul>
  );
}

/** A lesson's class PNG is a slide: titled, at most 1,920 × 1,080 px, no text under 20 px where it fits (the refusals stay on the page). */
const classSlide = (lesson: string) => ({ title: `Class results, ${lesson}, ${new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })}`, maxPx: 1920, maxHeightPx: 1080, minTextPx: 20 });

/** One PNG per lesson drawn in `results` (rlvr-lab-class-lesson-<n>.png), each a slide. */
async function slides(results: HTMLElement | null) {
  for (const sec of results ? [...results.querySelectorAll<HTMLElement>('.class-lesson')] : []) {
    const title = sec.querySelector('h3')?.textContent ?? 'a lesson';
    const n = /^\s*(\d+)/.exec(title)?.[1] ?? 'x';
    download(`rlvr-lab-class-lesson-${n}.png`, await panelPng(sec, classSlide(`lesson ${n}`)), 'image/png');
  }
}

/** The pool's CSV (a row per run, and the class's rows) and PNG (a slide per lesson, as drawn in `results`) downloads, in the page's panel and the presenter view. */
export function ClassExport({ pool, results, children }: { pool: ClassPoolData; results: RefObject<HTMLDivElement | null>; children?: ReactNode }) {
  return (
    <p className="class-export">
      <button className="small" onClick={() => download('rlvr-lab-class-results.csv', poolCsv(pool.lessons), 'text/csv')} data-testid="class-csv">CSV</button>{' '}
      <button className="small" onClick={() => void slides(results.current)} data-testid="class-png" title="One slide-sized picture per lesson shown (at most 1,920 × 1,080 px)">PNG</button>{' '}
      {children}
    </p>
  );
}

/** The pasted text, pooled (deferred: a 1 MB paste does not hold up typing); `of`: the text pooled, behind the box's while the pool is computed. */
export function usePool(): ClassPoolData & { of: string } {
  const deferred = useDeferredValue(usePaste());
  return useMemo(() => ({ ...poolPaste(deferred), of: deferred }), [deferred]);
}

export function ClassResults() {
  const presenter = usePresenter();
  const text = usePaste();
  const [open, setOpen] = useState(() => text !== '');
  const pool = usePool();
  const results = useRef<HTMLDivElement>(null);
  return (
    <details className="card class-results" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="class-results">
      <summary><h2>Class results</h2></summary>
      <p className="note">Each student shares a lesson's result (“Share result” on the lesson card, after its verdict) in the class chat; paste the chat here. Codes are read, never run; anything else in the text is ignored.</p>
      <p className="note class-mode" data-testid="class-mode">The students' link: this page's address with <code>class=1</code> added (<code>?class=1</code>, or <code>&amp;class=1</code> after other settings). Each student's browser then runs every lesson on its own seed, kept in that browser, and shows neither this panel nor the profiler; this page, without it, runs seed 1.</p>
      <PasteBox />
      {text && <ClassPool pool={pool} ref={results} />}
      {pool.accepted > 0 && (
        <ClassExport pool={pool} results={results}>
          <button className="small" onClick={() => presenter.openClass()} data-testid="class-present-open" title="The class results in the presenter view, in large type (Esc comes back)">Show large (presenter)</button>
        </ClassExport>
      )}
    </details>
  );
}

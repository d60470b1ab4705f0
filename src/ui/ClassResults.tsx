/**
 * Class results (issue 31): the teacher pastes anything — a whole chat log — under "Paste
 * results"; the one-way decoder (src/class/code.ts) finds every code, refuses each bad one with
 * one sentence, drops repeats, and the pool (src/class/pool.ts) shows per lesson and variant the
 * runs, how many held ✓, a strip plot of the claim's number per seed against its threshold, the
 * contrast on seeds with both variants, and the class's predictions against the outcomes. Every
 * pasted character reaches the page as text (React text nodes), never as HTML. CSV and PNG out;
 * on the projector, the presenter view's class results (PresenterClass.tsx: the same paste, large).
 * `class=1` (or the switch here) opens it and gives this browser its own seed; a link
 * `#result=<code>` opens it with that code (src/class/paste.ts).
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode, type Ref, type RefObject } from 'react';
import { useStore } from 'zustand';
import { getLesson } from '../rl/lessons.ts';
import { signed } from '../rl/format.ts';
import { useLab } from '../store/labStore.ts';
import { download } from '../store/exports.ts';
import { MAX_PASTE } from '../class/code.ts';
import { classSeed } from '../class/local.ts';
import { CHOICES } from '../class/question.ts';
import { pasteStore, setPaste } from '../class/paste.ts';
import { classVerdictLine, contrastIntervalLine, poolCsv, poolPaste, predictionLine, type ClassPool as ClassPoolData, type LessonPool } from '../class/pool.ts';
import { usePresenter, useSession } from './session.tsx';
import { ClassStrip } from './ClassStrip.tsx';
import { panelPng } from './panelPng.ts';
import './class.css';

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

/**
 * "Contrast (mixed share of the groups) on the 12 seeds with both G = 8 and G = 2: G = 8 − G = 2,
 * median +0.41; on its own seed (judged with its interval): higher on 9, unclear on 2."
 */
export function contrastLine(l: LessonPool, what: string, asked: string, against: string): string {
  const d = l.pairs.map((p) => p.diff).filter(Number.isFinite);
  if (!l.pairs.length) return `Contrast (${what}): no seed has both ${asked} and ${against} from comparable starting weights yet.`;
  const judged = l.pairs.filter((p) => p.outcome !== undefined);
  const counts = [0, 1, 2].map((c) => judged.filter((p) => p.outcome === c).length);
  const unclear = judged.filter((p) => p.outcome === null).length;
  const by = [...counts.map((n, c) => (n ? `${CHOICES[c]} on ${n}` : '')), unclear ? `unclear on ${unclear}` : ''].filter(Boolean).join(', ');
  return `Contrast (${what}) on the ${l.pairs.length} seed${l.pairs.length === 1 ? '' : 's'} with both ${asked} and ${against}: ${asked} − ${against}, median ${d.length ? signed(median(d), 2, 'precision') : '–'}${judged.length ? `; each seed judged on its own two runs: ${by}` : ''}.`;
}

function LessonResults({ l, stripHeight, dot }: { l: LessonPool; stripHeight?: number; dot?: number }) {
  const variants = getLesson(l.lessonId)?.variants ?? [];
  const name = (v: number) => variants[v]?.short ?? variants[v]?.label;
  const lesson = l.question ? { asked: name(l.question.asked), against: name(l.question.against) } : null; // named from the lesson: a variant nobody ran is still named
  const pred = predictionLine(l);
  return (
    <section className="class-lesson" data-testid={`class-lesson-${l.lessonId}`}>
      <h3 data-png-line="h">{l.title}</h3>
      <ul className="class-variants">
        {l.variants.map((v) => (
          <li key={v.variant} data-testid={`class-variant-${v.variant}`} data-png-line="t">
            {v.name}: {v.runs.length} run{v.runs.length === 1 ? '' : 's'}, {v.held} held ✓, {v.failed} failed ✗, {v.unclear} unclear (seed{v.runs.length === 1 ? '' : 's'} {v.runs.slice(0, 12).map((r) => r.seed).join(', ')}{v.runs.length > 12 ? ', …' : ''})
            {classVerdictLine(v) && <><br /><span className={`class-verdict class-verdict-${v.verdict}`} data-testid={`class-verdict-${v.variant}`} data-verdict={v.verdict ?? ''}>{classVerdictLine(v)}</span></>}
          </li>
        ))}
      </ul>
      {l.variants.map((v) => <ClassStrip key={v.variant} pool={v} height={stripHeight} dot={dot} />)}
      {l.question && lesson?.asked && lesson.against && (
        <p className="class-contrast" data-testid="class-contrast" data-png-line="t">{contrastLine(l, l.question.text.replace(/^.*, the (.*) will be:$/, '$1'), lesson.asked, lesson.against)} {contrastIntervalLine(l, lesson.asked, lesson.against)}</p>
      )}
      {pred && <p className="class-predictions" data-testid="class-predictions" data-png-line="t"><strong>Predictions</strong> ({l.question!.text.replace(/ will be:$/, '')}): {pred}</p>}
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

/** What the pasted text pools to: the summary, the refusals, each lesson's runs, strip plots, contrast and predictions. `stripHeight`, `dot`: the strip plots' height and their points' area in px (ClassStrip). */
export function ClassPool({ pool, stripHeight, dot, ref }: { pool: ClassPoolData; stripHeight?: number; dot?: number; ref?: Ref<HTMLDivElement> }) {
  return (
    <div ref={ref} className="class-pool" data-testid="class-pool">
      <p className="class-summary" role="status" data-testid="class-summary" data-png-line="t">
        {pool.accepted} run{pool.accepted === 1 ? '' : 's'} pooled
        {pool.duplicates > 0 && `, ${pool.duplicates} repeat${pool.duplicates === 1 ? '' : 's'} dropped (same lesson, variant and seed as an earlier code)`}
        {pool.refused.length > 0 && `, ${pool.refused.length} refused`}.
        {pool.cut.chars && ` Only the first ${MAX_PASTE.toLocaleString('en')} characters were read.`}
        {pool.cut.codes && ' Only the first 20,000 codes were read.'}
      </p>
      {pool.refused.length > 0 && (
        <ul className="class-refused" data-testid="class-refused">
          {pool.refused.slice(0, 50).map((r, i) => <li key={i}>{r.sentence}</li>)} {/* on the page, not on the slide (no data-png-line) */}
          {pool.refused.length > 50 && <li>… and {pool.refused.length - 50} more.</li>}
        </ul>
      )}
      {pool.lessons.map((l) => <LessonResults key={l.lessonId} l={l} stripHeight={stripHeight} dot={dot} />)}
    </div>
  );
}

/** The class PNG is a slide: titled, at most 1,920 px wide, no text under 22 px (the refusals stay on the page). */
const classSlide = () => ({ title: `Class results, ${new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })}`, maxPx: 1920, minTextPx: 22 });

/** The pool's CSV (one row per run) and PNG (the results as drawn in `results`, as a slide) downloads, in the page's panel and the presenter view. */
export function ClassExport({ pool, results, children }: { pool: ClassPoolData; results: RefObject<HTMLDivElement | null>; children?: ReactNode }) {
  return (
    <p className="class-export">
      <button className="small" onClick={() => download('rlvr-lab-class-results.csv', poolCsv(pool.lessons), 'text/csv')} data-testid="class-csv">CSV</button>{' '}
      <button className="small" onClick={() => { if (results.current) void panelPng(results.current, classSlide()).then((b) => download('rlvr-lab-class-results.png', b, 'image/png')); }} data-testid="class-png">PNG</button>{' '}
      {children}
    </p>
  );
}

/** The pasted text, pooled (deferred: a 1 MB paste does not hold up typing). */
export function usePool(): ClassPoolData {
  const deferred = useDeferredValue(usePaste());
  return useMemo(() => poolPaste(deferred), [deferred]);
}

export function ClassResults() {
  const lab = useSession();
  const presenter = usePresenter();
  const classMode = useLab((s) => s.classMode);
  const text = usePaste();
  const [open, setOpen] = useState(() => text !== '' || classMode);
  const pool = usePool();
  const results = useRef<HTMLDivElement>(null);
  useEffect(() => { if (classMode) setOpen(true); }, [classMode]);
  const setClassMode = (on: boolean) => lab.view.setClassMode(on, classSeed()); // off: seed 1, the teacher's
  return (
    <details className="card class-results" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="class-results">
      <summary><h2>Class results</h2></summary>
      <p className="note">Each student shares a lesson's result (“Share result” on the lesson card, after its verdict) in the class chat; paste the chat here. Codes are read, never run; anything else in the text is ignored.</p>
      <label className="class-mode">
        <input type="checkbox" checked={classMode} onChange={(e) => setClassMode(e.target.checked)} data-testid="class-mode" /> Class mode: this browser runs every lesson on its own seed (kept in this browser; the address carries class=1). Off: seed 1, the teacher's.
      </label>
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

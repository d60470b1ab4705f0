/**
 * The class results in the presenter view (issue 31): the teacher opens them with C (or "Show
 * large" in the page's Class results panel), pastes the class chat into "Paste results", and the
 * class sees the pool in the presenter's large type — each lesson's runs, the strip plot of the
 * claim's number per seed, the contrast and the predictions line, with the page panel's CSV and PNG. The pasted text is the page
 * panel's (src/class/paste.ts). One lesson a screen: → and ← walk the pooled lessons (← from the
 * first, and Esc, go back to the item, or to the page when opened from it); while the paste box has
 * the keyboard only Esc is the view's, the rest is typing.
 */
import { useEffect, useRef } from 'react';
import { useLab } from '../store/labStore.ts';
import { usePresenter } from './session.tsx';
import { ClassExport, ClassPool, PasteBox, usePaste, usePool } from './ClassResults.tsx';
import { ClassTour } from './ClassTour.tsx';

/** The strip plots' height at the projector: an eighth of the screen or so (one lesson — its headline, its contrast and each variant's strip — fits one screen at 1920×1080). */
const stripHeight = () => Math.round(Math.min(200, Math.max(90, (typeof window === "undefined" ? 900 : window.innerHeight) * 0.09)));

export function PresenterClass({ back, touring, run }: { back: string; touring: boolean; run: string }) {
  const text = usePaste();
  const pool = usePool();
  const view = useRef<HTMLDivElement>(null);
  const ids = pool.lessons.map((l) => l.lessonId);
  const presenter = usePresenter();
  const wanted = useLab((s) => s.presenter?.classLesson ?? null);
  const shown = wanted !== null && ids.includes(wanted) ? wanted : ids[0];
  const at = shown === undefined ? -1 : ids.indexOf(shown);
  const results = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // nothing pasted yet: the paste box takes the keyboard (Ctrl+V at once); else the view, for ← and Esc
    if (!text) view.current?.querySelector('textarea')?.focus();
    else view.current?.focus();
  }, []); // on opening only
  return (
    <div className="presenter class-present" role="dialog" aria-modal="true" aria-label="Presenter view" tabIndex={-1} ref={view} data-testid="presenter" data-item="class-results" data-lessons={ids.join(' ')}>
      <header className="presenter-bar">
        <h1 data-testid="presenter-heading">Class results</h1>
        <p className="presenter-item" data-testid="presenter-item" aria-live="polite">{pool.accepted} run{pool.accepted === 1 ? '' : 's'} pooled · Esc: {back}</p>
      </header>
      <div className="presenter-stage class" data-testid="presenter-stage">
        <PasteBox rows={text ? 1 : 4} />
        {ids.length > 1 && (
          <nav className="class-lesson-tabs" aria-label="Lessons in the pool" data-testid="class-lesson-tabs">
            {pool.lessons.map((l) => <button key={l.lessonId} className="small" aria-current={l.lessonId === shown ? 'page' : undefined} onClick={() => presenter.showClassLesson(l.lessonId)}>Lesson {l.number}</button>)}
            <span className="note"> lesson {at + 1} of {ids.length}: → next, ← back</span>
          </nav>
        )}
        {text ? <ClassPool pool={pool} stripHeight={stripHeight()} dot={200} ref={results} only={shown} /> : <p className="presenter-empty">Paste the class chat above (Ctrl+V): every result code in it is pooled here, each seed a point.</p>}
        {pool.accepted > 0 && <ClassExport pool={pool} results={results} />}
      </div>
      {touring && <ClassTour docked />}
      <footer className="presenter-keys" aria-label="Keys">
        <span><kbd>→</kbd><kbd>←</kbd> lesson</span> <span><kbd>Esc</kbd> {back}</span> <span><kbd>Space</kbd> play / pause</span> <span><kbd>↑</kbd><kbd>↓</kbd> scroll</span>
        <span className="presenter-run" data-testid="presenter-run" role="status">{run}</span>
      </footer>
    </div>
  );
}

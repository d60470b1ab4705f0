/**
 * The class tour's card and spotlight: a guided walk of about fifteen minutes through the live
 * run (the stops are data: src/store/tour.ts; moving and acting: src/lab/tour.ts). Each stop
 * outlines one element of the page, scrolled into view, and says what it shows with this run's
 * numbers; where there are none yet, its button makes them. Keys: → next, ← back, Esc leave.
 * On the page the card floats in a corner clear of the element; in the presenter view it sits
 * under the stage, in the presenter's large type, in place of the caption.
 */
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { Tour } from '../lab/tour.ts';
import { useLab, type LabState } from '../store/labStore.ts';
import { TOUR, type TourInput } from '../store/tour.ts';
import { chartReadout, readoutText } from '../store/presenterView.ts';
import { usePresenter, useSession } from './session.tsx';
import { TourPredict } from './Predict.tsx';

/** The tour's controller: the session's (src/lab/tour.ts). */
export const useTour = (): Tour => useSession().tour;

/** The stop shown, or null when the tour is closed. */
export const useTourStop = () => useStore(useTour().state, (t) => t.stop);

const TITLE = 'A guided walk of about 15 minutes through the live run: eight stops, each on one element of the page with this run\'s numbers (→ next, ← back, Esc leave)';

/** The button beside "Presenter view" (top right). */
export function ClassTourButton() {
  const tour = useTour();
  const open = useTourStop() !== null;
  return <button className="tour-open" data-testid="tour-open" aria-pressed={open} onClick={() => (open ? tour.close() : tour.open(0))} title={TITLE}>Class tour</button>;
}

/** The link in the "start here" line. */
export function ClassTourLink() {
  const tour = useTour();
  return <button className="small" data-testid="tour-start-link" onClick={() => tour.open(0)} title={TITLE}>Take the class tour (15 min)</button>;
}

const pick = (s: LabState): TourInput & Pick<LabState, 'status'> => ({
  settings: s.settings, lessonId: s.lessonId, lessonVariant: s.lessonVariant, steps: s.steps, evals: s.evals,
  signals: s.signals, stepMode: s.stepMode, inspector: s.inspector, status: s.status,
  runs: s.runs, liveOrigin: s.liveOrigin, stepsCompleted: s.stepsCompleted, overlayRunId: s.overlayRunId, presenter: s.presenter, verdict: s.verdict,
});

interface Box { left: number; top: number; width: number; height: number; id?: string; el?: HTMLElement }
const sameBox = (a: Box | null, b: Box | null) => (a === null || b === null ? a === b : a.left === b.left && a.top === b.top && a.width === b.width && a.height === b.height && a.id === b.id && a.el === b.el);
const overlap = (a: Box, b: Box) => Math.max(0, Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top));
const reducedMotion = () => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Where the stop's element is on the screen (null while it is not on the page), measured on
 * scroll, resize and ten times a second (the page reflows as a run streams); scrolled into view
 * when the stop opens and when the element first appears.
 */
function useTarget(testId: string, fallback: string | undefined, stopKey: string): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  const scrolled = useRef('');
  useEffect(() => {
    const measure = () => {
      const el = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`) ?? (fallback ? document.querySelector<HTMLElement>(`[data-testid="${fallback}"]`) : null);
      const key = `${stopKey}:${el?.dataset.testid ?? ''}`; // scrolled into view again when the target itself appears
      const r = el?.getBoundingClientRect();
      const next = el && r && r.width > 0 && r.height > 0 ? { left: Math.round(r.left), top: Math.round(r.top), width: Math.round(r.width), height: Math.round(r.height), id: el.dataset.testid, el } : null;
      setBox((prev) => (sameBox(prev, next) ? prev : next));
      if (el && r && scrolled.current !== key) {
        scrolled.current = key;
        el.scrollIntoView({ block: r.height < innerHeight * 0.6 ? 'center' : 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
      }
    };
    measure();
    const timer = setInterval(measure, 100);
    addEventListener('scroll', measure, true);
    addEventListener('resize', measure);
    return () => { clearInterval(timer); removeEventListener('scroll', measure, true); removeEventListener('resize', measure); };
  }, [testId, fallback, stopKey]);
  return box;
}

/** The tour's keys, on the window before the page's and the presenter's own: → ← (PageDown/PageUp) and Esc (T in the presenter view: Presenter.tsx). */
function useTourKeys(tour: Tour) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (tour.stop === null || e.ctrlKey || e.metaKey || e.altKey) return;
      if (useLab.getState().presenter?.classResults) return; // the presenter's class results over the docked card: every key is theirs (Presenter.tsx)
      const t = e.target as HTMLElement | null;
      if (t?.closest('input, select, textarea, [contenteditable="true"], [role="application"]')) return; // a slider's arrows stay the slider's
      const act = e.key === 'ArrowRight' || e.key === 'PageDown' ? () => tour.next()
        : e.key === 'ArrowLeft' || e.key === 'PageUp' ? () => tour.back()
        : e.key === 'Escape' ? () => tour.close()
        : null;
      if (!act) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      void act();
    };
    addEventListener('keydown', onKey, true);
    return () => removeEventListener('keydown', onKey, true);
  }, [tour]);
}

/** The card (and the spotlight on the stop's element). `docked`: inside the presenter view. */
export function ClassTour({ docked = false }: { docked?: boolean }) {
  const tour = useSession().tour;
  const stopIndex = useTourStop();
  useTourKeys(tour);
  const open = stopIndex !== null;
  // the keyboard goes back to the button that opens the tour when it closes
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!open && wasOpen.current && !docked) document.querySelector<HTMLElement>('[data-testid="tour-open"]')?.focus({ preventScroll: true });
    wasOpen.current = open;
  }, [open, docked]);
  // closed, the tour reads nothing: no store subscription re-renders it at each step, no timer measures the page
  return open ? <OpenTour docked={docked} stopIndex={stopIndex} /> : null;
}

/** The open tour at its stop: the card, the spotlight and the chart readout. */
function OpenTour({ docked, stopIndex }: { docked: boolean; stopIndex: number }) {
  const lab = useSession();
  const tour = lab.tour;
  const presenter = usePresenter();
  const busy = useStore(tour.state, (t) => t.busy);
  const presenting = useLab((s) => s.presenter !== null);
  const lessonId = useLab((s) => s.lessonId);
  const input = useLab(useShallow(pick));
  // the page follows the tour: the presenter's item and the step-through's phase (nothing is computed)
  useEffect(() => { void tour.arrange(); }, [tour, presenting, lessonId]);
  const stop = TOUR[stopIndex];
  const box = useTarget(stop.target, stop.fallback, `${stopIndex}:${presenting}:${busy === null}`);
  // on the page, a chart stop's points read off the chart at the foot of its card, in the page's flow: it moves what is below, covers nothing (the presenter view has its own readout under the chart)
  const readout = !docked && stop.view.kind === 'chart' ? chartReadout(stop.view.chart, input) : null;
  const held = box; // what the card must leave in view (the readout is inside it)
  const card = useRef<HTMLElement>(null);
  const [corner, setCorner] = useState(0);
  useLayoutEffect(() => {
    if (docked || !card.current) return;
    // the first corner where the card leaves the element in view (else the least covered one)
    const c = card.current.getBoundingClientRect();
    const m = 16;
    const spots = [
      { left: innerWidth - c.width - m, top: innerHeight - c.height - m }, { left: m, top: innerHeight - c.height - m },
      { left: innerWidth - c.width - m, top: m }, { left: m, top: m },
    ].map((p) => ({ ...p, width: c.width, height: c.height }));
    const cover = spots.map((s) => (held ? overlap(s, held) : 0));
    const best = cover.indexOf(Math.min(...cover));
    setCorner(cover[0] === 0 ? 0 : best);
  }, [held?.left, held?.top, held?.width, held?.height, docked, stopIndex]);
  // the keyboard goes to the card when the tour opens
  useEffect(() => { card.current?.focus({ preventScroll: true }); }, []);
  const say = stop.say(input);
  const last = stopIndex === TOUR.length - 1;
  const running = input.status === 'running';
  const a = say.action;
  const pauseInstead = a?.kind === 'play-until' && running; // while it plays, the button pauses (else it pauses by itself at the step)
  const actionLabel = busy ?? (pauseInstead ? `❚❚ Pause (or it pauses by itself after step ${a.step})` : a?.label);
  const place: CSSProperties | undefined = docked ? undefined : { [corner % 2 ? 'left' : 'right']: 16, [corner < 2 ? 'bottom' : 'top']: 16 };
  return (
    <>
      {box && (
        <div className="tour-spotlight" data-testid="tour-spotlight" data-target={box.id ?? stop.target} aria-hidden="true"
          style={{ left: box.left - 6, top: box.top - 6, width: box.width + 12, height: box.height + 12 }} />
      )}
      {box?.el && readout && readout.length > 0 && createPortal(
        <p className="tour-readout" data-testid="tour-readout">Read off the chart: {readout.map(readoutText).join('; ')}.</p>,
        box.el,
      )}
      <section ref={card} className={`tour-card${docked ? ' docked' : ''}`} style={place} role="dialog" aria-modal="false" aria-labelledby="tour-title" tabIndex={-1}
        data-testid="tour-card" data-stop={stop.id} data-live={say.live}>
        <header>
          <span className="tour-count" data-testid="tour-count">Class tour · stop {stopIndex + 1} of {TOUR.length}</span>
          <h2 id="tour-title" data-testid="tour-title" aria-live="polite">{stop.title}</h2>
          <button className="small tour-close" aria-label="Leave the class tour (Esc)" title="Leave the class tour (Esc)" onClick={() => tour.close()}>✕</button>
        </header>
        <p className="tour-text" data-testid="tour-text">{say.text}</p>
        <TourPredict stopId={stop.id} />
        {a && (
          <p className="tour-act">
            <button className="primary" data-testid="tour-action" disabled={busy !== null} onClick={() => (pauseInstead ? lab.pause() : void tour.act(a))}>{actionLabel}</button>
          </p>
        )}
        {!box && say.live && presenting && <p className="note">The presenter view shows this lesson's charts only: Esc twice to see it on the page.</p>}
        <footer className="tour-nav">
          <button data-testid="tour-back" onClick={() => void tour.back()} disabled={stopIndex === 0} aria-keyshortcuts="ArrowLeft">← Back</button>
          <button data-testid="tour-next" onClick={() => void (last ? tour.close() : tour.next())} aria-keyshortcuts="ArrowRight">{last ? 'Finish' : 'Next →'}</button>
          {!presenting && <button className="small" data-testid="tour-present" onClick={() => presenter.open()} title="Show the tour in the presenter view: one chart or phase at a time, in large type">Presenter view</button>}
          <span className="note tour-keys">→ next · ← back · Esc leave</span>
        </footer>
      </section>
    </>
  );
}

/** Store reads for the charts that keep their references while the data is unchanged (memoised charts then skip). */
import { cloneElement, createContext, createElement, useContext, useDeferredValue, useEffect, useMemo, useRef, useState, type ComponentProps, type ReactElement, type RefObject } from 'react';
import { Tooltip } from 'recharts';
import { useLab, type LabState, type SavedRun } from '../store/labStore.ts';
import { shownOverlays } from '../store/overlays.ts';
import { C } from './palette.ts';

/** Plain data equal in JSON (NaN as null: the charts draw both as gaps). */
const sameJson = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The previous value while the new one is equal to it: a stable reference for memoised children. */
export function useStable<T>(value: T): T {
  const ref = useRef(value);
  if (ref.current !== value && !sameJson(ref.current, value)) ref.current = value;
  return ref.current;
}

/**
 * `derive` of the store's `pick(s)`, re-rendering only when the derived data changes (not its
 * reference). Derived again only when pick(s) is a new object: a store update that leaves it as it
 * was (most do) costs one comparison, not a derivation and a JSON comparison per card.
 */
export function useLabDerived<I, T>(pick: (s: LabState) => I, derive: (input: I) => T): T {
  const prev = useRef<{ input: I; v: T } | null>(null);
  return useLab((s) => {
    const input = pick(s);
    const p = prev.current;
    if (p && p.input === input) return p.v;
    const v = derive(input);
    prev.current = { input, v: p && sameJson(p.v, v) ? p.v : v };
    return prev.current.v;
  });
}

/** One finished run drawn on the charts: the run, the name its lines carry ("1 · G = 2") and its look. */
export interface Overlay {
  run: SavedRun;
  name: string;
  color: string;
  dash: string;
}
/** Overlays' looks in order: grey (other runs), told apart by their dashes; the live run keeps its colours. */
const OVERLAY_LOOKS = [{ color: C.grey, dash: '6 4' }, { color: C.grey, dash: '2 3' }, { color: C.grey, dash: '10 3 2 3' }] as const;

/** The finished runs overlaid now (overlays.ts: pinned ones, and the chosen one while comparable to the live run). */
export function useOverlays(): readonly Overlay[] {
  const runs = useLab((s) => s.runs);
  const chosen = useLab((s) => s.overlayRunId);
  const live = useLab((s) => s.liveOrigin);
  return useMemo(() => shownOverlays(runs, chosen, live).map((o, i) => ({ ...o, ...OVERLAY_LOOKS[i % OVERLAY_LOOKS.length] })), [runs, chosen, live]);
}

/**
 * How far outside the viewport a card still counts as on screen: none. A card below the fold is
 * not drawn while a run streams (at 1280×800 two of the four cards in the first two rows show, so
 * a redraw draws half of what it did with a 150 px margin); it catches up in the frame after it
 * scrolls in.
 */
const ON_SCREEN_MARGIN = '0px';

/** Whether the element is on screen (or near it); true until the first observation and where IntersectionObserver is missing. */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [on, setOn] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver !== 'function') return;
    const io = new IntersectionObserver((entries) => setOn(entries[entries.length - 1].isIntersecting), { rootMargin: ON_SCREEN_MARGIN });
    io.observe(el);
    const printing = () => setOn(true); // a printed page shows every card as it is now
    window.addEventListener('beforeprint', printing);
    return () => {
      io.disconnect();
      window.removeEventListener('beforeprint', printing);
    };
  }, [ref]);
  return on;
}

/** A chart card's view: the ref its section carries and whether a student sees it now (`live`). */
export interface CardView {
  ref: RefObject<HTMLElement | null>;
  /** On screen, or no run streaming: the card draws the store as it is. Otherwise it keeps what it last drew. */
  live: boolean;
}

/**
 * Whether a chart card is drawn now: while a run streams, a card off screen is not (at 1280×800
 * eight of the ten cards are below the fold); it catches up when it scrolls into view or the run
 * stops. The chart reads the store through useSeenLab with it, so a card out of sight is not even
 * rendered: its data (thinned lines, points, tooltips) is not recomputed at each store update.
 */
export function useCardView(): CardView {
  const ref = useRef<HTMLElement>(null);
  const onScreen = useOnScreen(ref);
  const streaming = useLab((s) => s.status === 'running');
  const live = onScreen || !streaming;
  return useMemo(() => ({ ref, live }), [live]);
}

/**
 * The store read through `select` (a plain field: s.steps, s.evals, s.lastRollout), held while the
 * card is out of sight (`view.live` false): the value it had when last drawn, so a store update does
 * not re-render the card at all. The first read is always the store's.
 *
 * Deferred (useDeferredValue): a store update renders the page at once with the chart's previous
 * data (the chart is memoised on it: nothing to do), then draws the chart with the new data in a
 * background render that yields to the page every few milliseconds — a click or a key is never
 * queued behind the charts (the store is external: its own updates always render synchronously).
 */
export function useSeenLab<T>(view: CardView, select: (s: LabState) => T): T {
  const last = useRef<{ v: T } | null>(null);
  const v = useLab((s) => (view.live || !last.current ? select(s) : last.current.v));
  last.current = { v };
  return useDeferredValue(v);
}

/** Whether the pointer (or the keyboard's focus) is on this chart card's body. */
export const PointingAt = createContext(false);

/** The size of this chart card's body in whole pixels (0 × 0 until it is laid out). */
export const BodySize = createContext({ width: 0, height: 0 });

/**
 * The size of an element's content box, kept by a ResizeObserver: 0 × 0 until its first layout.
 * A card measures its body this way when it mounts, long before its chart's first data.
 */
export function useBoxSize(ref: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const seen = new ResizeObserver(([e]) => {
      const width = Math.floor(e.contentRect.width), height = Math.floor(e.contentRect.height);
      setSize((was) => (was.width === width && was.height === height ? was : { width, height }));
    });
    seen.observe(el);
    return () => seen.disconnect();
  }, [ref]);
  return size;
}

/**
 * recharts' ResponsiveContainer, for a chart in a card: the chart (the one child) is given the
 * card body's size, measured when the card was laid out (BodySize). ResponsiveContainer measures
 * only once the chart's turn has come (a forced layout in an effect, then a render at the size),
 * so the chart mounted after its turn had been passed on, and the mounts of several charts met in
 * one task of 150–250 ms on a 2-core machine; at a known size a chart mounts within its own turn.
 */
export function Sized({ children }: { children: ReactElement<{ width?: number; height?: number }> }) {
  const { width, height } = useContext(BodySize);
  return width > 0 && height > 0 ? cloneElement(children, { width, height }) : null;
}

/**
 * recharts' Tooltip, mounted only while the pointer or focus is on the chart: a mounted tooltip
 * recomputes its selectors at every redraw even when hidden, about a fifth of a redraw here.
 * It counts hidden items: the live lines are hidden recharts items that LiveLines draws (liveLines.tsx).
 */
export function ChartTooltip(props: ComponentProps<typeof Tooltip>) {
  return useContext(PointingAt) ? createElement(Tooltip, { includeHidden: true, ...props }) : null;
}

const UNITS: [number, string][] = [[1e9, 'B'], [1e6, 'M'], [1e3, 'k']];
const MINUS = (s: string) => s.replace(/-/g, '−');

/**
 * Every chart's tick label: a short number, at most 3 significant digits — thousands as k,
 * millions as M, billions as B, tiny values as 1.25e−4 — so a long decimal (0.30000000000000004,
 * a game score's −4.522222) never runs out of the axis and shows only its last digits.
 */
export function axisTick(v: unknown): string {
  const x = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(x)) return '';
  if (x === 0) return '0';
  const r = Number(x.toPrecision(3)); // rounded first: 999 600 is 1M, not 1000k
  const a = Math.abs(r);
  if (a < 1e-3 || a >= 1e12) {
    const [m, e] = r.toExponential(2).split('e');
    return MINUS(`${Number(m)}e${Number(e)}`);
  }
  for (const [d, u] of UNITS) if (a >= d) return MINUS(`${Number((r / d).toPrecision(3))}${u}`);
  return MINUS(String(r));
}

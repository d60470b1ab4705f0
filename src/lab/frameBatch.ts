/**
 * Store writes from the run loop, batched to animation frames: a step writes the store several
 * times (step started, its metrics and rollout, an evaluation, step ended), and each write would
 * be a React commit. Here they are merged, in order, into ONE store update per frame, however
 * many arrive; the page then renders at most once a frame.
 *
 * While a run streams faster than the page can redraw, the batch is also paced (pacedFrames):
 * after a store update that kept the main thread busy c ms (React, the charts, style, layout,
 * paint), the next waits at least c / PAGE_SHARE ms, so redrawing never takes more than about
 * PAGE_SHARE of the main thread however fast the steps come; the writes meanwhile merge into one.
 * A cheap update (the step counter) waits a frame; a full chart redraw of 200 ms waits 4 s.
 *
 * A value that only the latest write needs (the rollout's view, the stop signals) can be written
 * lazy(): it is made when it lands or is read, so the writes a later one overwrites in the same
 * frame are never made at all (at 20 steps a second, three of four rollout views).
 *
 * The writer still reads its own writes at once: view() is the store with the pending writes
 * applied. A write that must land now (flush()) lands after the pending ones, so the order of
 * writes is always the order they were made in.
 */

/** The two store functions the batch needs (a zustand store). */
export interface BatchedStore<S> {
  getState(): S;
  setState(patch: Partial<S>): void;
}

export type Patch<S> = Partial<S> | ((s: S) => Partial<S>);

/** Calls `flush` soon: on the next animation frame where there is one (and a timer besides, for hidden tabs and Node). */
export type FrameScheduler = (flush: () => void) => void;

/** A hidden tab gets no animation frames: the timer lands the writes anyway (about 4 times a second). */
const HIDDEN_TAB_MS = 250;

export const nextFrame: FrameScheduler = (flush) => {
  const state = { done: false };
  const once = () => {
    if (state.done) return;
    state.done = true;
    flush();
  };
  const raf = typeof requestAnimationFrame === 'function';
  if (raf) requestAnimationFrame(once);
  setTimeout(once, raf ? HIDDEN_TAB_MS : 0);
};

/**
 * Share of the main thread the page's store updates may take while a run streams. The page's
 * budget is 4 ms a step at 20 steps a second (8 %): the per-step work outside redraws (the
 * recorder, about 1 ms a step on a slow 2-core machine) and this share fit in it (npm run page-bench).
 */
export const PAGE_SHARE = 0.04;

/** The longest the page waits between updates (a slow machine's charts still move every few seconds). */
export const MAX_WAIT_MS = 4000;

/** Milliseconds to wait after an update that kept the main thread busy `costMs`, to stay within `share`. */
export function pacingDelay(costMs: number, share = PAGE_SHARE): number {
  return Math.min(MAX_WAIT_MS, Math.max(0, costMs / share - costMs));
}

/**
 * The next frame, at least pacingDelay(cost of the previous flush) after it ended. The cost is
 * the main thread's busy time the flush caused, in two parts: from the flush until the main
 * thread is next idle (requestIdleCallback; a timer where there is none) — React's render, the
 * frame's style, layout and paint, React's passive effects and the charts' own follow-up updates
 * (recharts dispatches to its store in effects) — and then the next frame, from its start until
 * idle again: the style, layout and paint of those follow-up updates, which land after the first
 * idle moment. The idle gap between the two parts is not counted. Other work in between (the CPU
 * engine's) would count too, so the cost taken is the least of the last three.
 */
export function pacedFrames(share = PAGE_SHARE): FrameScheduler {
  const clock = () => performance.now();
  const st = { notBefore: 0, costs: [] as number[], waiting: null as (() => void) | null };
  const measured = (cost: number) => {
    st.costs = [...st.costs, cost].slice(-3);
    st.notBefore = clock() + pacingDelay(Math.min(...st.costs), share);
    st.waiting?.();
  };
  return (flush) => {
    const run = () => {
      const t0 = clock();
      flush();
      st.notBefore = Infinity; // until measured
      whenIdle(() => {
        const first = clock() - t0;
        if (typeof requestAnimationFrame !== 'function') return measured(first);
        // the follow-up frame; a hidden tab has none, so a timer ends the wait
        const done = { v: false };
        const timer = setTimeout(() => { if (!done.v) { done.v = true; measured(first); } }, HIDDEN_TAB_MS);
        requestAnimationFrame(() => {
          const tf = clock();
          whenIdle(() => {
            if (done.v) return;
            done.v = true;
            clearTimeout(timer);
            measured(first + clock() - tf);
          });
        });
      });
    };
    const go = () => {
      st.waiting = null;
      const wait = st.notBefore - clock();
      if (wait > 0) setTimeout(() => nextFrame(run), wait);
      else nextFrame(run);
    };
    if (st.notBefore === Infinity) st.waiting = go; // decide once the last flush is measured
    else go();
  };
}

const whenIdle = (f: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(f, { timeout: MAX_WAIT_MS });
  else setTimeout(f, 0);
};

const LAZY = Symbol('lazy');
interface Lazy<T> { [LAZY]: () => T; made?: { value: T } }
const isLazy = (v: unknown): v is Lazy<unknown> => typeof v === 'object' && v !== null && LAZY in v;

/** A value for a FrameBatch write, made only when the write lands or is read (typed as the value, so patches type-check). */
export function lazy<T>(make: () => T): T {
  return { [LAZY]: make } as Lazy<T> as unknown as T;
}

function made<T>(v: T): T {
  if (!isLazy(v)) return v;
  v.made ??= { value: v[LAZY]() };
  return v.made.value as T;
}

/** The patch with its lazy values made. */
function resolved<S>(p: Partial<S>): Partial<S> {
  const out: Partial<S> = {};
  for (const k of Object.keys(p) as (keyof S)[]) out[k] = made(p[k]);
  return out;
}

export class FrameBatch<S extends object> {
  private pending: Partial<S> | null = null;
  private scheduled = false;
  /** Store updates made so far (tests count them). */
  commits = 0;

  constructor(private readonly store: BatchedStore<S>, private readonly schedule: FrameScheduler = typeof performance === 'undefined' ? nextFrame : pacedFrames()) {}

  /** The store as it will be once the pending writes land (a lazy value is made when its key is read). */
  view(): S {
    const p = this.pending;
    if (!p) return this.store.getState();
    const v = { ...this.store.getState() };
    for (const k of Object.keys(p) as (keyof S)[]) {
      const x = p[k];
      if (isLazy(x)) Object.defineProperty(v, k, { enumerable: true, configurable: true, get: () => made(x) });
      else v[k] = x as S[keyof S];
    }
    return v;
  }

  /** Write soon (next frame). A function patch sees every earlier write, landed or pending. */
  set(patch: Patch<S>): void {
    const d = typeof patch === 'function' ? patch(this.view()) : patch;
    this.pending = { ...this.pending, ...d };
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /**
   * Write these keys now, ahead of the pending writes (a notice that must show before a long
   * task): the pending writes to the same keys are dropped, being older. Other keys wait.
   */
  setNow(patch: Partial<S>): void {
    if (this.pending) {
      const rest = { ...this.pending };
      for (const k of Object.keys(patch)) delete rest[k as keyof S];
      this.pending = Object.keys(rest).length ? rest : null;
    }
    this.store.setState(resolved(patch));
  }

  /** Land the pending writes now, as one store update. */
  flush(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.commits++;
    this.store.setState(resolved(p));
  }

  /** Writes waiting for the next frame. */
  get waiting(): boolean {
    return this.pending !== null;
  }
}

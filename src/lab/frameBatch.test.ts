import { describe, expect, it, vi } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { FrameBatch, lazy, pacedFrames, pacingDelay } from './frameBatch.ts';

interface S { log: number[]; a: number; b: string }

/** A store, a frame batch on it with frames we run by hand, and the store updates seen. */
function setup() {
  const store = createStore<S>()(() => ({ log: [], a: 0, b: '' }));
  const frames: (() => void)[] = [];
  const batch = new FrameBatch<S>(store, (f) => frames.push(f));
  const commits: S[] = [];
  store.subscribe((s) => commits.push(s));
  const frame = () => frames.splice(0).forEach((f) => f());
  return { store, batch, commits, frame, frames };
}

describe('FrameBatch', () => {
  it('makes a lazy value only if it is still the latest when read or landed, and once', () => {
    const { store, batch, frame } = setup();
    const made: number[] = [];
    const val = (i: number) => lazy(() => { made.push(i); return `v${i}`; });
    for (let i = 1; i <= 4; i++) batch.set((s) => ({ a: s.a + 1, b: val(i) }));
    expect(made).toEqual([]); // the three overwritten ones are never made
    expect(batch.view().a).toBe(4); // reading another key makes nothing
    expect(made).toEqual([]);
    expect(batch.view().b).toBe('v4'); // read: made now
    expect(batch.view().b).toBe('v4');
    frame();
    expect(store.getState()).toEqual({ log: [], a: 4, b: 'v4' });
    expect(made).toEqual([4]); // once, though read twice and landed
    batch.setNow({ b: val(5) });
    expect(store.getState().b).toBe('v5'); // a direct write lands the value, not the promise of it
  });

  it('merges every write made before a frame into one store update', () => {
    const { store, batch, commits, frame, frames } = setup();
    for (let i = 1; i <= 5; i++) batch.set((s) => ({ log: [...s.log, i], a: s.a + 1 }));
    batch.set({ b: 'done' });
    expect(commits).toHaveLength(0); // nothing lands before the frame
    expect(frames).toHaveLength(1); // one frame asked for, however many writes
    frame();
    expect(commits).toHaveLength(1);
    expect(store.getState()).toEqual({ log: [1, 2, 3, 4, 5], a: 5, b: 'done' });
    expect(batch.commits).toBe(1);
  });

  it('keeps the order of writes: later writes win, function writes see earlier ones', () => {
    const { store, batch, frame } = setup();
    batch.set({ a: 1, b: 'first' });
    batch.set((s) => ({ a: s.a * 10 }));
    batch.set({ b: 'second' });
    batch.set((s) => ({ log: [s.a], b: `${s.b}!` }));
    frame();
    expect(store.getState()).toEqual({ log: [10], a: 10, b: 'second!' });
  });

  it('lets the writer read its own writes before they land (view)', () => {
    const { store, batch } = setup();
    batch.set({ a: 7 });
    expect(batch.view().a).toBe(7);
    expect(store.getState().a).toBe(0);
    expect(batch.waiting).toBe(true);
  });

  it('flush lands the waiting writes now, before a direct write, in one update', () => {
    const { store, batch, commits, frame } = setup();
    batch.set((s) => ({ log: [...s.log, 1] }));
    batch.set((s) => ({ log: [...s.log, 2] }));
    batch.flush();
    store.setState((s) => ({ log: [...s.log, 3] })); // a direct write after them
    expect(commits).toHaveLength(2);
    frame(); // the frame finds nothing left
    expect(commits).toHaveLength(2);
    expect(store.getState().log).toEqual([1, 2, 3]);
  });

  it('setNow writes its keys at once, ahead of the waiting writes, which land later without undoing it', () => {
    const { store, batch, commits, frame } = setup();
    batch.set({ a: 1, b: 'old' });
    batch.setNow({ b: 'now' });
    expect(store.getState()).toEqual({ log: [], a: 0, b: 'now' });
    frame();
    expect(store.getState()).toEqual({ log: [], a: 1, b: 'now' });
    expect(commits).toHaveLength(2);
  });

  it('a frame per batch: writes after a frame wait for the next one', () => {
    const { store, batch, commits, frame } = setup();
    batch.set({ a: 1 });
    frame();
    batch.set({ a: 2 });
    batch.set({ a: 3 });
    expect(store.getState().a).toBe(1);
    frame();
    expect(commits.map((s) => s.a)).toEqual([1, 3]);
  });
});

describe('pacingDelay', () => {
  it('keeps the page within its share of the main thread: cost / (cost + wait) = share', () => {
    for (const cost of [1, 16, 150]) {
      const wait = pacingDelay(cost, 0.05);
      expect(cost / (cost + wait)).toBeCloseTo(0.05, 10);
    }
    expect(pacingDelay(0)).toBe(0);
    expect(pacingDelay(150, 0.05)).toBe(2850);
    expect(pacingDelay(1000, 0.05)).toBe(4000); // at most MAX_WAIT_MS: a slow machine's charts still move
  });
});

/**
 * A simulated browser main thread for pacedFrames: a clock, timers, animation frames every 16 ms
 * (each runs its callbacks, then renders — style, layout, paint — for the time queued), and idle
 * callbacks whenever nothing is due. A store commit costs `work` ms of script, queues `paint` ms of
 * rendering for its own frame and `followUp` ms for the next one (recharts' updates from effects).
 */
function mainThread({ work, paint, followUp, hidden = false }: { work: number; paint: number; followUp: number; hidden?: boolean }) {
  const VSYNC = 16;
  const t = { now: 0, seq: 0, renderNow: 0, renderNext: 0 };
  const timers = new Map<number, { at: number; f: () => void }>();
  let rafs: (() => void)[] = [];
  const idles: (() => void)[] = [];
  const g = globalThis as Record<string, unknown>;
  const saved = { setTimeout: g.setTimeout, clearTimeout: g.clearTimeout, raf: g.requestAnimationFrame, ric: g.requestIdleCallback };
  g.setTimeout = (f: () => void, ms = 0) => { timers.set(++t.seq, { at: t.now + ms, f }); return t.seq; };
  g.clearTimeout = (id: number) => timers.delete(id);
  g.requestAnimationFrame = (f: () => void) => { if (!hidden) rafs.push(f); return 0; };
  g.requestIdleCallback = (f: () => void) => { idles.push(f); return 0; };
  const spy = vi.spyOn(performance, 'now').mockImplementation(() => t.now);
  const commits: number[] = [];
  const store = {
    state: { a: 0 },
    getState() { return this.state; },
    setState(p: Partial<{ a: number }>) {
      this.state = { ...this.state, ...p };
      commits.push(t.now);
      t.now += work;
      t.renderNow += paint;
      t.renderNext += followUp;
    },
  };
  function runUntil(end: number) {
    for (;;) {
      const due = [...timers.entries()].filter(([, x]) => x.at <= t.now).sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
      if (due.length) { timers.delete(due[0][0]); due[0][1].f(); continue; }
      if (idles.length) { idles.shift()!(); continue; }
      const nextTimer = Math.min(Infinity, ...[...timers.values()].map((x) => x.at));
      const frameWanted = !hidden && (rafs.length > 0 || t.renderNow > 0 || t.renderNext > 0);
      const nextVsync = frameWanted ? (Math.floor(t.now / VSYNC) + 1) * VSYNC : Infinity;
      const next = Math.min(nextTimer, nextVsync);
      if (next > end) { t.now = end; return; }
      t.now = next;
      if (nextVsync <= nextTimer) {
        const fs = rafs;
        rafs = [];
        fs.forEach((f) => f());
        t.now += t.renderNow;
        t.renderNow = t.renderNext;
        t.renderNext = 0;
      }
    }
  }
  const at = (when: number, f: () => void) => timers.set(++t.seq, { at: when, f });
  const restore = () => {
    Object.assign(g, { setTimeout: saved.setTimeout, clearTimeout: saved.clearTimeout, requestAnimationFrame: saved.raf, requestIdleCallback: saved.ric });
    spy.mockRestore();
  };
  return { store, commits, runUntil, at, restore };
}

describe('pacedFrames', () => {
  it("counts a redraw's own frame and the next frame's follow-up rendering, not the idle gap between", () => {
    const m = mainThread({ work: 10, paint: 6, followUp: 4 });
    try {
      const batch = new FrameBatch(m.store, pacedFrames(0.04));
      batch.set({ a: 1 }); // lands at the first frame (16): 10 ms script + 6 ms paint, then idle at 32
      m.at(100, () => batch.set({ a: 2 })); // the next write waits for the pacing
      m.runUntil(2000);
      expect(m.commits[0]).toBe(16);
      // the next frame starts at 48 and renders the follow-up (4 ms): cost 10 + 6 + 4 = 20 ms, measured at 52;
      // 20 ms at a 4 % share waits 20 / 0.04 − 20 = 480 ms: not before 532, on the first frame after it
      // (counting only the first frame, 16 ms, would land at 416; counting the idle gap, 36 ms, at 916)
      expect(m.commits).toHaveLength(2);
      expect(m.commits[1]).toBeGreaterThanOrEqual(532);
      expect(m.commits[1]).toBeLessThan(532 + 16);
      expect(m.store.getState().a).toBe(2);
    } finally {
      m.restore();
    }
  });

  it('a hidden tab (no animation frames) still lands every write, paced by its script time', () => {
    const m = mainThread({ work: 10, paint: 6, followUp: 4, hidden: true });
    try {
      const batch = new FrameBatch(m.store, pacedFrames(0.04));
      batch.set({ a: 1 });
      m.at(300, () => batch.set({ a: 2 }));
      m.runUntil(5000);
      expect(m.commits).toHaveLength(2);
      expect(m.commits[0]).toBe(250); // the timer, as no frame comes
      expect(m.commits[1]).toBeGreaterThanOrEqual(250 + 10 + 240); // 10 ms at 4 %: at least 240 ms after
      expect(m.store.getState().a).toBe(2);
    } finally {
      m.restore();
    }
  });
});

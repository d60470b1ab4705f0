import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { FrameBatch, lazy, pacingDelay } from './frameBatch.ts';

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

// The idle-time tune on a fake clock and a fake engine: a slice starts only after the lab has been
// idle for the delay, one at a time, the next after a yield, never while the lab is busy (a busy
// moment restarts the delay), and none once a slice says nothing is left, after stop, or after a failure.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleTuner } from './idleTune.ts';

const T = { delayMs: 3000, gapMs: 250, pollMs: 250 };

/** A lab whose idleness the test sets, and an engine whose slices the test ends (each says whether more is left). */
function lab(slicesLeft: number) {
  const state = { idle: true, left: slicesLeft, started: 0, open: 0, maxOpen: 0, startedAt: [] as number[], busyAtStart: 0 };
  const pending: (() => void)[] = [];
  const host = {
    idle: () => state.idle,
    slice: () => {
      state.started++;
      state.startedAt.push(Date.now());
      if (!state.idle) state.busyAtStart++;
      state.open++;
      state.maxOpen = Math.max(state.maxOpen, state.open);
      return new Promise<boolean>((resolve) => pending.push(() => { state.open--; state.left--; resolve(state.left > 0); }));
    },
  };
  /** End the slice under way. */
  const finish = async () => { pending.shift()!(); await vi.advanceTimersByTimeAsync(0); };
  return { state, host, finish, pending };
}

describe('IdleTuner', () => {
  beforeEach(() => { vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }); vi.setSystemTime(0); });
  afterEach(() => vi.useRealTimers());

  it('waits for the delay of idle time, runs one slice at a time, yields between, stops when nothing is left', async () => {
    const l = lab(3);
    const t = new IdleTuner(l.host, T);
    t.wake();
    await vi.advanceTimersByTimeAsync(3000);
    expect(l.state.started).toBe(0); // not idle long enough yet (idle from its first look, a poll after wake)
    await vi.advanceTimersByTimeAsync(300);
    expect(l.state.started).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000); // a long slice: no second one beside it
    expect(l.state.started).toBe(1);
    await l.finish();
    await vi.advanceTimersByTimeAsync(200);
    expect(l.state.started).toBe(1); // the yield
    await vi.advanceTimersByTimeAsync(100);
    expect(l.state.started).toBe(2);
    await l.finish();
    await vi.advanceTimersByTimeAsync(300);
    await l.finish(); // the third says nothing is left
    await vi.advanceTimersByTimeAsync(60_000);
    expect(l.state).toMatchObject({ started: 3, maxOpen: 1, busyAtStart: 0 });
    expect(vi.getTimerCount()).toBe(0); // not watching any more
  });

  it('never starts a slice while the lab is busy; a busy moment restarts the delay', async () => {
    const l = lab(5);
    const t = new IdleTuner(l.host, T);
    t.wake();
    await vi.advanceTimersByTimeAsync(2000);
    l.state.idle = false; // a step
    await vi.advanceTimersByTimeAsync(20_000);
    expect(l.state.started).toBe(0);
    l.state.idle = true;
    await vi.advanceTimersByTimeAsync(2900);
    expect(l.state.started).toBe(0);
    await vi.advanceTimersByTimeAsync(400);
    expect(l.state.started).toBe(1);
    l.state.idle = false; // Play pressed during the slice: the step waits for it (quiet), the next slice for idle time
    let stepped = false;
    const step = t.quiet().then(() => { stepped = true; });
    await vi.advanceTimersByTimeAsync(0);
    expect(stepped).toBe(false);
    await l.finish();
    await step;
    expect(stepped).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(l.state.started).toBe(1);
    l.state.idle = true;
    await vi.advanceTimersByTimeAsync(2900);
    expect(l.state.started).toBe(1); // the full delay again, not the short yield
    await vi.advanceTimersByTimeAsync(400);
    expect(l.state).toMatchObject({ started: 2, busyAtStart: 0 });
  });

  it('stop: no slice after it (one under way ends); a failed slice stops the tuner', async () => {
    const l = lab(5);
    const t = new IdleTuner(l.host, T);
    t.wake();
    await vi.advanceTimersByTimeAsync(3300);
    expect(l.state.started).toBe(1);
    t.stop();
    await l.finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(l.state.started).toBe(1);
    const failing = new IdleTuner({ idle: () => true, slice: async () => { throw new Error('device lost'); } }, T);
    failing.wake();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(failing.slices).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

// "▶ Play to step N" (the class tour's button) stops at N, always. The lab session runs here in
// Node on the CPU reference, with its store writes landing 300 ms after they are made — as on a
// page whose charts take 12 ms to redraw (frameBatch.ts paces the next update to 12 / 4 % = 300 ms):
// a stop decided from the store hears of step N only after step N + 1 has begun (the bug: 31 steps
// for "Play to step 30"). The loop itself must stop, from the trainer's own count.
import { describe, expect, it } from 'vitest';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

const nowhere: SavedRunSlot = {
  save: async () => ({ ok: true as const, value: undefined }),
  load: async () => ({ ok: true as const, value: null }),
  clear: async () => ({ ok: true as const, value: undefined }),
};

const until = async (f: () => boolean, what: string, ms = 100_000) => {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('Play to step N', () => {
  it('stops at N with the store a paced wait behind the loop, twice in a row', async () => {
    const session = new LabSession(useLab, { savedRuns: nowhere, frames: (flush) => { setTimeout(flush, 300); } });
    await session.init('?backend=cpu&task=reverse&difficulty=1&numGenerations=2&promptsPerStep=2&evalEvery=100&seed=3');
    expect(useLab.getState().status).toBe('ready');
    for (const target of [3, 5]) {
      await session.tour.act({ kind: 'play-until', step: target, label: `▶ Play to step ${target}` });
      await until(() => session.trainer!.step >= target && useLab.getState().status === 'paused' && !session.frames.waiting, `the run to stop after step ${target}`);
      await new Promise((r) => setTimeout(r, 400)); // a step begun late would show by now
      expect(session.trainer!.step).toBe(target);
      expect(useLab.getState().stepsCompleted).toBe(target);
      expect(useLab.getState().steps.length).toBe(target);
      expect(useLab.getState().status).toBe('paused');
    }
    // a plain Play afterwards plays on past the old target
    await session.play();
    await until(() => session.trainer!.step >= 6, 'a step past the target');
    session.pause();
    await until(() => useLab.getState().status === 'paused', 'the pause');
  });
});

// A Play pressed while a lesson switch is under way is for the new lesson's run: it starts once the
// switch's load is done. Before, the switch's stopLoop (pauseRequested = true) swallowed it — at
// once when the old run's loop was still finishing its step (play() saw a loop and returned), or
// after the click when the switch's stop came later (a second switch waiting on the first: play()
// cleared the flag, then the switch set it, then play() saw it and returned). A Pause pressed after
// that Play still wins. The lab session runs here in Node on the CPU reference.
import { describe, expect, it } from 'vitest';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

const nowhere: SavedRunSlot = {
  save: async () => ({ ok: true as const, value: undefined }),
  load: async () => ({ ok: true as const, value: null }),
  clear: async () => ({ ok: true as const, value: undefined }),
};

const until = async (f: () => boolean, what: string, ms = 60_000) => {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const small = { promptsPerStep: 2, numGenerations: 2, evalEvery: 100 };

async function session() {
  const s = new LabSession(useLab, { savedRuns: nowhere, frames: (flush) => { flush(); } });
  await s.init('?backend=cpu&task=reverse&difficulty=1&numGenerations=2&promptsPerStep=2&evalEvery=100&seed=3');
  return s;
}
/** The loop stopped and the store says so. */
const stopped = (s: LabSession) => until(() => useLab.getState().status === 'paused' && !s.frames.waiting, 'the pause');

describe('Play during a lesson switch', () => {
  it('pressed while the old run finishes its step: the new lesson\'s run starts once loaded', async () => {
    const s = await session();
    void s.play();
    await until(() => useLab.getState().inStep, 'a step under way');
    const switching = s.applyLesson('mixed-groups', 0, small);
    s.togglePlay(); // the page's Play (Space) while the switch waits for the old run's step
    await switching;
    await until(() => (s.trainer?.step ?? 0) >= 1 && useLab.getState().status === 'running', 'the new lesson\'s run to play', 30_000);
    expect(useLab.getState().lessonId).toBe('mixed-groups');
    expect(s.trainer!.settings.numGenerations).toBe(2);
    s.pause();
    await stopped(s);
  });

  it('pressed after a second switch began, whose stop comes after the click: it plays the second lesson', async () => {
    const s = await session();
    const first = s.applyLesson('mixed-groups', 0, small);
    const second = s.applyLesson('mixed-groups', 1, small); // waits for the first switch, then stops the loop
    const played = s.play();
    await Promise.all([first, second, played]);
    await until(() => (s.trainer?.step ?? 0) >= 1, 'the second lesson\'s run to play', 30_000);
    expect(useLab.getState().lessonVariant).toBe(1);
    s.pause();
    await stopped(s);
  });

  it('a Pause pressed after that Play wins: nothing plays', async () => {
    const s = await session();
    const switching = s.applyLesson('mixed-groups', 0, small);
    const played = s.play();
    s.pause();
    await Promise.all([switching, played]);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.trainer!.step).toBe(0);
    expect(useLab.getState().status).not.toBe('running');
  });
});

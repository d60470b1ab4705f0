// No reload the lab triggers loses a step. A new version accepted in one tab takes over every tab
// of the lab, and each reloads (serviceWorker.ts: OfflineStatus.takenOver); the run autosaves
// after every step (SAVE_EVERY), so what a reload could lose is the step in progress. Here the
// real session runs in Node on the CPU reference, saving into a slot of the test's own, and the
// page's reload is a stand-in that notes what was saved when it came.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SavedRunRecord } from '../persist/savedRun.ts';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { saveBeforeReload, saveWhenHidden } from './saveOnLeave.ts';
import { ACCEPTED_SENTENCE, NOT_SAVED_SENTENCE, OfflineStatus, TAKEN_OVER_SENTENCE } from './serviceWorker.ts';
import { LabSession } from './session.ts';

class MemorySlot implements SavedRunSlot {
  saved: SavedRunRecord[] = [];
  constructor(private readonly fails = false) {}
  async save(record: unknown) {
    if (this.fails) return { ok: false as const, error: 'The browser\'s storage for this site is full.' };
    this.saved.push(structuredClone(record) as SavedRunRecord);
    return { ok: true as const, value: undefined };
  }
  async load() {
    return { ok: true as const, value: null };
  }
  async clear() {
    return { ok: true as const, value: undefined };
  }
}

const until = async (f: () => boolean, what: string, ms = 60_000) => {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
};

const URL = '?backend=cpu&task=reverse&numGenerations=3&promptsPerStep=2&evalEvery=50&seed=7';

/** A session playing, caught in a step (its end not saved yet: only the step's end can save it). */
async function midStep(slot: MemorySlot) {
  const session = new LabSession(useLab, { savedRuns: slot });
  await session.init(URL);
  void session.play();
  const t = () => session.trainer!;
  await until(() => t().inStep && t().step >= 1, 'a step in progress');
  return { session, at: t().step };
}

/** What the page's reload found: the step the run was at, whether a step was open, the saved run's step. */
const reloadsOf = (session: LabSession, slot: MemorySlot) => {
  const seen: { step: number; inStep: boolean; saved: number | null }[] = [];
  return { seen, reloadPage: () => { seen.push({ step: session.trainer!.step, inStep: session.trainer!.inStep, saved: slot.saved.at(-1)?.trainer.step ?? null }); } };
};

let stop: LabSession | null = null;
afterEach(async () => {
  stop?.pause();
  await until(() => useLab.getState().status !== 'running', 'the loop to stop');
  await stop?.autosave.settled();
  stop = null;
  vi.unstubAllGlobals();
});

describe('a reload the lab triggers saves the run first', () => {
  it('another tab accepted the update: a run in progress stops at the end of its step, is saved, then the page reloads', async () => {
    const slot = new MemorySlot();
    const { session, at } = await midStep(slot);
    stop = session;
    const r = reloadsOf(session, slot);
    const status = new OfflineStatus({ beforeReload: saveBeforeReload(session), reloadPage: r.reloadPage });
    status.takenOver();
    expect(status.get().sentence).toBe(TAKEN_OVER_SENTENCE);
    await until(() => r.seen.length > 0, 'the reload');
    expect(r.seen).toEqual([{ step: at + 1, inStep: false, saved: at + 1 }]); // the step in progress ended, was saved, and no other began
    await until(() => useLab.getState().status === 'paused', 'the pause');
    expect(session.trainer!.step).toBe(at + 1);
    status.takenOver(); // a second 'controlling' reloads nothing twice
    await session.autosave.settled();
    expect(r.seen).toHaveLength(1);
  });

  it('Reload pressed in this tab mid-run: the run is saved before the new worker is asked to take over', async () => {
    const slot = new MemorySlot();
    const { session, at } = await midStep(slot);
    stop = session;
    vi.stubGlobal('navigator', { serviceWorker: { controller: {} } }); // a page the old worker controls
    const r = reloadsOf(session, slot);
    const status = new OfflineStatus({ beforeReload: saveBeforeReload(session), reloadPage: r.reloadPage });
    const asked: (number | null)[] = [];
    status.needRefresh(async () => { asked.push(slot.saved.at(-1)?.trainer.step ?? null); status.takenOver(); }); // skipWaiting → 'controlling'
    status.reload();
    expect(status.get().sentence).toBe(ACCEPTED_SENTENCE);
    await until(() => r.seen.length > 0, 'the reload');
    expect(asked).toEqual([at + 1]);
    expect(r.seen).toEqual([{ step: at + 1, inStep: false, saved: at + 1 }]);
  });

  it('a stepped update open (step-through): the tab reloads only once the reader has finished that step, saved', async () => {
    const slot = new MemorySlot();
    const session = new LabSession(useLab, { savedRuns: slot });
    stop = session;
    await session.init(URL);
    await session.setStepMode(true);
    await session.stepThrough.forward(); // the prompts and answers: the step is open
    const r = reloadsOf(session, slot);
    const status = new OfflineStatus({ beforeReload: saveBeforeReload(session), reloadPage: r.reloadPage });
    status.takenOver();
    await new Promise((ok) => setTimeout(ok, 600)); // more than flush's 250 ms look
    expect(r.seen).toEqual([]);
    while (useLab.getState().stepsCompleted === 0) await session.stepThrough.forward();
    await until(() => r.seen.length > 0, 'the reload');
    expect(r.seen).toEqual([{ step: 1, inStep: false, saved: 1 }]);
    await session.setStepMode(false); // the store is shared with the next test
  });

  it('a run that could not be saved: no reload by itself; the page says so and Reload then reloads', async () => {
    const slot = new MemorySlot(true);
    const session = new LabSession(useLab, { savedRuns: slot });
    stop = session;
    await session.init(URL);
    await session.stepOnce();
    const r = reloadsOf(session, slot);
    const status = new OfflineStatus({ beforeReload: saveBeforeReload(session), reloadPage: r.reloadPage });
    status.takenOver();
    await until(() => status.get().sentence === NOT_SAVED_SENTENCE, 'the sentence');
    expect(status.get().updateWaiting).toBe(true);
    expect(r.seen).toEqual([]);
    expect(useLab.getState().faults.some((f) => f.kind === 'storage')).toBe(true);
    status.reload();
    await until(() => r.seen.length > 0, 'the reload the reader chose');
    expect(r.seen).toHaveLength(1);
  });
});

describe('a hidden tab saves the run', () => {
  it('hidden mid-step: saved at the end of that step; a page that goes with nothing new writes nothing', async () => {
    const slot = new MemorySlot();
    const { session, at } = await midStep(slot);
    stop = session;
    const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
    const win = new EventTarget();
    const off = saveWhenHidden(doc, win as unknown as Window, session.autosave);
    doc.dispatchEvent(new Event('visibilitychange')); // visible again: nothing to do
    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    await until(() => slot.saved.some((r) => r.trainer.step === at + 1), 'the save of the step in progress, at its end');
    session.pause();
    await until(() => useLab.getState().status === 'paused', 'the pause');
    await session.autosave.settled();
    const n = slot.saved.length;
    win.dispatchEvent(new Event('pagehide'));
    await session.autosave.settled();
    await new Promise((ok) => setTimeout(ok, 20));
    expect(slot.saved).toHaveLength(n); // the pause saved it: the same run is not written again
    off();
  });
});

// Issue 48, "nothing lost": a reload comes back to the lesson as it was. The real session runs here
// in Node on the CPU reference, saving into slots of the test's own (the saved run and the runs
// list); a second session on the same slots is the page after the reload. On a lesson's page the
// lesson variant's own saved run is resumed without a button (every step taken: autosave saves
// after each), with one sentence naming the lesson's runs; a saved run of another lesson is not
// resumed there, and is offered in words that name its lesson.
import { describe, expect, it } from 'vitest';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

/** A slot of IndexedDB's, in memory: the last record saved is the one a reload reads. */
class MemorySlot implements SavedRunSlot {
  value: unknown = null;
  /** The trainer step of each saved run written, in order. */
  written: number[] = [];
  async save(record: unknown) {
    this.value = structuredClone(record);
    this.written.push((record as { trainer?: { step: number } }).trainer?.step ?? -1);
    return { ok: true as const, value: undefined };
  }
  async load() { return { ok: true as const, value: this.value }; }
  async clear() { this.value = null; return { ok: true as const, value: undefined }; }
}

// lesson 1 at a micro batch (the verdict is not the point here: the run and the runs list are)
const LESSON1 = (variant: number) => `?backend=cpu&lesson=mixed-groups&variant=${variant}&promptsPerStep=2&seed=3`;

/** The page, opened (or reloaded) on these slots. */
async function open(search: string, slots: { savedRuns: MemorySlot; finishedRuns: MemorySlot }): Promise<LabSession> {
  useLab.setState({ runs: [], overlayRunId: null, resumeOffer: null }); // a page opens with none (the store is the test file's, shared by its sessions)
  const session = new LabSession(useLab, { ...slots, frames: (flush) => { flush(); } });
  await session.init(search);
  return session;
}

/** The page goes: what it had asked to save is written. */
async function leave(session: LabSession): Promise<void> {
  await session.autosave.settled();
  await session.finished!.settled();
}

describe('a reload on a lesson\'s page', () => {
  it('resumes the lesson\'s own run without a button, every step taken, and says which runs came back', async () => {
    const slots = { savedRuns: new MemorySlot(), finishedRuns: new MemorySlot() };
    const a = await open(LESSON1(0), slots);
    await a.stepOnce(); // G = 2, one step: it goes to the runs list when G = 8 starts
    await a.applyLesson('mixed-groups', 1, { promptsPerStep: 2 });
    slots.savedRuns.written = [];
    await a.play({ untilStep: 3 }); // G = 8, played to step 3: saved after each step, not only where it stops
    while (useLab.getState().status !== 'paused' || useLab.getState().stepsCompleted < 3) await new Promise((r) => setTimeout(r, 5));
    await leave(a);
    expect(slots.savedRuns.written.slice(0, 2)).toEqual([1, 2]);
    expect(slots.savedRuns.written.at(-1)).toBe(3);

    const b = await open(LESSON1(1), slots);
    const s = useLab.getState();
    expect([s.lessonId, s.lessonVariant, s.stepsCompleted, s.steps.length]).toEqual(['mixed-groups', 1, 3, 3]);
    expect(s.resumeOffer).toBeNull(); // nothing to press
    expect(s.cameBack).toBe('Your lesson 1 runs are back: G = 2 stopped at step 1; G = 8 paused at step 3.');
    expect(s.runs.map((r) => r.name)).toEqual(['1 · G = 2']);
    expect(s.overlayRunId).toBe(s.runs[0].id); // the comparison on the charts, as before the reload
    // the run goes on from where it was
    await b.stepOnce();
    expect(useLab.getState().stepsCompleted).toBe(4);
    expect(useLab.getState().cameBack).toBeNull(); // said once, for the run that came back: a new load clears it
    await b.reset();
    expect(useLab.getState().cameBack).toBeNull();
  }, 120_000);

  it('another lesson\'s page does not resume it: it offers it in words naming its lesson; "Resume it" opens that lesson', async () => {
    const slots = { savedRuns: new MemorySlot(), finishedRuns: new MemorySlot() };
    const a = await open(LESSON1(1), slots);
    await a.stepOnce();
    await a.stepOnce();
    await leave(a);

    const b = await open('?backend=cpu&lesson=kl-estimators&promptsPerStep=2&seed=3', slots);
    let s = useLab.getState();
    expect([s.lessonId, s.stepsCompleted]).toEqual(['kl-estimators', 0]);
    expect(s.resumeOffer?.label).toMatch(/^Your lesson 1 run \(G = 8, seed 3\) was saved in this browser, paused at step 2 \(at \d\d:\d\d\)\. “Resume it” opens lesson 1 with it, in place of this lesson\.$/);
    expect(s.cameBack).toBeNull();
    await b.resumeSaved();
    s = useLab.getState();
    expect([s.lessonId, s.lessonVariant, s.stepsCompleted, s.resumeOffer]).toEqual(['mixed-groups', 1, 2, null]);
  }, 120_000);
});

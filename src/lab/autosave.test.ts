// Autosave writes a snapshot of one moment between two steps: the trainer's counters, the
// committed weights and the history (with the evaluation that ends a step) all belong to the
// same step. The lab session runs here in Node on the CPU reference, saving into a slot of the
// test's own; every record it writes is compared with the history the run went on to show.
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import type { SavedRunRecord } from '../persist/savedRun.ts';
import { useLab } from '../store/labStore.ts';
import { SAVE_EVERY, type SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

class MemorySlot implements SavedRunSlot {
  saved: SavedRunRecord[] = [];
  async save(record: unknown) {
    this.saved.push(structuredClone(record) as SavedRunRecord);
    return { ok: true as const, value: undefined };
  }
  async load() {
    return { ok: true as const, value: this.saved.at(-1) ?? null };
  }
  async clear() {
    return { ok: true as const, value: undefined };
  }
}

const until = async (f: () => boolean, what: string, ms = 100_000) => {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** The record agrees with the history the run showed: the steps before its step, and every evaluation up to it. */
function expectConsistent(rec: SavedRunRecord): void {
  const s = useLab.getState();
  expect(rec.steps.at(-1)?.step).toBe(rec.trainer.step - 1);
  expect(rec.steps).toEqual(s.steps.filter((m) => m.step < rec.trainer.step));
  expect(rec.evals.map((e) => e.step)).toEqual(s.evals.filter((e) => e.step <= rec.trainer.step).map((e) => e.step));
  expect(decodeCheckpoint(rec.checkpoint).optimizer!.step).toBe(rec.trainer.step * rec.settings.numIterations); // AdamW steps: µ a step
}

// evalEvery = SAVE_EVERY: the periodic save falls on a step that ends with an evaluation
const URL = `?backend=cpu&task=reverse&numGenerations=3&promptsPerStep=2&evalEvery=${SAVE_EVERY}&seed=7`;

describe('autosave', () => {
  it('saves a whole step: a save due at a step that ends with an evaluation holds that evaluation', async () => {
    const slot = new MemorySlot();
    const session = new LabSession(useLab, { savedRuns: slot });
    await session.init(URL);
    expect(useLab.getState().status).toBe('ready');
    void session.play();
    await until(() => slot.saved.length >= 2, 'two periodic saves');
    session.pause();
    await until(() => useLab.getState().status === 'paused', 'the pause');
    await session.autosave.settled();
    const [first, second] = slot.saved;
    expect(first.trainer.step).toBe(SAVE_EVERY);
    expect(second.trainer.step).toBe(2 * SAVE_EVERY);
    expect(first.evals.map((e) => e.step)).toEqual([0, SAVE_EVERY]);
    for (const rec of slot.saved) expectConsistent(rec);
    expect(useLab.getState().lastSave?.step).toBe(slot.saved.at(-1)!.trainer.step);
  });

  it('a save asked for in the middle of a stepped update waits for the step to end', async () => {
    const slot = new MemorySlot();
    const session = new LabSession(useLab, { savedRuns: slot });
    await session.init(URL.replace(`evalEvery=${SAVE_EVERY}`, 'evalEvery=1'));
    await session.setStepMode(true);
    await session.stepThrough.forward(); // the prompts and answers: the step is open
    expect(session.trainer!.inStep).toBe(true);
    session.autosave.request();
    await session.autosave.settled();
    expect(slot.saved).toHaveLength(0);
    while (useLab.getState().stepsCompleted === 0) await session.stepThrough.forward();
    expect(session.trainer!.inStep).toBe(false);
    await session.autosave.settled();
    expect(slot.saved).toHaveLength(1);
    expect(slot.saved[0].trainer.step).toBe(1);
    expect(slot.saved[0].evals.map((e) => e.step)).toEqual([0, 1]); // the stepped update's evaluation is in it
    expectConsistent(slot.saved[0]);
  });
});

// A lesson run is an experiment with a fixed verdict step (issue 40): Play stops there by itself, the
// verdict is frozen once (it never changes as steps are added after it), Play and Step are refused
// with one sentence until the student continues past it, a step-through on it starts a new run
// outside the lesson (the lesson run is kept, with its verdict), the runs list survives a new
// session on the same browser storage, and "New student" forgets it all. The lab session runs in
// Node on the CPU reference with a micro batch (P = 2, G = 2): the settings differ from the lesson's,
// so its verdict is frozen as "not judged" — what is checked here is the protocol, not the claim.
import { describe, expect, it } from 'vitest';
import { LESSONS, getLesson } from '../rl/lessons.ts';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

/** A slot that keeps what it is given (this browser's storage, for two sessions in a row). */
function memory(): SavedRunSlot & { value: unknown } {
  const m = {
    value: null as unknown,
    save: async (r: unknown) => { m.value = structuredClone(r); return { ok: true as const, value: undefined }; },
    load: async () => ({ ok: true as const, value: m.value }),
    clear: async () => { m.value = null; return { ok: true as const, value: undefined }; },
  };
  return m;
}

const until = async (f: () => boolean, what: string, ms = 100_000) => {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

const LESSON = 'kl-estimators';
const N = getLesson(LESSON)!.variants[0].claim.steps;
const URL = `?backend=cpu&lesson=${LESSON}&promptsPerStep=2&numGenerations=2&evalEvery=100&seed=3`;
const idle = (s: LabSession) => until(() => useLab.getState().status === 'paused' && !s.frames.waiting, 'the run to stop');

describe('lesson protocol', () => {
  it('Play stops at the verdict step; the verdict is frozen; Play and Step are refused; continuing adds steps after it', async () => {
    const session = new LabSession(useLab, { savedRuns: memory(), finishedRuns: memory(), frames: (flush) => { flush(); } });
    await session.init(URL);
    await session.play();
    await idle(session);
    expect(session.trainer!.step).toBe(N);
    const frozen = useLab.getState().verdict;
    expect(frozen).toMatchObject({ lessonId: LESSON, variant: 0, step: N, continued: false });
    await session.play();
    await session.stepOnce();
    expect(session.trainer!.step).toBe(N);
    expect(useLab.getState().lessonNotice).toMatch(new RegExp(`verdict is in at step ${N}.*Continue past the verdict`));
    await session.continuePastVerdict();
    await until(() => session.trainer!.step >= N + 1, 'a step past the verdict');
    session.pause();
    await idle(session);
    expect(useLab.getState().verdict).toEqual({ ...frozen, continued: true }); // the same verdict, marked continued
  });

  it('a step-through on a lesson run at its verdict starts a new run outside the lesson; the runs list survives a reload; New student forgets it', async () => {
    const finished = memory();
    const session = new LabSession(useLab, { savedRuns: memory(), finishedRuns: finished, frames: (flush) => { flush(); } });
    await session.init(URL);
    await session.play();
    await idle(session);
    expect(session.trainer!.step).toBe(N);
    await session.setStepMode(true);
    await session.stepThrough.forward();
    let s = useLab.getState();
    expect(s.liveOrigin?.lessonId).toBeNull();
    expect(s.lessonId).toBeNull();
    expect(s.stepMode).toBe(true);
    expect(s.runs[0].origin.lessonId).toBe(LESSON);
    expect(s.runs[0].steps).toHaveLength(N); // not one step more
    expect(s.engineNotices.join(' ')).toContain(`keeps its verdict at step ${N}`);
    expect(s.leftLesson).toEqual({ n: LESSONS.findIndex((l) => l.id === LESSON) + 1, step: N }); // the presenter's heading says it
    await session.setStepMode(false);
    await session.finished!.settled();
    expect((finished.value as { runs: unknown[] }).runs).toHaveLength(1);

    // another page on the same storage: the runs list comes back
    useLab.setState({ runs: [] });
    const again = new LabSession(useLab, { savedRuns: memory(), finishedRuns: finished, frames: (flush) => { flush(); } });
    await again.init(URL);
    await until(() => useLab.getState().runs.length === 1, 'the runs list restored');
    expect(useLab.getState().runs[0].steps).toHaveLength(N);

    // New student: the list and the storage are emptied
    await again.newStudent();
    s = useLab.getState();
    expect(s.runs).toEqual([]);
    expect(s.verdict).toBeNull();
    await again.finished!.settled();
    expect(finished.value).toBeNull();
  });
});

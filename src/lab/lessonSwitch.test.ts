// A lesson's switch never shows the old run's steps under the new lesson's name: the store names
// the new lesson only with the new run's load, in the same update that clears the old run. Before,
// applyLesson named the lesson at once and the old run's steps stayed until the load began (after
// the loop stopped and the saved run was cleared): a tour stop or a lesson card, reading the store
// then, quoted the old run's numbers as the new lesson's (the class tour's e2e caught it once).
import { describe, expect, it } from 'vitest';
import { encodeCheckpoint } from '../model/checkpoint.ts';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

const slowClear: SavedRunSlot = {
  save: async () => ({ ok: true as const, value: undefined }),
  load: async () => ({ ok: true as const, value: null }),
  clear: async () => { await new Promise((r) => setTimeout(r, 50)); return { ok: true as const, value: undefined }; },
};

describe('lesson switch', () => {
  it('never pairs the new lesson with the old run\'s steps', async () => {
    const session = new LabSession(useLab, { savedRuns: slowClear, frames: (flush) => { flush(); } });
    await session.init('?backend=cpu&task=reverse&difficulty=1&numGenerations=2&promptsPerStep=2&evalEvery=100&seed=3');
    await session.stepOnce();
    expect(useLab.getState().steps.length).toBe(1);
    const seen: string[] = [];
    const off = useLab.subscribe((s) => { if (s.lessonId === 'mixed-groups' && s.steps.length > 0) seen.push(`${s.status}, ${s.steps.length} steps`); });
    await session.applyLesson('mixed-groups');
    off();
    expect(seen).toEqual([]);
    expect(useLab.getState().lessonId).toBe('mixed-groups');
    expect(useLab.getState().steps.length).toBe(0);
  });
});

// The same for a custom task (customTask.ts): "Use this task" and a base file loaded set the task in
// the same store update that clears the old run (the session's load), never beside its steps.
describe('custom task switch', () => {
  const SPEC = { name: 'sw-times3', title: 'Times three', prompt: '{a}*3=', vars: { a: [0, 99] }, answer: 'a*3' };
  it('never pairs the new task with the old run\'s steps: "Use this task", then a base file', async () => {
    const session = new LabSession(useLab, { savedRuns: slowClear, frames: (flush) => { flush(); } });
    await session.init('?backend=cpu&task=reverse&difficulty=1&numGenerations=2&promptsPerStep=2&evalEvery=100&seed=3');
    await session.stepOnce();
    const seen: string[] = [];
    const off = useLab.subscribe((s) => { if (s.settings.task === 'spec:sw-times3' && s.steps.length > 0) seen.push(`${s.status}, ${s.steps.length} steps`); });
    expect(await session.custom.use(SPEC)).toBeNull();
    expect(seen, 'Use this task').toEqual([]);
    expect(useLab.getState().settings.task).toBe('spec:sw-times3');
    expect(useLab.getState().taskSpecs['spec:sw-times3']).toEqual(SPEC);
    expect(useLab.getState().lessonId).toBeNull();
    // back on reverse for a step, then a base file of the custom task
    const file = encodeCheckpoint({ config: session.backend!.config, weights: await session.backend!.getWeights(), metadata: { task: 'spec:sw-times3', taskSpec: SPEC, difficulty: 1 } });
    await session.applyLesson('mixed-groups', 0, { task: 'reverse', promptsPerStep: 2, numGenerations: 2, evalEvery: 100 });
    await session.stepOnce();
    expect(useLab.getState().steps.length).toBe(1);
    expect(await session.custom.loadBase('times3.ckpt', file)).toMatch(/^Loaded /);
    off();
    expect(seen, 'a base file').toEqual([]);
    expect(useLab.getState().settings.task).toBe('spec:sw-times3');
    expect(useLab.getState().taskBases['spec:sw-times3']?.name).toBe('loaded from times3.ckpt');
  });
});

// A switch does not wait for the left run's step-0 evaluation (a lesson's is its contract's 256
// prompts, seconds on a CPU): the run is being left, so its evaluation is left behind, and what it
// returns never lands in the new run.
describe('switch during the step-0 evaluation', () => {
  it('does not wait for it, and its result never reaches the new run', async () => {
    const { GrpoTrainer } = await import('../rl/trainer.ts');
    const real = GrpoTrainer.prototype.evaluate;
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let calls = 0;
    GrpoTrainer.prototype.evaluate = async function (this: InstanceType<typeof GrpoTrainer>, ...a: Parameters<typeof real>) {
      if (calls++ === 0) { await held; return { ...(await real.apply(this, a)), heldout_accuracy: -1 }; } // the first run's: held until released, then marked
      return real.apply(this, a);
    };
    try {
      const session = new LabSession(useLab, { savedRuns: slowClear, frames: (flush) => { flush(); } });
      void session.init('?backend=cpu&task=reverse&difficulty=1&numGenerations=2&promptsPerStep=2&evalEvery=100&seed=3');
      while (useLab.getState().status !== 'ready' || calls === 0) await new Promise((r) => setTimeout(r, 5));
      await session.applyLesson('mixed-groups', 0, { task: 'reverse', promptsPerStep: 2, numGenerations: 2, evalEvery: 100 }); // hangs here if the switch waited
      await session.stepOnce(); // a step waits for the new run's own evaluation
      release();
      await new Promise((r) => setTimeout(r, 20));
      const s = useLab.getState();
      expect(s.lessonId).toBe('mixed-groups');
      expect(s.status).toBe('paused');
      expect(s.evals.map((e) => e.heldout_accuracy)).not.toContain(-1);
      expect(s.steps.length).toBe(1);
    } finally {
      GrpoTrainer.prototype.evaluate = real;
      release();
    }
  }, 20_000); // a switch that waits for the held evaluation never ends: this limit turns it red
});

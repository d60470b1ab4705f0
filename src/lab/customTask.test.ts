// The page's custom task (customTask.ts) on the CPU reference, with a stand-in for the session:
// "Use this task", the cold start (budget, progress, stop, the base it leaves and π_ref from it),
// the base as a checkpoint file and back, and lesson 1 on the task.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Backend } from '../model/backend.ts';
import { createBackend } from '../model/engines.ts';
import { encodeCheckpoint } from '../model/checkpoint.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { getTask } from '../tasks/registry.ts';
import { useLab, type LabState } from '../store/labStore.ts';
import { CustomTask } from './customTask.ts';
import { startingWeights } from './engine.ts';

const SPEC = { name: 'ct-times3', title: 'Times three', prompt: '{a}*3=', vars: { a: [0, 99] }, answer: 'a*3' };

/** The session's part: a run restarts from startingWeights (the task's base if the page has one), as session.load does. */
function harness() {
  const calls: string[] = [];
  const host = {
    backend: null as Backend | null,
    notices: [] as string[],
    async reset(next?: (s: LabState) => Partial<LabState>) {
      calls.push('reset');
      if (next) useLab.setState(next(useLab.getState())); // as the session's load: the new task with the new run
      this.backend?.dispose();
      const s = useLab.getState();
      this.notices = [];
      const { config, weights } = await startingWeights(s.settings, null, this.notices, () => {}, s.taskBases[s.settings.task]);
      this.backend = await createBackend('cpu', config, { seed: s.settings.seed, weights });
      useLab.setState({ status: 'ready' });
    },
    async applyLesson(id: string, variant = 0, over: Partial<Settings> = {}) {
      calls.push(`lesson ${id} ${variant} ${JSON.stringify(over)}`);
    },
  };
  let forgot = 0;
  const custom = new CustomTask(host, { get: () => useLab.getState(), set: (p) => useLab.setState(p as Partial<LabState>), forgetImported: () => { forgot++; } });
  return { host, custom, calls, forgot: () => forgot };
}

beforeEach(() => {
  useLab.setState({ settings: defaultSettings(), taskSpecs: {}, taskBases: {}, coldStart: null, lessonId: 'length-bias', status: 'ready', progress: null });
});

describe('the custom task in the page', () => {
  it('"Use this task": a refused spec is its one sentence and changes nothing; a valid one is registered and the run restarts on it', async () => {
    const { custom, calls } = harness();
    expect(await custom.use({ ...SPEC, vars: { a: [9, 2] } })).toBe('vars.a: lo 9 is greater than hi 2.');
    expect(useLab.getState().settings.task).toBe('reverse');
    expect(calls).toEqual([]);
    expect(await custom.use(SPEC)).toBeNull();
    const s = useLab.getState();
    expect(s.settings.task).toBe('spec:ct-times3');
    expect(s.taskSpecs['spec:ct-times3']).toEqual(SPEC);
    expect(s.lessonId).toBeNull();
    expect(getTask('spec:ct-times3').title).toBe('Times three');
    expect(calls).toEqual(['reset']);
  });

  it('cold start: a fresh policy, SFT to its budget with progress, then the run restarts from the base it made (π_ref = it)', async () => {
    const { host, custom, calls, forgot } = harness();
    await custom.use(SPEC);
    const steps: number[] = [];
    const unsub = useLab.subscribe((s) => { if (s.coldStart && steps.at(-1) !== s.coldStart.step) steps.push(s.coldStart.step); });
    await custom.coldStart(12);
    unsub();
    const s = useLab.getState();
    expect(calls).toEqual(['reset', 'reset', 'reset']); // use, the fresh policy, the restart from the base
    expect(forgot()).toBe(1);
    expect(steps.slice(0, 3)).toEqual([0, 1, 2]); // the bar moves every step
    expect(s.coldStart).toMatchObject({ task: 'spec:ct-times3', running: false, step: 12, maxSteps: 12, target: 0.3, reached: false });
    expect(s.coldStart!.history.map((h) => h.step)).toEqual([10, 12]);
    expect(s.coldStart!.sentence).toMatch(/^Cold start did not reach the target: .* after 12 supervised steps, short of 30%; the task is too hard for this model size, so try a smaller range or shorter strings\. GRPO starts from this policy anyway/);
    const base = s.taskBases['spec:ct-times3'];
    expect(base).toMatchObject({ task: 'spec:ct-times3', difficulty: 1, name: 'cold start, 12 SFT steps', specJson: JSON.stringify(SPEC) });
    expect(s.status).toBe('ready');
    expect(s.progress).toBeNull();
    // the run restarted from it
    expect(await host.backend!.getWeights()).toEqual(base.weights);
    expect(host.notices.join(' ')).toMatch(/^Starting from this task's cold-start base \(cold start, 12 SFT steps, held-out sampled pass@1 \d+%\): π_ref is this base\.$/);
    // a changed spec of the same name forgets the base; the same spec keeps it
    await custom.use(SPEC);
    expect(useLab.getState().taskBases['spec:ct-times3']).toBe(base);
    await custom.use({ ...SPEC, vars: { a: [0, 98] } });
    expect(useLab.getState().taskBases['spec:ct-times3']).toBeUndefined();
  });

  it('Stop ends the cold start after its step; its policy still becomes the base', async () => {
    const { custom } = harness();
    await custom.use(SPEC);
    const unsub = useLab.subscribe((s) => { if (s.coldStart?.running && s.coldStart.step >= 3) custom.stop(); });
    await custom.coldStart(1000);
    unsub();
    const cs = useLab.getState().coldStart!;
    expect(cs.step).toBeLessThanOrEqual(4);
    expect(cs.sentence).toMatch(/^Cold start stopped at step [34] with held-out sampled pass@1 \d+% \(target 30%\)\./);
    expect(useLab.getState().taskBases['spec:ct-times3']).toBeDefined();
  });

  it('the base as a file and back: its spec travels with it (validated, registered); a hostile spec inside is refused', async () => {
    const { custom } = harness();
    await custom.use(SPEC);
    await custom.coldStart(3);
    const bytes = custom.baseBytes()!;
    const made = useLab.getState().taskBases['spec:ct-times3'];
    // another page: a built-in task, no spec, no base
    useLab.setState({ settings: { ...defaultSettings(), task: 'add' }, taskSpecs: {}, taskBases: {}, coldStart: null });
    const other = harness();
    expect(await other.custom.loadBase('base.ckpt', bytes)).toBe('Loaded base.ckpt: runs of spec:ct-times3 at difficulty 1 start from it (π_ref is this base).');
    const s = useLab.getState();
    expect(s.settings.task).toBe('spec:ct-times3');
    expect(s.taskSpecs['spec:ct-times3']).toEqual(SPEC);
    expect(s.taskBases['spec:ct-times3'].weights).toEqual(made.weights);
    expect(await other.host.backend!.getWeights()).toEqual(made.weights);
    // hostile spec in the metadata: one sentence, nothing changed
    const before = useLab.getState();
    const evil = encodeCheckpoint({ config: made.config, weights: made.weights, metadata: { task: 'spec:x', taskSpec: { name: 'x', prompt: '<b>{a}</b>', vars: { a: [0, 9] }, answer: 'a' } } });
    expect(await other.custom.loadBase('evil.ckpt', evil)).toMatch(/^evil\.ckpt was not loaded: the task spec inside it was refused \(prompt: .*\) Nothing was changed\.$/);
    expect(useLab.getState().taskBases).toBe(before.taskBases);
    expect(await other.custom.loadBase('junk.ckpt', new Uint8Array([1, 2, 3]))).toMatch(/^junk\.ckpt was not loaded: .*Nothing was changed\.$/);
  });

  it('lesson 1 on the task: the lesson with the task and its difficulty kept', async () => {
    const { custom, calls } = harness();
    await custom.use(SPEC);
    await custom.lessonOnTask(1);
    expect(calls.at(-1)).toBe(`lesson mixed-groups 1 ${JSON.stringify({ task: 'spec:ct-times3', difficulty: 2, maxCompletionLength: 8 })}`);
  });

  it('a scratchpad spec fits Max response length: "Use this task", its lesson 1, a base file and the cold start all grow 8 to the spec\'s 11 tokens (the CLI\'s rule)', async () => {
    const digitsum = JSON.parse(readFileSync('public/tasks/digitsum.json', 'utf8'));
    const { custom, calls } = harness();
    expect(useLab.getState().settings.maxCompletionLength).toBe(8);
    expect(await custom.use(digitsum)).toBeNull();
    expect(useLab.getState().settings.maxCompletionLength).toBe(11); // "9,18,27|27" and its EOS
    await custom.lessonOnTask(1); // the lesson resets the knobs: the length is fitted again
    expect(JSON.parse(calls.at(-1)!.replace('lesson mixed-groups 1 ', ''))).toMatchObject({ task: 'spec:digitsum', maxCompletionLength: 11 });
    // a longer length the teacher chose is kept
    useLab.setState((s) => ({ settings: { ...s.settings, maxCompletionLength: 14 } }));
    expect(await custom.use(digitsum)).toBeNull();
    expect(useLab.getState().settings.maxCompletionLength).toBe(14);
    // shortened by hand, then a cold start: measured at the fitted length, the one GRPO then samples
    useLab.setState((s) => ({ settings: { ...s.settings, maxCompletionLength: 8 } }));
    await custom.coldStart(1);
    expect(useLab.getState().settings.maxCompletionLength).toBe(11);
    // a base file that carries the spec
    const bytes = custom.baseBytes()!;
    useLab.setState((s) => ({ settings: { ...s.settings, task: 'reverse', maxCompletionLength: 8 } }));
    expect(await custom.loadBase('ds.ckpt', bytes)).toMatch(/^Loaded/);
    expect(useLab.getState().settings).toMatchObject({ task: 'spec:digitsum', maxCompletionLength: 11 });
  });
});

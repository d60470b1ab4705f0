/**
 * The page's custom task (docs/custom-tasks.md): the "New task" editor's actions, the cold
 * start on the page's own engine, and the base it makes, in and out as a checkpoint file. The
 * session makes one (session.ts) and components call it as `lab.custom`.
 *
 *   use(spec)        validateSpec (the one-way decoder) → registerSpec → the run switches to it
 *   coldStart(n)     a fresh policy (the run restarts without a base), then coldStartTask
 *                    (src/rl/coldStartSpec.ts) on the run's engine: SFT on the task's reference
 *                    responses until the held-out sampled pass@1 reaches COLD_START_TARGET or n
 *                    steps pass; the policy becomes the task's base and the run restarts from it,
 *                    so GRPO's π_ref is it (lab/engine.ts startingWeights)
 *   baseBytes()      that base as a checkpoint file (its metadata carries the task spec)
 *   loadBase(…)      such a file back: its spec validated and registered, the run restarts from it
 *   lessonOnTask(v)  lesson 1 (G = 2 vs 8 vs 16) on this task and its base
 *
 * Whenever a spec becomes the run's task (use, loadBase, coldStart, lessonOnTask), Max response
 * length is fitted to the spec's longest response by the rule the CLI uses (rl/responseLength.ts).
 *
 * The engine never waits on the page: each SFT step first yields to the browser, so the progress
 * bar moves and Stop is heard (the CPU reference computes a step without awaiting anything).
 */
import type { Backend } from '../model/backend.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../model/checkpoint.ts';
import { COLD_START_MAX_STEPS, COLD_START_TARGET, COLD_START_TARGET_MAX, COLD_START_TARGET_MIN, coldStartTask, type ColdStartTaskResult } from '../rl/coldStartSpec.ts';
import { taskDifficulty } from '../rl/rollout.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { fitResponseLength, specResponseLength } from '../rl/responseLength.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { customTasks, getTask, TASKS } from '../tasks/registry.ts';
import { registerSpec, specTaskId, validateSpec, type Spec } from '../tasks/spec/index.ts';
import type { ColdStartView, LabState, TaskBase } from '../store/labStore.ts';
import { specInUse } from '../store/taskSpec.ts';
import { readCheckpointFile } from './files.ts';
import { engineErrorSentence } from './sentences.ts';

/** What the custom task needs of the session: its engine, a restart (`next`: the new task, in the same store update that clears the old run), and lessons. */
export interface CustomTaskHost {
  readonly backend: Backend | null;
  reset(next?: (s: LabState) => Partial<LabState>): Promise<void>;
  applyLesson(id: string, variant?: number, over?: Partial<Settings>): Promise<void>;
}

/** The session's store access, and a way to drop an imported checkpoint (a base made here replaces it). */
export interface CustomTaskStore {
  get(): LabState;
  set(patch: Partial<LabState> | ((s: LabState) => Partial<LabState>)): void;
  forgetImported(): void;
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));
const pct = (x: number) => `${Math.round(100 * x)}%`;
const knownTask = (id: string) => [...TASKS, ...customTasks()].some((t) => t.id === id);

export class CustomTask {
  /** Stop was pressed (read before every SFT step). */
  private stopRequested = false;

  constructor(private readonly lab: CustomTaskHost, private readonly st: CustomTaskStore) {}

  openEditor(open: boolean): void {
    this.st.set({ taskEditorOpen: open });
  }

  /**
   * "Use this task": the spec validated again (whatever the editor showed), registered (a spec of
   * the same name replaces the earlier one, and a base made for the earlier one is forgotten),
   * and the run restarts on it. Returns the refusal sentence, or null.
   */
  async use(json: unknown): Promise<string | null> {
    const r = validateSpec(json);
    if (!r.ok) return r.error;
    registerSpec(r.spec);
    const id = specTaskId(r.spec.name);
    // Max response length grows to the spec's longest response (the CLI's rule: src/rl/responseLength.ts);
    // the task lands with the new run's load, never beside the old run's steps (as a lesson's does)
    await this.lab.reset((s) => {
      const { [id]: old, ...others } = s.taskBases;
      const keep = old && old.specJson === JSON.stringify(r.spec) ? { [id]: old } : {};
      return { taskSpecs: { ...s.taskSpecs, [id]: r.spec }, taskBases: { ...others, ...keep }, settings: { ...s.settings, task: id, maxCompletionLength: fitResponseLength(s.settings.maxCompletionLength, r.stats.maxResponseTokens) }, lessonId: null, lessonVariant: 0 };
    });
    return null;
  }

  /** The spec of a custom task this page registered (for its base's file), or null. */
  private specOf(task: string): Spec | null {
    return specInUse({ settings: { task }, taskSpecs: this.st.get().taskSpecs });
  }

  /** Cold start of the task in use, at most `maxSteps` SFT steps, to held-out sampled pass@1 ≥ `target` (see the header). */
  async coldStart(maxSteps: number = COLD_START_MAX_STEPS, targetPassRate: number = COLD_START_TARGET): Promise<void> {
    if (this.st.get().coldStart?.running) return;
    const task = this.st.get().settings.task;
    if (!knownTask(task)) return;
    const steps = Math.max(1, Math.min(100_000, Math.round(maxSteps)));
    const target = Number.isFinite(targetPassRate) ? Math.max(COLD_START_TARGET_MIN, Math.min(COLD_START_TARGET_MAX, targetPassRate)) : COLD_START_TARGET;
    this.stopRequested = false;
    const view = (patch: Partial<ColdStartView>) => this.st.set((s) => ({ coldStart: s.coldStart && { ...s.coldStart, ...patch } }));
    const { [task]: _forgotten, ...bases } = this.st.get().taskBases;
    // the run's length fits the spec before the cold start measures at it (what GRPO then samples)
    const spec = this.specOf(task);
    if (spec) this.st.set((s) => ({ settings: { ...s.settings, maxCompletionLength: specResponseLength(spec, s.settings.maxCompletionLength) } }));
    this.st.set({ taskBases: bases, coldStart: { task, running: true, stopping: false, step: 0, maxSteps: steps, passRate: 0, heldoutAccuracy: 0, target, history: [], sentence: null, reached: null } });
    // a fresh policy: the run restarts with no base for this task (and no imported checkpoint)
    this.st.forgetImported();
    await this.lab.reset();
    const backend = this.lab.backend;
    if (!backend || this.st.get().status === 'error') {
      view({ running: false, sentence: 'Cold start could not begin: the model did not load (see the message above).', reached: false });
      return;
    }
    const settings = this.st.get().settings;
    const label = (step: number, passRate: number) => `Cold start: SFT step ${step} of at most ${steps}; held-out sampled pass@1 ${pct(passRate)}, target ${pct(target)}`;
    this.st.set({ status: 'loading', progress: { label: label(0, 0), fraction: 0 } });
    let done = 0;
    // the engine, each training step after a yield to the browser (and counted for the progress bar)
    const yielding = new Proxy(backend, {
      get: (t, k) => {
        if (k === 'trainStep') {
          return async (...a: Parameters<Backend['trainStep']>) => {
            await tick();
            const r = await t.trainStep(...a);
            done++;
            const cs = this.st.get().coldStart;
            if (cs) this.st.set({ coldStart: { ...cs, step: done }, progress: { label: label(done, cs.passRate), fraction: done / steps } });
            return r;
          };
        }
        const v: unknown = Reflect.get(t, k, t);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
    let result: ColdStartTaskResult;
    try {
      result = await coldStartTask(getTask(task), yielding, {
        settings, maxSteps: steps, targetPassRate: target,
        onProgress: (p) => this.st.set((s) => ({ coldStart: s.coldStart && { ...s.coldStart, step: p.step, passRate: p.passRate, heldoutAccuracy: p.heldoutAccuracy, history: [...s.coldStart.history, { step: p.step, passRate: p.passRate, heldoutAccuracy: p.heldoutAccuracy }].slice(-400) } })),
        shouldStop: () => this.stopRequested || this.lab.backend !== backend,
      });
    } catch (e) {
      view({ running: false, stopping: false, sentence: `Cold start stopped: ${engineErrorSentence(e)}.`, reached: false });
      this.st.set({ progress: null });
      if (this.lab.backend === backend) await this.lab.reset(); // the engine's state is unknown: the run starts over
      return;
    }
    if (this.lab.backend !== backend) { // the run was restarted under it (a lesson, a reset): its policy is gone
      view({ running: false, stopping: false, sentence: `Cold start stopped at step ${result.steps}: the run was restarted.`, reached: false });
      return;
    }
    const base: TaskBase = {
      task, difficulty: taskDifficulty(settings), config: backend.config, weights: await backend.getWeights(),
      name: `cold start, ${result.steps} SFT steps`, passRate: result.passRate, target, specJson: JSON.stringify(this.specOf(task)),
    };
    const then = result.reached ? '' : ' GRPO starts from this policy anyway: with few passes most groups are all-fail and teach nothing.';
    this.st.set((s) => ({ taskBases: { ...s.taskBases, [task]: base }, progress: null }));
    view({ running: false, stopping: false, step: result.steps, passRate: result.passRate, heldoutAccuracy: result.heldoutAccuracy, sentence: `${result.sentence}${then}`, reached: result.reached });
    await this.lab.reset(); // π_ref = the base
  }

  /** Stop the cold start after its current step (its policy still becomes the base). */
  stop(): void {
    const cs = this.st.get().coldStart;
    if (!cs?.running || cs.stopping) return;
    this.stopRequested = true;
    this.st.set((s) => ({ coldStart: s.coldStart && { ...s.coldStart, stopping: true } }));
  }

  /** The base of the task in use as a checkpoint file (weights; metadata: the task, its spec, the pass rate), or null when it has none. */
  baseBytes(): Uint8Array | null {
    const s = this.st.get();
    const base = s.taskBases[s.settings.task];
    if (!base) return null;
    const spec = this.specOf(base.task);
    return encodeCheckpoint({
      config: base.config, weights: base.weights,
      metadata: { kind: 'sft-cold-start', createdBy: 'rlvr-lab page', task: base.task, difficulty: base.difficulty, name: base.name, passRate: base.passRate, target: base.target ?? COLD_START_TARGET, ...(spec ? { taskSpec: spec } : {}) },
    });
  }

  /**
   * A base file back (what baseBytes wrote, or any lab checkpoint): its task spec, if it has one,
   * goes through validateSpec like any spec from outside and is registered; the run switches to
   * that task and restarts from the file (π_ref = it). Returns a sentence either way.
   */
  async loadBase(name: string, bytes: Uint8Array): Promise<string> {
    const r = readCheckpointFile(name, bytes);
    if (!r.ok) return r.error;
    const shown = r.model.name;
    const meta = decodeCheckpoint(bytes).metadata; // readCheckpointFile decoded it already: no throw here
    let spec: Spec | null = null;
    let task = this.st.get().settings.task;
    if (meta.taskSpec !== undefined) {
      const v = validateSpec(meta.taskSpec);
      if (!v.ok) return `${shown} was not loaded: the task spec inside it was refused (${v.error}) Nothing was changed.`;
      spec = v.spec;
      task = specTaskId(spec.name);
    } else {
      const named = typeof meta.task === 'string' ? meta.task : typeof (meta.settings as { task?: unknown } | undefined)?.task === 'string' ? (meta.settings as { task: string }).task : null;
      if (named !== null && knownTask(named)) task = named;
    }
    if (r.model.config.seqLen < 8) return `${shown} was not loaded: its model's context of ${r.model.config.seqLen} positions is too short for a task. Nothing was changed.`;
    if (spec) registerSpec(spec);
    const current = this.st.get().settings;
    const settings = { ...current, task, maxCompletionLength: spec ? specResponseLength(spec, current.maxCompletionLength) : current.maxCompletionLength };
    const difficulty = typeof meta.difficulty === 'number' && getTask(task).difficulties.includes(meta.difficulty) ? meta.difficulty : taskDifficulty(settings);
    const passRate = typeof meta.passRate === 'number' && meta.passRate >= 0 && meta.passRate <= 1 ? meta.passRate : null;
    const base: TaskBase = { task, difficulty, config: r.model.config, weights: r.model.weights, name: `loaded from ${shown}`, passRate, specJson: JSON.stringify(spec ?? this.specOf(task)) };
    this.st.forgetImported();
    // the task and its base land with the new run's load, never beside the old run's steps
    await this.lab.reset((s) => ({ taskBases: { ...s.taskBases, [task]: base }, settings: { ...settings, difficulty }, taskSpecs: spec ? { ...s.taskSpecs, [task]: spec } : s.taskSpecs, coldStart: null }));
    return `Loaded ${shown}: runs of ${task} at difficulty ${difficulty} start from it (π_ref is this base).`;
  }

  /**
   * Lesson 1 (mixed groups: G = 2, 8, 16) on the task in use, from its base; the lesson's other
   * knobs as the lesson sets them, and Max response length fitted to the spec (the lesson's own
   * length grown by the same rule as "Use this task").
   */
  async lessonOnTask(variant: number): Promise<void> {
    const s = this.st.get().settings;
    const spec = this.specOf(s.task);
    const lesson = getLesson('mixed-groups');
    const lessonLength = lesson ? lessonSettings(lesson, defaultSettings(), variant).maxCompletionLength : defaultSettings().maxCompletionLength;
    await this.lab.applyLesson('mixed-groups', variant, { task: s.task, difficulty: s.difficulty, ...(spec ? { maxCompletionLength: specResponseLength(spec, lessonLength) } : {}) });
  }
}

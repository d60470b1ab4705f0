/**
 * The lab session: ONE object, made at start-up (src/main.tsx), that owns the run — the engine
 * (behind a RecoverableBackend), the GRPO trainer, the run loop, the step-through, autosave and
 * resume, file import/export, device-loss recovery — and writes what the page shows into the
 * lab store. Components read the store and call these actions; nothing else.
 *
 * One step from the Play button: play() → loop() → runOneStep() pulls the phases of
 * GrpoTrainer.runStep (src/rl/trainer.ts) and records each (recorder.ts): the rollout and the
 * update each run on the engine (src/model/recoverable.ts → the WebGPU engine or the CPU
 * reference), the trainer commits or rolls back, and the metrics and evaluations land in the
 * store. The loop yields to the browser between phases and between steps; a pause takes
 * effect before the next step starts. Settings are read from the store when a step starts, so
 * a change applies from the next step. The loop's writes are batched to animation frames
 * (frameBatch.ts): at most one commit a frame, paced while a run streams; any other write lands
 * them first.
 */
import { RecoverableBackend, DeviceLostError } from '../model/recoverable.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { lessonContract } from '../rl/lessonContract.ts';
import { defaultSettings, withSetting, type Settings } from '../rl/settings.ts';
import { detectStopSignals } from '../rl/stopSignals.ts';
import { GrpoTrainer } from '../rl/trainer.ts';
import type { FaultNotice, LabState, LabStoreApi } from '../store/labStore.ts';
import { labSearch, parseLabUrl } from '../store/url.ts';
import { EVAL_SIZE } from '../store/views.ts';
import { nextOverlayId, runOrigin, startedOrigin } from '../store/overlays.ts';
import { RunsList } from './runsList.ts';
import { ComeBack } from './comeBack.ts';
import { FrameBatch, type FrameScheduler } from './frameBatch.ts';
import { StepRecorder } from './recorder.ts';
import { profileStep } from './profile.ts';
import { Autosave, FinishedRuns, type SavedRunSlot } from './autosave.ts';
import { forgetPredictions, newClassSeed } from '../class/local.ts';
import { forgetAnswers } from '../class/answers.ts';
import { runRows, startingWeights, type ImportedModel } from './engine.ts';
import { LessonVerdict } from './lessonVerdict.ts';
import { EngineKeeper } from './engineKeeper.ts';
import { SessionFiles } from './files.ts';
import { StepThrough } from './stepThrough.ts';
import { engineErrorSentence } from './sentences.ts';
import { Tour } from './tour.ts';
import { CustomTask } from './customTask.ts';
import { ViewActions } from './viewActions.ts';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class LabSession {
  /** The engine and the trainer of the loaded run. */
  backend: RecoverableBackend | null = null;
  trainer: GrpoTrainer | null = null;
  private imported: ImportedModel | null = null;
  /** Task/difficulty/seed/backend/imported model the run was loaded for (a change before the first step reloads). */
  private loadedKey = '';
  private loading: Promise<void> | null = null;
  private lastLoad = { reached: Promise.resolve(), evaluating: null as Promise<void> | null }; // the latest load: when it reaches its step-0 evaluation, and that evaluation (a reset waits for the first only)
  private resetting: Promise<void> | null = null;
  private resetLoaded = Promise.resolve(); // the last reset's run loaded (its step-0 evaluation may still run)
  private loopDone: Promise<void> | null = null;
  private pauseRequested = false;
  /** A Play pressed during a reset or lesson switch, waiting for its load (a Pause, or a later Play, takes its place). */
  private waitingPlay: object | null = null;
  /** "Play to step N": the loop starts no step once the trainer has completed N (null: play on). */
  private untilStep: number | null = null;
  /** The lesson run's verdict: judged once at its step, frozen; Play stops there (lab/lessonVerdict.ts). A step waits for a judgement under way (ensureReady); the presenter asks it before a step (lab/presenter.ts). */
  readonly verdicts = new LessonVerdict({
    get: () => this.get(), set: (p) => this.set(p), requestSave: () => this.autosave.request(),
    trainer: () => (this.trainer ? { step: this.trainer.step, settings: this.trainer.settings } : null),
    evaluate: async () => { const t = this.trainer; if (t) await this.recorder.record({ kind: 'evaluation', step: t.step - 1, evaluation: await t.evaluate(this.get().settings) }); },
  });
  /** The engines across runs: the warm WebGPU engine, the CPU → WebGPU hand-over, device-loss recovery (lab/engineKeeper.ts). */
  readonly engines = new EngineKeeper({
    get: () => this.get(), set: (p) => this.set(p), fault: (k, t) => this.fault(k, t), backend: () => this.backend, completedSteps: () => this.trainer?.step ?? 0,
    idle: () => !this.loading && !this.resetting && !this.loopDone && !this.stepThrough.open && !this.get().inStep && !this.get().stepMode && !this.get().profiling && !this.get().coldStart?.running,
  });
  readonly autosave: Autosave;
  readonly finished: FinishedRuns | null; // this browser's runs list, kept across reloads (null: not kept, a test's session)
  private readonly runsList: RunsList;
  private readonly comeBack: ComeBack; // a reload: the lesson's own saved run resumed, any other offered in words (lab/comeBack.ts)
  readonly stepThrough: StepThrough;
  /** The runs panel's files: checkpoint out and in, settings in (lab/files.ts). */
  readonly files = new SessionFiles({
    get: () => this.get(), set: (p) => this.set(p), backend: () => this.backend, step: () => this.trainer?.step ?? 0,
    restartFrom: async (model) => { this.imported = model; await this.reset(); },
  });
  readonly frames: FrameBatch<LabState>;
  readonly recorder: StepRecorder;
  readonly tour: Tour; // the class tour (lab/tour.ts): its open stop, the moves and actions of its card
  readonly custom: CustomTask; // the custom task (lab/customTask.ts): "Use this task", its cold start and base
  readonly view = new ViewActions({ get: () => this.get(), set: (p) => this.set(p) }); // speed, classroom, overlays, pins (lab/viewActions.ts)

  /** `savedRuns`: where autosave writes (this browser's IndexedDB unless a test gives its own); `finishedRuns`: where the runs list
   *  is kept (IndexedDB; a test that gives `savedRuns` keeps none unless it gives this too); `frames`: when the loop's writes land (tests). */
  constructor(private readonly store: LabStoreApi, opts: { savedRuns?: SavedRunSlot; finishedRuns?: SavedRunSlot; frames?: FrameScheduler } = {}) {
    this.frames = new FrameBatch(store, opts.frames);
    this.recorder = new StepRecorder({ frames: this.frames, trainer: () => this.trainer!, stop: () => { this.pauseRequested = true; }, stepRecorded: () => this.autosave.stepRecorded() });
    this.autosave = new Autosave({
      get: () => this.get(),
      set: (p) => this.set(p),
      fault: (k, t) => this.fault(k, t),
      current: () => (this.backend && this.trainer ? { backend: this.backend, trainer: this.trainer, importedName: this.imported?.name ?? null } : null),
    }, opts.savedRuns);
    this.finished = opts.finishedRuns || !opts.savedRuns ? new FinishedRuns({ fault: (k, t) => this.fault(k, t) }, opts.finishedRuns) : null;
    this.runsList = new RunsList({ get: () => this.get(), set: (p) => this.set(p), store, finished: this.finished });
    this.comeBack = new ComeBack({
      get: () => this.get(), set: (p) => this.set(p), subscribe: (l) => store.subscribe(l), autosave: this.autosave, restoreRuns: () => this.runsList.restore(),
      settle: async () => { await this.stopLoop(); if (this.loading) await this.loading; },
      load: (run) => { if (run) this.imported = run.record.importedName ? { config: run.reference.config, weights: run.reference.weights, name: run.record.importedName } : null; return this.load(run, run ? () => ({ settings: run.record.settings, lessonId: run.record.page.lessonId, lessonVariant: run.record.page.lessonVariant, backendPref: run.record.page.backendPref, stepMode: false }) : undefined); },
    });
    this.stepThrough = new StepThrough({
      get: () => this.get(),
      set: (p) => this.set(p),
      ready: async () => (await this.verdicts.leaveForStepThrough(() => this.reset(() => ({ lessonId: null, lessonVariant: 0 }))), this.ensureReady()),
      trainer: () => this.trainer!,
      record: (ph) => this.recorder.record(ph),
      stepEnded: () => { this.autosave.stepEnded(); void this.verdicts.judgeIfDue(); },
    });
    this.tour = new Tour(this, store);
    this.custom = new CustomTask(this, { get: () => this.get(), set: (p) => this.set(p), forgetImported: () => { this.imported = null; } });
  }

  /** The store, with the loop's writes still waiting for their frame. */
  private get(): LabState {
    return this.frames.view();
  }
  /** Write now (after the loop's waiting writes). */
  private set(patch: Partial<LabState> | ((s: LabState) => Partial<LabState>)): void {
    this.frames.flush();
    this.store.setState(patch);
  }

  /** Read the address, fill the store, keep the address in sync; then (lab/comeBack.ts) the runs list and saved run are read back, and the lesson's own run resumed or a fresh one loaded. */
  init(search: string): Promise<void> {
    const u = parseLabUrl(search);
    this.set({ settings: u.settings, urlNotices: u.notices, lessonId: u.lessonId, lessonVariant: u.lessonVariant, backendPref: u.backend, classroom: u.classroom, classMode: u.classMode, hidden: u.hidden, presenter: u.present ? { item: 0 } : null, taskSpecs: u.taskSpecs });
    const address = (s: LabState) => location.pathname + labSearch({ ...s, backend: s.backendPref, tour: this.tour.stop });
    this.tour.init(u.tour, () => { if (typeof history !== 'undefined') history.replaceState(null, '', address(this.get())); }); // the class tour's stop is in the address too
    this.store.subscribe((s, prev) => {
      if (s.settings !== prev.settings || s.lessonId !== prev.lessonId || s.lessonVariant !== prev.lessonVariant || s.classroom !== prev.classroom || s.classMode !== prev.classMode || s.hidden !== prev.hidden || s.backendPref !== prev.backendPref || s.presenter !== prev.presenter) {
        if (typeof history !== 'undefined') history.replaceState(null, '', address(s));
      }
    });
    if (typeof history !== 'undefined') history.replaceState(null, '', address(this.get()));
    const started = this.comeBack.start();
    this.loading ??= started; // a Step or a switch meanwhile waits for the run it loads
    return started;
  }

  private fault(kind: FaultNotice['kind'], text: string): void {
    const faults = this.get().faults;
    if (faults.some((f) => f.kind === kind && f.text === text)) return; // said once is enough
    this.set({ faults: [...faults, { kind, text }].slice(-6) });
  }

  private startKey(s: Settings): string { return `${s.task}/${s.difficulty}/${s.watchTask}/${s.seed}/${this.get().backendPref}/${this.imported?.name ?? ''}`; }

  /** (Re)load the model: starting weights (or a saved run), engine, π_ref, the step-0 evaluation. */
  private load(resume: import('../persist/savedRun.ts').ValidSavedRun | null = null, next?: (s: LabState) => Partial<LabState>): Promise<void> {
    let reached!: () => void;
    const prev = this.lastLoad;
    const me = (this.lastLoad = { reached: new Promise<void>((r) => { reached = r; }), evaluating: null as Promise<void> | null });
    const run = async () => {
      const patch = next?.(this.get()) ?? {}, st = { ...this.get(), ...patch }; // `next` (a lesson, a custom task) lands in the same update that clears the old run
      const s = st.settings;
      // where this run starts (the store's lesson may name the next one by the time it is archived); its weights' identity once loaded
      const origin = runOrigin(s, { id: st.lessonId, variant: st.lessonVariant }, this.imported?.name ?? null);
      this.set({ ...patch, lessonId: st.lessonId, lessonVariant: st.lessonVariant, settings: s, liveOrigin: origin, status: 'loading', error: null, steps: [], evals: [], verdict: null, lessonNotice: null, leftLesson: null, lastRollout: null, signals: [], inspector: null, stepsStarted: 0, stepsCompleted: 0, rejected: null, lastSave: null, engineHandover: null, cameBack: null });
      await this.stepThrough.abandon();
      await this.engines.quiet();
      this.engines.retire(this.backend, prev.evaluating); // its WebGPU engine stays warm for the next run of this shape (once its step-0 evaluation, if any, is over)
      this.backend = null;
      this.trainer = null;
      this.autosave.restart();
      const notices: string[] = [];
      const progress = (p: LabState['progress']) => this.set({ progress: p });
      try {
        // a resumed run's engine starts from its own π_ref; its policy and AdamW state are put back by the trainer
        const { config, weights } = resume ? { config: resume.reference.config, weights: resume.reference.weights } : await startingWeights(s, this.imported, notices, progress, this.get().taskBases[s.task]);
        const started = startedOrigin(origin, config, weights, this.get().taskBases[s.task]); // the weights' identity; a chosen overlay stays only if comparable
        this.set({ liveOrigin: started, overlayRunId: nextOverlayId(this.get().runs, this.get().overlayRunId, started) });
        const pref = this.get().backendPref;
        const backend = await RecoverableBackend.wrap(await this.engines.start(pref, config, weights, s.seed, notices, progress, runRows(s), !!resume)); // a resumed run on auto waits for WebGPU (unless the adapter is a software one); its kernel forms timed at its rows
        backend.onLost = (info) => this.engines.onDeviceLost(info);
        // a lesson run reads its contract's fixed held-out set in full at step 0 and at the verdict step (rl/contract.ts)
        const lesson = origin.lessonId ? getLesson(origin.lessonId) : undefined;
        const trainer = new GrpoTrainer(backend, s, { evalSize: EVAL_SIZE, commits: backend, contract: lesson ? lessonContract(lesson) : null });
        if (resume) {
          const rec = resume.record;
          await trainer.resume(resume.reference.weights, { weights: resume.checkpoint.weights, optimizer: resume.checkpoint.optimizer! }, { step: rec.trainer.step, numTokens: rec.trainer.numTokens, promptStream: rec.trainer.promptRng });
          notices.push(`Resumed the run saved in this browser at step ${rec.trainer.step}.`);
        } else {
          await trainer.takeReference(); // π_ref = the base policy
        }
        this.backend = backend;
        this.trainer = trainer;
        this.loadedKey = this.startKey(s);
        this.set({ backendName: backend.name, engineNotices: notices, progress: { label: 'Evaluating on held-out prompts…' } });
        if (resume) {
          const rec = resume.record;
          this.set({ steps: rec.steps, evals: rec.evals, verdict: rec.verdict ?? null, signals: detectStopSignals(rec.steps, rec.evals), stepsStarted: rec.trainer.step, stepsCompleted: rec.trainer.step, status: 'ready', progress: null, lastSave: { step: rec.trainer.step, at: rec.savedAt } });
          return;
        }
        this.set({ status: 'ready' }); // Play is usable: a step pressed now starts once the step-0 evaluation is in (ensureReady waits for this load)
        await tick();
        const e0 = trainer.evaluate(s);
        const evaluating = (me.evaluating = e0.then(() => {}, () => {})); // until it is over: a run loaded after it then takes the warm engine at once
        void evaluating.then(() => { if (me.evaluating === evaluating) me.evaluating = null; });
        reached(); // a reset or a lesson switch from here on leaves this evaluation behind (its run is being left)
        const ev = await e0;
        if (this.lastLoad === me) this.set({ evals: [ev], progress: null });
      } catch (e) {
        if (this.lastLoad === me) this.set({ status: 'error', error: `Could not start the model: ${(e as Error).message}`, engineNotices: notices, progress: null });
      }
    };
    const loading: Promise<void> = run().finally(() => { reached(); if (this.loading === loading) { this.loading = null; this.engines.loaded(); } });
    return (this.loading = loading);
  }

  /** A model is loaded for the current settings (a task/seed/engine change before the first step reloads). */
  private async ensureReady(): Promise<boolean> {
    if (this.get().coldStart?.running) return false; // a cold start has the engine (customTask.ts)
    if (this.resetting) await this.resetting;
    if (this.loading) await this.loading;
    await this.verdicts.settled();
    if (this.trainer && this.get().stepsCompleted === 0 && !this.stepThrough.open && this.startKey(this.get().settings) !== this.loadedKey) await this.load();
    return this.trainer !== null;
  }

  /** One whole GRPO step, yielding to the page between its phases. A lost device discards only this step. */
  private async runOneStep(): Promise<void> {
    if (this.engines.recovering) await this.engines.recovering;
    await this.engines.beforeStep(); // the CPU → WebGPU hand-over happens only here, at a step boundary
    const t = this.trainer!;
    this.recorder.started();
    const stepBefore = t.step;
    try {
      for await (const ph of t.runStep(this.get().settings)) {
        await this.recorder.record(ph);
        if (ph.kind === 'rollout' || ph.kind === 'advantages') await tick();
      }
    } catch (e) {
      if (!(e instanceof DeviceLostError)) throw e;
      this.engines.onDeviceLost(e.info);
      await this.engines.recovering;
      // the step in progress is redone if its update was not recorded; an evaluation after it is skipped
      if (t.step === stepBefore) this.set((s) => ({ discardedSteps: s.discardedSteps + 1, lastRecovery: s.lastRecovery && { ...s.lastRecovery, discardedSteps: s.lastRecovery.discardedSteps + 1 } }));
    } finally {
      this.recorder.ended();
      this.autosave.stepEnded();
    }
    await this.verdicts.judgeIfDue();
  }

  /** "Continue past the verdict": Play trains on from the verdict step; the verdict stays as judged. */
  async continuePastVerdict(): Promise<void> {
    if (this.verdicts.continuePast()) await this.play();
  }

  /** "New student" (the page asks first): this browser's predictions and answers, class seed, runs list and saved run are forgotten; the lesson starts over from its base (class mode: on a new seed). */
  async newStudent(): Promise<void> {
    const seed = newClassSeed();
    await this.autosave.discard();
    await this.reset((s) => ({ runs: [], overlayRunId: null, settings: s.classMode ? { ...s.settings, seed } : s.settings }));
    forgetPredictions(); forgetAnswers(); // once the old run is gone: a card still showing it would mark its lesson as skipped
  }

  /** Whether the loop may start another step: no pause asked, the target step (if any) not reached. Read from the trainer, never from the store, whose writes land a frame (or a paced wait) later. */
  private mayStep(): boolean {
    return !this.pauseRequested && !(this.untilStep !== null && (this.trainer?.step ?? 0) >= this.untilStep) && !this.verdicts.reached();
  }

  private async loop(): Promise<void> {
    this.set({ status: 'running' });
    try {
      while (this.mayStep()) {
        await this.runOneStep();
        if (!this.mayStep()) break;
        await sleep(this.get().delayMs); // yield between steps even at full speed
      }
    } catch (e) {
      this.set({ error: `Training stopped: ${engineErrorSentence(e)}` });
    } finally {
      this.set({ status: this.trainer ? 'paused' : 'error', pausing: false });
      this.loopDone = null;
      this.autosave.request();
    }
  }

  // ---- transport --------------------------------------------------------------------------
  /** Play; with `untilStep`, the loop itself stops once the trainer has completed that many steps (the tour's "Play to step N"). */
  async play(opts: { untilStep?: number } = {}): Promise<void> {
    if (this.resetting) { // a switch is under way (its stop would swallow this Play): it plays the run the switch loads
      const mine = (this.waitingPlay = {});
      while (this.resetting) await this.resetting;
      if (this.waitingPlay !== mine) return;
      this.waitingPlay = null;
    }
    if (this.loopDone) { if (opts.untilStep !== undefined) this.untilStep = opts.untilStep; return; } // a running loop takes the target
    this.untilStep = opts.untilStep ?? null;
    if (this.get().stepMode) await this.setStepMode(false);
    this.pauseRequested = false;
    if (!(await this.ensureReady())) return;
    if (this.loopDone || this.pauseRequested) return;
    if (this.verdicts.reached()) return this.set({ lessonNotice: this.verdicts.notice() }); // a lesson run stops at its verdict
    this.loopDone = this.loop();
  }

  /** Ask the loop to stop; it finishes the step in progress and starts no other. */
  pause(): void {
    this.pauseRequested = true;
    this.waitingPlay = null; // a Play waiting for a switch's load does not start
    this.set((s) => ({ pausedAt: { stepsStarted: s.stepsStarted, midStep: s.inStep }, pausing: !!this.loopDone }));
    if (!this.loopDone && this.get().status === 'running') this.set({ status: 'paused' });
  }

  togglePlay(): void {
    return (this.loopDone && !this.pauseRequested) || this.waitingPlay ? this.pause() : void this.play();
  }

  private async stopLoop(): Promise<void> {
    this.pauseRequested = true;
    if (this.loopDone) await this.loopDone;
  }

  /** Step one whole update (or, in step-through mode, show the next phase). */
  async stepOnce(): Promise<void> {
    if (this.get().stepMode) return this.stepThrough.forward();
    await this.stopLoop();
    if (!(await this.ensureReady()) || this.get().inStep) return;
    if (this.verdicts.reached()) return this.set({ lessonNotice: this.verdicts.notice() });
    await this.runOneStep();
    this.set({ status: 'paused' });
    this.autosave.request();
  }

  stepBack(): void { this.stepThrough.back(); }

  async setStepMode(on: boolean): Promise<void> {
    if (on === this.get().stepMode) return;
    if (on) await this.stopLoop().then(() => this.verdicts.leaveForStepThrough(() => this.reset(() => ({ lessonId: null, lessonVariant: 0 })))); // before any phase: not from inside one
    this.set({ stepMode: on });
    if (!on) await this.stepThrough.abandon(); // leaving mid-update: the update was never applied
  }

  /** Run one real step under the GPU profiler (WebGPU only): the step counts like any other (src/lab/profile.ts). */
  async profileOneStep(): Promise<void> {
    await this.stopLoop();
    if (!(await this.ensureReady()) || this.get().inStep || !this.backend) return;
    if (this.verdicts.reached()) return this.set({ lessonNotice: this.verdicts.notice() });
    this.set({ profiling: true, profileNote: null });
    const r = await profileStep(this.backend.engine, this.get().settings, () => this.runOneStep());
    this.set(r.ok ? { profile: r.profile, status: 'paused', profiling: false } : { profileNote: r.note, profiling: false });
    if (r.ok) this.autosave.request();
  }

  /** Reset to the starting weights (the current run is kept in the recent runs list, overlaid on the next one if comparable: overlays.ts).
   * A new run from the base; a Step or Play pressed meanwhile waits for it (ensureReady), never runs on the old one. */
  reset(next?: (s: LabState) => Partial<LabState>): Promise<void> {
    const before = this.resetting, beforeLoaded = this.resetLoaded;
    let loaded!: () => void;
    this.resetLoaded = new Promise<void>((r) => { loaded = r; });
    const done = (async () => {
      if (before) await beforeLoaded; // one reset at a time: a second starts from the first's new run (nothing to archive twice), not after its step-0 evaluation
      await this.stopLoop();
      if (this.loading) await this.lastLoad.reached; // not its step-0 evaluation: that run is being left (load() retires its engine once the evaluation is over)
      this.runsList.archive(this.trainer?.settings ?? null); // the run just ended: "the previous run"
      this.set({ stepMode: false });
      await this.autosave.clear(); // the saved run was this one; the new run is saved from its first steps
      const load = this.load(null, next);
      await this.lastLoad.reached;
      loaded(); // its step-0 evaluation under way: the next reset need not wait for it (this one's caller does)
      await load;
    })().finally(() => { loaded(); if (this.resetting === done) this.resetting = null; });
    return (this.resetting = done);
  }

  // ---- settings, lessons, view ---------------------------------------------------------------
  /** Change one setting (choosing the sequence ratio level sets GSPO's clip: withSetting); the trainer reads the store's settings when the next step starts. */
  setSetting<K extends keyof Settings>(key: K, value: Settings[K]): void { this.set({ settings: withSetting(this.get().settings, key, value) }); }

  /** One click: the lesson's base checkpoint, knobs and text; the current run is kept, and overlaid only beside its siblings.
   *  The seed stays (no lesson sets it): a teacher's variants on seed 3 all see seed 3's prompts. */
  async applyLesson(id: string, variant = 0, over: Partial<Settings> = {}): Promise<void> {
    const lesson = getLesson(id);
    if (!lesson) return;
    this.imported = null;
    // the lesson and its settings land with the new run's load, never beside the old run's steps
    // (a tour stop or a lesson card would read the old run's numbers as the new lesson's)
    await this.reset((s) => ({ lessonId: id, lessonVariant: variant, settings: { ...lessonSettings(lesson, { ...defaultSettings(), seed: s.settings.seed }, variant), ...over } })); // `over`: lesson 1 on a custom task
  }

  // ---- saved runs and files -----------------------------------------------------------------
  /** Resume the run offered at start-up: its settings, history, weights, AdamW state and π_ref. */
  resumeSaved(): Promise<void> { return this.comeBack.resumeOffered(); }

  discardSaved(): Promise<void> { return this.autosave.discard(); }
}

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
import { getLesson, LESSONS, lessonContract, lessonSettings, settingsChangedFrom } from '../rl/lessons.ts';
import { defaultSettings, withSetting, type Settings } from '../rl/settings.ts';
import { parseSettingsFile } from '../persist/settingsFile.ts';
import { detectStopSignals } from '../rl/stopSignals.ts';
import { GrpoTrainer } from '../rl/trainer.ts';
import type { FaultNotice, LabState, LabStoreApi } from '../store/labStore.ts';
import { labSearch, parseLabUrl } from '../store/url.ts';
import { archivedRun, EVAL_SIZE } from '../store/views.ts';
import { keptRuns, nextOverlayId, runOrigin, startedOrigin } from '../store/overlays.ts';
import { FrameBatch, type FrameScheduler } from './frameBatch.ts';
import { StepRecorder } from './recorder.ts';
import { profileStep } from './profile.ts';
import { Autosave, FinishedRuns, type SavedRunSlot } from './autosave.ts';
import { forgetPredictions, newClassSeed } from '../class/local.ts';
import { startingWeights, type ImportedModel } from './engine.ts';
import { EngineKeeper } from './engineKeeper.ts';
import { checkpointFile, readCheckpointFile } from './files.ts';
import { StepThrough } from './stepThrough.ts';
import { engineErrorSentence } from './sentences.ts';
import { Tour } from './tour.ts';
import { CustomTask } from './customTask.ts';
import { ViewActions } from './viewActions.ts';

const MAX_SAVED_RUNS = 5;

const tick = () => new Promise<void>((r) => setTimeout(r, 0));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class LabSession {
  /** The engine and the trainer of the loaded run. */
  backend: RecoverableBackend | null = null;
  trainer: GrpoTrainer | null = null;
  private imported: ImportedModel | null = null;
  /** Task/difficulty/seed/backend/imported model the run was loaded for (a change before the first step reloads). */
  private loadedKey = '';
  private runCounter = 0;
  private loading: Promise<void> | null = null;
  private resetting: Promise<void> | null = null;
  private loopDone: Promise<void> | null = null;
  private pauseRequested = false;
  /** A Play pressed during a reset or lesson switch, waiting for its load (a Pause, or a later Play, takes its place). */
  private waitingPlay: object | null = null;
  /** "Play to step N": the loop starts no step once the trainer has completed N (null: play on). */
  private untilStep: number | null = null;
  /** The lesson verdict being judged at its step (a step waits for it: ensureReady). */
  private judging: Promise<void> | null = null;
  /** The engines across runs: the warm WebGPU engine, the CPU → WebGPU hand-over, device-loss recovery (lab/engineKeeper.ts). */
  readonly engines = new EngineKeeper({
    get: () => this.get(), set: (p) => this.set(p), fault: (k, t) => this.fault(k, t), backend: () => this.backend, completedSteps: () => this.trainer?.step ?? 0,
    idle: () => !this.loading && !this.resetting && !this.loopDone && !this.stepThrough.open && !this.get().inStep && !this.get().stepMode && !this.get().coldStart?.running,
  });
  readonly autosave: Autosave;
  /** This browser's runs list, kept across reloads (null: not kept, a test's session). */
  readonly finished: FinishedRuns | null;
  readonly stepThrough: StepThrough;
  readonly frames: FrameBatch<LabState>;
  readonly recorder: StepRecorder;
  readonly tour: Tour; // the class tour (lab/tour.ts): its open stop, the moves and actions of its card
  readonly custom: CustomTask; // the custom task (lab/customTask.ts): "Use this task", its cold start and base
  readonly view = new ViewActions({ get: () => this.get(), set: (p) => this.set(p) }); // speed, classroom, overlays, pins (lab/viewActions.ts)

  /**
   * `savedRuns`: where autosave writes (this browser's IndexedDB unless a test gives its own);
   * `finishedRuns`: where the runs list is kept (IndexedDB; a test that gives `savedRuns` keeps none unless it gives this too);
   * `frames`: when the loop's writes land (tests).
   */
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
    store.subscribe((now, prev) => { if (now.runs !== prev.runs) this.finished?.keep(now.runs); });
    this.stepThrough = new StepThrough({
      get: () => this.get(),
      set: (p) => this.set(p),
      ready: () => this.readyToStepThrough(),
      trainer: () => this.trainer!,
      record: (ph) => this.recorder.record(ph),
      stepEnded: () => { this.autosave.stepEnded(); this.judgeIfDue(); },
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

  /** Read the address, fill the store, keep the address in sync, load the model, offer a saved run. */
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
    const loaded = this.load();
    void this.autosave.offer();
    void this.restoreRuns();
    return loaded;
  }

  /** This browser's runs list, read back (merged with any run archived meanwhile; ids kept distinct). */
  private async restoreRuns(): Promise<void> {
    const kept = (await this.finished?.restore(MAX_SAVED_RUNS)) ?? [];
    if (!kept.length) return;
    const now = this.get().runs;
    let next = Math.max(this.runCounter, ...now.map((r) => r.id), ...kept.map((r) => r.id));
    const taken = new Set(now.map((r) => r.id));
    const restored = kept.map((r) => (taken.has(r.id) ? { ...r, id: ++next } : r));
    this.runCounter = next;
    const runs = keptRuns([...now, ...restored], MAX_SAVED_RUNS);
    const live = this.get().liveOrigin;
    this.set({ runs, overlayRunId: this.get().overlayRunId ?? (live ? nextOverlayId(runs, null, live) : null) });
  }

  private fault(kind: FaultNotice['kind'], text: string): void {
    const faults = this.get().faults;
    if (faults.some((f) => f.kind === kind && f.text === text)) return; // said once is enough
    this.set({ faults: [...faults, { kind, text }].slice(-6) });
  }

  private startKey(s: Settings): string {
    return `${s.task}/${s.difficulty}/${s.watchTask}/${s.seed}/${this.get().backendPref}/${this.imported?.name ?? ''}`;
  }

  /** (Re)load the model: starting weights (or a saved run), engine, π_ref, the step-0 evaluation. */
  private load(resume: import('../persist/savedRun.ts').ValidSavedRun | null = null, next?: (s: LabState) => Partial<LabState>): Promise<void> {
    const run = async () => {
      const patch = next?.(this.get()) ?? {}, st = { ...this.get(), ...patch }; // `next` (a lesson, a custom task) lands in the same update that clears the old run
      const s = st.settings;
      // where this run starts (the store's lesson may name the next one by the time it is archived); its weights' identity once loaded
      const origin = runOrigin(s, { id: st.lessonId, variant: st.lessonVariant }, this.imported?.name ?? null);
      this.set({ ...patch, lessonId: st.lessonId, lessonVariant: st.lessonVariant, settings: s, liveOrigin: origin, status: 'loading', error: null, steps: [], evals: [], verdict: null, lessonNotice: null, lastRollout: null, signals: [], inspector: null, stepsStarted: 0, stepsCompleted: 0, rejected: null, lastSave: null, engineHandover: null });
      await this.stepThrough.abandon();
      await this.engines.quiet();
      this.engines.retire(this.backend); // its WebGPU engine stays warm for the next run of this shape
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
        const backend = await RecoverableBackend.wrap(await this.engines.start(resume && pref === 'auto' ? 'webgpu' : pref, config, weights, s.seed, notices, progress)); // a resumed run waits for WebGPU
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
        const e0 = await trainer.evaluate(s);
        this.set({ evals: [e0], progress: null });
      } catch (e) {
        this.set({ status: 'error', error: `Could not start the model: ${(e as Error).message}`, engineNotices: notices, progress: null });
      }
    };
    this.loading = run().finally(() => { this.loading = null; this.engines.loaded(); });
    return this.loading;
  }

  /** A model is loaded for the current settings (a task/seed/engine change before the first step reloads). */
  private async ensureReady(): Promise<boolean> {
    if (this.get().coldStart?.running) return false; // a cold start has the engine (customTask.ts)
    if (this.resetting) await this.resetting;
    if (this.loading) await this.loading;
    if (this.judging) await this.judging;
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
    await this.judgeIfDue();
  }

  // ---- the lesson's verdict: judged once at its step, frozen -------------------------------

  /** The live run's lesson variant and its claim (null: not a lesson run). */
  private liveLesson() {
    const o = this.get().liveOrigin;
    const lesson = o?.lessonId ? getLesson(o.lessonId) : undefined;
    const claim = lesson?.variants[o!.variant]?.claim;
    return lesson && claim ? { lesson, variant: o!.variant, claim } : null;
  }

  /** The step Play stops at: the live lesson run's verdict step, unless the student continued past it (null: no stop). */
  private verdictStop(): number | null {
    if (this.get().verdict?.continued) return null;
    return this.liveLesson()?.claim.steps ?? null;
  }

  /** The live lesson run is at its verdict step and was not continued past it: no step may be added to it now. */
  private verdictReached(): boolean {
    const stop = this.verdictStop();
    return stop !== null && (this.trainer?.step ?? 0) >= stop;
  }

  /**
   * At the verdict step, once: judge the claim on the run's record and freeze the verdict (the card,
   * the share code and the saved run read it; nothing judges the run again). Not judged when the
   * run's settings differ from the variant's (the claim is not about it).
   */
  private judgeIfDue(): Promise<void> {
    const live = this.liveLesson();
    const s = this.get();
    if (!live || s.verdict || !this.trainer || this.trainer.step < live.claim.steps) return this.judging ?? Promise.resolve();
    const run = async () => {
      const { lesson, variant, claim } = live;
      const changed = settingsChangedFrom(lesson, variant, this.trainer?.settings ?? this.get().settings).length > 0;
      const now = this.get();
      const judged = changed ? null : claim.judge({ steps: now.steps, evals: now.evals });
      this.set({ verdict: { lessonId: lesson.id, variant, step: claim.steps, judged, continued: false } });
      this.autosave.request();
    };
    return (this.judging ??= run().finally(() => { this.judging = null; }));
  }

  /** The sentence for a step refused at the verdict. */
  private verdictNotice(): string {
    return `The verdict is in at step ${this.verdictStop()}, judged once. “Continue past the verdict” trains on; later steps are marked as after it.`;
  }

  /** "Continue past the verdict": Play trains on from the verdict step; the verdict stays as judged. */
  async continuePastVerdict(): Promise<void> {
    const v = this.get().verdict;
    if (!v) return;
    this.set({ verdict: { ...v, continued: true }, lessonNotice: null });
    this.autosave.request();
    await this.play();
  }

  /**
   * The step-through on a lesson run at its frozen verdict would add steps to it: the run is kept
   * (under Runs, with its verdict) and a new run outside the lesson, with the same settings, is stepped through.
   */
  private async readyToStepThrough(): Promise<boolean> {
    if (this.judging) await this.judging;
    if (this.verdictReached()) {
      const live = this.liveLesson()!;
      const n = LESSONS.indexOf(live.lesson) + 1;
      await this.reset(() => ({ lessonId: null, lessonVariant: 0 }));
      this.set((s) => ({ stepMode: true, engineNotices: [...s.engineNotices, `Stepping through an update started a new run outside the lesson: lesson ${n}'s run keeps its verdict at step ${live.claim.steps} (under Runs).`] }));
    }
    return this.ensureReady();
  }

  /**
   * "New student" (the page asks first): this browser's predictions, class seed, runs list and saved
   * run are forgotten, and the lesson starts over from its base (in class mode on a new seed).
   */
  async newStudent(): Promise<void> {
    const seed = newClassSeed();
    await this.autosave.discard();
    await this.reset((s) => ({ runs: [], overlayRunId: null, settings: s.classMode ? { ...s.settings, seed } : s.settings }));
    forgetPredictions(); // once the old run is gone: a card still showing it would mark its lesson as skipped
  }

  /** Whether the loop may start another step: no pause asked, the target step (if any) not reached. Read from the trainer, never from the store, whose writes land a frame (or a paced wait) later. */
  private mayStep(): boolean {
    return !this.pauseRequested && !(this.untilStep !== null && (this.trainer?.step ?? 0) >= this.untilStep) && !this.verdictReached();
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
    if (this.verdictReached()) return this.set({ lessonNotice: this.verdictNotice() }); // a lesson run stops at its verdict
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
    if ((this.loopDone && !this.pauseRequested) || this.waitingPlay) this.pause();
    else void this.play();
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
    if (this.verdictReached()) return this.set({ lessonNotice: this.verdictNotice() });
    await this.runOneStep();
    this.set({ status: 'paused' });
    this.autosave.request();
  }

  stepBack(): void {
    this.stepThrough.back();
  }

  async setStepMode(on: boolean): Promise<void> {
    if (on === this.get().stepMode) return;
    if (on) await this.stopLoop();
    this.set({ stepMode: on });
    if (!on) await this.stepThrough.abandon(); // leaving mid-update: the update was never applied
  }

  /** Run one real step under the GPU profiler (WebGPU only): the step counts like any other (src/lab/profile.ts). */
  async profileOneStep(): Promise<void> {
    await this.stopLoop();
    if (!(await this.ensureReady()) || this.get().inStep || !this.backend) return;
    if (this.verdictReached()) return this.set({ lessonNotice: this.verdictNotice() });
    this.set({ profiling: true, profileNote: null });
    const r = await profileStep(this.backend.engine, this.get().settings, () => this.runOneStep());
    this.set(r.ok ? { profile: r.profile, status: 'paused', profiling: false } : { profileNote: r.note, profiling: false });
    if (r.ok) this.autosave.request();
  }

  /** Reset to the starting weights (the current run is kept in the recent runs list, overlaid on the next one if comparable: overlays.ts).
   * A new run from the base; a Step or Play pressed meanwhile waits for it (ensureReady), never runs on the old one. */
  reset(next?: (s: LabState) => Partial<LabState>): Promise<void> {
    const before = this.resetting;
    const done = (async () => {
      if (before) await before; // one reset at a time: a second starts from the first's new run (nothing to archive twice)
      await this.stopLoop();
      if (this.loading) await this.loading;
      this.archiveRun();
      this.set({ stepMode: false });
      await this.autosave.clear(); // the saved run was this one; the new run is saved from its first steps
      await this.load(null, next);
    })().finally(() => { if (this.resetting === done) this.resetting = null; });
    return (this.resetting = done);
  }

  /** Keep the run just ended for overlay and comparison: "the previous run". */
  private archiveRun(): void {
    const s = this.get();
    if (!s.steps.length) return;
    // what the run was made with: the trainer's settings (the store's may already be the next run's, e.g. a lesson variant)
    const rs = this.trainer?.settings ?? s.settings;
    const run = archivedRun(s, rs, s.liveOrigin ?? runOrigin(rs, { id: null, variant: 0 }, null), ++this.runCounter);
    this.set({ runs: keptRuns([run, ...s.runs], MAX_SAVED_RUNS), overlayRunId: run.id, liveOrigin: null }); // no live run until the next loads: it keeps this one overlaid only if comparable
  }

  // ---- settings, lessons, view ---------------------------------------------------------------

  /** Change one setting (choosing the sequence ratio level sets GSPO's clip: withSetting); the trainer reads the store's settings when the next step starts. */
  setSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
    this.set({ settings: withSetting(this.get().settings, key, value) });
  }

  /**
   * One click: the lesson's base checkpoint, knobs and text; the current run is kept, and overlaid only beside its siblings.
   * The seed stays (no lesson sets it): a teacher's variants on seed 3 all see seed 3's prompts.
   */
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
  async resumeSaved(): Promise<void> {
    const run = this.autosave.take();
    if (!run) return;
    await this.stopLoop();
    if (this.loading) await this.loading;
    const rec = run.record;
    this.imported = rec.importedName ? { config: run.reference.config, weights: run.reference.weights, name: rec.importedName } : null;
    this.set({ settings: rec.settings, lessonId: rec.page.lessonId, lessonVariant: rec.page.lessonVariant, backendPref: rec.page.backendPref, stepMode: false });
    await this.load(run);
  }

  discardSaved(): Promise<void> {
    return this.autosave.discard();
  }

  /** The current policy as a checkpoint file, or null before a model is loaded. */
  async checkpointBytes(): Promise<Uint8Array | null> {
    if (!this.backend) return null;
    const s = this.get();
    return checkpointFile(this.backend, { settings: s.settings, step: this.trainer?.step ?? 0, lesson: s.lessonId });
  }

  /** Load a checkpoint file; the run restarts from it. Returns the refusal sentence, or null. */
  async importCheckpoint(name: string, bytes: Uint8Array): Promise<string | null> {
    const r = readCheckpointFile(name, bytes);
    if (!r.ok) return r.error;
    this.imported = r.model;
    await this.reset();
    return null;
  }

  /** Apply a settings file (validated against the settings table), like the sliders: from the next step. */
  importSettings(name: string, bytes: Uint8Array): { error: string | null; notices: string[] } {
    const r = parseSettingsFile(name, bytes, this.get().settings);
    if (!r.ok) return { error: r.error, notices: [] };
    this.set((s) => ({ settings: r.settings, taskSpecs: { ...s.taskSpecs, ...r.taskSpecs } }));
    return { error: null, notices: r.notices };
  }
}

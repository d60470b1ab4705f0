/**
 * The page's engines across runs (one per LabSession): which engine a new run starts on, the
 * WebGPU engine kept warm between runs of the same model shape, the hand-over from the CPU
 * reference to WebGPU, and rebuilding a lost GPU engine.
 *
 * - Kept warm: a reset, a lesson or a resumed run of the same model shape (and adapter) reuses
 *   the last run's WebGPU engine — its device, compiled pipelines, buffers and the kernel forms
 *   its self-check chose — with the new run's weights and a fresh AdamW state. Nothing is
 *   compiled or checked again (a lesson switch took 20 s of shader compiling on SwiftShader).
 *   Where that engine is still evaluating the left run at step 0 (a lesson's contract: seconds
 *   on SwiftShader), the new run starts on the CPU engine and is handed over to it, as below.
 * - A stopped CPU worker (src/worker/cpuEngine.ts) is recovered like a lost device: new workers, the committed state.
 * - Software adapters (backend 'auto', the default): where the browser's only WebGPU adapter is a
 *   software one (SwiftShader: Chrome on a machine without a usable GPU; gpu/device.ts
 *   isSoftwareAdapter), WebGPU is slower than the CPU engine on the same processor (2-3× on
 *   lessons 1 and 4), so the run takes the CPU engine, with a sentence, and WebGPU is never
 *   compiled; a resumed run too. `?backend=webgpu` still runs WebGPU there. The adapter is asked
 *   once (`adapter()`), and the header reads the same report (the store's `webgpu`).
 * - Hand-over (backend 'auto' only, the default): while WebGPU compiles and checks itself, a new
 *   run starts on the CPU reference, so Play answers in seconds. The hand-over happens at a step
 *   boundary only: before step 1 when WebGPU is ready by then (the run is a WebGPU run; its π_ref
 *   and step-0 evaluation were the CPU reference's), else right after step 1 (step 2 waits for
 *   it). The draws are fixed by (seed, step, sample, position), not by the engine, so the same
 *   seed with the same engines per step gives the same run; the run says which step changed
 *   engine (`engineHandover` in the store, the engine line, the metrics JSON). `?backend=webgpu`
 *   waits for WebGPU (a pure WebGPU run, as the CLI's), `?backend=cpu` never uses it.
 * - Rows: the kernel forms are timed at the run's rows (prompts × G), per rows class: a run of a
 *   rows class the session has not timed gets the tune alone at its rows as it starts (engine.ts
 *   fitRows; the check is not run again), a kept engine included.
 * - Idle time: a tune cut short by its budget is finished while the lab is idle, a slice at a time
 *   (idleTune.ts: one family at most per slice, WebGPU in its worker only); a step waits for the
 *   slice under way, and the run keeps its forms: the choice is checked and taken when the next run starts.
 */
import type { Backend } from '../model/backend.ts';
import { paramLayout, type ModelConfig } from '../model/config.ts';
import { initWeights } from '../model/init.ts';
import { RecoverableBackend } from '../model/recoverable.ts';
import type { BackendPref } from '../store/url.ts';
import type { LabState } from '../store/labStore.ts';
import { CheckedAdapters, chooseEngine, cpuEngine, fitRows, rebuildEngine, softwareAdapterSentence, type GpuEngine } from './engine.ts';
import { deviceLostSentence, workerLostSentence } from './sentences.ts';
import { IdleTuner } from './idleTune.ts';
import { WorkerGpuBackend } from '../worker/gpuEngine.ts';
import { DEFAULT_TUNE_ROWS } from '../gpu/autotune.ts';
import { probeAdapter, type AdapterReport } from '../gpu/device.ts';

/** Timing budget of one idle-time slice, ms (a step pressed meanwhile waits for at most about this, plus one form's warm-up and run). */
export const IDLE_SLICE_MS = 250;

type Progress = (p: LabState['progress']) => void;

/** What the keeper needs from the session. */
export interface KeeperHost {
  get(): LabState;
  set(patch: Partial<LabState> | ((s: LabState) => Partial<LabState>)): void;
  fault(kind: 'device-lost', text: string): void;
  backend(): RecoverableBackend | null;
  /** Completed steps of the loaded run (the trainer's count). */
  completedSteps(): number;
  /** No load, step, step-through, profiler run or cold start in progress: the engine may change now (and an idle-time tune may run). */
  idle(): boolean;
}

const shapeKey = (config: ModelConfig) => JSON.stringify(config);
/** The interim run's sentence (the hand-over removes it by its start): why WebGPU is not ready yet. */
const gettingReady = (why: string) => `WebGPU is getting ready (${why}): the run starts here and moves to WebGPU before step 1 if it is ready by then, else after step 1.`;
const zeroAdam = (n: number) => ({ step: 0, m: new Float32Array(n), v: new Float32Array(n) });

export class EngineKeeper {
  /** Kernel forms that passed the self-check on this page's GPU (a reset or a lesson does not check again). */
  readonly checked = new CheckedAdapters();
  /** A checked WebGPU engine no run uses, kept for the next run of its shape. */
  private warm: { key: string; engine: Backend; lost: boolean; busy?: Promise<void> | null } | null = null;
  /** WebGPU getting ready (compile + self-check) while runs of this shape start on the CPU reference; null once settled. */
  private pending: { key: string; ready: Promise<Backend | null>; engine: Backend | null; settled: boolean; notices: string[] } | null = null;
  /** The loaded run started on the CPU reference and waits for `pending`. */
  private interim = false;
  private switching: Promise<void> | null = null;
  /** Counts started runs: a hand-over waiting for WebGPU applies only to the run it was waiting for. */
  private runs = 0;
  recovering: Promise<void> | null = null;
  /** Self-checks run in this session (a debug hook: a lesson of the same shape adds none). */
  selfChecks = 0;
  /** The loaded run's rows (prompts × G): its kernel forms are timed on these. */
  private rows = DEFAULT_TUNE_ROWS;
  /** Finishes an unfinished tune of the loaded run's engine in idle time (idleTune.ts). */
  readonly tuner = new IdleTuner({
    idle: () => this.host.idle() && !this.recovering && !this.switching && !this.interim,
    slice: () => this.tuneSlice(),
  });

  /** The adapter report, asked once (`adapter()`). */
  private asked: Promise<AdapterReport> | null = null;

  /** `probe`: how the adapter is asked for (a test's stand-in; the browser's otherwise). It is asked at once, so the header names it before the first run loads. */
  constructor(private readonly host: KeeperHost, private readonly probe: () => Promise<AdapterReport> = probeAdapter) {
    void this.adapter();
  }

  /** This browser's WebGPU adapter, software or not (asked once per page; the store's `webgpu` gets it for the header). */
  adapter(): Promise<AdapterReport> {
    return (this.asked ??= this.probe().then((r) => { this.host.set({ webgpu: r }); return r; }));
  }

  /**
   * The engine a new run starts on (its notices into `notices`); the caller wraps it. `rows`: the
   * run's rows (prompts × G, engine.ts runRows), the shapes its kernel forms are timed on.
   * `resume`: a saved run resumed, which on `auto` waits for WebGPU (no hand-over mid-run).
   */
  async start(pref: BackendPref, config: ModelConfig, weights: Float32Array | null, seed: number, notices: string[], progress: Progress, rows = DEFAULT_TUNE_ROWS, resume = false): Promise<Backend> {
    this.tuner.stop();
    await this.tuner.quiet(); // a slice under way ends before the engine changes hands
    this.interim = false;
    this.runs++;
    this.rows = rows;
    if (pref === 'auto') {
      const a = await this.adapter();
      if (a.available && a.software) { // the CPU engine is faster here: WebGPU is not compiled at all
        notices.push(softwareAdapterSentence(a));
        pref = 'cpu';
      } else if (resume) pref = 'webgpu';
    }
    const key = shapeKey(config);
    if (this.warm && (this.warm.key !== key || this.warm.lost || pref === 'cpu')) this.drop();
    if (this.warm?.busy && pref === 'auto') { // still evaluating the left run at step 0: this run starts on the CPU engine and moves to it once that is over
      const { engine, busy } = this.warm;
      this.warm = null;
      this.prepare(key, (said) => busy.then(async () => { await this.fit(engine, rows, said); return engine; }));
      this.interim = true;
      notices.push(gettingReady('finishing the previous run\'s evaluation'));
      return cpuEngine(config, seed, weights, notices, this.checked);
    }
    if (this.warm) {
      const { engine, busy } = this.warm;
      this.warm = null;
      try {
        if (busy) await busy; // a pure WebGPU run waits for the left run's step-0 evaluation
        await this.fit(engine, rows, notices, progress); // the forms for this run's rows: chosen in this session, else timed now
        await engine.setWeights(weights ?? initWeights(paramLayout(config), seed));
        await engine.setOptimizerState(zeroAdam(engine.layout.total));
        return engine;
      } catch {
        try { engine.dispose(); } catch { /* gone already */ }
      }
    }
    const hasGpu = typeof navigator !== 'undefined' && 'gpu' in navigator && !!navigator.gpu;
    if (pref === 'webgpu' && this.pending?.key === key) { // WebGPU asked for (or a resume) while it gets ready: wait for that engine, do not compile a second
      const p = this.pending;
      const gpu = await p.ready;
      if (!gpu) { notices.push(...p.notices); return cpuEngine(config, seed, weights, notices, this.checked); } // it could not: the reason, once
      if (this.pending === p) { this.pending = null; this.warm = { key, engine: gpu, lost: false }; return this.start(pref, config, weights, seed, notices, progress); }
    }
    if (pref !== 'auto' || !hasGpu) return this.blocking(pref, config, weights, seed, notices, progress, rows);
    if (this.pending && this.pending.key !== key) this.pending = null; // a shape change: its own WebGPU engine (the old one is disposed when it settles)
    const p = this.pending ?? this.prepare(key, async (said) => {
      const be = await this.blocking('webgpu', config, weights, seed, said, () => {}, rows);
      if (be.name !== 'webgpu') { be.dispose(); return null; }
      return be;
    });
    if (p.settled && !p.engine) { notices.push(...p.notices); return cpuEngine(config, seed, weights, notices, this.checked); }
    if (p.settled && p.engine) { this.pending = null; this.warm = { key, engine: p.engine, lost: false }; return this.start(pref, config, weights, seed, notices, progress); }
    this.interim = true;
    notices.push(gettingReady('compiling, then checking itself'));
    return cpuEngine(config, seed, weights, notices, this.checked);
  }

  /** Today's choice, waited for: WebGPU if it can run a GRPO update here (checked once per shape, timed per rows class), else the CPU reference. */
  private async blocking(pref: BackendPref, config: ModelConfig, weights: Float32Array | null, seed: number, notices: string[], progress: Progress, rows: number): Promise<Backend> {
    const before = notices.length;
    const be = await chooseEngine(pref, config, weights, seed, notices, progress, this.checked, rows);
    if (be.name === 'webgpu' && !notices.slice(before).some((n) => n.includes('not run again'))) this.selfChecks++;
    return be;
  }

  /** A checked WebGPU engine in the kernel forms for `rows` rows (engine.ts fitRows), its sentence into `notices`. */
  private async fit(engine: Backend, rows: number, notices: string[], progress?: Progress): Promise<void> {
    if (engine.name !== 'webgpu') return;
    const said = await fitRows(engine as GpuEngine, rows, this.checked, progress);
    if (said) notices.push(said);
  }

  /**
   * One idle-time slice of the loaded run's unfinished tune (the tuner calls it when the lab is
   * idle): the WebGPU engine in its worker times the next family (autotune.ts tuneSlice) with the
   * engine to itself, the run's forms unchanged; the session's record of this rows class takes the
   * times. False when nothing is left (or the engine is not one a slice can run on).
   */
  private async tuneSlice(): Promise<boolean> {
    const engine = this.host.backend()?.engine;
    if (!(engine instanceof WorkerGpuBackend)) return false;
    const rows = this.rows;
    const known = this.checked.get(engine, rows);
    if (!known?.autotune || known.autotune.finished) return false;
    const r = await engine.tuneSlice(rows, IDLE_SLICE_MS);
    if (!r || this.host.backend()?.engine !== engine || this.checked.get(engine, rows) !== known) return false;
    this.checked.remember(engine, rows, { ...known, autotune: r });
    return !r.finished;
  }

  /** A WebGPU engine made ready in the background (compiled and checked, or free again); the loaded run is handed over to it then. */
  private prepare(key: string, make: (notices: string[]) => Promise<Backend | null>) {
    const notices: string[] = [];
    const p = { key, ready: null as unknown as Promise<Backend | null>, engine: null as Backend | null, settled: false, notices };
    p.ready = make(notices).catch(() => null).then((be) => {
      p.engine = be;
      p.settled = true;
      if (this.pending !== p) { be?.dispose(); return null; }
      void this.handOverIfIdle();
      return be;
    });
    this.pending = p;
    return p;
  }

  /**
   * The loaded run is over (a reset, a lesson, a resume): keep its WebGPU engine for the next run,
   * once `busy` (the left run's step-0 evaluation, still under way) is over; any other engine is
   * closed now (an evaluation under way on it ends with an error nobody reads).
   */
  retire(be: RecoverableBackend | null, busy: Promise<void> | null = null): void {
    if (!be) return;
    be.onLost = null;
    const engine = be.engine;
    if (engine.name !== 'webgpu' || this.recovering) { be.dispose(); return; }
    this.drop();
    const warm = { key: shapeKey(engine.config), engine, lost: false, busy };
    void (engine as GpuEngine).lost.then(() => { warm.lost = true; });
    this.warm = warm;
  }

  private drop(): void {
    try { this.warm?.engine.dispose(); } catch { /* gone already */ }
    this.warm = null;
  }

  /** Wake the idle-time tuner if the loaded run's engine has a tune to finish (no timer otherwise: a CPU run never starts one). */
  private wakeTuner(): void {
    const engine = this.host.backend()?.engine;
    const t = engine instanceof WorkerGpuBackend ? this.checked.get(engine, this.rows)?.autotune : null;
    if (t && !t.finished) this.tuner.wake();
  }

  /** Where the loaded run's tune stands (a debug hook): its rows, the families timed, whether final, the idle-time slices run so far. */
  tuneState(): { rows: number; timed: string[]; finished: boolean | null; slices: number; slicing: boolean } {
    const engine = this.host.backend()?.engine;
    const t = engine?.name === 'webgpu' ? this.checked.get(engine, this.rows)?.autotune : null;
    return { rows: this.rows, timed: t?.families.filter((f) => f.timed).map((f) => f.family) ?? [], finished: t ? t.finished : null, slices: this.tuner.slices, slicing: this.tuner.busy };
  }

  /** A run finished loading: hand it over now if WebGPU is ready already; an unfinished tune of its engine goes on in idle time. */
  loaded(): void {
    if (this.pending?.settled) void this.handOverIfIdle();
    this.wakeTuner();
  }

  /** Wait for a hand-over in progress (a new load must not dispose the engine mid-swap), and for an idle-time slice under way. */
  async quiet(): Promise<void> {
    if (this.switching) await this.switching;
    await this.tuner.quiet();
  }

  /** Before each step of the run loop: the idle-time slice under way ends first; the hand-over, if this run waits for one (before step 1 if ready, else after step 1). */
  async beforeStep(): Promise<void> {
    await this.tuner.quiet();
    if (this.switching) await this.switching;
    if (!this.interim || !this.pending) return;
    if (this.host.completedSteps() === 0 && !this.pending.settled) return; // step 1 runs on the CPU reference
    await this.handOver();
  }

  /** WebGPU became ready while the run waits at step 0: hand over now, so the engine line says so before Play. */
  private async handOverIfIdle(): Promise<void> {
    if (this.interim && this.host.idle() && this.host.completedSteps() === 0 && this.host.get().stepsStarted === 0) await this.handOver();
  }

  private handOver(): Promise<void> {
    if (this.switching) return this.switching;
    const run = async () => {
      const p = this.pending;
      const be = this.host.backend();
      const run = this.runs;
      if (!p || !be || !this.interim) return;
      if (!p.settled) this.host.set({ progress: { label: 'Waiting for WebGPU to be ready before step 2 (step 1 ran on the CPU reference)…' } });
      const gpu = await p.ready;
      if (this.runs !== run || this.pending !== p || this.host.backend() !== be) return; // another run started meanwhile: it takes the engine over
      this.interim = false;
      if (!gpu) { // settled without an engine: this run and later ones stay on the CPU reference, with the reason
        this.host.set((s) => ({ progress: null, engineNotices: [...s.engineNotices.filter((n) => !n.startsWith('WebGPU is getting ready')), ...p.notices] }));
        return;
      }
      this.pending = null;
      const step = this.host.completedSteps();
      const fitted: string[] = [];
      if (!this.checked.get(gpu, this.rows)) await this.fit(gpu, this.rows, fitted); // checked at the rows of the run that started it: this run's may differ
      await be.replaceEngine(async (w) => { await gpu.setWeights(w); return gpu; });
      const sentence = step === 0
        ? 'Moved to WebGPU before step 1 (π_ref and the step-0 evaluation came from the CPU reference).'
        : `Step${step > 1 ? 's 1-' : ' '}${step} ran on the CPU reference; WebGPU from step ${step + 1}.`;
      this.host.set((s) => ({ backendName: be.name, progress: null, engineHandover: { fromStep: step + 1, from: 'cpu', to: 'webgpu' }, engineNotices: [...s.engineNotices.filter((n) => !n.startsWith('WebGPU is getting ready')), ...p.notices, ...fitted.filter((n) => !p.notices.includes(n)), sentence] }));
      this.wakeTuner();
    };
    this.switching = run().finally(() => { this.switching = null; });
    return this.switching;
  }

  /** The device was lost: rebuild the engine from the committed state (once). */
  onDeviceLost(info: { reason: string; message: string }): void {
    const be = this.host.backend();
    if (this.recovering || !be) return;
    this.tuner.stop();
    const recover = async () => {
      const engine = be.name;
      const worker = engine === 'cpu' || info.reason === 'worker'; // an engine's worker stopped or went silent (src/worker/): a new one, the same recovery
      this.host.set({ progress: { label: worker ? `A background worker of the ${engine === 'cpu' ? 'CPU' : 'WebGPU'} engine stopped: starting a new one…` : 'The GPU device was lost: recreating the engine…' } });
      const { restoredStep, fellBack } = await rebuildEngine(be, this.host.get().settings.seed, this.checked, this.rows);
      const completed = this.host.completedSteps();
      this.host.fault('device-lost', worker ? workerLostSentence(engine, completed, fellBack) : deviceLostSentence(info, completed, fellBack));
      this.host.set((s) => ({ backendName: be.name, progress: null, lastRecovery: { restoredStep, completedSteps: completed, discardedSteps: 0, engine: be.name }, engineNotices: fellBack ? [...s.engineNotices, fellBack] : s.engineNotices }));
    };
    this.recovering = recover().finally(() => { this.recovering = null; this.wakeTuner(); });
  }
}

/**
 * The run controller: owns the backend and the GRPO trainer, runs the training loop and the
 * step-through of one update, and writes everything the page shows into the lab store.
 *
 * The loop is async and keeps the page responsive: it yields to the browser (setTimeout 0)
 * between the phases of a step and between steps, and checks the pause flag before each step,
 * so a pause pressed mid-step takes effect before the next step starts. Settings changes are
 * copied into `trainer.settings` at once and apply from the next step (the trainer reads them
 * at the start of every step).
 *
 * Reliability: the trainer runs on a RecoverableBackend (src/rl/backends.ts) that keeps the last
 * good state on the CPU (on WebGPU it rides in the update's one readback). A non-finite update is
 * rejected, rolled back to the last good step and explained; a lost GPU device is replaced by a
 * fresh engine restored from that state (at most the step in progress is redone); the run is
 * saved in IndexedDB every few steps and on pause, and a reload offers to resume it.
 */
import type { Backend, TokenBatch } from '../model/backend.ts';
import { CONFIGS, type ModelConfig } from '../model/config.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../model/checkpoint.ts';
import { EOS, VOCAB, VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { baseFor } from '../rl/bases.ts';
import { createBackend, DeviceLostError, RecoverableBackend, type GoodState } from '../rl/backends.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { paramLayout } from '../model/config.ts';
import { WebGPUUnavailableError } from '../gpu/device.ts';
import { clearRun, loadRun, saveRun } from '../persist/idb.ts';
import { describeSavedRun, SAVED_RUN_FORMAT, SAVED_RUN_VERSION, validateSavedRun, type SavedRunRecord, type ValidSavedRun } from '../persist/savedRun.ts';
import { parseSettingsFile } from '../persist/settingsFile.ts';
import { detectStopSignals } from '../rl/stopSignals.ts';
import { GrpoTrainer, stepMetrics, type Rollout } from '../rl/trainer.ts';
import { pushBounded } from './history.ts';
import { PHASES, useLab, type FaultNotice, type RolloutView, type SavedRun, type TokenDetail } from './labStore.ts';
import { labSearch, parseLabUrl } from './url.ts';

/** Held-out prompts per evaluation (greedy accuracy and pass@k). */
const EVAL_SIZE = 24;
const MAX_SAVED_RUNS = 5;
/** Save the run in IndexedDB after this many recorded steps (and on every pause). */
const SAVE_EVERY = 5;
/** Imported checkpoints larger than this are refused before decoding (the lab's models are far smaller). */
export const MAX_IMPORT_BYTES = 16 << 20;
/** Largest model an imported checkpoint may hold, in floats of the flat parameter buffer (the 'small' config is ~0.8M). */
const MAX_IMPORT_FLOATS = 4 << 20;

let backend: RecoverableBackend | null = null;
/** The state after the last recorded (finite) step: what a NaN rollback and a device-loss recovery restore. */
let committed: GoodState | null = null;
/** A device-loss recovery in progress. */
let recovering: Promise<void> | null = null;
/** A saved run to restore at the next load (set by resumeSaved). */
let resumeFrom: ValidSavedRun | null = null;
/** The saved run found at start-up, until the user resumes it or starts fresh. */
let offered: ValidSavedRun | null = null;
let stepsSinceSave = 0;
let saveChain: Promise<void> = Promise.resolve();
let trainer: GrpoTrainer | null = null;
/** Task/difficulty/seed/backend the model was loaded for (a change before the first step reloads). */
let loadedKey = '';
let loading: Promise<void> | null = null;
let loopDone: Promise<void> | null = null;
let pauseRequested = false;
/** A checkpoint the user imported: reset starts from it instead of the shipped base. */
let imported: { config: ModelConfig; weights: Float32Array; name: string } | null = null;
/** The rollout and batch of the update being stepped through. */
let inspected: { rollout: Rollout; batch: TokenBatch | null } | null = null;
let runCounter = 0;
/** The lesson the loaded run was started under (the store's lessonId may already name the next one). */
let runLesson: { id: string | null; variant: number } = { id: null, variant: 0 };

const set = useLab.setState;
const get = useLab.getState;
const tick = () => new Promise<void>((r) => setTimeout(r, 0));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function startKey(s: Settings): string {
  return `${s.task}/${s.difficulty}/${s.seed}/${get().backendPref}/${imported?.name ?? ''}`;
}

/** Read the address, fill the store, keep the address in sync, load the model. */
export function initLab(search: string): Promise<void> {
  const u = parseLabUrl(search);
  set({ settings: u.settings, urlNotices: u.notices, lessonId: u.lessonId, lessonVariant: u.lessonVariant, backendPref: u.backend, classroom: u.classroom, hidden: u.hidden });
  useLab.subscribe((s, prev) => {
    if (s.settings !== prev.settings || s.lessonId !== prev.lessonId || s.lessonVariant !== prev.lessonVariant || s.classroom !== prev.classroom || s.hidden !== prev.hidden || s.backendPref !== prev.backendPref) {
      if (typeof history !== 'undefined') history.replaceState(null, '', location.pathname + labSearch({ ...s, backend: s.backendPref }));
    }
  });
  if (typeof history !== 'undefined') history.replaceState(null, '', location.pathname + labSearch({ ...get(), backend: get().backendPref }));
  const loaded = load();
  void offerSavedRun();
  return loaded;
}

function addFault(kind: FaultNotice['kind'], text: string): void {
  const faults = get().faults;
  if (faults.some((f) => f.kind === kind && f.text === text)) return; // said once is enough
  set({ faults: [...faults, { kind, text }].slice(-6) });
}

/** Look for a run saved in this browser; if it can be resumed, offer it (the page shows the prompt). */
async function offerSavedRun(): Promise<void> {
  const r = await loadRun();
  if (!r.ok) return addFault('storage', r.error);
  if (r.value === null) return;
  const v = validateSavedRun(r.value, { vocabSize: VOCAB_SIZE });
  if (!v.ok) return addFault('resume', `A run saved in this browser was found, but ${v.error}. Starting fresh; the next save replaces it.`);
  if (v.run.record.trainer.step === 0) return;
  offered = v.run;
  set({ resumeOffer: { label: describeSavedRun(v.run.record, v.run.checkpoint.config) } });
}

/** Resume the run offered at start-up: its settings, history, weights, AdamW state and π_ref. */
export async function resumeSaved(): Promise<void> {
  const run = offered;
  if (!run) return;
  offered = null;
  set({ resumeOffer: null });
  await stopLoop();
  if (loading) await loading;
  const rec = run.record;
  imported = rec.importedName ? { config: run.reference.config, weights: run.reference.weights, name: rec.importedName } : null;
  set({ settings: rec.settings, lessonId: rec.page.lessonId, lessonVariant: rec.page.lessonVariant, backendPref: rec.page.backendPref, stepMode: false });
  resumeFrom = run;
  await load();
}

/** Start fresh instead: the saved run is forgotten. */
export async function discardSaved(): Promise<void> {
  offered = null;
  set({ resumeOffer: null });
  const r = await clearRun();
  if (!r.ok) addFault('storage', r.error);
}

async function loadBaseWeights(s: Settings, notices: string[]): Promise<{ config: ModelConfig; weights: Float32Array | null }> {
  const fresh = { config: { vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, weights: null };
  if (imported) {
    notices.push(`Starting from the imported checkpoint ${imported.name}.`);
    return { config: imported.config, weights: imported.weights };
  }
  const base = baseFor(s.task, s.difficulty);
  if (!base) {
    notices.push(`No shipped base checkpoint for the task "${s.task}": starting from a fresh random init (seed ${s.seed}), which solves almost nothing, so most groups will be all-fail.`);
    return fresh;
  }
  set({ progress: { label: `Loading the base checkpoint ${base.file}…` } });
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}checkpoints/${base.file}`);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const ck = decodeCheckpoint(new Uint8Array(await res.arrayBuffer()));
    const acc = ck.metadata.heldoutAccuracy;
    notices.push(`Base checkpoint ${base.file} (SFT cold start${typeof acc === 'number' ? `, held-out accuracy ${acc.toFixed(2)}` : ''}).`);
    return { config: ck.config, weights: ck.weights };
  } catch (e) {
    notices.push(`The base checkpoint ${base.file} could not be loaded (${(e as Error).message.slice(0, 80)}): starting from a fresh random init (seed ${s.seed}).`);
    return fresh;
  }
}

async function createEngine(config: ModelConfig, weights: Float32Array | null, seed: number, notices: string[]): Promise<Backend> {
  const pref = get().backendPref;
  const hasGpu = typeof navigator !== 'undefined' && 'gpu' in navigator && !!navigator.gpu;
  if (pref !== 'cpu' && hasGpu) {
    try {
      set({ progress: { label: 'Compiling shaders…', fraction: 0 } });
      const be = await createBackend('webgpu', config, {
        seed,
        weights,
        mirrorState: true, // the last good state rides in each update's readback (NaN rollback, device loss, saving)
        onProgress: (p) => set({ progress: { label: `Compiling shaders ${p.done}/${p.total}…`, fraction: p.done / Math.max(1, p.total) } }),
      });
      await probePolicyUpdate(be);
      return be;
    } catch (e) {
      notices.push(e instanceof WebGPUUnavailableError
        ? 'WebGPU is present but gave no usable GPU (blocked or unsupported), so the lab runs on the CPU reference: same math and features, slower.'
        : `The WebGPU engine could not run a GRPO update here (${(e as Error).message.slice(0, 120)}), so the lab runs on the CPU reference: same math and features, slower.`);
    }
  } else if (pref !== 'cpu') {
    notices.push('This browser has no WebGPU, so the lab runs on the CPU reference: same math and features, slower.');
  }
  return createBackend('cpu', config, { seed, weights });
}

/** One policy update with lr 0 on a one-answer batch, then the weights and AdamW state restored: proves the engine can train. */
async function probePolicyUpdate(be: Backend): Promise<void> {
  const w = await be.getWeights();
  const opt = await be.getOptimizerState();
  const T = be.config.seqLen;
  const inputs = new Int32Array(T), targets = new Int32Array(T), mask = new Float32Array(T);
  inputs[0] = 1; targets[0] = EOS; mask[0] = 1;
  await be.snapshotReference();
  await be.trainStep({ B: 1, T, inputs, targets, mask }, {
    kind: 'policy', advantages: new Float32Array([1]), oldLogprobs: null, epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3',
    lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 1, temperature: 1,
  }, { lr: 0, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, gradClip: 1 });
  await be.setWeights(w);
  await be.setOptimizerState(opt);
}

/** (Re)load the model for the current settings: base checkpoint, backend, π_ref, the step-0 evaluation. */
function load(): Promise<void> {
  const run = async () => {
    const s = get().settings;
    runLesson = { id: get().lessonId, variant: get().lessonVariant };
    const resume = resumeFrom;
    resumeFrom = null;
    set({ status: 'loading', error: null, steps: [], evals: [], lastRollout: null, signals: [], inspector: null, stepsStarted: 0, stepsCompleted: 0, rejected: null, lastSave: null });
    inspected = null;
    backend?.dispose();
    backend = null;
    trainer = null;
    committed = null;
    stepsSinceSave = 0;
    const notices: string[] = [];
    try {
      // a resumed run starts from its own π_ref; its policy and AdamW state are put back below
      const { config, weights } = resume ? { config: resume.reference.config, weights: resume.reference.weights } : await loadBaseWeights(s, notices);
      backend = await RecoverableBackend.wrap(await createEngine(config, weights, s.seed, notices));
      backend.onLost = onDeviceLost;
      await backend.snapshotReference(); // π_ref = the base policy
      // the controller owns π_ref (taken above, restored on resume and after a device loss)
      trainer = new GrpoTrainer(backend, s, { evalSize: EVAL_SIZE, takeReference: false });
      if (resume) {
        const rec = resume.record;
        await backend.setWeights(resume.checkpoint.weights);
        await backend.setOptimizerState(resume.checkpoint.optimizer!);
        trainer.step = rec.trainer.step;
        trainer.numTokens = rec.trainer.numTokens;
        setPromptStream(trainer, rec.trainer.promptRng);
        notices.push(`Resumed the run saved in this browser at step ${rec.trainer.step}.`);
      }
      committed = backend.lastGood;
      loadedKey = startKey(s);
      set({ backendName: backend.name, engineNotices: notices, progress: { label: 'Evaluating on held-out prompts…' } });
      if (resume) {
        const rec = resume.record;
        set({ steps: rec.steps, evals: rec.evals, signals: detectStopSignals(rec.steps, rec.evals), stepsStarted: rec.trainer.step, stepsCompleted: rec.trainer.step, status: 'ready', progress: null, lastSave: { step: rec.trainer.step, at: rec.savedAt } });
        return;
      }
      await tick();
      const e0 = await trainer.evaluate();
      set({ evals: [e0], status: 'ready', progress: null });
    } catch (e) {
      set({ status: 'error', error: `Could not start the model: ${(e as Error).message}`, engineNotices: notices, progress: null });
    }
  };
  loading = run().finally(() => { loading = null; });
  return loading;
}

async function ensureReady(): Promise<boolean> {
  if (loading) await loading;
  if (trainer && get().stepsCompleted === 0 && !inspected && startKey(get().settings) !== loadedKey) await load();
  return trainer !== null;
}

function rolloutView(r: Rollout, G: number): RolloutView {
  return {
    step: r.step,
    G,
    groups: r.groups.map((g) => ({
      prompt: g.prompt,
      answers: g.responses.map((text, i) => ({
        text,
        reason: g.verdicts[i].reason,
        correct: g.correct[i],
        formatOk: g.verdicts[i].formatOk,
        reward: g.rewards[i],
        advantage: g.advantages[i] ?? NaN,
        finished: g.finished[i],
        tokens: Array.from(g.tokens[i], (t) => (t === EOS ? '⏎' : VOCAB[t])),
      })),
    })),
  };
}

/**
 * Record a finished update: metrics into the bounded history, stop signals, evaluation when due.
 * A non-finite update is not recorded at all (the charts never see it): it is rolled back instead.
 */
async function finishStep(rollout: Rollout, u: Awaited<ReturnType<GrpoTrainer['update']>>): Promise<void> {
  const t = trainer!;
  if (!u.finite || !backend!.lastGoodIsFinite) return rejectStep(rollout);
  const metrics = stepMetrics(rollout, u, t.settings.numGenerations, t.numTokens, (p, r) => t.task.processReward?.(p, r));
  t.step++;
  committed = backend!.lastGood;
  const steps = pushBounded(get().steps, metrics);
  set({ steps, lastRollout: rolloutView(rollout, t.settings.numGenerations), signals: detectStopSignals(steps, get().evals) });
  if (++stepsSinceSave >= SAVE_EVERY) requestSave();
  if (t.step % t.settings.evalEvery === 0) {
    set({ progress: { label: 'Evaluating on held-out prompts…' } });
    await tick();
    const e = await t.evaluate();
    const evals = pushBounded(get().evals, e);
    set({ evals, progress: null, signals: detectStopSignals(get().steps, evals) });
  }
}

/**
 * A rejected update: the loss or the gradient norm (or the weights) became NaN/Inf. Nothing of
 * the step is recorded; the weights and AdamW state go back to the last recorded step; the run
 * pauses and says why.
 */
async function rejectStep(rollout: Rollout): Promise<void> {
  const t = trainer!;
  pauseRequested = true;
  await backend!.restore(committed);
  const s = t.settings;
  const hint = s.learningRate >= 3e-3
    ? `The learning rate η = ${s.learningRate} is high for this model: lower it (1e-3 is a safe start), then press Play.`
    : s.maxGradNorm === 0
      ? 'Gradient clipping is off (max_grad_norm = 0): turn it back on (1 is usual) or lower the learning rate, then press Play.'
      : `Usual causes: a learning rate too high (η = ${s.learningRate} now) or weights damaged by an earlier step. Lower η, then press Play.`;
  const back = t.step;
  set({
    error: `Step ${rollout.step} was rejected: its loss or gradient came out NaN/Inf, so the update was not applied and the charts skip it. The weights and optimizer state were rolled back to the last good step (${back} steps applied) and the run paused. ${hint}`,
    rejected: { step: rollout.step, rolledBackTo: back },
  });
}

/** One whole GRPO step, yielding to the page between its phases. A lost device discards only this step. */
async function runOneStep(): Promise<void> {
  if (recovering) await recovering;
  const t = trainer!;
  applySettings(t);
  set((s) => ({ stepsStarted: s.stepsStarted + 1, inStep: true }));
  const stepBefore = t.step;
  try {
    const rollout = await t.rollout();
    await tick();
    const batch = t.batchOf(rollout);
    await t.computeAdvantages(rollout, batch);
    await tick();
    const u = await t.update(rollout, batch);
    await finishStep(rollout, u);
  } catch (e) {
    if (!(e instanceof DeviceLostError)) throw e;
    if (!recovering) onDeviceLost(e.info);
    await recovering;
    // the step in progress is redone if its update was not recorded; an evaluation after it is skipped
    if (t.step === stepBefore) {
      set((s) => ({ discardedSteps: s.discardedSteps + 1, lastRecovery: s.lastRecovery && { ...s.lastRecovery, discardedSteps: s.lastRecovery.discardedSteps + 1 } }));
    }
  } finally {
    set((s) => ({ inStep: false, stepsCompleted: s.stepsCompleted + 1 }));
  }
}

/** The device was lost: start the recovery (once). */
function onDeviceLost(info: { reason: string; message: string }): void {
  if (!recovering) recovering = recoverDevice(info).finally(() => { recovering = null; });
}

/**
 * Replace the lost engine: a new device and pipelines, then the last recorded step's weights,
 * AdamW state and π_ref. If WebGPU cannot come back, the run continues on the CPU reference.
 */
async function recoverDevice(info: { reason: string; message: string }): Promise<void> {
  const be = backend;
  if (!be || !committed) return;
  const seed = get().settings.seed;
  set({ progress: { label: 'The GPU device was lost: recreating the engine…' } });
  be.lastGood = committed;
  let fellBack = '';
  let restoredStep: number;
  try {
    restoredStep = await be.replaceEngine((w) => createBackend('webgpu', be.config, { seed, weights: w, mirrorState: true }));
  } catch (e) {
    fellBack = ` WebGPU could not be restarted (${(e as Error).message.slice(0, 80)}), so the run continues on the CPU reference.`;
    restoredStep = await be.replaceEngine((w) => createBackend('cpu', be.config, { seed, weights: w }));
  }
  const completed = trainer?.step ?? 0;
  const why = info.message ? `${info.reason}: ${info.message.slice(0, 100)}` : info.reason;
  addFault('device-lost', `The GPU device was lost (${why}). The engine was recreated and the weights, optimizer state and reference policy were restored from the last completed step (${completed}); at most the step in progress is redone.${fellBack}`);
  set((s) => ({ backendName: be.name, progress: null, lastRecovery: { restoredStep, completedSteps: completed, discardedSteps: 0, engine: be.name }, engineNotices: fellBack ? [...s.engineNotices, fellBack.trim()] : s.engineNotices }));
}

async function loop(): Promise<void> {
  set({ status: 'running' });
  try {
    while (!pauseRequested) {
      await runOneStep();
      if (pauseRequested) break;
      await sleep(get().delayMs); // yield between steps even at full speed
    }
  } catch (e) {
    set({ error: `Training stopped: ${(e as Error).message}` });
  } finally {
    set({ status: trainer ? 'paused' : 'error' });
    loopDone = null;
    requestSave();
  }
}

export async function play(): Promise<void> {
  if (loopDone) return;
  if (get().stepMode) setStepMode(false);
  pauseRequested = false;
  if (!(await ensureReady())) return;
  if (loopDone || pauseRequested) return;
  loopDone = loop();
}

/** Ask the loop to stop; it finishes the step in progress and starts no other. */
export function pause(): void {
  pauseRequested = true;
  set((s) => ({ pausedAt: { stepsStarted: s.stepsStarted, midStep: s.inStep } }));
  if (!loopDone && get().status === 'running') set({ status: 'paused' });
}

export function togglePlay(): void {
  if (loopDone && !pauseRequested) pause();
  else void play();
}

async function stopLoop(): Promise<void> {
  pauseRequested = true;
  if (loopDone) await loopDone;
}

/** Step one whole update (or, in step-through mode, one phase). */
export async function stepOnce(): Promise<void> {
  if (get().stepMode) return inspectForward();
  await stopLoop();
  if (!(await ensureReady()) || get().inStep) return;
  await runOneStep();
  set({ status: 'paused' });
  requestSave();
}

/**
 * Run one real training step under the GPU profiler (WebGPU only): the step counts like any
 * other; the profiler then replays its dispatches by phase and by kernel family (timestamp
 * queries where the adapter has them, CPU clocks otherwise) and restores the weights it touched.
 */
export async function profileOneStep(): Promise<void> {
  await stopLoop();
  if (!(await ensureReady()) || get().inStep || !backend) return;
  const engine = backend.engine;
  if (engine.name !== 'webgpu') {
    set({ profileNote: 'The profiler needs the WebGPU engine; this run is on the CPU reference.' });
    return;
  }
  set({ profiling: true, profileNote: null });
  try {
    const { Profiler } = await import('../gpu/profiler.ts');
    const { WebGPUBackend } = await import('../gpu/backend.ts');
    if (!(engine instanceof WebGPUBackend)) throw new Error('not a WebGPU engine');
    const s = get().settings;
    engine.reserve(s.promptsPerStep * s.numGenerations); // the step then allocates nothing its replay would miss
    const profile = await new Profiler(engine).profile('one GRPO step', () => runOneStep());
    set({ profile, status: 'paused' });
    requestSave();
  } catch (e) {
    set({ profileNote: `Profiling failed: ${(e as Error).message}` });
  } finally {
    set({ profiling: false });
  }
}

/** Reset to the base checkpoint (the current run is kept in the recent runs list). */
export async function reset(): Promise<void> {
  await stopLoop();
  if (loading) await loading;
  archiveRun();
  set({ stepMode: false });
  await saveChain;
  const r = await clearRun(); // the saved run was this one; the new run is saved from its first steps
  if (!r.ok) addFault('storage', r.error);
  await load();
}

/** Keeps the run just ended (for overlay and comparison) and overlays it on the new one: "the previous run". */
function archiveRun(): void {
  const s = get();
  if (!s.steps.length) return;
  // What the run was made with: the trainer's settings (the store's may already be the next run's, e.g. a lesson variant).
  const rs = trainer?.settings ?? s.settings;
  const run: SavedRun = {
    id: ++runCounter,
    label: `Run ${runCounter}: ${rs.task}, G=${rs.numGenerations}, β=${rs.beta}, ε=${rs.epsilon}${runLesson.id ? ` (${runLesson.id} #${runLesson.variant + 1})` : ''}, ${s.steps.at(-1)!.step + 1} steps`,
    settings: { ...rs },
    steps: s.steps, // already bounded (history.ts); every chart can overlay it
    evals: s.evals.map((e) => ({ step: e.step, heldout_accuracy: e.heldout_accuracy })),
  };
  set({ runs: [run, ...s.runs].slice(0, MAX_SAVED_RUNS), overlayRunId: run.id });
}

export function setSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  const settings = { ...get().settings, [key]: value };
  set({ settings });
  // Not copied into the trainer here: its phases read trainer.settings, so a change landing
  // mid-step (between rollout and advantages) would mix two G's. applySettings() runs before each step.
}

/** Hand the store's settings to the trainer: called only between steps, so a change applies from the next step. */
function applySettings(t: GrpoTrainer): void {
  t.settings = { ...get().settings };
}

/** One click: the lesson's base checkpoint, knobs and text; the current run is kept for overlay. */
export async function applyLesson(id: string, variant = 0): Promise<void> {
  const lesson = getLesson(id);
  if (!lesson) return;
  imported = null;
  set({ lessonId: id, lessonVariant: variant, settings: lessonSettings(lesson, defaultSettings(), variant) });
  await reset();
}

export function leaveLesson(): void {
  set({ lessonId: null, lessonVariant: 0 });
}

export function setDelay(ms: number): void {
  set({ delayMs: ms });
}

export function setClassroom(on: boolean): void {
  set({ classroom: on });
}

export function toggleHidden(key: string): void {
  const h = get().hidden;
  set({ hidden: h.includes(key) ? h.filter((k) => k !== key) : [...h, key] });
}

// ---------------------------------------------------------------------------------------------
// Step-through of one GRPO update: prompts → answers → verdicts → advantages → ratios/KL → update.

export async function setStepMode(on: boolean): Promise<void> {
  if (on === get().stepMode) return;
  if (on) await stopLoop();
  set({ stepMode: on });
  if (!on && inspected && (get().inspector?.computed ?? 0) < PHASES.length) {
    // Leaving mid-update: the update was never applied; its rollout is dropped.
    inspected = null;
    set({ inspector: null });
  }
}

function inspectorBase(t: GrpoTrainer) {
  const s = t.settings;
  return { epsilon: s.epsilon, epsilonHigh: s.epsilonHigh, klEstimator: s.klEstimator, advantage: s.advantage, scaleRewards: s.scaleRewards, numIterations: s.numIterations };
}

/** Show the next phase, computing it if needed. After the last phase, a new update begins. */
export async function inspectForward(): Promise<void> {
  const ins = get().inspector;
  if (ins?.busy) return;
  if (ins && ins.phase + 1 < ins.computed) {
    set({ inspector: { ...ins, phase: ins.phase + 1 } });
    return;
  }
  if (!(await ensureReady())) return;
  const t = trainer!;
  const be = backend!;
  const done = ins && ins.computed >= PHASES.length;
  if (!ins || done) {
    // Phase 0: a real rollout (prompts, answers and verdicts come from it).
    applySettings(t);
    set({ inspector: { phase: ins?.phase ?? 0, computed: ins?.computed ?? 0, busy: true, rollout: ins?.rollout ?? null, details: null, ...inspectorBase(t) } });
    set((s) => ({ stepsStarted: s.stepsStarted + 1, inStep: true }));
    const rollout = await t.rollout();
    inspected = { rollout, batch: null };
    set({ inStep: false, inspector: { phase: 0, computed: 3, busy: false, rollout: rolloutView(rollout, t.settings.numGenerations), details: null, ...inspectorBase(t) } });
    return;
  }
  const { rollout } = inspected!;
  set({ inspector: { ...ins, busy: true } });
  set({ inStep: true });
  try {
    if (ins.computed === 3) {
      const batch = t.batchOf(rollout);
      inspected!.batch = batch;
      await t.computeAdvantages(rollout, batch);
      set({ inspector: { ...ins, busy: false, phase: 3, computed: 4, rollout: rolloutView(rollout, t.settings.numGenerations), ...inspectorBase(t) } });
    } else if (ins.computed === 4) {
      const batch = inspected!.batch!;
      const tau = t.settings.temperature;
      const cur = await be.logprobs(batch, { temperature: tau });
      const ref = await be.logprobs(batch, { temperature: tau, reference: true });
      const details = tokenDetails(rollout, batch, cur.logprobs, ref.logprobs, t.settings);
      set({ inspector: { ...ins, busy: false, phase: 4, computed: 5, details, ...inspectorBase(t) } });
    } else if (ins.computed === 5) {
      const batch = inspected!.batch!;
      const u = await t.update(rollout, batch);
      const after = await be.logprobs(batch, { temperature: t.settings.temperature });
      const details = withAfter(rollout, batch, ins.details!, after.logprobs, t.settings);
      await finishStep(rollout, u);
      set((s) => ({ inspector: { ...ins, busy: false, phase: 5, computed: 6, details }, stepsCompleted: s.stepsCompleted + 1 }));
    }
  } finally {
    set({ inStep: false });
    const now = get().inspector;
    if (now?.busy) set({ inspector: { ...now, busy: false } });
  }
}

export function inspectBack(): void {
  const ins = get().inspector;
  if (ins && !ins.busy && ins.phase > 0) set({ inspector: { ...ins, phase: ins.phase - 1 } });
}

/** Offsets of answer b's tokens in the packed batch: its prompt length − 1 onward. */
function answerLogprobs(lp: Float32Array, batch: TokenBatch, b: number, start: number, n: number): number[] {
  return Array.from(lp.subarray(b * batch.T + start, b * batch.T + start + n));
}

function clipActive(ratio: number, adv: number, s: Settings): boolean {
  return (adv > 0 && ratio > 1 + s.epsilonHigh) || (adv < 0 && ratio < 1 - s.epsilon);
}

/** Per-token ratio π_θ/π_old, KL to π_ref (k1 or k3, d = log π_ref − log π_θ) and clip activity. */
function tokenDetails(r: Rollout, batch: TokenBatch, cur: Float32Array, ref: Float32Array, s: Settings): TokenDetail[][] {
  let b = 0;
  return r.groups.map((g) => g.tokens.map((tok, i) => {
    const start = g.promptTokens.length - 1;
    const lc = answerLogprobs(cur, batch, b, start, tok.length);
    const lr = answerLogprobs(ref, batch, b, start, tok.length);
    b++;
    const ratio = lc.map((x, j) => Math.exp(x - g.logprobs[i][j]));
    const kl = lc.map((x, j) => {
      const d = lr[j] - x;
      return s.klEstimator === 'k1' ? -d : Math.exp(d) - d - 1;
    });
    return { ratio, kl, clipped: ratio.map((q) => clipActive(q, g.advantages[i], s)), logpBefore: lc.reduce((a, x) => a + x, 0) };
  }));
}

function withAfter(r: Rollout, batch: TokenBatch, details: TokenDetail[][], after: Float32Array, s: Settings): TokenDetail[][] {
  let b = 0;
  return r.groups.map((g, p) => g.tokens.map((tok, i) => {
    const la = answerLogprobs(after, batch, b++, g.promptTokens.length - 1, tok.length);
    const ratioAfter = la.map((x, j) => Math.exp(x - g.logprobs[i][j]));
    return { ...details[p][i], ratioAfter, clippedAfter: ratioAfter.map((q) => clipActive(q, g.advantages[i], s)), logpAfter: la.reduce((a, x) => a + x, 0) };
  }));
}

// ---------------------------------------------------------------------------------------------
// Checkpoints in and out.

/** The current policy as a checkpoint file (weights + AdamW state + the run's settings). */
export async function checkpointBytes(): Promise<Uint8Array | null> {
  if (!backend) return null;
  const s = get();
  return encodeCheckpoint({
    config: backend.config,
    weights: await backend.getWeights(),
    optimizer: await backend.getOptimizerState(),
    metadata: { kind: 'rl', settings: s.settings, step: trainer?.step ?? 0, lesson: s.lessonId, createdBy: 'rlvr-lab page' },
  });
}

/**
 * Validate and load a checkpoint file; the run restarts from it. Returns an error sentence or
 * null. A refused file changes nothing: the run, its settings and its history stay as they were.
 */
export async function importCheckpoint(name: string, bytes: Uint8Array): Promise<string | null> {
  const shown = name.slice(0, 80);
  const refuse = (why: string) => `${shown} was not loaded: ${why}. Nothing was changed.`;
  if (bytes.length > MAX_IMPORT_BYTES) return refuse(`the file has ${bytes.length} bytes, more than any checkpoint the lab can run (${MAX_IMPORT_BYTES})`);
  let ck: ReturnType<typeof decodeCheckpoint>;
  try {
    ck = decodeCheckpoint(bytes);
  } catch (e) {
    return refuse((e as Error).message.replace(/^checkpoint: /, ''));
  }
  if (ck.config.vocabSize !== VOCAB_SIZE) return refuse(`its model has a vocabulary of ${ck.config.vocabSize} tokens, the lab's has ${VOCAB_SIZE}`);
  if (ck.layout.total > MAX_IMPORT_FLOATS) return refuse(`its model has ${ck.layout.numParams} parameters, more than the lab runs in a browser (${MAX_IMPORT_FLOATS} floats)`);
  if (!ck.weights.every(Number.isFinite)) return refuse('its weights contain NaN or Inf');
  imported = { config: ck.config, weights: ck.weights, name: shown };
  await reset();
  return null;
}

/** Apply an imported settings file (validated against the settings table). Returns an error sentence, or null and the notices. */
export function importSettings(name: string, bytes: Uint8Array): { error: string | null; notices: string[] } {
  const r = parseSettingsFile(name, bytes, get().settings);
  if (!r.ok) return { error: r.error, notices: [] };
  set({ settings: r.settings }); // like the sliders: applies from the next step (a new task or seed reloads before the first)
  return { error: null, notices: r.notices };
}

// ---------------------------------------------------------------------------------------------
// Saving the run in this browser (IndexedDB), from the last good state: no extra GPU readback.

/** Save soon (saves are serialised; a burst of requests writes once more at most). */
function requestSave(): void {
  stepsSinceSave = 0;
  saveChain = saveChain.then(saveNow, saveNow);
}

async function saveNow(): Promise<void> {
  const be = backend, t = trainer, good = committed;
  if (!be || !t || !good || !be.referenceWeights || t.step === 0) return;
  const s = get();
  let record: SavedRunRecord;
  try {
    record = {
      format: SAVED_RUN_FORMAT,
      version: SAVED_RUN_VERSION,
      savedAt: Date.now(),
      settings: s.settings,
      page: { lessonId: s.lessonId, lessonVariant: s.lessonVariant, backendPref: s.backendPref },
      steps: s.steps,
      evals: s.evals,
      trainer: { step: t.step, numTokens: t.numTokens, promptRng: promptStream(t) },
      checkpoint: encodeCheckpoint({ config: be.config, weights: good.weights, optimizer: good.optimizer, metadata: { kind: 'rl', step: t.step, createdBy: 'rlvr-lab autosave' } }),
      reference: encodeCheckpoint({ config: be.config, weights: be.referenceWeights, metadata: { kind: 'reference' } }),
      importedName: imported?.name ?? null,
    };
  } catch (e) {
    return addFault('storage', `The run could not be prepared for saving (${(e as Error).message.slice(0, 100)}).`);
  }
  const r = await saveRun(record);
  if (!r.ok) return addFault('storage', r.error);
  set({ lastSave: { step: record.trainer.step, at: record.savedAt } });
}

/** Wait for saves in flight (tests and reset). */
export function savesSettled(): Promise<void> {
  return saveChain;
}

/** A resumed run draws the prompts the uninterrupted run would have drawn: the trainer's prompt stream is saved and put back. */
type RngFields = { state: number; spare: number | null };
function promptStream(t: GrpoTrainer): RngFields {
  return t.promptStream;
}
function setPromptStream(t: GrpoTrainer, st: RngFields | null): void {
  if (st && typeof st.state === 'number') t.promptStream = st;
}

// ---------------------------------------------------------------------------------------------
// Debug hooks for the browser tests and the soak script (window.__lab, installed by the App).

interface WebGPUEngineInternals {
  ctx: { device: GPUDevice; arena: { live: number; bytes: number }; ring: { reads: number }; ops: { cacheSizes: { uniforms: number; bindGroups: number } } };
  model: { params: GPUBuffer };
}

const maxAbsDiff = (a: Float32Array, b: Float32Array) => {
  if (a.length !== b.length) return Infinity;
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
};

export const debugHooks = {
  /** Write NaN into one parameter (default: position 0's first wpe entry, used by every forward), behind the mirror's back. */
  async poisonWeight(index?: number): Promise<number> {
    const be = backend;
    if (!be) throw new Error('no model loaded');
    const i = index ?? paramLayout(be.config).byName.wpe.offset;
    const engine = be.engine;
    if (engine.name === 'webgpu') {
      const g = engine as unknown as WebGPUEngineInternals;
      g.ctx.device.queue.writeBuffer(g.model.params, i * 4, new Float32Array([NaN]));
    } else {
      (engine as unknown as { model: { params: Float32Array } }).model.params[i] = NaN;
    }
    return i;
  },
  /** Destroy the WebGPU device, as a driver reset would. Returns false on the CPU reference. */
  destroyDevice(): boolean {
    const engine = backend?.engine;
    if (!engine || engine.name !== 'webgpu') return false;
    (engine as unknown as WebGPUEngineInternals).ctx.device.destroy();
    return true;
  },
  /**
   * Live GPU buffers and bytes (the arena), of which the per-shape uniform cache holds
   * `cachedUniforms` (bounded by design: emptied past MAX_CACHED_UNIFORMS), readbacks so far.
   */
  engineStats(): { engine: string | null; liveBuffers: number; bytes: number; cachedUniforms: number; cachedBindGroups: number; readbacks: number } {
    const engine = backend?.engine;
    if (!engine || engine.name !== 'webgpu') return { engine: engine?.name ?? null, liveBuffers: 0, bytes: 0, cachedUniforms: 0, cachedBindGroups: 0, readbacks: 0 };
    const g = engine as unknown as WebGPUEngineInternals;
    const c = g.ctx.ops.cacheSizes;
    return { engine: 'webgpu', liveBuffers: g.ctx.arena.live, bytes: g.ctx.arena.bytes, cachedUniforms: c.uniforms, cachedBindGroups: c.bindGroups, readbacks: g.ctx.ring.reads };
  },
  /** Compare the engine's real state with the last good state on the CPU (max |difference| per array). */
  async checkMirror(): Promise<{ weights: number; m: number; v: number; step: [number, number]; finite: boolean } | null> {
    const be = backend;
    if (!be || !committed) return null;
    const w = await be.engine.getWeights();
    const o = await be.engine.getOptimizerState();
    return { weights: maxAbsDiff(w, committed.weights), m: maxAbsDiff(o.m, committed.optimizer.m), v: maxAbsDiff(o.v, committed.optimizer.v), step: [o.step, committed.optimizer.step], finite: w.every(Number.isFinite) };
  },
  savesSettled,
};

/** Forget an imported checkpoint: the next reset uses the shipped base again. */
export function clearImported(): void {
  imported = null;
}

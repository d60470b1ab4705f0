/**
 * The run controller: owns the backend and the GRPO trainer, runs the training loop and the
 * step-through of one update, and writes everything the page shows into the lab store.
 *
 * The loop is async and keeps the page responsive: it yields to the browser (setTimeout 0)
 * between the phases of a step and between steps, and checks the pause flag before each step,
 * so a pause pressed mid-step takes effect before the next step starts. Settings changes are
 * copied into `trainer.settings` at once and apply from the next step (the trainer reads them
 * at the start of every step).
 */
import type { Backend, TokenBatch } from '../model/backend.ts';
import { CONFIGS, type ModelConfig } from '../model/config.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../model/checkpoint.ts';
import { EOS, VOCAB, VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { baseFor } from '../rl/bases.ts';
import { createBackend } from '../rl/backends.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { detectStopSignals } from '../rl/stopSignals.ts';
import { GrpoTrainer, stepMetrics, type Rollout } from '../rl/trainer.ts';
import { pushBounded } from './history.ts';
import { PHASES, useLab, type RolloutView, type SavedRun, type TokenDetail } from './labStore.ts';
import { labSearch, parseLabUrl } from './url.ts';

/** Held-out prompts per evaluation (greedy accuracy and pass@k). */
const EVAL_SIZE = 24;
const MAX_SAVED_RUNS = 5;

let backend: Backend | null = null;
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
  return load();
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
        onProgress: (p) => set({ progress: { label: `Compiling shaders ${p.done}/${p.total}…`, fraction: p.done / Math.max(1, p.total) } }),
      });
      await probePolicyUpdate(be);
      return be;
    } catch (e) {
      notices.push(`The WebGPU engine could not run a GRPO update here (${(e as Error).message.slice(0, 120)}), so the lab runs on the CPU reference: same math, slower.`);
    }
  } else if (pref !== 'cpu') {
    notices.push('This browser has no WebGPU, so the lab runs on the CPU reference: same math, slower.');
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
    set({ status: 'loading', error: null, steps: [], evals: [], lastRollout: null, signals: [], inspector: null, stepsStarted: 0, stepsCompleted: 0 });
    inspected = null;
    backend?.dispose();
    backend = null;
    trainer = null;
    const notices: string[] = [];
    try {
      const { config, weights } = await loadBaseWeights(s, notices);
      backend = await createEngine(config, weights, s.seed, notices);
      await backend.snapshotReference(); // π_ref = the base policy
      trainer = new GrpoTrainer(backend, s, { evalSize: EVAL_SIZE });
      loadedKey = startKey(s);
      set({ backendName: backend.name, engineNotices: notices, progress: { label: 'Evaluating on held-out prompts…' } });
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

/** Record a finished update: metrics into the bounded history, stop signals, evaluation when due. */
async function finishStep(rollout: Rollout, u: Awaited<ReturnType<GrpoTrainer['update']>>): Promise<void> {
  const t = trainer!;
  const metrics = stepMetrics(rollout, u, t.settings.numGenerations, t.numTokens, (p, r) => t.task.processReward?.(p, r));
  t.step++;
  const steps = pushBounded(get().steps, metrics);
  set({ steps, lastRollout: rolloutView(rollout, t.settings.numGenerations), signals: detectStopSignals(steps, get().evals) });
  if (!metrics.finite) {
    pauseRequested = true;
    set({ error: `Step ${metrics.step}: the update produced NaN/Inf and was not applied. Paused — try a lower learning rate.` });
  }
  if (t.step % t.settings.evalEvery === 0) {
    set({ progress: { label: 'Evaluating on held-out prompts…' } });
    await tick();
    const e = await t.evaluate();
    const evals = pushBounded(get().evals, e);
    set({ evals, progress: null, signals: detectStopSignals(get().steps, evals) });
  }
}

/** One whole GRPO step, yielding to the page between its phases. */
async function runOneStep(): Promise<void> {
  const t = trainer!;
  applySettings(t);
  set((s) => ({ stepsStarted: s.stepsStarted + 1, inStep: true }));
  try {
    const rollout = await t.rollout();
    await tick();
    const batch = t.batchOf(rollout);
    await t.computeAdvantages(rollout, batch);
    await tick();
    const u = await t.update(rollout, batch);
    await finishStep(rollout, u);
  } finally {
    set((s) => ({ inStep: false, stepsCompleted: s.stepsCompleted + 1 }));
  }
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
}

/** Reset to the base checkpoint (the current run is kept in the recent runs list). */
export async function reset(): Promise<void> {
  await stopLoop();
  if (loading) await loading;
  archiveRun();
  set({ stepMode: false });
  await load();
}

function archiveRun(): void {
  const s = get();
  if (!s.steps.length) return;
  const run: SavedRun = {
    id: ++runCounter,
    label: `Run ${runCounter}: ${s.settings.task}, G=${s.settings.numGenerations}, β=${s.settings.beta}, ε=${s.settings.epsilon}${s.lessonId ? ` (${s.lessonId} #${s.lessonVariant + 1})` : ''}, ${s.steps.at(-1)!.step + 1} steps`,
    settings: s.settings,
    steps: s.steps.map((m) => ({ step: m.step, reward: m.reward, entropy: m.entropy, mean_length: m.mean_length, frac_mixed: m.frac_mixed, kl: m.kl })),
    evals: s.evals.map((e) => ({ step: e.step, heldout_accuracy: e.heldout_accuracy })),
  };
  set({ runs: [run, ...s.runs].slice(0, MAX_SAVED_RUNS), overlayRunId: s.overlayRunId ?? run.id });
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

/** Validate and load a checkpoint file; the run restarts from it. Returns an error sentence or null. */
export async function importCheckpoint(name: string, bytes: Uint8Array): Promise<string | null> {
  try {
    const ck = decodeCheckpoint(bytes);
    if (ck.config.vocabSize !== VOCAB_SIZE) return `${name}: vocabulary of ${ck.config.vocabSize} tokens, the lab's has ${VOCAB_SIZE}`;
    imported = { config: ck.config, weights: ck.weights, name };
    await reset();
    return null;
  } catch (e) {
    return `${name} was not loaded: ${(e as Error).message}`;
  }
}

/** Forget an imported checkpoint: the next reset uses the shipped base again. */
export function clearImported(): void {
  imported = null;
}

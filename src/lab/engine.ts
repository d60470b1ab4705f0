/**
 * Engine choice and recovery for the lab: which weights a run starts from (an imported
 * checkpoint, the task's shipped base, or a fresh init), which engine runs it (WebGPU when it
 * can train here, else the CPU reference, with a sentence saying why; its self-check runs once
 * per adapter and model shape in a session, its kernel forms timed at the run's rows — prompts × G —
 * and timed again, alone, for a run of another rows class: fitRows), and rebuilding a lost GPU engine (or a stopped
 * worker) from the run's committed state (checked again). Both engines run off the page's thread:
 * WebGPU in its own worker with its shader compiling, self-check and autotune
 * (src/worker/gpuEngine.ts), the CPU reference on background workers, one per core
 * (src/worker/cpuEngine.ts), so the page answers while they compute. Where a worker cannot start,
 * the engine runs on the page, with one sentence.
 */
import type { Backend } from '../model/backend.ts';
import { retune, selfCheck, setForms, type SelfCheckReport } from '../gpu/selfCheck.ts';
import { KernelFormsStore } from '../persist/idb.ts';
import { autotuneSentence, tuneRowsClass } from '../gpu/autotune.ts';
import { sameForms } from '../gpu/forms.ts';
import type { WebGPUBackend } from '../gpu/backend.ts';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { CONFIGS, paramLayout, type ModelConfig } from '../model/config.ts';
import { createBackend } from '../model/engines.ts';
import type { RecoverableBackend } from '../model/recoverable.ts';
import { WebGPUUnavailableError } from '../gpu/device.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { baseFor } from '../rl/bases.ts';
import type { Settings } from '../rl/settings.ts';
import type { BackendPref } from '../store/url.ts';
import type { TaskBase } from '../store/labStore.ts';
import { taskDifficulty } from '../rl/rollout.ts';
import { engineErrorSentence } from './sentences.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { initWeights } from '../model/init.ts';
import { pageShardWorkers, WorkerCpuBackend, WorkersLate } from '../worker/cpuEngine.ts';
import { pageGpuWorker, WorkerGpuBackend, WorkerStartError } from '../worker/gpuEngine.ts';
import type { Forms } from '../gpu/forms.ts';

/** A checkpoint the user imported: reset starts from it instead of the shipped base. */
export interface ImportedModel {
  config: ModelConfig;
  weights: Float32Array;
  name: string;
}

type Progress = (p: { label: string; fraction?: number } | null) => void;

/**
 * The weights a new run starts from, and a sentence about where they came from (into `notices`): an imported checkpoint, else
 * the page's cold-start base of this task (`own`, made by a cold start or loaded: src/lab/customTask.ts), else the shipped base, else a fresh init.
 */
export async function startingWeights(s: Settings, imported: ImportedModel | null, notices: string[], progress: Progress, own?: TaskBase): Promise<{ config: ModelConfig; weights: Float32Array | null }> {
  const fresh = { config: { vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, weights: null };
  if (imported) {
    notices.push(`Starting from the imported checkpoint ${imported.name}.`);
    return { config: imported.config, weights: imported.weights };
  }
  const level = (() => { try { return taskDifficulty(s); } catch { return s.difficulty; } })();
  if (own && own.task === s.task && own.difficulty === level) {
    notices.push(`Starting from this task's cold-start base (${own.name}${own.passRate !== null ? `, held-out sampled pass@1 ${Math.round(100 * own.passRate)}%` : ''}): π_ref is this base.`);
    return { config: own.config, weights: own.weights };
  }
  const base = baseFor(s.task, s.difficulty, s.watchTask);
  if (!base) {
    notices.push(own
      ? `This task's cold-start base was made at difficulty ${own.difficulty}, not ${level}: starting from a fresh random init (seed ${s.seed}); run the cold start again at this difficulty.`
      : `No shipped base checkpoint for the task "${s.task}": starting from a fresh random init (seed ${s.seed}), which solves almost nothing, so most groups will be all-fail; "Cold start" in the task panel makes a base for it.`);
    return fresh;
  }
  progress({ label: `Loading the base checkpoint ${base.file}…` });
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}checkpoints/${base.file}`);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const ck = decodeCheckpoint(new Uint8Array(await res.arrayBuffer()));
    // no held-out figure here: the checkpoint's own (pretrain's 64 prompts) is not this run's held-out set;
    // the engine line quotes the run's step-0 evaluation once it exists (views.ts stepZeroSentence)
    notices.push(`Base checkpoint ${base.file} (SFT cold start).`);
    return { config: ck.config, weights: ck.weights };
  } catch (e) {
    notices.push(`The base checkpoint ${base.file} could not be loaded (${engineErrorSentence(e, 120)}): starting from a fresh random init (seed ${s.seed}).`);
    return fresh;
  }
}

/** The rows a run's rollouts and updates have (prompts × G): the autotune times its kernel forms on these. */
export const runRows = (s: Pick<Settings, 'promptsPerStep' | 'numGenerations'>): number => s.promptsPerStep * s.numGenerations;

/**
 * The engine for `pref`: WebGPU if it is here and can run a GRPO update, else the CPU reference (the reason goes into `notices`).
 * `rows`: the run's rows (runRows), the shapes its kernel forms are timed on.
 */
export async function chooseEngine(pref: BackendPref, config: ModelConfig, weights: Float32Array | null, seed: number, notices: string[], progress: Progress, checked: CheckedAdapters, rows: number): Promise<Backend> {
  const hasGpu = typeof navigator !== 'undefined' && 'gpu' in navigator && !!navigator.gpu;
  if (pref !== 'cpu' && hasGpu) {
    try {
      progress({ label: 'Compiling shaders…', fraction: 0 });
      const gpu = await webgpuEngine(config, seed, weights, notices, (p) => progress({ label: `Compiling shaders ${p.done}/${p.total}…`, fraction: p.done / Math.max(1, p.total) }));
      // the engine checks itself against the CPU reference with this adapter's kernel forms, once per adapter and model shape;
      // the forms are timed at the run's rows (for a rows class not timed yet in this session: the tune alone)
      const fitted = await fitRows(gpu, rows, checked, progress);
      if (fitted !== null) {
        notices.push(fitted);
        return gpu;
      }
      const check = await checkGpu(gpu, (i, n) => progress({ label: `Self-check against the CPU reference (${i + 1} of at most ${n})…`, fraction: i / n }), rows);
      notices.push(check.sentence);
      if (check.ok) {
        checked.remember(gpu, rows, check);
        return gpu;
      }
      gpu.dispose();
    } catch (e) {
      notices.push(e instanceof WebGPUUnavailableError || /found no adapter|requestDevice failed/.test(String((e as Error)?.message)) // the worker's errors arrive as plain Errors
        ? 'WebGPU is present but gave no usable GPU (blocked or unsupported), so the lab runs on the CPU reference: same math and features, slower.'
        : `The WebGPU engine could not run a GRPO update here (${engineErrorSentence(e, 120)}), so the lab runs on the CPU reference: same math and features, slower.`);
    }
  } else if (pref !== 'cpu') {
    notices.push('This browser has no WebGPU, so the lab runs on the CPU reference: same math and features, slower.');
  }
  return cpuEngine(config, seed, weights, notices, checked);
}

/** Why a run on `auto` takes the CPU engine although WebGPU is here (engineKeeper.ts): the adapter is a software one (gpu/device.ts isSoftwareAdapter). */
export const softwareAdapterSentence = (a: { vendor: string; architecture: string }): string =>
  `This browser's WebGPU adapter (${a.vendor || 'unknown vendor'} / ${a.architecture || 'unknown architecture'}) is a software one: the processor does a graphics card's work there, slower than the lab's own CPU engine, so the lab runs on the CPU engine (the same math, faster here).`;

/** The WebGPU engine as the lab holds it: in its worker, or on the page where the worker could not start. */
export type GpuEngine = WorkerGpuBackend | WebGPUBackend;

/** The sentence when WebGPU's worker cannot start here (said in the engine line). */
export const NO_GPU_WORKER_SENTENCE = 'This browser did not start a background worker for WebGPU, so the WebGPU engine runs on the page itself: the page may pause while it starts.';

/** A WebGPU engine, compiled: in its own worker, else on the page (NO_GPU_WORKER_SENTENCE into `notices`). */
async function webgpuEngine(config: ModelConfig, seed: number, weights: Float32Array | null, notices: string[], onProgress?: (p: { done: number; total: number }) => void): Promise<GpuEngine> {
  const w = weights ?? initWeights(paramLayout(config), seed);
  // the page's adapter first: a GPU refused to the page is refused to its workers too (and says so without starting one)
  if (!(await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' }))) throw new WebGPUUnavailableError('WebGPU found no adapter (requestAdapter returned null)');
  try {
    return await WorkerGpuBackend.start(config, w, pageGpuWorker(), onProgress);
  } catch (e) {
    if (!(e instanceof WorkerStartError) && (e as Error)?.name !== 'SecurityError') throw e; // a content-security policy refuses `new Worker`
    notices.push(NO_GPU_WORKER_SENTENCE);
    return (await createBackend('webgpu', config, { seed, weights: w, mirrorState: true, onProgress })) as WebGPUBackend; // the last good state rides in each update's readback
  }
}

/** The self-check and autotune at `rows` rows (with the IndexedDB cache of kernel forms) where the engine is. */
const checkGpu = (gpu: GpuEngine, onProgress: ((i: number, n: number) => void) | undefined, rows: number): Promise<SelfCheckReport> =>
  gpu instanceof WorkerGpuBackend ? gpu.selfCheck(onProgress, rows) : selfCheck(gpu, { onProgress, autotune: { cache: new KernelFormsStore(), rows } });
/** The tune alone at `rows` rows where the engine is (its forms passed `known`'s check this session). */
const retuneGpu = (gpu: GpuEngine, known: SelfCheckReport, rows: number): Promise<SelfCheckReport> =>
  gpu instanceof WorkerGpuBackend ? gpu.retune(known, rows) : retune(gpu, known, { cache: new KernelFormsStore(), rows });
const useForms = async (gpu: GpuEngine, f: Forms) => (gpu instanceof WorkerGpuBackend ? gpu.setForms(f) : setForms(gpu, f));
const adapterOf = (gpu: GpuEngine) => (gpu instanceof WorkerGpuBackend ? gpu.description : gpu.ctx.description);

/** The sentence when the CPU engine's workers cannot start here (said in the engine line). */
export const NO_WORKER_SENTENCE = 'This browser did not start the background workers, so the CPU engine runs on the page itself: the page may pause while each step computes.';

/** Workers for the CPU engine: one per core the browser reports (at most 8). */
export const cpuWorkerCount = () => Math.max(1, Math.min(8, (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 1));

/**
 * The CPU reference for the lab: on background workers, the batch split by sequences over
 * cpuWorkerCount() of them; where workers cannot start, on the page's thread (NO_WORKER_SENTENCE into `notices`).
 * `session` remembers that they were refused: the page's later runs do not try again. Workers that
 * started but did not answer within the time limit (20 s: a machine too busy) are tried again at
 * the next run, or a slow moment would leave the page's thread computing for the whole session.
 */
export async function cpuEngine(config: ModelConfig, seed: number, weights: Float32Array | null, notices: string[], session: { workersFailed: boolean } = { workersFailed: false }): Promise<Backend> {
  const w = weights ?? initWeights(paramLayout(config), seed);
  if (!session.workersFailed) {
    try {
      return await WorkerCpuBackend.start(config, w, pageShardWorkers(cpuWorkerCount()));
    } catch (e) {
      if (!(e instanceof WorkersLate)) session.workersFailed = true; // refused (a policy, a script that cannot load): not tried again; late: tried again next run
    }
  }
  notices.push(NO_WORKER_SENTENCE);
  return new ReferenceBackend(config, w);
}

/**
 * The kernel forms that passed the self-check, per adapter and model shape, for the page's
 * session, each timed per rows class (autotune.ts tuneRowsClass: 24 and 32 rows share one, 32 and
 * 256 do not): a reset, a lesson or a variant of the same rows class reuses them; one of another
 * rows class gets its own tune (fitRows); a lost device checks again.
 */
export class CheckedAdapters {
  private readonly passed = new Map<string, Map<number, SelfCheckReport>>();
  /** The CPU engine's workers could not start on this page (cpuEngine): later runs do not try again. */
  workersFailed = false;
  private key(be: Backend): string {
    return `${adapterOf(be as GpuEngine)}|${JSON.stringify(be.config)}`;
  }
  /** The report for this adapter, model shape and rows class (a run of `rows` rows). */
  get(be: Backend, rows: number): SelfCheckReport | undefined {
    return this.passed.get(this.key(be))?.get(tuneRowsClass(rows));
  }
  /** The latest report for this adapter and model shape, at any rows class: its forms passed the check in this session. */
  shape(be: Backend): SelfCheckReport | undefined {
    return [...(this.passed.get(this.key(be))?.values() ?? [])].at(-1);
  }
  remember(be: Backend, rows: number, report: SelfCheckReport): void {
    const byRows = this.passed.get(this.key(be)) ?? new Map<number, SelfCheckReport>();
    byRows.delete(tuneRowsClass(rows)); // the latest last (shape)
    byRows.set(tuneRowsClass(rows), report);
    this.passed.set(this.key(be), byRows);
  }
  /** Every rows class of this adapter and model shape (a lost device checks again). */
  forget(be: Backend): void {
    this.passed.delete(this.key(be));
  }
  sentence(r: SelfCheckReport): string {
    return `Self-check: passed on this GPU earlier in this session (${r.kernels} kernels against the CPU reference, worst error ${r.worstAbs.toExponential(0)}); not run again.${r.autotune ? ` ${autotuneSentence(r.autotune)}` : ''}`
      + (r.tunedFailure ? ` The fastest combination gave wrong numbers (${r.tunedFailure.what}), so the forms checked first stay.` : '');
  }
}

/**
 * The kernel forms for a run of `rows` rows on `gpu`, whose adapter and model shape passed the
 * check in this session: the forms chosen for this rows class, else the tune alone at these rows
 * (retune: the cache's record for them, or timed now; a choice checked against the CPU reference
 * before it is kept). Also when an idle-time tune (src/lab/idleTune.ts) chose other forms for this
 * rows class: they are checked, and taken, here, as the run starts (the rest timed, if the record is
 * unfinished, as on a new visit). Returns the
 * engine line's sentence; null when this adapter and shape were never checked in this session.
 */
export async function fitRows(gpu: GpuEngine, rows: number, checked: CheckedAdapters, progress?: Progress): Promise<string | null> {
  const known = checked.get(gpu, rows);
  const unchecked = !!known?.autotune && !sameForms(known.autotune.forms, known.forms); // an idle-time choice, not checked yet
  if (known && !unchecked) {
    await useForms(gpu, known.forms);
    return checked.sentence(known);
  }
  const base = known ?? checked.shape(gpu);
  if (!base) return null;
  progress?.({ label: `Timing the kernel forms for ${rows} rows…` });
  const r = await retuneGpu(gpu, base, rows);
  checked.remember(gpu, rows, r);
  return checked.sentence(r);
}

/** A new WebGPU engine that passed a fresh self-check, its forms timed at `rows` rows (the kernel forms it settled on stay set). */
async function checkedWebGPU(config: ModelConfig, seed: number, weights: Float32Array, checked: CheckedAdapters, rows: number): Promise<Backend> {
  const gpu = await webgpuEngine(config, seed, weights, []);
  checked.forget(gpu);
  const check = await checkGpu(gpu, undefined, rows);
  if (!check.ok) {
    gpu.dispose();
    throw new Error(check.sentence);
  }
  checked.remember(gpu, rows, check);
  return gpu;
}

/**
 * Replace a lost engine: a new device and pipelines (or new CPU workers), then the committed
 * weights, AdamW state and π_ref. If WebGPU cannot come back, the run continues on the CPU
 * reference. Returns the AdamW step restored and a sentence when it fell back.
 */
export async function rebuildEngine(be: RecoverableBackend, seed: number, checked: CheckedAdapters, rows: number): Promise<{ restoredStep: number; fellBack: string }> {
  if (be.name === 'cpu') {
    const notices: string[] = [];
    return { restoredStep: await be.replaceEngine((w) => cpuEngine(be.config, seed, w, notices, checked)), fellBack: notices.join(' ') };
  }
  try {
    return { restoredStep: await be.replaceEngine((w) => checkedWebGPU(be.config, seed, w, checked, rows)), fellBack: '' };
  } catch (e) {
    const fellBack = `WebGPU could not be restarted (${engineErrorSentence(e, 120)}), so the run continues on the CPU reference.`;
    return { restoredStep: await be.replaceEngine((w) => cpuEngine(be.config, seed, w, [], checked)), fellBack };
  }
}

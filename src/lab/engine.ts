/**
 * Engine choice and recovery for the lab: which weights a run starts from (an imported
 * checkpoint, the task's shipped base, or a fresh init), which engine runs it (WebGPU when it
 * can train here, else the CPU reference, with a sentence saying why; its self-check runs once
 * per adapter and model shape in a session), and rebuilding a lost GPU engine (or a stopped
 * worker) from the run's committed state (checked again). Both engines run off the page's thread:
 * WebGPU in its own worker with its shader compiling, self-check and autotune
 * (src/worker/gpuEngine.ts), the CPU reference on background workers, one per core
 * (src/worker/cpuEngine.ts), so the page answers while they compute. Where a worker cannot start,
 * the engine runs on the page, with one sentence.
 */
import type { Backend } from '../model/backend.ts';
import { selfCheck, setForms, type SelfCheckReport } from '../gpu/selfCheck.ts';
import { KernelFormsStore } from '../persist/idb.ts';
import { autotuneSentence } from '../gpu/autotune.ts';
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

/** The engine for `pref`: WebGPU if it is here and can run a GRPO update, else the CPU reference (the reason goes into `notices`). */
export async function chooseEngine(pref: BackendPref, config: ModelConfig, weights: Float32Array | null, seed: number, notices: string[], progress: Progress, checked: CheckedAdapters): Promise<Backend> {
  const hasGpu = typeof navigator !== 'undefined' && 'gpu' in navigator && !!navigator.gpu;
  if (pref !== 'cpu' && hasGpu) {
    try {
      progress({ label: 'Compiling shaders…', fraction: 0 });
      const gpu = await webgpuEngine(config, seed, weights, notices, (p) => progress({ label: `Compiling shaders ${p.done}/${p.total}…`, fraction: p.done / Math.max(1, p.total) }));
      // the engine checks itself against the CPU reference with this adapter's kernel forms, once per adapter and model shape
      const known = checked.get(gpu);
      if (known) {
        await useForms(gpu, known.forms);
        notices.push(checked.sentence(known));
        return gpu;
      }
      const check = await checkGpu(gpu, (i, n) => progress({ label: `Self-check against the CPU reference (${i + 1} of at most ${n})…`, fraction: i / n }));
      notices.push(check.sentence);
      if (check.ok) {
        checked.remember(gpu, check);
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

/** The self-check and autotune (with the IndexedDB cache of kernel forms) where the engine is. */
const checkGpu = (gpu: GpuEngine, onProgress?: (i: number, n: number) => void): Promise<SelfCheckReport> =>
  gpu instanceof WorkerGpuBackend ? gpu.selfCheck(onProgress) : selfCheck(gpu, { onProgress, autotune: { cache: new KernelFormsStore() } });
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
 * session: a reset, a lesson or a variant reuses them; a lost device checks again.
 */
export class CheckedAdapters {
  private readonly passed = new Map<string, SelfCheckReport>();
  /** The CPU engine's workers could not start on this page (cpuEngine): later runs do not try again. */
  workersFailed = false;
  private key(be: Backend): string {
    return `${adapterOf(be as GpuEngine)}|${JSON.stringify(be.config)}`;
  }
  get(be: Backend): SelfCheckReport | undefined {
    return this.passed.get(this.key(be));
  }
  remember(be: Backend, report: SelfCheckReport): void {
    this.passed.set(this.key(be), report);
  }
  forget(be: Backend): void {
    this.passed.delete(this.key(be));
  }
  sentence(r: SelfCheckReport): string {
    return `Self-check: passed on this GPU earlier in this session (${r.kernels} kernels against the CPU reference, worst error ${r.worstAbs.toExponential(0)}); not run again.${r.autotune ? ` ${autotuneSentence(r.autotune)}` : ''}`;
  }
}

/** A new WebGPU engine that passed a fresh self-check (the kernel forms it settled on stay set). */
async function checkedWebGPU(config: ModelConfig, seed: number, weights: Float32Array, checked: CheckedAdapters): Promise<Backend> {
  const gpu = await webgpuEngine(config, seed, weights, []);
  checked.forget(gpu);
  const check = await checkGpu(gpu);
  if (!check.ok) {
    gpu.dispose();
    throw new Error(check.sentence);
  }
  checked.remember(gpu, check);
  return gpu;
}

/**
 * Replace a lost engine: a new device and pipelines (or new CPU workers), then the committed
 * weights, AdamW state and π_ref. If WebGPU cannot come back, the run continues on the CPU
 * reference. Returns the AdamW step restored and a sentence when it fell back.
 */
export async function rebuildEngine(be: RecoverableBackend, seed: number, checked: CheckedAdapters): Promise<{ restoredStep: number; fellBack: string }> {
  if (be.name === 'cpu') {
    const notices: string[] = [];
    return { restoredStep: await be.replaceEngine((w) => cpuEngine(be.config, seed, w, notices, checked)), fellBack: notices.join(' ') };
  }
  try {
    return { restoredStep: await be.replaceEngine((w) => checkedWebGPU(be.config, seed, w, checked)), fellBack: '' };
  } catch (e) {
    const fellBack = `WebGPU could not be restarted (${engineErrorSentence(e, 120)}), so the run continues on the CPU reference.`;
    return { restoredStep: await be.replaceEngine((w) => cpuEngine(be.config, seed, w, [], checked)), fellBack };
  }
}

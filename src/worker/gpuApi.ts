/**
 * What the WebGPU engine's worker answers (gpuEngine.worker.ts exposes it through Comlink; the
 * page's side is gpuEngine.ts): the engine (src/gpu/backend.ts) with its device, its self-check
 * and autotune (the kernel forms cached in IndexedDB, which a worker reaches too), the profiler's
 * two halves, and the test hooks the lab's debug hooks proxy to. Arrays it answers with are
 * transferred (`transfer` is Comlink.transfer). An idle-time autotune slice (tuneSlice) has the
 * engine to itself: the calls that use the engine wait for it, and it for them (engineGate.ts).
 */
import type { AdamWSettings, LossSpec, OptimizerState, SampleRequest, TokenBatch } from '../model/backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { createWebGPUBackend, type WebGPUBackend } from '../gpu/backend.ts';
import { retune, selfCheck, setForms, type SelfCheckReport } from '../gpu/selfCheck.ts';
import { tuneSlice, type AutotuneReport } from '../gpu/autotune.ts';
import type { Forms } from '../gpu/forms.ts';
import { pipelineStats, type CompileProgress } from '../gpu/kernels.ts';
import { Profiler } from '../gpu/profiler.ts';
import type { TracedDispatch } from '../gpu/ops.ts';
import { KernelFormsStore } from '../persist/idb.ts';
import { EngineGate } from './engineGate.ts';

type Transfer = <T>(value: T, buffers: Transferable[]) => T;

/** The calls that neither use the engine nor wait for an idle-time slice (the rest share the engine through the gate). */
const UNGATED = new Set(['ping', 'create', 'lost', 'dispose', 'tuneSlice', 'destroyDevice', 'engineStats', 'pipelines', 'gpuCounts', 'hang']);

export function gpuEngineApi(transfer: Transfer) {
  let be: WebGPUBackend | null = null;
  let profiling: { profiler: Profiler; trace: TracedDispatch[] } | null = null;
  let counts: { submits: number; maps: number } | null = null;
  const gate = new EngineGate();
  const mine = () => {
    if (!be) throw new Error('the WebGPU worker has no engine (create)');
    return be;
  };
  // each buffer once: the update's mirror arrays are views of its one readback
  const moved = <T>(value: T, arrays: (ArrayBufferView | null | undefined)[]) => transfer(value, [...new Set(arrays.filter((a): a is ArrayBufferView => !!a).map((a) => a.buffer as ArrayBuffer))]);
  const api = {
    ping: () => true,
    /** The engine on this worker's device; `gpu: false` when this worker has no WebGPU (the page may still have it). */
    async create(config: ModelConfig, weights: Float32Array, onProgress?: (p: CompileProgress) => void): Promise<{ gpu: false } | { gpu: true; description: string }> {
      if (!(globalThis.navigator as Navigator | undefined)?.gpu) return { gpu: false };
      // timestamps: the profiler reads the GPU clock where the adapter offers it (unused otherwise, so free)
      be = await createWebGPUBackend(config, { seed: 0, weights, onProgress, mirrorState: true, timestamps: true });
      return { gpu: true, description: be.ctx.description };
    },
    /** Resolves when the device is lost (not answered when the worker itself stops: the page watches for that). */
    async lost(): Promise<{ reason: string; message: string }> {
      const info = await mine().lost;
      return { reason: info.reason ?? 'unknown', message: info.message ?? '' };
    },
    /** The self-check, its autotune timed on `rows` rows (the run's prompts × G). */
    selfCheck(onProgress?: (tried: number, total: number) => void, rows?: number): Promise<SelfCheckReport> {
      return selfCheck(mine(), { onProgress, autotune: { cache: new KernelFormsStore(), rows } });
    },
    /** The tune alone for a run of `rows` rows, the check having passed this session (`known`): selfCheck.ts retune. */
    retune: (known: SelfCheckReport, rows: number): Promise<SelfCheckReport> => retune(mine(), known, { cache: new KernelFormsStore(), rows }),
    /** One slice of an unfinished tune at `rows` rows (one family, `budgetMs` of timing, cut short by a call that waits), with the engine to itself; the forms it runs stay. */
    tuneSlice: (rows: number, budgetMs: number): Promise<AutotuneReport | null> => gate.exclusive(() => tuneSlice(mine(), { cache: new KernelFormsStore(), rows, budgetMs, stop: () => gate.waiting })), // a call that waits ends it after its run under way
    setForms: (f: Forms) => setForms(mine(), f),
    async getWeights() {
      const w = await mine().getWeights();
      return moved(w, [w]);
    },
    setWeights: (w: Float32Array) => mine().setWeights(w),
    async getOptimizerState() {
      const o = await mine().getOptimizerState();
      return moved(o, [o.m, o.v]);
    },
    setOptimizerState: (o: OptimizerState) => mine().setOptimizerState(o),
    snapshotReference: () => mine().snapshotReference(),
    async logprobs(batch: TokenBatch, opts?: { temperature?: number; reference?: boolean }) {
      const r = await mine().logprobs(batch, opts);
      return moved(r, [r.logprobs, r.entropy]);
    },
    /** The update, and the state it left (the mirror that rode in its one readback) when it was finite. */
    async trainStep(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings, o?: { epochs?: number }) {
      const e = mine();
      const result = await e.trainStep(batch, loss, opt, o);
      const good = result.finite ? e.lastGoodState : null; // handed over: this side reads its mirror no more
      return moved({ result, good }, [good?.weights, good?.optimizer.m, good?.optimizer.v]);
    },
    async gradient(batch: TokenBatch, loss: LossSpec) {
      const r = await mine().gradient(batch, loss);
      return moved(r, [r.grads]);
    },
    async sample(req: SampleRequest) {
      const r = await mine().sample(req);
      return moved(r, [...r.tokens, ...r.logprobs]);
    },
    dispose: () => { be?.dispose(); be = null; },

    /** The profiler's first half: keep the dispatches of what runs next (src/gpu/profiler.ts). */
    profileBegin(rows: number): void {
      const e = mine();
      e.reserve(rows); // the step then allocates nothing its replay would miss
      const profiler = new Profiler(e);
      profiling = { profiler, trace: profiler.begin() };
    },
    /** Its second half: replay and time what was kept (nothing when the step failed). */
    async profileEnd(label: string, wallMs: number, failed: boolean) {
      const p = profiling;
      profiling = null;
      if (be) be.ctx.ops.trace = null;
      if (!p || failed) return null;
      try { return await p.profiler.measure(label, p.trace, wallMs); } finally { p.profiler.destroy(); }
    },

    // test and soak hooks (src/lab/debugHooks.ts)
    poisonWeight(i: number): void {
      const e = mine();
      e.ctx.device.queue.writeBuffer(e.model.params, i * 4, new Float32Array([NaN]));
    },
    destroyDevice: () => mine().ctx.device.destroy(),
    engineStats() {
      const { arena, ops, ring } = mine().ctx;
      const c = ops.cacheSizes;
      return { liveBuffers: arena.live, bytes: arena.bytes, cachedUniforms: c.uniforms, cachedBindGroups: c.bindGroups, readbacks: ring.reads };
    },
    pipelines: () => pipelineStats.created,
    /** Queue submits and buffer maps in this worker from the first call on. */
    gpuCounts() {
      if (!counts) {
        const c = (counts = { submits: 0, maps: 0 });
        const submit = GPUQueue.prototype.submit;
        GPUQueue.prototype.submit = function (this: GPUQueue, ...a: Parameters<GPUQueue['submit']>) { c.submits++; return submit.apply(this, a); };
        const map = GPUBuffer.prototype.mapAsync;
        GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...a: Parameters<GPUBuffer['mapAsync']>) { c.maps++; return map.apply(this, a); };
      }
      return { ...counts };
    },
    /** Stop answering, as a worker stuck in a loop: nothing errors, calls just never return (the watchdog's test). */
    hang(): void {
      setTimeout(() => { for (;;) { /* stuck */ } }, 0);
    },
  };
  for (const [name, f] of Object.entries(api)) {
    if (!UNGATED.has(name)) (api as Record<string, unknown>)[name] = (...a: unknown[]) => gate.shared(() => (f as (...x: unknown[]) => unknown)(...a));
  }
  return api;
}

export type GpuEngineApi = ReturnType<typeof gpuEngineApi>;

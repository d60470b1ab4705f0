/**
 * Test and soak hooks on window.__lab (installed by src/main.tsx, the production build too): the
 * store, fault injection (NaN weights, a destroyed device, a stopped or silent worker), engine
 * counters and the page bench's replay. They reach into engine internals on purpose — that is
 * what they test — and nothing in the lab calls them. Where the WebGPU engine runs in its worker
 * (src/worker/gpuEngine.ts), they ask the worker.
 */
import { paramLayout } from '../model/config.ts';
import type { LabSession } from './session.ts';
import { replayHooks } from './replay.ts';
import { WorkerCpuBackend } from '../worker/cpuEngine.ts';
import { WorkerGpuBackend } from '../worker/gpuEngine.ts';
import { watchdogLimits } from '../worker/watchdog.ts';

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

export function debugHooks(session: LabSession) {
  return {
    /** Write NaN into one parameter (default: position 0's first wpe entry, used by every forward), behind the mirror's back. */
    async poisonWeight(index?: number): Promise<number> {
      const be = session.backend;
      if (!be) throw new Error('no model loaded');
      const i = index ?? paramLayout(be.config).byName.wpe.offset;
      const engine = be.engine;
      if (engine instanceof WorkerGpuBackend) await engine.hooks.poisonWeight(i);
      else if (engine.name === 'webgpu') {
        const g = engine as unknown as WebGPUEngineInternals;
        g.ctx.device.queue.writeBuffer(g.model.params, i * 4, new Float32Array([NaN]));
      } else {
        (engine as unknown as { model: { params: Float32Array } }).model.params[i] = NaN;
      }
      return i;
    },
    /** Destroy the WebGPU device, as a driver reset would. Returns false on the CPU reference. */
    async destroyDevice(): Promise<boolean> {
      const engine = session.backend?.engine;
      if (!engine || engine.name !== 'webgpu') return false;
      if (engine instanceof WorkerGpuBackend) await engine.hooks.destroyDevice();
      else (engine as unknown as WebGPUEngineInternals).ctx.device.destroy();
      return true;
    },
    /** Stop an engine's worker as a crash would (the run recovers from its committed state). Returns false where the engine has no workers. */
    crashWorker(): boolean {
      const engine = session.backend?.engine;
      if (engine instanceof WorkerCpuBackend) engine.crash(0);
      else if (engine instanceof WorkerGpuBackend) engine.crash();
      else return false;
      return true;
    },
    /**
     * Make the engine's worker stop answering without an error (stuck in a loop), the watchdog's
     * limit set to `limitMs` for this page. Returns false where the engine has no worker.
     */
    async hangWorker(limitMs = 3000): Promise<boolean> {
      const engine = session.backend?.engine;
      watchdogLimits.limitMs = limitMs;
      watchdogLimits.periodMs = Math.min(watchdogLimits.periodMs, limitMs / 4);
      if (engine instanceof WorkerGpuBackend) await engine.hooks.hang();
      else if (engine instanceof WorkerCpuBackend) await engine.hang(0);
      else return false;
      return true;
    },
    /** Whether the WebGPU engine runs in its worker (false: on the page, or no WebGPU engine). */
    gpuInWorker: (): boolean => session.backend?.engine instanceof WorkerGpuBackend,
    /** Queue submits and buffer maps of the WebGPU engine, counted from the first call (in its worker, or on the page). */
    async gpuCounts(): Promise<{ submits: number; maps: number }> {
      const engine = session.backend?.engine;
      if (engine instanceof WorkerGpuBackend) return engine.hooks.gpuCounts();
      const w = window as unknown as { __gpuCounts?: { submits: number; maps: number } };
      if (!w.__gpuCounts) {
        const c = (w.__gpuCounts = { submits: 0, maps: 0 });
        const submit = GPUQueue.prototype.submit;
        GPUQueue.prototype.submit = function (this: GPUQueue, ...a: Parameters<GPUQueue['submit']>) { c.submits++; return submit.apply(this, a); };
        const map = GPUBuffer.prototype.mapAsync;
        GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...a: Parameters<GPUBuffer['mapAsync']>) { c.maps++; return map.apply(this, a); };
      }
      return { ...w.__gpuCounts };
    },
    /** Workers the CPU engine runs on (0: WebGPU, or the CPU reference on the page's thread). */
    cpuWorkers: (): number => { const e = session.backend?.engine; return e instanceof WorkerCpuBackend ? e.workerCount : 0; },
    /**
     * Live GPU buffers and bytes (the arena), of which the per-shape uniform cache holds
     * `cachedUniforms` (bounded by design: emptied past MAX_CACHED_UNIFORMS), readbacks so far.
     */
    async engineStats(): Promise<{ engine: string | null; liveBuffers: number; bytes: number; cachedUniforms: number; cachedBindGroups: number; readbacks: number }> {
      const engine = session.backend?.engine;
      if (engine instanceof WorkerGpuBackend) return { engine: 'webgpu', ...(await engine.hooks.engineStats()) };
      if (!engine || engine.name !== 'webgpu') return { engine: engine?.name ?? null, liveBuffers: 0, bytes: 0, cachedUniforms: 0, cachedBindGroups: 0, readbacks: 0 };
      const g = engine as unknown as WebGPUEngineInternals;
      const c = g.ctx.ops.cacheSizes;
      return { engine: 'webgpu', liveBuffers: g.ctx.arena.live, bytes: g.ctx.arena.bytes, cachedUniforms: c.uniforms, cachedBindGroups: c.bindGroups, readbacks: g.ctx.ring.reads };
    },
    /** Compare the engine's real state with the committed state on the CPU (max |difference| per array). */
    async checkMirror(): Promise<{ weights: number; m: number; v: number; step: [number, number]; finite: boolean } | null> {
      const be = session.backend;
      const good = be?.committed;
      if (!be || !good) return null;
      const w = await be.engine.getWeights();
      const o = await be.engine.getOptimizerState();
      return { weights: maxAbsDiff(w, good.weights), m: maxAbsDiff(o.m, good.optimizer.m), v: maxAbsDiff(o.v, good.optimizer.v), step: [o.step, good.optimizer.step], finite: w.every(Number.isFinite) };
    },
    /** Compute pipelines compiled (on the page and in WebGPU's workers) and engine self-checks run in this page so far (a lesson of the same model shape adds neither). */
    async engineWork(): Promise<{ pipelines: number; selfChecks: number }> {
      const { pipelineStats } = await import('../gpu/kernels.ts');
      const engine = session.backend?.engine;
      if (engine instanceof WorkerGpuBackend) await engine.countPipelines().catch(() => 0);
      return { pipelines: pipelineStats.created + WorkerGpuBackend.pipelinesCompiled(), selfChecks: session.engines.selfChecks };
    },
    /** Where the loaded run's autotune stands: its rows, the families timed, final or not, idle-time slices run (src/lab/idleTune.ts). */
    tuneState: () => session.engines.tuneState(),
    savesSettled: () => session.autosave.settled(),
    /** Write no more saves: the run saved last stays the saved run while this one goes on. */
    holdSaves: () => session.autosave.hold(),
    /** The page bench: a recorded run's history into the store, and more of its steps through the run loop's recorder. */
    replay: replayHooks(session.frames, session.recorder),
  };
}

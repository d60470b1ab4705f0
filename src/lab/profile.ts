/**
 * One real training step under the GPU profiler (WebGPU only): the profiler replays the step's
 * dispatches by phase and by kernel family (timestamp queries where the adapter has them, CPU
 * clocks otherwise) and restores the weights it touched.
 */
import type { Backend } from '../model/backend.ts';
import type { Profile } from '../gpu/profiler.ts';
import type { Settings } from '../rl/settings.ts';
import { WorkerGpuBackend } from '../worker/gpuEngine.ts';

export async function profileStep(engine: Backend, s: Settings, runStep: () => Promise<void>): Promise<{ ok: true; profile: Profile } | { ok: false; note: string }> {
  if (engine.name !== 'webgpu') return { ok: false, note: 'The profiler needs the WebGPU engine; this run is on the CPU reference.' };
  try {
    const rows = s.promptsPerStep * s.numGenerations; // reserved first: the step then allocates nothing its replay would miss
    if (engine instanceof WorkerGpuBackend) return { ok: true, profile: await engine.profile('one GRPO step', rows, runStep) }; // timed in the engine's worker
    const [{ Profiler }, { WebGPUBackend }] = await Promise.all([import('../gpu/profiler.ts'), import('../gpu/backend.ts')]);
    if (!(engine instanceof WebGPUBackend)) throw new Error('not a WebGPU engine');
    engine.reserve(rows);
    return { ok: true, profile: await new Profiler(engine).profile('one GRPO step', runStep) };
  } catch (e) {
    return { ok: false, note: `Profiling failed: ${(e as Error).message}` };
  }
}

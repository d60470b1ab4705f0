/**
 * Engine selection: switching between the CPU reference and the WebGPU engine is one setting.
 * Both start from the same weights for the same seed (src/model/init.ts).
 */
import type { Backend } from './backend.ts';
import type { ModelConfig } from './config.ts';
import { ReferenceBackend } from './reference/backend.ts';

export type BackendKind = 'cpu' | 'webgpu';

export interface CreateBackendOptions {
  seed: number;
  weights?: Float32Array | null;
  onProgress?: (p: { done: number; total: number }) => void;
  /** WebGPU: carry params, m and v in trainStep's one readback (WebGPUBackend.lastGoodState). */
  mirrorState?: boolean;
}

export async function createBackend(kind: BackendKind, config: ModelConfig, o: CreateBackendOptions): Promise<Backend> {
  if (kind === 'cpu') return o.weights ? new ReferenceBackend(config, o.weights) : ReferenceBackend.create(config, o.seed);
  const { createWebGPUBackend } = await import('../gpu/backend.ts');
  // timestamps: the profiler reads the GPU clock where the adapter offers it (unused otherwise, so free).
  return createWebGPUBackend(config, { seed: o.seed, weights: o.weights ?? undefined, onProgress: o.onProgress, mirrorState: o.mirrorState, timestamps: true });
}


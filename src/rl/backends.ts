/**
 * Backend selection: switching between the CPU reference and the WebGPU engine is one
 * setting. Both start from the same weights for the same seed (src/model/init.ts).
 */
import type { Backend } from '../model/backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';

export type BackendKind = 'cpu' | 'webgpu';

export async function createBackend(kind: BackendKind, config: ModelConfig, o: { seed: number; weights?: Float32Array | null }): Promise<Backend> {
  if (kind === 'cpu') return o.weights ? new ReferenceBackend(config, o.weights) : ReferenceBackend.create(config, o.seed);
  const { createWebGPUBackend } = await import('../gpu/backend.ts');
  const be = await createWebGPUBackend(config, { seed: o.seed });
  if (o.weights) await be.setWeights(o.weights);
  return be;
}

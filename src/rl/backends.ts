/**
 * Backend selection: switching between the CPU reference and the WebGPU engine is one
 * setting. Both start from the same weights for the same seed (src/model/init.ts).
 */
import type { Backend } from '../model/backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';

export type BackendKind = 'cpu' | 'webgpu';

export async function createBackend(kind: BackendKind, config: ModelConfig, o: { seed: number; weights?: Float32Array | null; onProgress?: (p: { done: number; total: number }) => void }): Promise<Backend> {
  if (kind === 'cpu') return o.weights ? new ReferenceBackend(config, o.weights) : ReferenceBackend.create(config, o.seed);
  const [{ createWebGPUBackend }, { createPolicyLossKernel }] = await Promise.all([import('../gpu/backend.ts'), import('../gpu/policyLoss.ts')]);
  return createWebGPUBackend(config, { seed: o.seed, weights: o.weights ?? undefined, policyLoss: createPolicyLossKernel(), onProgress: o.onProgress });
}

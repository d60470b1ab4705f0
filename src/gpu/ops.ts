/**
 * The operations of the model as GPU dispatches recorded into a compute pass: one method per
 * WGSL entry point (or pair), with the same argument order as the CPU reference's ops
 * (src/model/reference/ops.ts: outputs first, then inputs, then shapes).
 *
 * Ops is the dispatch core (src/gpu/ops/core.ts: the uniform and bind-group caches, dispatch,
 * trimCaches) with the op families mixed in, one module each:
 *   ops/layers.ts     embedding, matmul (with its fused epilogues), GELU, LayerNorm
 *   ops/attention.ts  attention, and the decode step's: attention over the KV cache, the fused
 *                     decode block, sampling the next token
 *   ops/objective.ts  log-softmax, the exact KL, the loss reduction, the policy objective
 *   ops/optimizer.ts  the gradient norm and its clip, AdamW
 */
import type { BufferArena } from './arena.ts';
import type { KernelRegistry } from './kernels.ts';
import { attentionOps } from './ops/attention.ts';
import { OpsCore } from './ops/core.ts';
import { layerOps } from './ops/layers.ts';
import { objectiveOps } from './ops/objective.ts';
import { optimizerOps } from './ops/optimizer.ts';

export { f32, grid1d, MAX_CACHED_BIND_GROUPS, MAX_CACHED_UNIFORMS, packUniform } from './ops/core.ts';
export type { Binding, F32, Prelude, TracedDispatch } from './ops/core.ts';
export type { OptimizerBuffers } from './ops/optimizer.ts';

export class Ops extends optimizerOps(objectiveOps(attentionOps(layerOps(OpsCore)))) {
  // the mixins' constructors take any arguments; this one says which
  constructor(device: GPUDevice, kernels: KernelRegistry, arena: BufferArena) {
    super(device, kernels, arena);
  }
}

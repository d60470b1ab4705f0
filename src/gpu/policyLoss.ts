/**
 * The clipped policy objective on the GPU: shaders/policy_loss.wgsl, plugged into the WebGPU
 * backend's trainStep between the log-softmax forward and the logits backward (see
 * PolicyLossKernel in ./backend.ts). Its TypeScript twin is policyObjective in
 * src/model/objective.ts; e2e/gpu-policy-loss.spec.ts checks that they agree.
 *
 * Per step the CPU uploads one small buffer, policyIn = [old log-probs (B*T) | advantages (B) |
 * aggregation weights w_b (B)], and one uniform; everything else stays on the GPU.
 */
import type { LossSpec, TokenBatch } from '../model/backend.ts';
import { aggregationWeights } from '../model/objective.ts';
import type { PolicyLossKernel, WebGPUBackend } from './backend.ts';
import { f32 } from './ops.ts';

type PolicySpec = Extract<LossSpec, { kind: 'policy' }>;

/** metrics[6 + i] of the step's metrics buffer, in this order (policy_loss_reduce writes them). */
export const POLICY_METRIC_NAMES = ['clip_ratio/low_mean', 'clip_ratio/high_mean', 'clip_ratio/region_mean', 'kl', 'ratio_min', 'ratio_mean', 'ratio_max', 'entropy', 'policy_loss'] as const;

const ROW_STATS = 10;

export function createPolicyLossKernel(): PolicyLossKernel {
  let uniform: GPUBuffer | null = null;
  let policyIn: GPUBuffer | null = null;
  let rowStats: GPUBuffer | null = null;
  let policyInFloats = 0;
  let rowStatsFloats = 0;

  return {
    metricNames: POLICY_METRIC_NAMES,

    prepare(backend: WebGPUBackend, batch: TokenBatch, loss: PolicySpec): void {
      const { B, T, mask } = batch;
      const N = B * T;
      const ctx = backend.ctx;
      if (loss.oldLogprobs && loss.oldLogprobs.length !== N) throw new Error(`policy loss: oldLogprobs must have B*T = ${N} entries`);
      const need = N + 2 * B;
      if (!policyIn || policyInFloats < need) {
        ctx.arena.destroy(policyIn);
        policyInFloats = Math.max(need, 2 * policyInFloats);
        policyIn = ctx.arena.storage('policyIn', policyInFloats);
      }
      if (!rowStats || rowStatsFloats < B * ROW_STATS) {
        ctx.arena.destroy(rowStats);
        rowStatsFloats = Math.max(B * ROW_STATS, 2 * rowStatsFloats);
        rowStats = ctx.arena.storage('policyRowStats', rowStatsFloats);
      }
      uniform ??= ctx.ops.dynamicUniform('policyLoss', 12);
      const data = new Float32Array(need);
      if (loss.oldLogprobs) data.set(loss.oldLogprobs, 0);
      data.set(loss.advantages, N);
      data.set(aggregationWeights(B, T, mask, loss.lossType, loss.maxCompletionLength), N + B);
      ctx.device.queue.writeBuffer(policyIn, 0, data);
      ctx.ops.writeUniform(uniform, [
        B, T,
        loss.importanceSamplingLevel === 'sequence' ? 1 : 0,
        loss.klEstimator === 'k3' ? 1 : 0,
        loss.oldLogprobs ? 1 : 0,
        loss.beta !== 0 || loss.measureKl ? 1 : 0,
        f32(loss.epsilon), f32(loss.epsilonHigh), f32(loss.beta), f32(loss.entropyCoef), f32(0), f32(0),
      ]);
    },

    record(pass: GPUComputePassEncoder, backend: WebGPUBackend, batch: TokenBatch, loss: PolicySpec, refLogprobs: GPUBuffer | null): void {
      const a = backend.model.acts!;
      const ops = backend.ctx.ops;
      if ((loss.beta !== 0 || loss.measureKl) && !refLogprobs) throw new Error('policy loss: β ≠ 0 needs the reference log-probs');
      ops.dispatch(pass, 'policy_loss_rows', uniform!, {
        1: a.logprobs, 2: a.entropy, 3: a.mask, 4: refLogprobs ?? a.logprobs, 5: policyIn!, 6: a.gradLogprob, 7: a.gradEntropy, 8: rowStats!,
      }, [batch.B]);
      ops.dispatch(pass, 'policy_loss_reduce', uniform!, { 8: rowStats!, 9: backend.model.metrics }, [1]);
    },
  };
}

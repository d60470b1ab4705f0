/**
 * The clipped policy objective's per-step inputs on the GPU. The kernel itself
 * (shaders/policy_loss.wgsl) is dispatched by Ops.policyLoss, between the log-softmax forward
 * and the logits backward of WebGPUBackend.trainStep; its TypeScript twin is policyObjective in
 * src/model/objective.ts, and e2e/gpu-policy-loss.spec.ts checks that they agree.
 *
 * Per step the CPU uploads one small buffer, policyIn = policyInputs(batch, loss); the settings
 * travel in the kernel's uniform (Ops.policyLossUniform); everything else stays on the GPU.
 */
import type { LossSpec, TokenBatch } from '../model/backend.ts';
import { aggregationWeights } from '../model/objective.ts';

type PolicySpec = Extract<LossSpec, { kind: 'policy' }>;

/**
 * policyIn [B*T + 2B] = [old log-probs (B*T; zeros when on-policy) | advantages (B) |
 * aggregation weights w_b (B), from aggregationWeights: the same function the TS twin uses].
 */
export function policyInputs(batch: TokenBatch, loss: PolicySpec): Float32Array {
  const { B, T, mask } = batch;
  const N = B * T;
  const data = new Float32Array(N + 2 * B);
  if (loss.oldLogprobs) data.set(loss.oldLogprobs, 0);
  data.set(loss.advantages, N);
  data.set(aggregationWeights(B, T, mask, loss.lossType, loss.maxCompletionLength), N + B);
  return data;
}

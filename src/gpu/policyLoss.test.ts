/**
 * The policy loss's per-step upload and uniform (Ops.policyLoss's inputs), without a GPU: the same
 * words, bit for bit, as the injected kernel that preceded it built, so the kernel's outputs
 * cannot have changed by the move into Ops.
 */
import { describe, expect, it } from 'vitest';
import type { LossSpec, TokenBatch } from '../model/backend.ts';
import { aggregationWeights } from '../model/objective.ts';
import { f32, Ops, packUniform } from './ops.ts';
import { policyInputs } from './policyLoss.ts';

type PolicySpec = Extract<LossSpec, { kind: 'policy' }>;

const B = 3, T = 4, N = B * T;
const batch: TokenBatch = { B, T, inputs: new Int32Array(N), targets: new Int32Array(N), mask: Float32Array.from([0, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0]) };
const spec = (over: Partial<PolicySpec>): PolicySpec => ({
  kind: 'policy', advantages: Float32Array.from([0.5, -1.25, 2]), oldLogprobs: Float32Array.from({ length: N }, (_, i) => -0.1 * i),
  epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0.01, maxCompletionLength: 4, temperature: 1,
  ...over,
});

/** What createPolicyLossKernel().prepare wrote before (policyIn, then the uniform's words). */
function former(loss: PolicySpec): { data: Float32Array; words: Uint32Array } {
  const data = new Float32Array(N + 2 * B);
  if (loss.oldLogprobs) data.set(loss.oldLogprobs, 0);
  data.set(loss.advantages, N);
  data.set(aggregationWeights(B, T, batch.mask, loss.lossType, loss.maxCompletionLength), N + B);
  const words = packUniform([
    B, T,
    loss.importanceSamplingLevel === 'sequence' ? 1 : 0,
    loss.klEstimator === 'k3' ? 1 : 0,
    loss.oldLogprobs ? 1 : 0,
    loss.beta !== 0 || loss.measureKl ? 1 : 0,
    f32(loss.epsilon), f32(loss.epsilonHigh), f32(loss.beta), f32(loss.entropyCoef), f32(0), f32(0),
  ]);
  return { data, words };
}

describe('policy loss inputs', () => {
  const cases: [string, Partial<PolicySpec>][] = [
    ['grpo, k3, π_old', {}],
    ['dapo, k1, on-policy', { lossType: 'dapo', klEstimator: 'k1', oldLogprobs: null }],
    ['dr_grpo, sequence, β = 0', { lossType: 'dr_grpo', importanceSamplingLevel: 'sequence', beta: 0 }],
    ['β = 0, KL measured', { beta: 0, measureKl: true }],
  ];
  for (const [name, over] of cases) {
    it(`${name}: the same upload and uniform as before`, () => {
      const loss = spec(over);
      const f = former(loss);
      expect(policyInputs(batch, loss)).toEqual(f.data);
      // the backend evaluates π_ref exactly when β ≠ 0 or the KL is measured
      const hasKl = loss.beta !== 0 || !!loss.measureKl;
      expect(packUniform(Ops.policyLossUniform(B, T, loss, loss.oldLogprobs !== null, hasKl))).toEqual(f.words);
    });
  }
});

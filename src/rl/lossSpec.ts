/**
 * A step's policy loss as the engine takes it: the advantages, π_old and the objective's settings
 * (policyLossOf), and the batch with truncated answers masked. One home for the trainer, the
 * step-through's inspection and the counterfactual comparison (none imports another for it).
 */
import type { LossSpec, TokenBatch } from '../model/backend.ts';
import type { Rollout } from './rollout.ts';
import type { Settings } from './settings.ts';

/** The batch the update trains on with mask_truncated_completions: answers cut off at the length limit leave the loss. */
export function maskTruncated(batch: TokenBatch, rollout: Rollout): TokenBatch {
  const mask = Float32Array.from(batch.mask);
  rollout.groups.flatMap((g) => g.finished).forEach((f, b) => { if (!f) mask.fill(0, b * batch.T, (b + 1) * batch.T); });
  return { ...batch, mask };
}

/** The policy loss of a step: its advantages, π_old (needed when µ > 1) and the objective's settings. */
export function policyLossOf(rollout: Rollout, batch: TokenBatch, s: Settings): Extract<LossSpec, { kind: 'policy' }> {
  return {
    kind: 'policy',
    advantages: Float32Array.from(rollout.groups.flatMap((g) => g.advantages)),
    oldLogprobs: s.numIterations > 1 ? oldLogprobsOf(rollout, batch) : null,
    epsilon: s.epsilon, epsilonHigh: s.epsilonHigh, beta: s.klMode === 'loss' ? s.beta : 0,
    klEstimator: s.klEstimator, lossType: s.lossType, importanceSamplingLevel: s.importanceSamplingLevel, entropyCoef: s.entropyCoef,
    maxCompletionLength: s.maxCompletionLength, temperature: s.temperature, measureKl: s.measureKl,
  };
}

/** π_old as a [B*T] array, from the rollout's log-probs. */
export function oldLogprobsOf(rollout: Rollout, batch: TokenBatch): Float32Array {
  const old = new Float32Array(batch.B * batch.T);
  let b = 0;
  for (const g of rollout.groups) {
    for (const lp of g.logprobs) {
      old.set(lp, b * batch.T + g.promptTokens.length - 1);
      b++;
    }
  }
  return old;
}

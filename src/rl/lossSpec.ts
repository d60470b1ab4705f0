/**
 * A step's policy loss as the engine takes it: the advantages, π_old and the objective's settings
 * (policyLossOf), and the batch with truncated answers masked. One home for the trainer, the
 * step-through's inspection and the counterfactual comparison (none imports another for it).
 *
 * The clip range is ε / ε_high at both ratio levels, as TRL's epsilon / epsilon_high are (its
 * _compute_loss clamps coef_1, the token or the sequence ratio, at [1 − epsilon_low, 1 + epsilon_high]
 * either way); the page's GSPO preset sets them to 3e-4 / 4e-4 (settings.ts GSPO_CLIP).
 *
 * The chapter's RLOO (algorithm rloo) is REINFORCE with the leave-one-out baseline on the whole
 * answer: L = −1/B Σ_i A_i Σ_t log π(o_i,t) (+ β·KL, − c_H·H), A_i = r_i − mean of the other G − 1.
 * The engine's clipped objective gives exactly that gradient with the sum aggregation divided by
 * B alone (dr_grpo with L_max = 1), on-policy (π_old = π_θ detached, ρ = 1, one update per batch)
 * and no clip bounds that bind (RLOO_NO_CLIP): ∇ = −1/B Σ_i A_i Σ_t ∇log π(o_i,t).
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

/** Clip bounds no ratio reaches: RLOO has no clip (the bounds are finite, so no shader sees an infinity). */
export const RLOO_NO_CLIP = 1e9;

/** The clip range in effect: ε / ε_high at either ratio level, as TRL's (none under RLOO). */
export function clipRange(s: Settings): { epsilon: number; epsilonHigh: number } {
  if (s.algorithm === 'rloo') return { epsilon: RLOO_NO_CLIP, epsilonHigh: RLOO_NO_CLIP };
  return { epsilon: s.epsilon, epsilonHigh: s.epsilonHigh };
}

/** Inner epochs per batch: µ, or one for RLOO (REINFORCE is on-policy). */
export function innerEpochs(s: Settings): number {
  return s.algorithm === 'rloo' ? 1 : s.numIterations;
}

/** The advantage estimator in effect: the setting's, or the leave-one-out baseline for RLOO. */
export function advantageOf(s: Settings): Settings['advantage'] {
  return s.algorithm === 'rloo' ? 'leave_one_out' : s.advantage;
}

/** The policy loss of a step: its advantages, π_old (needed when µ > 1) and the objective's settings. */
export function policyLossOf(rollout: Rollout, batch: TokenBatch, s: Settings): Extract<LossSpec, { kind: 'policy' }> {
  const rloo = s.algorithm === 'rloo';
  return {
    kind: 'policy',
    advantages: Float32Array.from(rollout.groups.flatMap((g) => g.advantages)),
    oldLogprobs: innerEpochs(s) > 1 ? oldLogprobsOf(rollout, batch) : null,
    ...clipRange(s), beta: s.klMode === 'loss' ? s.beta : 0,
    klEstimator: s.klEstimator, lossType: rloo ? 'dr_grpo' : s.lossType, importanceSamplingLevel: rloo ? 'token' : s.importanceSamplingLevel, entropyCoef: s.entropyCoef,
    maxCompletionLength: rloo ? 1 : s.maxCompletionLength, temperature: s.temperature, measureKl: s.measureKl,
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

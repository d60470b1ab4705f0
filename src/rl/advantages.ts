/**
 * Group-relative advantages: which of a prompt's G answers to make more likely.
 *
 * Rewards arrive prompt-major: r[p*G + g] is answer g to prompt p. Estimators (`advantage`):
 *   grpo       A_i = (r_i − mean_group) / (std_group + eps)          (DeepSeekMath GRPO)
 *   dr_grpo    A_i =  r_i − mean_group                                (Dr. GRPO: no std division)
 *   leave_one_out  A_i = r_i − mean of the other G − 1 answers       (the leave-one-out baseline)
 *              = G/(G−1) · (r_i − mean_group)
 *              (inside the clipped objective it is "the leave-one-out advantage"; the chapter's
 *              RLOO, REINFORCE on the whole answer with this baseline, is the algorithm rloo)
 *   reinforce  A_i =  r_i − mean_batch                                (one baseline for the batch)
 * `scale_rewards` (TRL's name) chooses the std that grpo divides by: group (each prompt's own),
 * batch (one std over all answers), none (no division — then grpo equals dr_grpo).
 * std is TRL's: torch.std, Bessel-corrected (divide by n − 1), so a lab run and its TRL export
 * compute the same advantages (TRL's _generate_and_score_completions: group std
 * rewards.view(-1, G).std(dim=1), batch std rewards.std(), then (r − mean_group)/(std + 1e-4)).
 * Rewards [1,0,1,0]: mean 0.5, std √(1/3) ≈ 0.577, A ≈ [0.866, −0.866, 0.866, −0.866] (the
 * population std, 0.5, would give exactly ±1). eps = 1e-4.
 *
 * A group whose rewards are all equal gets zero advantages under grpo, dr_grpo and leave_one_out: it
 * teaches nothing (TRL logs the share of such groups as frac_reward_zero_std). reinforce's
 * baseline is the batch mean, so such a group is still pushed up or down by its distance from
 * the batch — the variance the group baseline removes.
 */

export type AdvantageEstimator = 'grpo' | 'dr_grpo' | 'leave_one_out' | 'reinforce';
export type ScaleRewards = 'group' | 'batch' | 'none';

export const ADVANTAGE_EPS = 1e-4;

/** The estimator in words, as the step-through and the tour say it: what each reward is measured against, and what divides it. */
export function estimatorWords(estimator: AdvantageEstimator, scaleRewards: ScaleRewards): string {
  switch (estimator) {
    case 'grpo': return `GRPO: each reward minus its group's mean, ${scaleRewards === 'group' ? "divided by the group's standard deviation" : scaleRewards === 'batch' ? "divided by the whole batch's standard deviation" : 'not divided'}`;
    case 'dr_grpo': return "Dr. GRPO: each reward minus its group's mean, not divided";
    case 'leave_one_out': return 'leave-one-out: each reward minus the mean of the other answers in its group';
    case 'reinforce': return "REINFORCE: each reward minus the whole batch's mean";
  }
}

function mean(xs: ArrayLike<number>, from = 0, to = xs.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += xs[i];
  return to > from ? s / (to - from) : 0;
}

/** The rewards' standard deviation as torch.std gives it (TRL's): Bessel-corrected, √(Σ(x − x̄)² / (n − 1)); 0 for fewer than two values. */
export function rewardStd(xs: ArrayLike<number>, from = 0, to = xs.length): number {
  const n = to - from;
  if (n < 2) return 0;
  const m = mean(xs, from, to);
  let s = 0;
  for (let i = from; i < to; i++) s += (xs[i] - m) ** 2;
  return Math.sqrt(s / (n - 1));
}

/** Advantages for P groups of G rewards (see the file comment for the formulas). */
export function groupAdvantages(rewards: ArrayLike<number>, G: number, estimator: AdvantageEstimator, scaleRewards: ScaleRewards = 'group'): Float64Array {
  const N = rewards.length;
  if (G < 1 || N % G !== 0) throw new Error(`groupAdvantages: ${N} rewards are not whole groups of G=${G}`);
  const A = new Float64Array(N);
  if (estimator === 'reinforce') {
    const m = mean(rewards);
    for (let i = 0; i < N; i++) A[i] = rewards[i] - m;
    return A;
  }
  const batchStd = rewardStd(rewards);
  for (let p = 0; p < N / G; p++) {
    const from = p * G, to = from + G;
    const m = mean(rewards, from, to);
    let allEqual = true;
    for (let i = from + 1; i < to; i++) if (rewards[i] !== rewards[from]) allEqual = false;
    for (let i = from; i < to; i++) {
      if (allEqual) { A[i] = 0; continue; }
      const centred = rewards[i] - m;
      if (estimator === 'dr_grpo') A[i] = centred;
      else if (estimator === 'leave_one_out') A[i] = G > 1 ? (G / (G - 1)) * centred : 0;
      else {
        const std = scaleRewards === 'group' ? rewardStd(rewards, from, to) : scaleRewards === 'batch' ? batchStd : 0;
        A[i] = scaleRewards === 'none' ? centred : centred / (std + ADVANTAGE_EPS);
      }
    }
  }
  return A;
}

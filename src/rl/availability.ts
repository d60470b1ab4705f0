/**
 * Which settings take effect with the others as they are, and why not: one rule for the page's
 * controls (a control that would do nothing is disabled and says why, in words, under it) and
 * for anything else that needs to know. A setting that does nothing must not look as if it did.
 *
 *   Reward / Process weight   process reward needs a task with checkable steps, w needs it on
 *   the objective's knobs     under RFT (cross-entropy on the verified answers) none of ε, ε_high,
 *                             β, the KL settings, the loss's aggregation and ratio level, c_H,
 *                             µ or the advantage settings enters the update
 *                             under RLOO (REINFORCE, leave-one-out, on-policy, unclipped) neither the
 *                             advantage settings, the clip ranges, the aggregation, the ratio level nor µ
 *   Reward scaling            only the grpo advantage divides by a std
 *   KL estimator              only where the KL is in the loss (β > 0) or measured
 *   KL placement              only where β > 0
 *   Dynamic sampling cap      only with dynamic sampling on
 *   Overlong buffer           only with the overlong penalty on
 */
import { effectiveRewardMode, hasSteps, STEP_TASKS } from './processReward.ts';
import { SETTINGS_BY_KEY, type SettingKey, type Settings } from './settings.ts';

export interface Availability {
  disabled: boolean;
  /** Why the control is disabled, in words (null when it is not). */
  reason: string | null;
  /** The value in effect, when it differs from the stored one (process reward on a task without steps runs as outcome). */
  shown?: string | number | boolean;
}

/** The knobs of the clipped policy objective and its advantages: none enters an RFT update. */
export const OBJECTIVE_KNOBS: readonly SettingKey[] = ['advantage', 'scaleRewards', 'epsilon', 'epsilonHigh', 'beta', 'klEstimator', 'klMode', 'lossType', 'importanceSamplingLevel', 'measureKl', 'entropyCoef', 'numIterations'];
/** What RLOO fixes: its advantage is leave-one-out, its loss the summed log-probability, on-policy (µ = 1), unclipped. */
export const RLOO_FIXED: readonly SettingKey[] = ['advantage', 'scaleRewards', 'epsilon', 'epsilonHigh', 'lossType', 'importanceSamplingLevel', 'numIterations'];

const label = (key: SettingKey) => SETTINGS_BY_KEY[key]?.label ?? key;

/** Whether a setting's control applies to these settings, and why not. */
export function settingAvailability(key: SettingKey, s: Settings): Availability {
  const off = (reason: string, shown?: Availability['shown']): Availability => ({ disabled: true, reason, ...(shown === undefined ? {} : { shown }) });
  if (key === 'rewardMode' && !hasSteps(s.task)) return off(`Task ${s.task} has no checkable steps (only ${STEP_TASKS.join(', ')} have running results to check), so this run uses outcome reward.`, 'outcome');
  if (key === 'processWeight' && effectiveRewardMode(s) !== 'process') return off('Used only when Reward is process.');
  if (s.algorithm === 'rft' && OBJECTIVE_KNOBS.includes(key)) return off(`RFT trains by cross-entropy on the verified answers: ${label(key)} does not enter its update.`);
  if (s.algorithm === 'rloo' && RLOO_FIXED.includes(key)) return off(`RLOO is REINFORCE on the whole answer with the leave-one-out advantage, on-policy and unclipped: ${label(key)} does not enter its update.`, key === 'advantage' ? 'leave_one_out' : key === 'numIterations' ? 1 : undefined);
  if (key === 'scaleRewards' && s.advantage !== 'grpo') return off(`Used only by the grpo advantage estimator (${s.advantage} divides by no std).`);
  if (key === 'klEstimator' && s.beta === 0 && !s.measureKl) return off('The KL is neither in the loss (β = 0) nor measured (Measure KL at β = 0 is off).');
  if (key === 'klMode' && s.beta === 0) return off('Used only when β > 0.');
  if (key === 'maxResample' && !s.dynamicSampling) return off('Used only with dynamic sampling on.');
  if (key === 'overlongBuffer' && !s.overlongPenalty) return off('Used only with the overlong soft penalty on.');
  return { disabled: false, reason: null };
}

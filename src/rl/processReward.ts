/**
 * Process reward: credit for the scratchpad steps an answer gets right, mixed with the outcome.
 *
 * Tasks with checkable steps (chain, digitsum, modsum) know the running results a scratchpad
 * should write ("7,12,20|20"); task.processReward is the share of written steps that equal them.
 * Under rewardMode = process an answer that writes a scratchpad earns a mix of that share and its
 * outcome reward (weight w, the processWeight setting); a direct answer keeps its outcome reward,
 * so a correct direct answer still earns 1. On tasks without steps process reward does not
 * exist: the control is disabled with the reason, and a URL, file or CLI run that asks for it
 * is told so and runs with outcome reward.
 */
import { scratchpadSteps } from '../tasks/common.ts';
import { TASKS, customTasks } from '../tasks/registry.ts';
import type { Task } from '../tasks/types.ts';

/** The reward modes (the settings table's rewardMode options, src/rl/settings.ts): the verdict alone, or with the steps' credit. */
export const REWARD_MODES = ['outcome', 'process'] as const;
export type RewardMode = (typeof REWARD_MODES)[number];

/**
 * The reward of one answer under process reward, with r_o its outcome reward (the verdict's:
 * 1 right, the format reward if well-formed but wrong, 0 unparseable; a weak verifier's verdict
 * when one is set) and f the fraction of its scratchpad steps that are right (null: it wrote none):
 *
 *   r = r_o                    if f is null (a direct answer keeps its outcome reward)
 *   r = (1 − w)·r_o + w·f      otherwise
 *
 * A right answer whose steps are all right gets 1 either way; a wrong one is paid for its right
 * steps. Shaping applied after it (the overlong penalty, KL in the reward) adds on top.
 */
export function mixProcessReward(outcome: number, stepFraction: number | null, w: number): number {
  return stepFraction === null ? outcome : (1 - w) * outcome + w * stepFraction;
}

/** f for an answer: the share of its scratchpad steps that are right, or null when it wrote none (or the task has no steps). */
export function stepFraction(task: Task, prompt: string, response: string): number | null {
  if (!task.processReward || scratchpadSteps(response) === null) return null;
  return task.processReward(prompt, response);
}

/** The ids of the tasks with checkable scratchpad steps. */
export const STEP_TASKS: readonly string[] = TASKS.filter((t) => t.processReward).map((t) => t.id);

/** Whether a task has checkable scratchpad steps (process reward applies): a built-in one of STEP_TASKS, or a registered custom task (a spec with a scratchpad). */
export const hasSteps = (task: string) => STEP_TASKS.includes(task) || customTasks().some((t) => t.id === task && t.processReward !== undefined);

/** The reward mode a run actually uses: process only on a task with checkable steps. */
export function effectiveRewardMode(s: { task: string; rewardMode: RewardMode }): RewardMode {
  return s.rewardMode === 'process' && hasSteps(s.task) ? 'process' : 'outcome';
}

/** The sentence for settings that ask for process reward on a task without steps (null when they do not). */
export function rewardModeNotice(s: { task: string; rewardMode: RewardMode }): string | null {
  if (s.rewardMode !== 'process' || hasSteps(s.task)) return null;
  return `rewardMode process needs a task with checkable scratchpad steps (${STEP_TASKS.join(', ')}); task ${s.task} has none, so the run uses outcome reward`;
}

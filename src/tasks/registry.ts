/**
 * The task registry: every task the lab can train on, and the weak verifiers used in the
 * reward-hacking lesson.
 */
import { addTask, chainTask, digitSumTask, modSumTask, mulTask, subTask } from './arithmetic.ts';
import { countdownTask } from './countdown.ts';
import { countTask, dedupTask, palindromeTask, reverseTask, shiftTask, sortTask } from './strings.ts';
import type { Task } from './types.ts';

export { WEAK_VERIFIERS, getWeakVerifier, type WeakVerifier } from './weak.ts';

/** All tasks, arithmetic first. Ids are stable (settings, URLs and checkpoints store them). */
export const TASKS: Task[] = [
  addTask,
  subTask,
  mulTask,
  chainTask,
  digitSumTask,
  modSumTask,
  countdownTask,
  reverseTask,
  sortTask,
  countTask,
  palindromeTask,
  dedupTask,
  shiftTask,
];

/** The task with this id; throws an Error listing the valid ids. */
export function getTask(id: string): Task {
  const t = TASKS.find((x) => x.id === id);
  if (!t) throw new Error(`unknown task "${id}"; valid tasks: ${TASKS.map((x) => x.id).join(', ')}`);
  return t;
}

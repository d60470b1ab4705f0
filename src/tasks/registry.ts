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

/**
 * Tasks registered at run time (custom task specs, ids "spec:<name>"; see src/tasks/spec/).
 * A const Map, not module state to reassign: registering the same id again replaces the task.
 */
const CUSTOM_TASKS = new Map<string, Task>();

/** Makes getTask find `task` (a custom task: its id must start with "spec:"). Returns it. */
export function registerTask(task: Task): Task {
  if (!task.id.startsWith('spec:')) throw new Error(`a custom task's id must start with "spec:", got "${task.id.slice(0, 40)}"`);
  CUSTOM_TASKS.set(task.id, task);
  return task;
}

/** The custom tasks registered so far, in registration order. */
export function customTasks(): Task[] {
  return [...CUSTOM_TASKS.values()];
}

/** The task with this id (built-in, else registered); throws an Error listing the valid ids. */
export function getTask(id: string): Task {
  const t = TASKS.find((x) => x.id === id) ?? CUSTOM_TASKS.get(id);
  if (!t) throw new Error(`unknown task "${id}"; valid tasks: ${[...TASKS, ...CUSTOM_TASKS.values()].map((x) => x.id).join(', ')}`);
  return t;
}

/**
 * Cold start for any task, built-in or custom (a task spec has no shipped base): supervised
 * fine-tuning of a fresh policy on the task's reference responses, stopped as soon as the
 * held-out SAMPLED pass@1 (temperature 1, what GRPO's groups see) reaches the capability
 * boundary COLD_START_TARGET — deliberately short of mastery: a group of G answers teaches only
 * when it mixes passes and failures, and RL then has room to show what it adds.
 *
 * Engine only (no React, no DOM): the page drives it with `onProgress` and a stop signal, the
 * CLI with a log line per evaluation. The pass rate is measured at the run's Max response length
 * (what GRPO then samples; a custom task's is fitted to its spec first, src/rl/responseLength.ts).
 * A task with a scratchpad is trained on both forms (each
 * reference response is the thinking form or the direct answer with probability ½), as the
 * shipped digit-sum bases are, so the policy can answer either way.
 */
import { adamwSettings, type Backend } from '../model/backend.ts';
import { Rng } from '../model/rng.ts';
import { getTask, registerTask } from '../tasks/registry.ts';
import { samplePrompts } from '../tasks/split.ts';
import type { Task } from '../tasks/types.ts';
import { evaluatePolicy } from './evaluation.ts';
import { taskDifficulty } from './rollout.ts';
import { defaultSettings, type Settings } from './settings.ts';
import { supervisedStep } from './supervised.ts';

/** The capability boundary: held-out sampled pass@1 at which the cold start stops and GRPO takes over. */
export const COLD_START_TARGET = 0.3;
/** The targets the page offers: a boundary, not mastery (above it groups are mostly all-pass). */
export const COLD_START_TARGET_MIN = 0.05;
export const COLD_START_TARGET_MAX = 0.8;
/** SFT steps before the cold start gives up (the task is then too hard for this model size). */
export const COLD_START_MAX_STEPS = 1500;
export const COLD_START_BATCH = 32;
export const COLD_START_LR = 3e-3;

export interface ColdStartProgress {
  step: number;
  maxSteps: number;
  /** Held-out sampled pass@1 at temperature 1. */
  passRate: number;
  /** Held-out greedy accuracy. */
  heldoutAccuracy: number;
  target: number;
}

export interface ColdStartTaskOptions {
  /** The run's settings (seed, difficulty, temperature, group size G, maxCompletionLength); the task is `task`'s. */
  settings?: Partial<Settings>;
  targetPassRate?: number;
  maxSteps?: number;
  /** Evaluate every N SFT steps (default 10). */
  evalEvery?: number;
  /** Held-out prompts per evaluation (default 32). */
  evalSize?: number;
  batchSize?: number;
  learningRate?: number;
  onProgress?: (p: ColdStartProgress) => void;
  /** Polled before every step: true ends the cold start where it is (`stopped` in the result). */
  shouldStop?: () => boolean;
}

export interface ColdStartTaskResult {
  steps: number;
  passRate: number;
  heldoutAccuracy: number;
  target: number;
  /** The Max response length the pass rate was measured at (the run's: what GRPO samples). */
  responseLength: number;
  reached: boolean;
  stopped: boolean;
  /** One sentence for a person: reached, stopped, or too hard for this model size. */
  sentence: string;
}

export async function coldStartTask(task: Task, backend: Backend, o: ColdStartTaskOptions = {}): Promise<ColdStartTaskResult> {
  if (task.id.startsWith('spec:')) registerTask(task); // the evaluation finds the task by id
  else if (getTask(task.id) !== task) throw new Error(`coldStartTask: task ${task.id} is not the registered one`);
  // The evaluation samples exactly as GRPO will then sample: at the run's Max response length, so the
  // pass rate reported here is the one GRPO's groups see. A custom task's length was already fitted
  // to its spec by the caller (src/rl/responseLength.ts: the page and the CLI share the rule).
  const settings: Settings = { ...defaultSettings(), ...o.settings, task: task.id };
  const target = o.targetPassRate ?? COLD_START_TARGET;
  const maxSteps = o.maxSteps ?? COLD_START_MAX_STEPS;
  const every = o.evalEvery ?? 10;
  const difficulty = taskDifficulty(settings);
  const rng = new Rng((settings.seed ^ 0xc01d) >>> 0);
  const opt = adamwSettings(o.learningRate ?? COLD_START_LR, 1);
  const hasThinking = task.processReward !== undefined;
  let passRate = 0;
  let heldoutAccuracy = 0;
  let steps = 0;
  let stopped = false;
  const evaluate = async () => {
    const e = await evaluatePolicy(backend, settings, { size: o.evalSize ?? 32, difficulties: [difficulty], passAtK: true, step: steps });
    passRate = e.pass_at_k['1'] ?? 0;
    heldoutAccuracy = e.heldout_accuracy;
    o.onProgress?.({ step: steps, maxSteps, passRate, heldoutAccuracy, target });
  };
  while (steps < maxSteps) {
    if (o.shouldStop?.()) {
      stopped = true;
      break;
    }
    const batch = samplePrompts(task, rng, difficulty, 'train', o.batchSize ?? COLD_START_BATCH);
    await supervisedStep(backend, batch.map((i) => ({ prompt: i.prompt, response: task.referenceResponse(i.prompt, { think: hasThinking && rng.next() < 0.5 }) })), opt);
    steps++;
    if (steps % every === 0 || steps === maxSteps) {
      await evaluate();
      if (passRate >= target) break;
    }
  }
  const reached = passRate >= target;
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const sentence = reached
    ? `Cold start reached the capability boundary: held-out sampled pass@1 ${pct(passRate)} ≥ ${pct(target)} after ${steps} supervised steps; GRPO can start from here.`
    : stopped
      ? `Cold start stopped at step ${steps} with held-out sampled pass@1 ${pct(passRate)} (target ${pct(target)}).`
      : `Cold start did not reach the target: held-out sampled pass@1 is ${pct(passRate)} after ${steps} supervised steps, short of ${pct(target)}; the task is too hard for this model size, so try a smaller range or shorter strings.`;
  return { steps, passRate, heldoutAccuracy, target, responseLength: settings.maxCompletionLength, reached, stopped, sentence };
}

/**
 * The cold start as a CLI run does it (the CPU path in scripts/train.ts and the browser path in
 * cliRun.ts): a JSONL record per evaluation ({"type":"cold_start_eval", step, pass_at_1,
 * heldout_accuracy, target}) and one at the end ({"type":"cold_start", steps, pass_at_1,
 * heldout_accuracy, target, reached, sentence}); the sentence also goes to the progress log.
 */
export async function coldStartForRun(task: Task, backend: Backend, settings: Settings, o: { target: number; maxSteps: number; evalSize: number; emit: (r: Record<string, unknown>) => void; progress: (m: string) => void }): Promise<ColdStartTaskResult> {
  o.progress(`cold start: supervised fine-tuning of a fresh policy on ${task.id} until held-out sampled pass@1 ≥ ${o.target} (at most ${o.maxSteps} steps)`);
  const r = await coldStartTask(task, backend, {
    settings, targetPassRate: o.target, maxSteps: o.maxSteps, evalSize: o.evalSize,
    onProgress: (p) => {
      o.emit({ type: 'cold_start_eval', step: p.step, pass_at_1: p.passRate, heldout_accuracy: p.heldoutAccuracy, target: p.target });
      o.progress(`sft step ${p.step}: held-out sampled pass@1 ${p.passRate.toFixed(3)}, greedy accuracy ${p.heldoutAccuracy.toFixed(3)} (target ${p.target})`);
    },
  });
  o.emit({ type: 'cold_start', steps: r.steps, pass_at_1: r.passRate, heldout_accuracy: r.heldoutAccuracy, target: r.target, reached: r.reached, sentence: r.sentence });
  o.progress(r.sentence);
  return r;
}

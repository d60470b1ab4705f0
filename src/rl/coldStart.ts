/**
 * Cold start: RL needs a base model that already solves some problems (a group of G answers
 * teaches only when it mixes passes and failures). This is supervised fine-tuning of a fresh
 * model on the task's reference responses, stopped once held-out greedy accuracy reaches a
 * target — deliberately short of mastery, so RL has room to show what it adds.
 */
import { adamwSettings, type AdamWSettings, type Backend } from '../model/backend.ts';
import { Rng } from '../model/rng.ts';
import { getTask } from '../tasks/registry.ts';
import { samplePrompts } from '../tasks/split.ts';
import { greedyResponses, supervisedStep } from './supervised.ts';
import { defaultSettings } from './settings.ts';
import { GrpoTrainer } from './trainer.ts';

export interface ColdStartOptions {
  task: string;
  difficulty: number;
  /** Train on the scratchpad form (think), the direct answer (false), or each half the time ('mix'). */
  think: boolean | 'mix';
  /** Stop once this held-out accuracy is reached… */
  targetAccuracy: number;
  /** …measured greedily, or as the sampled pass rate at temperature 1 (what GRPO's groups see). */
  targetMetric?: 'greedy' | 'sampled';
  seed: number;
  batchSize?: number;
  maxSteps?: number;
  evalEvery?: number;
  evalSize?: number;
  /** Longest answer the evaluation samples (default: the settings' default); a scratchpad needs room. */
  maxCompletionLength?: number;
  opt?: Partial<AdamWSettings>;
  progress?: (m: string) => void;
  /** A second task taught in the same batches (half each), to the same target (a two-task base). */
  also?: { task: string; difficulty: number };
}

export interface ColdStartResult {
  steps: number;
  heldoutAccuracy: number;
  trainAccuracy: number;
  sampledPassRate: number;
  reachedTarget: boolean;
}

export async function coldStart(backend: Backend, o: ColdStartOptions): Promise<ColdStartResult> {
  const task = getTask(o.task);
  const rng = new Rng(o.seed ^ 0xc01d);
  const opt: AdamWSettings = { ...adamwSettings(3e-3, 1), ...o.opt };
  const settings = { ...defaultSettings(), task: o.task, difficulty: o.difficulty, seed: o.seed, numGenerations: 8, ...(o.maxCompletionLength ? { maxCompletionLength: o.maxCompletionLength } : {}) };
  const sampled = o.targetMetric === 'sampled';
  const evaluator = new GrpoTrainer(backend, settings, { evalSize: o.evalSize ?? 64, evalPassAtK: sampled });
  const every = o.evalEvery ?? 5;
  const other = o.also ? getTask(o.also.task) : null;
  const otherEvaluator = o.also ? new GrpoTrainer(backend, { ...settings, task: o.also.task, difficulty: o.also.difficulty }, { evalSize: o.evalSize ?? 64, evalPassAtK: sampled }) : null;
  let steps = 0;
  let acc = 0;
  for (; steps < (o.maxSteps ?? 3000); ) {
    const n = o.batchSize ?? 32;
    const think = () => (o.think === 'mix' ? rng.next() < 0.5 : o.think);
    const pairs = samplePrompts(task, rng, o.difficulty, 'train', other ? n / 2 : n).map((i) => ({ prompt: i.prompt, response: task.referenceResponse(i.prompt, { think: think() }) }));
    if (other && o.also) pairs.push(...samplePrompts(other, rng, o.also.difficulty, 'train', n / 2).map((i) => ({ prompt: i.prompt, response: other.referenceResponse(i.prompt) })));
    await supervisedStep(backend, pairs, opt);
    steps++;
    if (steps % every === 0) {
      const ev = await evaluator.evaluate();
      acc = sampled ? ev.pass_at_k['1'] : ev.heldout_accuracy;
      let line = `sft step ${steps}: held-out greedy accuracy ${ev.heldout_accuracy.toFixed(3)}${sampled ? `, sampled pass@1 ${acc.toFixed(3)}` : ''}`;
      if (otherEvaluator) {
        // a two-task base: both at the target (the slower one decides)
        const ev2 = await otherEvaluator.evaluate();
        const acc2 = sampled ? ev2.pass_at_k['1'] : ev2.heldout_accuracy;
        line += `; ${o.also!.task}: ${acc2.toFixed(3)}`;
        acc = Math.min(acc, acc2);
      }
      o.progress?.(line);
      if (acc >= o.targetAccuracy) break;
    }
  }
  // The design doc's pitfall: compare held-out with training prompts (memorisation shows as a gap),
  // and measure the sampled pass rate (what GRPO's groups will see).
  const trainEval = new GrpoTrainer(backend, settings, { evalSize: o.evalSize ?? 64, evalPassAtK: true });
  const trainPrompts = samplePrompts(task, new Rng(o.seed ^ 0x7a1), o.difficulty, 'train', o.evalSize ?? 64).map((i) => i.prompt);
  const full = await trainEval.evaluate();
  return { steps, heldoutAccuracy: full.heldout_accuracy, trainAccuracy: await trainAccuracy(backend, task.id, trainPrompts), sampledPassRate: full.pass_at_k['1'] ?? NaN, reachedTarget: acc >= o.targetAccuracy };
}

async function trainAccuracy(backend: Backend, taskId: string, prompts: string[]): Promise<number> {
  const task = getTask(taskId);
  const out = await greedyResponses(backend, prompts, 12);
  return prompts.filter((p, i) => task.verify(p, out[i]).correct).length / prompts.length;
}

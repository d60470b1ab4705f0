/**
 * Held-out evaluation: greedy accuracy (and pass@k from G samples) on a fixed set of held-out
 * prompts per difficulty, split from the training prompts by a well-mixed hash.
 */
import type { Backend } from '../model/backend.ts';
import { Rng } from '../model/rng.ts';
import { decode, encodePrompt } from '../tasks/tokenizer.ts';
import { getTask } from '../tasks/registry.ts';
import { samplePrompts } from '../tasks/split.ts';
import { passAtK } from '../tasks/metrics.ts';
import type { Task } from '../tasks/types.ts';
import type { EvalMetrics } from './metrics.ts';
import { maxNewTokens } from './rollout.ts';
import type { Settings } from './settings.ts';

/**
 * The held-out prompts each evaluation reads (greedy accuracy, and pass@k from G samples a prompt):
 * one size for the page, the train CLI and the lessons table, so a lesson's verdict in the page is
 * judged on the evidence `npm run lessons` measured.
 */
export const HELDOUT_SIZE = 32;

/**
 * The held-out set of a lesson's evaluation contract (rl/contract.ts) is fixed for everyone: the
 * same prompts for every seed and every student of a class (their draws differ by seed), so a
 * class pools one measure. Its first HELDOUT_SIZE prompts are what the evaluations between the
 * contract's two read, with the same draws (the sampler's draws are keyed by row).
 */
export const CONTRACT_PROMPT_SEED = 0x1e550;

/**
 * The evaluator's version: bump it whenever what an evaluation reads or how it scores changes (its
 * prompts, their draws, the sampler, pass@k, a verifier). A lesson's contract hash covers it
 * (lessonContract.ts), so the records judged by an older evaluator stop naming the lesson until
 * the fresh seeds run again.
 */
export const EVALUATOR_VERSION = 1;

/** Held-out greedy accuracy and pass@k on the fixed held-out set of each difficulty (same prompts every time). */
export async function evaluatePolicy(backend: Backend, s: Settings, o: { size: number; difficulties: number[]; passAtK: boolean; step: number; promptSeed?: number; perPrompt?: boolean }): Promise<EvalMetrics> {
  const task = getTask(s.task);
  const diffs = o.difficulties;
  const byDifficulty: Record<string, number> = {};
  const samples: EvalMetrics['samples'] = [];
  let correct = 0, total = 0;
  const passSums: Record<string, number> = {};
  let sampledTokens = 0, sampledAnswers = 0;
  const per = { greedy: [] as number[], correct: [] as number[] };
  for (const d of diffs) {
    const prompts = heldoutPrompts(task, d, o.size, o.promptSeed ?? s.seed);
    const promptTokens = prompts.map(encodePrompt);
    const maxNew = maxNewTokens(backend, Math.max(...promptTokens.map((p) => p.length)), s);
    const greedy = await backend.sample({ prompts: promptTokens, numGenerations: 1, temperature: 0, maxNewTokens: maxNew, seed: s.seed, stream: 0 });
    let c = 0;
    prompts.forEach((p, i) => {
      const text = decode(greedy.tokens[i]);
      const ok = task.verify(p, text).correct;
      if (ok) c++;
      per.greedy.push(ok ? 1 : 0);
      if (samples.length < 8) samples.push({ prompt: p, response: text, correct: ok });
    });
    byDifficulty[String(d)] = c / prompts.length;
    correct += c;
    total += prompts.length;
    if (o.passAtK) {
      const G = s.numGenerations;
      // the same random draws at every evaluation (common random numbers): a change in pass@k between
      // two evaluations is the policy's, not the sampler's luck, and a policy that did not move scores the same
      const res = await backend.sample({ prompts: promptTokens, numGenerations: G, temperature: s.temperature, maxNewTokens: maxNew, seed: s.seed ^ 0x5eed, stream: 0 });
      for (let p = 0; p < prompts.length; p++) {
        let cp = 0;
        for (let i = 0; i < G; i++) if (task.verify(prompts[p], decode(res.tokens[p * G + i])).correct) cp++;
        per.correct.push(cp);
        for (let i = 0; i < G; i++) sampledTokens += res.tokens[p * G + i].length;
        sampledAnswers += G;
        for (let k = 1; k <= G; k *= 2) passSums[String(k)] = (passSums[String(k)] ?? 0) + passAtK(G, cp, k);
      }
    }
  }
  const pass_at_k: Record<string, number> = {};
  for (const [k, v] of Object.entries(passSums)) pass_at_k[k] = v / total;
  const mean_length = sampledAnswers ? sampledTokens / sampledAnswers : undefined;
  return {
    step: o.step, heldout_accuracy: correct / total, pass_at_k, by_difficulty: byDifficulty, samples, ...(mean_length === undefined ? {} : { mean_length }),
    ...(o.perPrompt ? { per_prompt: { greedy: per.greedy, correct: per.correct, G: s.numGenerations } } : {}),
  };
}

/** The fixed held-out evaluation prompts for a task and difficulty (seeded by the run seed). */
export function heldoutPrompts(task: Task, difficulty: number, n: number, seed: number): string[] {
  return samplePrompts(task, new Rng((seed ^ 0x0e7a1) >>> 0), difficulty, 'heldout', n).map((i) => i.prompt);
}


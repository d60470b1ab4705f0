/**
 * The rollout and verdict phases of a GRPO step: P training prompts, G sampled answers each
 * (backend.sample: on WebGPU one submit, one readback), each answer graded by the verifier —
 * the only CPU stage. Strict correctness is always recorded beside the reward, so reward
 * hacking by a weak verifier shows.
 */
import type { Backend, SampleResult } from '../model/backend.ts';
import { Rng } from '../model/rng.ts';
import { decode, encodePrompt } from '../tasks/tokenizer.ts';
import { getTask, getWeakVerifier } from '../tasks/registry.ts';
import { samplePrompts } from '../tasks/split.ts';
import type { Task, Verdict } from '../tasks/types.ts';
import type { Settings } from './settings.ts';
import { effectiveRewardMode, mixProcessReward, stepFraction } from './processReward.ts';

/** One prompt's group of G answers, with everything the charts and the step-through show. */
export interface Group {
  prompt: string;
  promptTokens: number[];
  /** Decoded answers (what the verifier sees). */
  responses: string[];
  tokens: Int32Array[];
  /** log π_old per answer token, from the rollout. */
  logprobs: Float32Array[];
  /** Ended with EOS (false: cut off at the length limit). */
  finished: boolean[];
  /** Verdict of the verifier that gives the reward (weak or strict). */
  verdicts: Verdict[];
  /** Strict correctness, always (accuracy is never measured by a weak verifier). */
  correct: boolean[];
  /** Reward after process credit (processReward.ts) and shaping (overlong penalty, KL-in-reward), what the advantages use. */
  rewards: number[];
  advantages: number[];
}

export interface Rollout {
  step: number;
  groups: Group[];
  /** Prompts drawn in total (dynamic sampling draws more than P). */
  promptsDrawn: number;
  /** Rollout submits this step (dynamic sampling may need several). */
  rollouts: number;
  tokensGenerated: number;
  rolloutMs: number;
  verifyMs: number;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** The difficulty actually used: the setting clamped to the task's levels. */
export function taskDifficulty(s: Settings): number {
  const levels = getTask(s.task).difficulties;
  const want = s.difficulty;
  return levels.includes(want) ? want : levels.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a));
}

/** Tokens an answer may use after a prompt of `promptTokens`: the length limit, within the model's context. */
export function maxNewTokens(backend: Backend, promptTokens: number, s: Settings): number {
  return Math.max(1, Math.min(s.maxCompletionLength, backend.config.seqLen + 1 - promptTokens));
}

/**
 * A fixed pool of `n` distinct training prompts (seeded by the run's seed): the training pool a
 * run with trainPool > 0 draws every step's prompts from (with replacement). Fewer when the
 * task's training split has fewer distinct prompts.
 */
export function trainingPool(task: Task, difficulty: number, seed: number, n: number): string[] {
  // every step of a run asks for the same pool: build it once (the last one asked for is kept)
  const key = `${task.id}\u0000${difficulty}\u0000${seed}\u0000${n}`;
  if (lastPool.key === key && lastPool.task === task) return lastPool.prompts; // the same task object: a re-registered spec is another
  const prompts = buildPool(task, difficulty, seed, n);
  Object.assign(lastPool, { key, task, prompts });
  return prompts;
}
const lastPool: { key: string; task: Task | null; prompts: string[] } = { key: '', task: null, prompts: [] };

function buildPool(task: Task, difficulty: number, seed: number, n: number): string[] {
  const rng = new Rng((seed ^ 0x9e11) >>> 0);
  const seen = new Set<string>();
  for (let tries = 0; seen.size < n && tries < 20 * n + 200; tries++) {
    for (const inst of samplePrompts(task, rng, difficulty, 'train', 1)) seen.add(inst.prompt);
  }
  return [...seen];
}

/**
 * Sample G answers for P training prompts and verify them. Dynamic sampling (DAPO) keeps only
 * groups that teach (GRPO: rewards differ; RFT: a verified answer) and samples more prompts, up to
 * maxResample rollouts (at least 2: the last rollout fills the batch whatever it holds).
 */
export async function sampleGroups(backend: Backend, s: Settings, promptRng: Rng, step: number): Promise<Rollout> {
  const task = getTask(s.task);
  const G = s.numGenerations;
  const difficulty = taskDifficulty(s);
  const weak = s.weakVerifier === 'strict' ? null : getWeakVerifier(s.weakVerifier);
  const weights = { unparseable: 0, wrong: s.formatReward, correct: 1 };
  const process = effectiveRewardMode(s) === 'process';
  const groups: Group[] = [];
  let promptsDrawn = 0, rollouts = 0, tokensGenerated = 0, rolloutMs = 0, verifyMs = 0;
  const attempts = s.dynamicSampling ? s.maxResample : 1;
  const pool = s.trainPool > 0 ? trainingPool(task, difficulty, s.seed, s.trainPool) : null;

  for (let attempt = 0; attempt < attempts && groups.length < s.promptsPerStep; attempt++) {
    const need = s.promptsPerStep - groups.length;
    const prompts = s.trainPool > 0
      ? Array.from({ length: need }, () => pool![promptRng.int(pool!.length)])
      : samplePrompts(task, promptRng, difficulty, 'train', need).map((i) => i.prompt);
    promptsDrawn += prompts.length;
    const promptTokens = prompts.map(encodePrompt);
    const longest = Math.max(...promptTokens.map((p) => p.length));
    const t0 = now();
    const res: SampleResult = await backend.sample({
      prompts: promptTokens,
      numGenerations: G,
      temperature: s.temperature,
      maxNewTokens: maxNewTokens(backend, longest, s),
      seed: s.seed,
      stream: step * 16 + attempt,
    });
    rolloutMs += now() - t0;
    rollouts++;
    const t1 = now();
    for (let p = 0; p < prompts.length; p++) {
      const g: Group = { prompt: prompts[p], promptTokens: promptTokens[p], responses: [], tokens: [], logprobs: [], finished: [], verdicts: [], correct: [], rewards: [], advantages: [] };
      for (let i = 0; i < G; i++) {
        const k = p * G + i;
        const text = decode(res.tokens[k]);
        const strict = task.verify(prompts[p], text, weights);
        const verdict = weak ? weak.verify(task, prompts[p], text, weights) : strict;
        let reward = verdict.reward;
        if (process) reward = mixProcessReward(verdict.reward, stepFraction(task, prompts[p], text), s.processWeight);
        if (s.overlongPenalty) reward += overlongPenalty(res.tokens[k].length, maxNewTokens(backend, promptTokens[p].length, s), s.overlongBuffer);
        g.responses.push(text);
        g.tokens.push(res.tokens[k]);
        g.logprobs.push(res.logprobs[k]);
        g.finished.push(res.finished[k]);
        g.verdicts.push(verdict);
        g.correct.push(strict.correct);
        g.rewards.push(reward);
        tokensGenerated += res.tokens[k].length;
      }
      // DAPO dynamic sampling keeps only groups that teach; the last attempt fills the batch anyway. Under
      // GRPO a group teaches when its rewards differ; under RFT when it has a verified answer to imitate
      // (an all-pass group is RFT's best data, not one to drop)
      const teaches = s.algorithm === 'rft' ? g.verdicts.some((v, i) => v.correct && g.finished[i]) : !g.rewards.every((r) => r === g.rewards[0]);
      if (s.dynamicSampling && !teaches && attempt < attempts - 1) continue;
      if (groups.length < s.promptsPerStep) groups.push(g);
    }
    verifyMs += now() - t1;
  }
  return { step: step, groups, promptsDrawn, rollouts, tokensGenerated, rolloutMs, verifyMs };
}

/**
 * DAPO's overlong soft penalty for an answer of L tokens with limit L_max and buffer L_cache:
 *   0 if L ≤ L_max − L_cache;  (L_max − L_cache − L) / L_cache inside the buffer (down to −1 at L_max).
 */
export function overlongPenalty(L: number, Lmax: number, Lcache: number): number {
  const start = Lmax - Lcache;
  return L <= start ? 0 : Math.max(-1, (start - L) / Math.max(1, Lcache));
}

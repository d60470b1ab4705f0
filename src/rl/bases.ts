/**
 * The shipped base checkpoints (cold start): SFT models that already solve some problems,
 * built by `npm run pretrain` into public/checkpoints/. RL starts from them.
 */
import type { ModelConfig } from '../model/config.ts';

export interface BaseSpec {
  /** File name under public/checkpoints/. */
  file: string;
  task: string;
  difficulty: number;
  /** Train on the scratchpad form of the reference responses (thinking | answer), or half of each ('mix'). */
  think: boolean | 'mix';
  /**
   * SFT stops once the held-out SAMPLED pass rate (temperature 1) reaches this: the capability
   * boundary where GRPO's groups mix passes and failures. (Stopping on greedy accuracy leaves a
   * model whose argmax is right by a hair while its samples are almost never right: RL then sees
   * no mixed groups and learns nothing.)
   */
  targetAccuracy: number;
  /**
   * Model shape over the micro config (e.g. a longer seqLen T for a scratchpad that does not fit
   * in 24 tokens). The checkpoint records its config, and the lab and the CLIs load whatever it says.
   */
  config?: Partial<Omit<ModelConfig, 'vocabSize'>>;
  /** Longest answer SFT's evaluation samples (default 8 tokens would cut a scratchpad off and count it wrong). */
  maxCompletionLength?: number;
  /**
   * A second task the same SFT teaches (half of every batch), to the same target: a base that
   * solves two tasks, for the forgetting lesson (train on one, watch the other). Chosen only by a
   * run that watches that task (settings.watchTask).
   */
  also?: { task: string; difficulty: number };
}

export const BASES: BaseSpec[] = [
  { file: 'reverse-d2.ckpt', task: 'reverse', difficulty: 2, think: false, targetAccuracy: 0.2 },
  { file: 'add-d2.ckpt', task: 'add', difficulty: 2, think: false, targetAccuracy: 0.2 },
  { file: 'digitsum-d1-mix.ckpt', task: 'digitsum', difficulty: 1, think: 'mix', targetAccuracy: 0.2 },
  // The scratchpad lesson: the last digit of a 5-digit sum. Direct answers stay near chance (0.1);
  // the one-digit running sums mod 10 are learnable, so thinking pays. Prompt + scratchpad + EOS
  // is 23 tokens ("<bos>mod:99999=" + "9,8,7,6,5|5" + "<eos>"), inside T = 24.
  { file: 'modsum-d2-mix.ckpt', task: 'modsum', difficulty: 2, think: 'mix', targetAccuracy: 0.2, maxCompletionLength: 14 },
  // The scratchpad lesson's control: the whole 5-digit sum, whose running sums (up to 45) this
  // model cannot write reliably, so thinking does not pay. Prompt + scratchpad + EOS is up to
  // 27 tokens ("<bos>ds:99999=" + "9,18,27,36,45|45" + "<eos>"), so T = 32.
  { file: 'digitsum-d2-mix.ckpt', task: 'digitsum', difficulty: 2, think: 'mix', targetAccuracy: 0.2, config: { seqLen: 32 }, maxCompletionLength: 18 },
  // The forgetting lesson: one model that solves add and reverse (both at difficulty 2) about as
  // often as the single-task bases; RL trains on add while held-out reverse is watched.
  { file: 'add-reverse-d2.ckpt', task: 'add', difficulty: 2, think: false, targetAccuracy: 0.2, also: { task: 'reverse', difficulty: 2 } },
];

/**
 * The shipped base for exactly this task and difficulty (a base fine-tuned at another difficulty
 * is not at this one's capability boundary); a run that watches a second task (`watch`, not
 * 'none') starts from the base that also learned that one, when there is one.
 */
export function baseFor(task: string, difficulty: number, watch = 'none'): BaseSpec | undefined {
  const here = BASES.filter((b) => b.task === task && b.difficulty === difficulty);
  return here.find((b) => b.also?.task === watch) ?? here.find((b) => !b.also);
}

/** Path of a base checkpoint relative to the repo root (Node) — the page fetches /checkpoints/<file>. */
export function baseCheckpointPath(task: string, difficulty: number, watch = 'none'): string | undefined {
  const b = baseFor(task, difficulty, watch);
  return b ? `public/checkpoints/${b.file}` : undefined;
}

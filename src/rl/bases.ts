/**
 * The shipped base checkpoints (cold start): SFT models that already solve some problems,
 * built by `npm run pretrain` into public/checkpoints/. RL starts from them.
 */
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
}

export const BASES: BaseSpec[] = [
  { file: 'reverse-d2.ckpt', task: 'reverse', difficulty: 2, think: false, targetAccuracy: 0.2 },
  { file: 'add-d2.ckpt', task: 'add', difficulty: 2, think: false, targetAccuracy: 0.2 },
  { file: 'digitsum-d1-mix.ckpt', task: 'digitsum', difficulty: 1, think: 'mix', targetAccuracy: 0.2 },
];

export function baseFor(task: string, difficulty: number): BaseSpec | undefined {
  return BASES.find((b) => b.task === task && b.difficulty === difficulty) ?? BASES.find((b) => b.task === task);
}

/** Path of a base checkpoint relative to the repo root (Node) — the page fetches /checkpoints/<file>. */
export function baseCheckpointPath(task: string, difficulty: number): string | undefined {
  const b = baseFor(task, difficulty);
  return b ? `public/checkpoints/${b.file}` : undefined;
}

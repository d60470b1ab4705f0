/**
 * The shipped base checkpoints (cold start): SFT models that already solve some problems,
 * built by `npm run pretrain` into public/checkpoints/. RL starts from them.
 */
export interface BaseSpec {
  /** File name under public/checkpoints/. */
  file: string;
  task: string;
  difficulty: number;
  /** Train on the scratchpad form of the reference responses (thinking | answer). */
  think: boolean;
  /** SFT stops once held-out greedy accuracy reaches this. */
  targetAccuracy: number;
}

export const BASES: BaseSpec[] = [
  { file: 'reverse-d2.ckpt', task: 'reverse', difficulty: 2, think: false, targetAccuracy: 0.3 },
  { file: 'add-d1.ckpt', task: 'add', difficulty: 1, think: false, targetAccuracy: 0.3 },
];

export function baseFor(task: string, difficulty: number): BaseSpec | undefined {
  return BASES.find((b) => b.task === task && b.difficulty === difficulty) ?? BASES.find((b) => b.task === task);
}

/** Path of a base checkpoint relative to the repo root (Node) — the page fetches /checkpoints/<file>. */
export function baseCheckpointPath(task: string, difficulty: number): string | undefined {
  const b = baseFor(task, difficulty);
  return b ? `public/checkpoints/${b.file}` : undefined;
}

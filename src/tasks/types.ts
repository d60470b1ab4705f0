/**
 * The task contract: what the trainer, the UI and the CLIs ask of a verifiable toy task.
 *
 * A task generates prompts from a seeded RNG, re-derives everything it needs from the prompt
 * text alone (the reference solver and the verifier never see hidden state), and grades a
 * response with a verifier that returns a Verdict. The reward follows TinyZero's scheme:
 * 0 for an unparseable answer, a small format reward for a well-formatted wrong one, 1 for a
 * correct one (see RewardWeights).
 */
import type { Rng } from '../model/rng.ts';

/** One generated problem. `answer` is the reference solver's answer for `prompt`. */
export interface Instance {
  prompt: string;
  answer: string;
  difficulty: number;
}

/** A verifier's judgement of one response. */
export interface Verdict {
  /** The scalar reward the policy is trained on (from RewardWeights). */
  reward: number;
  /** The graded answer is correct under the task's answerSpec. */
  correct: boolean;
  /** The graded answer parses under the task's answer grammar (correct implies formatOk). */
  formatOk: boolean;
  /** Why, in a short human sentence: "correct", "wrong: expected 46, got 45", "empty answer", ... */
  reason: string;
  /** `<task id>@<n>`; bumped whenever the grading rule changes, so logged rewards stay comparable. */
  verifierVersion: string;
}

/**
 * Reward per outcome: reward = unparseable if !formatOk, wrong if formatOk && !correct,
 * correct if correct. TinyZero's default is {0, 0.1, 1}.
 */
export interface RewardWeights {
  unparseable: number;
  wrong: number;
  correct: number;
}

export const DEFAULT_WEIGHTS: Readonly<RewardWeights> = Object.freeze({ unparseable: 0, wrong: 0.1, correct: 1 });

export interface Task {
  /** Stable id used by settings, URLs, checkpoints and the CLI: 'add', 'reverse', ... */
  id: string;
  family: 'arithmetic' | 'string';
  title: string;
  /** The exact correctness rule in words (the shared response rules plus this task's grammar). */
  answerSpec: string;
  /** Difficulty levels, easiest first, e.g. [1, 2, 3]. */
  difficulties: number[];
  /** A seeded instance at a difficulty (throws on an unknown difficulty). */
  generate(rng: Rng, difficulty: number): Instance;
  /** The reference answer, re-derived from the prompt text alone. */
  solve(prompt: string): string;
  /**
   * What SFT trains on. Tasks with a scratchpad return thinking + '|' + answer when
   * `think` is set (e.g. '7,12,20|23'); the others return solve(prompt).
   */
  referenceResponse(prompt: string, opts?: { think?: boolean }): string;
  /** The strict verifier: grades the part after the answer separator (see RESPONSE_RULES). */
  verify(prompt: string, response: string, weights?: RewardWeights): Verdict;
  /**
   * Fraction of correct scratchpad steps in [0, 1], for tasks with checkable steps
   * (digit-sum running sums, chain partial results). Position i of the thinking must equal
   * step i; the denominator is max(#expected steps, #written steps).
   */
  processReward?(prompt: string, response: string): number;
}

/** Thrown when a prompt is not one this task could have generated. */
export class PromptError extends Error {}

/**
 * The numbers of one GRPO step and of one held-out evaluation, by TRL's names where TRL has
 * one: what the charts, the stop signals, the lessons' checks and the CLI's JSONL read.
 */
import { ANSWER_SEPARATOR } from '../tasks/tokenizer.ts';
import { mixedGroupProbability } from '../tasks/metrics.ts';
import { getTask } from '../tasks/registry.ts';
import type { Rollout } from './rollout.ts';
import type { Settings } from './settings.ts';
import { runSettingsHash } from './contract.ts';

/** What the update phase did: averaged objective metrics over the µ inner epochs, and each epoch's own. */
export interface UpdateResult {
  loss: number;
  gradNorm: number;
  finite: boolean;
  metrics: Record<string, number>;
  /** The objective's metrics of each inner epoch as the engine computed them (WGSL or reference). */
  epochs: Record<string, number>[];
  /** Answers the update trained on (RFT: the verified ones only). */
  answers: number;
  /** Per answer (batch row): Σ_t Δ log π after the first inner epoch, as the engine computed it (µ ≥ 2), else null. */
  answerLogRatio: Float32Array | null;
  updateMs: number;
}

/** Every number of a step, by TRL's names where TRL has one. */
export interface StepMetrics {
  step: number;
  /**
   * The settings this step ran with, as a hash of every one that shapes the run (contract.ts
   * runSettingsHash: all but the seed and the evaluation cadence): a lesson run is judged as its
   * variant only if every step's hash is the variant's (absent in runs recorded before it existed).
   */
  settings_hash?: number;
  reward: number;
  reward_std: number;
  frac_reward_zero_std: number;
  frac_all_pass: number;
  frac_all_fail: number;
  frac_mixed: number;
  /** 1 − p̄^G − (1 − p̄)^G with p̄ the batch pass rate: the chapter's prediction. */
  mixed_predicted: number;
  /**
   * The same formula averaged over the prompts, each at its own pass rate c_i/G in this step (a
   * plug-in: slightly low). Below mixed_predicted whenever prompts differ in difficulty: the
   * formula is concave, so the average of it is below it at the average (Jensen's gap).
   */
  mixed_predicted_per_prompt: number;
  /** Strict accuracy of the sampled answers. */
  accuracy: number;
  entropy: number;
  /** The KL estimator's (k1 or k3) token mean over sampled tokens, when π_ref is evaluated (β > 0 in the loss, or measureKl); NaN otherwise. */
  kl: number;
  /** The exact KL(π_θ ‖ π_ref) summed over the vocabulary, token mean (NaN when π_ref is not evaluated). */
  kl_exact: number;
  'clip_ratio/low_mean': number;
  'clip_ratio/high_mean': number;
  'clip_ratio/region_mean': number;
  ratio_min: number;
  ratio_mean: number;
  ratio_max: number;
  grad_norm: number;
  policy_loss: number;
  mean_length: number;
  length_correct_mean: number;
  length_correct_min: number;
  length_correct_max: number;
  length_incorrect_mean: number;
  length_incorrect_min: number;
  length_incorrect_max: number;
  /** TRL completions/clipped_ratio: share of answers cut off at the length limit. */
  clipped_ratio: number;
  /** Mean fraction of correct scratchpad steps (tasks with checkable steps), else NaN. */
  process_reward: number;
  /**
   * The engine's own measure of GRPO's length weighting: in each group with two wrong answers of
   * different lengths (A ≠ 0), the change in log π per token that the first inner epoch's update
   * gave the longest and the shortest of them (TrainStepResult.answerLogRatio: the policy loss's
   * own log-ratios at the start of the second epoch), averaged over such groups. Negative: pushed
   * down. NaN without such groups, at µ = 1, or under RFT.
   */
  wrong_dlogp_long_per_token: number;
  wrong_dlogp_short_per_token: number;
  /** Of those groups, how many; and in how many the long wrong answer moved less per token than the short one (|Δ|/|o|). */
  wrong_pairs: number;
  wrong_pairs_long_moved_less: number;
  /** Share of answers that think first (a scratchpad before the answer separator "|"). */
  think_fraction: number;
  /** Strict accuracy of the answers that think, and of those that answer directly (NaN when there are none). */
  accuracy_think: number;
  accuracy_direct: number;
  tokens_generated: number;
  /** Cumulative generated tokens since the run started (for matched-compute comparisons). */
  num_tokens: number;
  prompts_drawn: number;
  rollout_ms: number;
  verify_ms: number;
  update_ms: number;
  /** False if the update produced NaN/Inf and was rejected. */
  finite: boolean;
}

export interface EvalMetrics {
  step: number;
  heldout_accuracy: number;
  /** pass@k for k = 1, 2, 4, … ≤ G (unbiased estimator from G samples per prompt). */
  pass_at_k: Record<string, number>;
  by_difficulty: Record<string, number>;
  /**
   * Tokens per sampled answer (EOS included, as num_tokens counts them) over the pass@k samples
   * at τ: what one answer costs at inference. Absent without pass@k (and in older saved runs).
   */
  mean_length?: number;
  /** The held-out prompts' greedy answers (the step inspector and tests show some). */
  samples: { prompt: string; response: string; correct: boolean }[];
  /** The watched task (settings.watchTask), never trained on: held-out greedy accuracy and pass@1 on its own held-out set. */
  watch?: { task: string; difficulty: number; heldout_accuracy: number; pass1: number };
  /**
   * A lesson's contract evaluation (rl/contract.ts): the lesson's fixed held-out set in full, at
   * step 0 and at the verdict step, with each prompt's results, so that a verdict's interval can
   * resample the prompts (the same prompts and draws at both ends: a paired bootstrap).
   */
  contract?: true;
  /** Per prompt, in the set's order: the greedy answer right (1) or not (0), and how many of the G sampled answers were right. */
  per_prompt?: { greedy: number[]; correct: number[]; G: number; watch_correct?: number[] };
}

const stats = (xs: number[]) => xs.length ? { mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) } : { mean: NaN, min: NaN, max: NaN };

/** A step's metrics from its rollout and update (pure; exported for tests). */
export function stepMetrics(rollout: Rollout, u: UpdateResult, s: Settings, numTokens: number): StepMetrics {
  const G = s.numGenerations;
  const processReward = (p: string, r: string) => getTask(s.task).processReward?.(p, r);
  const rewards = rollout.groups.flatMap((g) => g.rewards);
  const n = rewards.length;
  const mean = rewards.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / Math.max(1, n));
  let zeroStd = 0, allPass = 0, allFail = 0, mixed = 0, passes = 0;
  const lenC: number[] = [], lenI: number[] = [], lenAll: number[] = [];
  let truncated = 0;
  const proc: number[] = [];
  let think = 0, thinkRight = 0, directRight = 0;
  for (const g of rollout.groups) {
    if (g.rewards.every((r) => r === g.rewards[0])) zeroStd++;
    const c = g.correct.filter(Boolean).length;
    passes += c;
    if (c === g.correct.length) allPass++;
    else if (c === 0) allFail++;
    else mixed++;
    g.tokens.forEach((t, i) => {
      (g.correct[i] ? lenC : lenI).push(t.length);
      lenAll.push(t.length);
      if (!g.finished[i]) truncated++;
      if (g.responses[i].includes(ANSWER_SEPARATOR)) {
        think++;
        if (g.correct[i]) thinkRight++;
      } else if (g.correct[i]) directRight++;
      const pr = processReward(g.prompt, g.responses[i]);
      if (pr !== undefined) proc.push(pr);
    });
  }
  const P = Math.max(1, rollout.groups.length);
  const pBar = passes / Math.max(1, n);
  const sc = stats(lenC), si = stats(lenI);
  const m = u.metrics;
  return {
    step: rollout.step,
    reward: mean,
    reward_std: std,
    frac_reward_zero_std: zeroStd / P,
    frac_all_pass: allPass / P,
    frac_all_fail: allFail / P,
    frac_mixed: mixed / P,
    mixed_predicted: mixedGroupProbability(pBar, G),
    mixed_predicted_per_prompt: rollout.groups.length ? rollout.groups.reduce((a, g) => a + mixedGroupProbability(g.correct.filter(Boolean).length / g.correct.length, G), 0) / rollout.groups.length : NaN,
    accuracy: pBar,
    settings_hash: runSettingsHash(s),
    entropy: m.entropy ?? NaN,
    // measured only where π_ref was evaluated (β > 0 in the loss, or measureKl): otherwise NaN, drawn as a gap, never a 0 that looks measured
    kl: s.algorithm !== 'rft' && ((s.klMode === 'loss' && s.beta !== 0) || s.measureKl) ? (m.kl ?? NaN) : NaN,
    kl_exact: m.kl_exact ?? NaN,
    'clip_ratio/low_mean': m['clip_ratio/low_mean'] ?? 0,
    'clip_ratio/high_mean': m['clip_ratio/high_mean'] ?? 0,
    'clip_ratio/region_mean': m['clip_ratio/region_mean'] ?? 0,
    ratio_min: m.ratio_min ?? 1,
    ratio_mean: m.ratio_mean ?? 1,
    ratio_max: m.ratio_max ?? 1,
    grad_norm: u.gradNorm,
    policy_loss: u.loss,
    mean_length: stats(lenAll).mean,
    length_correct_mean: sc.mean, length_correct_min: sc.min, length_correct_max: sc.max,
    length_incorrect_mean: si.mean, length_incorrect_min: si.min, length_incorrect_max: si.max,
    clipped_ratio: truncated / Math.max(1, n),
    process_reward: proc.length ? proc.reduce((a, b) => a + b, 0) / proc.length : NaN,
    ...wrongDeltaPerToken(rollout, u.answerLogRatio),
    think_fraction: think / Math.max(1, n),
    accuracy_think: think ? thinkRight / think : NaN,
    accuracy_direct: n - think ? directRight / (n - think) : NaN,
    tokens_generated: rollout.tokensGenerated,
    num_tokens: numTokens,
    prompts_drawn: rollout.promptsDrawn,
    rollout_ms: rollout.rolloutMs,
    verify_ms: rollout.verifyMs,
    update_ms: u.updateMs,
    finite: u.finite,
  };
}

/** See StepMetrics.wrong_dlogp_long_per_token: each group's longest and shortest wrong answer, Δ log π per token, averaged over groups. */
export function wrongDeltaPerToken(rollout: Rollout, answerLogRatio: Float32Array | null): Pick<StepMetrics, 'wrong_dlogp_long_per_token' | 'wrong_dlogp_short_per_token' | 'wrong_pairs' | 'wrong_pairs_long_moved_less'> {
  let long = 0, short = 0, n = 0, less = 0, row = 0;
  for (const g of rollout.groups) {
    const wrong = g.tokens.map((t, i) => ({ len: t.length, a: g.advantages[i] ?? 0, ok: g.correct[i], d: answerLogRatio ? answerLogRatio[row + i] : NaN })).filter((x) => !x.ok && x.a !== 0 && x.len > 0);
    row += g.tokens.length;
    if (!answerLogRatio || wrong.length < 2) continue;
    const s = wrong.reduce((a, x) => (x.len < a.len ? x : a));
    const l = wrong.reduce((a, x) => (x.len > a.len ? x : a));
    if (l.len === s.len) continue;
    long += l.d / l.len;
    short += s.d / s.len;
    n++;
    if (Math.abs(l.d) / l.len < Math.abs(s.d) / s.len) less++;
  }
  return n
    ? { wrong_dlogp_long_per_token: long / n, wrong_dlogp_short_per_token: short / n, wrong_pairs: n, wrong_pairs_long_moved_less: less }
    : { wrong_dlogp_long_per_token: NaN, wrong_dlogp_short_per_token: NaN, wrong_pairs: 0, wrong_pairs_long_moved_less: 0 };
}

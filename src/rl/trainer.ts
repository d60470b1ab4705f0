/**
 * The GRPO trainer: one step = rollout → verify → advantages → update, on any Backend.
 *
 *   rollout   P prompts from the training pool, G answers each (backend.sample: on WebGPU one
 *             submit, one readback of tokens and log-probs)
 *   verify    the only CPU stage: each answer's reward from the verifier (strict or weak);
 *             strict correctness is always recorded, so reward hacking shows
 *   advantages  groupAdvantages (grpo | dr_grpo | rloo | reinforce, scale_rewards)
 *   update    µ = num_iterations calls of backend.trainStep with the clipped policy objective
 *             (on WebGPU each is one submit and one readback of the step's metrics)
 *
 * The phases are separate methods so the lab's step mode can walk through them one by one;
 * `trainStep()` runs them in order. `settings` may be changed at any time: `rollout()` takes a
 * snapshot that every later phase of the same step uses, so a change made mid-step applies
 * from the next step and never splits one step between two settings.
 */
import type { Backend, SampleResult, TokenBatch } from '../model/backend.ts';
import { packBatch } from '../model/batch.ts';
import { Rng } from '../model/rng.ts';
import { ANSWER_SEPARATOR, decode, encodePrompt } from '../tasks/tokenizer.ts';
import { getTask, getWeakVerifier } from '../tasks/registry.ts';
import { samplePrompts } from '../tasks/split.ts';
import { mixedGroupProbability, passAtK } from '../tasks/metrics.ts';
import type { Task, Verdict } from '../tasks/types.ts';
import { groupAdvantages, type AdvantageEstimator, type ScaleRewards } from './advantages.ts';
import type { Settings } from './settings.ts';

/** One prompt's group of G answers, with everything the charts and the step inspector show. */
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
  /** Reward after shaping (overlong penalty, KL-in-reward), what the advantages use. */
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

/** Every number of a step, by TRL's names where TRL has one. */
export interface StepMetrics {
  step: number;
  reward: number;
  reward_std: number;
  frac_reward_zero_std: number;
  frac_all_pass: number;
  frac_all_fail: number;
  frac_mixed: number;
  /** 1 − p̄^G − (1 − p̄)^G with p̄ the batch pass rate: the chapter's prediction. */
  mixed_predicted: number;
  /** Strict accuracy of the sampled answers. */
  accuracy: number;
  entropy: number;
  /** The KL estimator's (k1 or k3) token mean over sampled tokens, when π_ref is evaluated. */
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
  /** The held-out prompts' greedy answers (the step inspector and tests show some). */
  samples: { prompt: string; response: string; correct: boolean }[];
}

export interface TrainerOptions {
  /** Held-out prompts per difficulty for evaluation. */
  evalSize?: number;
  /** Difficulties to evaluate (default: the training difficulty). */
  evalDifficulties?: number[];
  /** Compute pass@k during evaluation (G samples per held-out prompt). */
  evalPassAtK?: boolean;
  /**
   * Take π_ref from the policy before the first update (default). False when the caller has
   * already put a π_ref in place, e.g. a run resumed from a checkpoint with its own reference.
   */
  takeReference?: boolean;
}

const stats = (xs: number[]) => xs.length ? { mean: xs.reduce((a, b) => a + b, 0) / xs.length, min: Math.min(...xs), max: Math.max(...xs) } : { mean: NaN, min: NaN, max: NaN };
const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class GrpoTrainer {
  /** The settings the next step will use (the lab and the CLI may change them at any time). */
  settings: Settings;
  /** The snapshot the current step runs with, taken by rollout(). */
  private active: Settings;
  /** π_ref is taken from the policy as the trainer found it, before its first update. */
  private referenceTaken: boolean;
  step = 0;
  numTokens = 0;
  private promptRng: Rng;
  private readonly opts: Required<TrainerOptions>;

  constructor(readonly backend: Backend, settings: Settings, opts: TrainerOptions = {}) {
    this.settings = { ...settings };
    this.active = { ...settings };
    this.promptRng = new Rng(settings.seed);
    this.opts = { evalSize: opts.evalSize ?? 32, evalDifficulties: opts.evalDifficulties ?? [], evalPassAtK: opts.evalPassAtK ?? true, takeReference: opts.takeReference ?? true };
    this.referenceTaken = !this.opts.takeReference;
  }

  /** The training-prompt stream's state: a resumed run saves it so it draws the prompts the uninterrupted run would have. */
  get promptStream(): { state: number; spare: number | null } {
    return this.promptRng.getState();
  }
  set promptStream(s: { state: number; spare: number | null }) {
    this.promptRng.setState(s);
  }

  /** The task of the current step. */
  get task(): Task {
    return getTask(this.active.task);
  }

  /** The difficulty actually used: the setting clamped to the task's levels. */
  difficulty(s: Settings = this.active): number {
    const levels = getTask(s.task).difficulties;
    const want = s.difficulty;
    return levels.includes(want) ? want : levels.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a));
  }

  private maxNewTokens(promptTokens: number, s: Settings = this.active): number {
    return Math.max(1, Math.min(s.maxCompletionLength, this.backend.config.seqLen + 1 - promptTokens));
  }

  /** Phase 1+2: sample G answers for P training prompts and verify them. Snapshots the settings for this step. */
  async rollout(): Promise<Rollout> {
    this.active = { ...this.settings };
    if (!this.referenceTaken) {
      await this.backend.snapshotReference(); // π_ref = the starting (base) policy
      this.referenceTaken = true;
    }
    const s = this.active;
    const task = this.task;
    const G = s.numGenerations;
    const difficulty = this.difficulty();
    const weak = s.weakVerifier === 'strict' ? null : getWeakVerifier(s.weakVerifier);
    const weights = { unparseable: 0, wrong: s.formatReward, correct: 1 };
    const groups: Group[] = [];
    let promptsDrawn = 0, rollouts = 0, tokensGenerated = 0, rolloutMs = 0, verifyMs = 0;
    const attempts = s.dynamicSampling ? s.maxResample : 1;

    for (let attempt = 0; attempt < attempts && groups.length < s.promptsPerStep; attempt++) {
      const need = s.promptsPerStep - groups.length;
      const prompts = samplePrompts(task, this.promptRng, difficulty, 'train', need).map((i) => i.prompt);
      promptsDrawn += prompts.length;
      const promptTokens = prompts.map(encodePrompt);
      const longest = Math.max(...promptTokens.map((p) => p.length));
      const t0 = now();
      const res: SampleResult = await this.backend.sample({
        prompts: promptTokens,
        numGenerations: G,
        temperature: s.temperature,
        maxNewTokens: this.maxNewTokens(longest),
        seed: s.seed,
        stream: this.step * 16 + attempt,
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
          if (s.rewardMode === 'process' && task.processReward) reward = task.processReward(prompts[p], text);
          if (s.overlongPenalty) reward += overlongPenalty(res.tokens[k].length, this.maxNewTokens(promptTokens[p].length), s.overlongBuffer);
          g.responses.push(text);
          g.tokens.push(res.tokens[k]);
          g.logprobs.push(res.logprobs[k]);
          g.finished.push(res.finished[k]);
          g.verdicts.push(verdict);
          g.correct.push(strict.correct);
          g.rewards.push(reward);
          tokensGenerated += res.tokens[k].length;
        }
        const allEqual = g.rewards.every((r) => r === g.rewards[0]);
        // DAPO dynamic sampling keeps only groups that teach; the last attempt fills the batch anyway.
        if (s.dynamicSampling && allEqual && attempt < attempts - 1) continue;
        if (groups.length < s.promptsPerStep) groups.push(g);
      }
      verifyMs += now() - t1;
    }
    this.numTokens += tokensGenerated;
    return { step: this.step, groups, promptsDrawn, rollouts, tokensGenerated, rolloutMs, verifyMs };
  }

  /** The batch the update trains on: every answer after its prompt, mask on the answer tokens. */
  batchOf(rollout: Rollout): TokenBatch {
    const pairs = rollout.groups.flatMap((g) => g.tokens.map((t) => ({ prompt: g.promptTokens, response: t })));
    const batch = packBatch(pairs, this.backend.config.seqLen, { trim: true });
    if (this.active.maskTruncated) {
      const finished = rollout.groups.flatMap((g) => g.finished);
      finished.forEach((f, b) => { if (!f) batch.mask.fill(0, b * batch.T, (b + 1) * batch.T); });
    }
    return batch;
  }

  /** Phase 3: group-relative advantages (after KL-in-reward shaping when klMode = reward). */
  async computeAdvantages(rollout: Rollout, batch: TokenBatch): Promise<void> {
    const s = this.active;
    if (s.klMode === 'reward' && s.beta > 0) {
      // PPO-style: r_i − β Σ_t log(π_old/π_ref). Needs π_ref's log-probs: one extra pass in this mode only.
      const ref = await this.backend.logprobs(batch, { reference: true, temperature: s.temperature });
      let b = 0;
      for (const g of rollout.groups) {
        for (let i = 0; i < g.tokens.length; i++, b++) {
          const lp = g.logprobs[i];
          const start = g.promptTokens.length - 1;
          let kl = 0;
          for (let j = 0; j < lp.length; j++) kl += lp[j] - ref.logprobs[b * batch.T + start + j];
          g.rewards[i] -= s.beta * kl;
        }
      }
    }
    const G = s.numGenerations;
    const rewards = rollout.groups.flatMap((g) => g.rewards);
    const A = groupAdvantages(rewards, G, s.advantage as AdvantageEstimator, s.scaleRewards as ScaleRewards);
    rollout.groups.forEach((g, p) => { g.advantages = Array.from(A.subarray(p * G, (p + 1) * G)); });
  }

  /** π_old as a [B*T] array, from the rollout's log-probs (needed when µ > 1). */
  private oldLogprobsOf(rollout: Rollout, batch: TokenBatch): Float32Array {
    const old = new Float32Array(batch.B * batch.T);
    let b = 0;
    for (const g of rollout.groups) {
      for (const lp of g.logprobs) {
        old.set(lp, b * batch.T + g.promptTokens.length - 1);
        b++;
      }
    }
    return old;
  }

  /**
   * Phase 4: µ updates of the clipped policy objective (algorithm grpo), or one cross-entropy
   * step on the verified answers only (algorithm rft: rejection-sampling fine-tuning, the
   * cheaper baseline at the same generated tokens). Returns averaged objective metrics.
   */
  async update(rollout: Rollout, batch: TokenBatch) {
    const s = this.active;
    const t0 = now();
    const warm = s.warmupSteps > 0 ? Math.min(1, (this.step + 1) / s.warmupSteps) : 1;
    const adamw = { lr: s.learningRate * warm, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, gradClip: s.maxGradNorm };
    if (s.algorithm === 'rft') {
      const verified = rollout.groups.flatMap((g) => g.tokens.filter((_, i) => g.correct[i] && g.finished[i]).map((t) => ({ prompt: g.promptTokens, response: t })));
      if (verified.length === 0) return { loss: 0, gradNorm: 0, finite: true, metrics: {}, updateMs: now() - t0 };
      const r = await this.backend.trainStep(packBatch(verified, this.backend.config.seqLen, { trim: true }), { kind: 'ce' }, adamw);
      return { loss: r.loss, gradNorm: r.gradNorm, finite: r.finite, metrics: r.metrics, updateMs: now() - t0 };
    }
    const advantages = Float32Array.from(rollout.groups.flatMap((g) => g.advantages));
    const oldLogprobs = s.numIterations > 1 ? this.oldLogprobsOf(rollout, batch) : null;
    const sums: Record<string, number> = {};
    let loss = 0, gradNorm = 0, finite = true;
    for (let it = 0; it < s.numIterations; it++) {
      const r = await this.backend.trainStep(batch, {
        kind: 'policy', advantages, oldLogprobs,
        epsilon: s.epsilon, epsilonHigh: s.epsilonHigh, beta: s.klMode === 'loss' ? s.beta : 0,
        klEstimator: s.klEstimator as 'k1' | 'k3', lossType: s.lossType as 'grpo' | 'dapo' | 'dr_grpo',
        importanceSamplingLevel: s.importanceSamplingLevel as 'token' | 'sequence', entropyCoef: s.entropyCoef,
        maxCompletionLength: s.maxCompletionLength, temperature: s.temperature, measureKl: s.measureKl,
      }, adamw);
      if (!r.finite) { finite = false; break; }
      loss += r.loss / s.numIterations;
      gradNorm += r.gradNorm / s.numIterations;
      for (const [k, v] of Object.entries(r.metrics)) sums[k] = (sums[k] ?? 0) + v / s.numIterations;
    }
    return { loss, gradNorm, finite, metrics: sums, updateMs: now() - t0 };
  }

  /** One whole GRPO step; returns its metrics and the rollout (for charts and inspection). */
  async trainStep(): Promise<{ metrics: StepMetrics; rollout: Rollout }> {
    const rollout = await this.rollout();
    const batch = this.batchOf(rollout);
    await this.computeAdvantages(rollout, batch);
    const u = await this.update(rollout, batch);
    const metrics = stepMetrics(rollout, u, this.active.numGenerations, this.numTokens, (p, r) => this.task.processReward?.(p, r));
    this.step++;
    return { metrics, rollout };
  }

  /** Held-out greedy accuracy and pass@k on a fixed held-out set (same prompts every time). */
  async evaluate(): Promise<EvalMetrics> {
    const s = { ...this.settings }; // evaluation uses the latest settings, never a step's snapshot
    const task = getTask(s.task);
    const diffs = this.opts.evalDifficulties.length ? this.opts.evalDifficulties : [this.difficulty(s)];
    const byDifficulty: Record<string, number> = {};
    const samples: EvalMetrics['samples'] = [];
    let correct = 0, total = 0;
    const passSums: Record<string, number> = {};
    for (const d of diffs) {
      const prompts = heldoutPrompts(task, d, this.opts.evalSize, s.seed);
      const promptTokens = prompts.map(encodePrompt);
      const maxNew = this.maxNewTokens(Math.max(...promptTokens.map((p) => p.length)), s);
      const greedy = await this.backend.sample({ prompts: promptTokens, numGenerations: 1, temperature: 0, maxNewTokens: maxNew, seed: s.seed, stream: 0 });
      let c = 0;
      prompts.forEach((p, i) => {
        const text = decode(greedy.tokens[i]);
        const ok = task.verify(p, text).correct;
        if (ok) c++;
        if (samples.length < 8) samples.push({ prompt: p, response: text, correct: ok });
      });
      byDifficulty[String(d)] = c / prompts.length;
      correct += c;
      total += prompts.length;
      if (this.opts.evalPassAtK) {
        const G = s.numGenerations;
        const res = await this.backend.sample({ prompts: promptTokens, numGenerations: G, temperature: s.temperature, maxNewTokens: maxNew, seed: s.seed ^ 0x5eed, stream: this.step });
        for (let p = 0; p < prompts.length; p++) {
          let cp = 0;
          for (let i = 0; i < G; i++) if (task.verify(prompts[p], decode(res.tokens[p * G + i])).correct) cp++;
          for (let k = 1; k <= G; k *= 2) passSums[String(k)] = (passSums[String(k)] ?? 0) + passAtK(G, cp, k);
        }
      }
    }
    const pass_at_k: Record<string, number> = {};
    for (const [k, v] of Object.entries(passSums)) pass_at_k[k] = v / total;
    return { step: this.step, heldout_accuracy: correct / total, pass_at_k, by_difficulty: byDifficulty, samples };
  }
}

/** The fixed held-out evaluation prompts for a task and difficulty (seeded by the run seed). */
export function heldoutPrompts(task: Task, difficulty: number, n: number, seed: number): string[] {
  return samplePrompts(task, new Rng((seed ^ 0x0e7a1) >>> 0), difficulty, 'heldout', n).map((i) => i.prompt);
}

/**
 * DAPO's overlong soft penalty for an answer of L tokens with limit L_max and buffer L_cache:
 *   0 if L ≤ L_max − L_cache;  (L_max − L_cache − L) / L_cache inside the buffer (down to −1 at L_max).
 */
export function overlongPenalty(L: number, Lmax: number, Lcache: number): number {
  const start = Lmax - Lcache;
  return L <= start ? 0 : Math.max(-1, (start - L) / Math.max(1, Lcache));
}

/** A step's metrics from its rollout and update (pure; exported for tests). */
export function stepMetrics(
  rollout: Rollout,
  u: { loss: number; gradNorm: number; finite: boolean; metrics: Record<string, number>; updateMs: number },
  G: number,
  numTokens: number,
  processReward: (prompt: string, response: string) => number | undefined,
): StepMetrics {
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
    accuracy: pBar,
    entropy: m.entropy ?? NaN,
    kl: m.kl ?? 0,
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

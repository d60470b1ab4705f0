/**
 * The GRPO trainer. It owns one GRPO step — as a sequence of phases that the lab's loop, the
 * lab's step-through and `npm run train` all consume — and everything a step depends on: the
 * step counter, the generated-token count, the prompt stream, π_ref, the warm-up, the settings
 * snapshot the step runs with, the finite check and the evaluation cadence.
 *
 *   rollout     P prompts from the training pool, G answers each (backend.sample: on WebGPU
 *               one submit, one readback of tokens and log-probs)
 *   verdicts    the only CPU stage: each answer's reward from the verifier (strict or weak);
 *               strict correctness is always recorded, so reward hacking shows. (Dynamic
 *               sampling verifies inside the rollout: it keeps only groups that teach.)
 *   advantages  groupAdvantages (grpo | dr_grpo | rloo | reinforce, scale_rewards)
 *   update      µ = num_iterations inner epochs of the clipped policy objective in one
 *               backend.trainStep (on WebGPU one submit and one readback of every epoch's metrics)
 *   metrics     the step's numbers; the step is counted only if its update was finite
 *   evaluation  held-out accuracy, when the step count reaches a multiple of evalEvery
 *
 * `runStep(settings)` yields these phases in order. The settings are copied when the step
 * starts, so a change made while a step runs applies from the next step and never splits one
 * step between two settings.
 */
import type { AdamWSettings, Backend, TokenBatch } from '../model/backend.ts';
import { adamwSettings } from '../model/backend.ts';
import { packBatch } from '../model/batch.ts';
import { Rng } from '../model/rng.ts';
import { getTask } from '../tasks/registry.ts';
import type { Task } from '../tasks/types.ts';
import { groupAdvantages } from './advantages.ts';
import { compareObjectives, type ObjectiveComparison } from './counterfactual.ts';
import { inspectAnswers, type GradientStepSize, type UpdateInspection } from './inspection.ts';
import { advantageOf, innerEpochs, maskTruncated, policyLossOf } from './lossSpec.ts';
import { stepMetrics, type EvalMetrics, type StepMetrics, type UpdateResult } from './metrics.ts';
import { CONTRACT_PROMPT_SEED, evaluatePolicy, HELDOUT_SIZE } from './evaluation.ts';
import type { EvalContract } from './contract.ts';
import { sampleGroups, taskDifficulty, type Rollout } from './rollout.ts';
import type { Settings } from './settings.ts';

export type { EvalMetrics, StepMetrics, UpdateResult } from './metrics.ts';
export { stepMetrics } from './metrics.ts';
export type { Group, Rollout } from './rollout.ts';
export { overlongPenalty } from './rollout.ts';
export { heldoutPrompts } from './evaluation.ts';
export { maskTruncated, oldLogprobsOf, policyLossOf } from './lossSpec.ts';

/** One phase of a GRPO step, in the order runStep yields them. */
export type StepPhase =
  | { kind: 'rollout'; step: number; settings: Settings; rollout: Rollout }
  | { kind: 'verdicts'; step: number; rollout: Rollout }
  | { kind: 'advantages'; step: number; rollout: Rollout; batch: TokenBatch }
  /** `inspection`: per answer, the objective term by term and log π before/after (only when asked for). */
  | { kind: 'update'; step: number; update: UpdateResult; inspection: UpdateInspection | null }
  /** `accepted`: the update was finite and is now committed; a rejected one was rolled back and is not counted. */
  | { kind: 'metrics'; step: number; metrics: StepMetrics; rollout: Rollout; accepted: boolean; evaluationFollows: boolean }
  | { kind: 'evaluation'; step: number; evaluation: EvalMetrics };

/** Where a run keeps its last good state (the lab's RecoverableBackend): commit after an accepted step, roll back after a rejected one. */
export interface StepCommit {
  /** Record the engine's state after the last finite update as the one to return to; false if it is not finite. */
  commit(): boolean;
  /** Put the last committed state back. */
  rollback(): Promise<void>;
}

export interface TrainerOptions {
  /** Held-out prompts per difficulty for evaluation. */
  evalSize?: number;
  /** Difficulties to evaluate (default: the training difficulty). */
  evalDifficulties?: number[];
  /** Compute pass@k during evaluation (G samples per held-out prompt). */
  evalPassAtK?: boolean;
  /** Commit/rollback of the engine's state; without it a non-finite step is only reported. */
  commits?: StepCommit;
  /** A lesson's evaluation contract (contract.ts): its fixed held-out set, read in full at step 0 and at the verdict step. */
  contract?: EvalContract | null;
}

/** What a resumed run puts back: the policy and AdamW state are the backend's; these are the trainer's. */
export interface TrainerState {
  step: number;
  numTokens: number;
  /** null: an older save without it (the stream then restarts from the seed). */
  promptStream: { state: number; spare: number | null } | null;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class GrpoTrainer {
  private stepValue = 0;
  private tokensValue = 0;
  private settingsValue: Settings;
  private referenceTaken = false;
  private stepOpen = false;
  private promptRng: Rng;
  private readonly opts: Required<Omit<TrainerOptions, 'commits' | 'contract'>> & Pick<TrainerOptions, 'commits'>;
  private contractValue: EvalContract | null;

  /** `settings`: the run's settings until a step is given others (runStep's argument). */
  constructor(readonly backend: Backend, settings: Settings, opts: TrainerOptions = {}) {
    this.settingsValue = { ...settings };
    this.promptRng = new Rng(settings.seed);
    this.opts = { evalSize: opts.evalSize ?? HELDOUT_SIZE, evalDifficulties: opts.evalDifficulties ?? [], evalPassAtK: opts.evalPassAtK ?? true, commits: opts.commits };
    this.contractValue = opts.contract ?? null;
  }

  /**
   * The evaluation contract of the lesson this run is (null: none): with one, every evaluation
   * reads the contract's fixed held-out set, greedy, so that the held-out line joins figures of the
   * same prompts (its first 32 read 0.34 where all 256 read 0.49, lesson 1 at step 0); in full
   * (each prompt's result, G samples a prompt for pass@k) at step 0 and at the verdict step, where
   * an evaluation is always due. The watched task's evaluations read its first evalSize prompts
   * between those two (lesson 11's claim was fixed on them).
   */
  get contract(): EvalContract | null {
    return this.contractValue;
  }
  setContract(c: EvalContract | null): void {
    this.contractValue = c;
  }
  /** Whether the evaluation after `step` is due: every evalEvery steps, and at the contract's verdict step. */
  evaluationDue(step: number, s: Settings = this.settingsValue): boolean {
    return step % s.evalEvery === 0 || (this.contractValue !== null && this.fullAt(step));
  }
  /** Whether the contract reads its whole held-out set after `step`. */
  private fullAt(step: number): boolean {
    const c = this.contractValue;
    return c !== null && (step === 0 || step === c.steps || (c.probes?.includes(step) ?? false));
  }

  /** Steps applied so far. */
  get step(): number {
    return this.stepValue;
  }
  /**
   * True from the first phase of a step until its last (its evaluation, when one is due) or
   * until it is abandoned: a save taken now would pair a counted step with a history that
   * still lacks its evaluation.
   */
  get inStep(): boolean {
    return this.stepOpen;
  }
  /** Tokens generated by the rollouts so far (for matched-compute comparisons). */
  get numTokens(): number {
    return this.tokensValue;
  }
  /** The settings of the step in progress, or of the last one (a copy: they cannot be changed mid-step). */
  get settings(): Settings {
    return { ...this.settingsValue };
  }
  /** The task of the current step. */
  get task(): Task {
    return getTask(this.settingsValue.task);
  }
  /** The counters and prompt stream a saved run keeps, so a resumed run draws the prompts the uninterrupted one would have. */
  get state(): TrainerState & { promptStream: { state: number; spare: number | null } } {
    return { step: this.stepValue, numTokens: this.tokensValue, promptStream: this.promptRng.getState() };
  }

  /** π_ref = the policy as it is now (the base). Taken before the first update if not called. */
  async takeReference(): Promise<void> {
    await this.backend.snapshotReference();
    this.referenceTaken = true;
  }

  /**
   * Continue a saved run: π_ref from `reference`, then the policy and AdamW state, then the
   * trainer's counters and prompt stream.
   */
  async resume(reference: Float32Array, policy: { weights: Float32Array; optimizer: import('../model/backend.ts').OptimizerState }, state: TrainerState): Promise<void> {
    await this.backend.setWeights(reference);
    await this.takeReference();
    await this.backend.setWeights(policy.weights);
    await this.backend.setOptimizerState(policy.optimizer);
    this.stepValue = state.step;
    this.tokensValue = state.numTokens;
    if (state.promptStream) this.promptRng.setState(state.promptStream);
    this.opts.commits?.commit(); // the resumed state is the one to return to
  }

  /** The difficulty actually used: the setting clamped to the task's levels. */
  difficulty(s: Settings = this.settingsValue): number {
    return taskDifficulty(s);
  }

  /**
   * One GRPO step as its phases. `inspect` adds, to the update phase, each answer's objective
   * term by term and its log-probability before and after (extra passes, for the step-through
   * only: the lab's loop never asks for them).
   */
  async *runStep(settings: Settings = this.settingsValue, o: { inspect?: boolean; gradientStep?: GradientStepSize } = {}): AsyncGenerator<StepPhase> {
    this.stepOpen = true;
    try {
      const s: Settings = { ...settings };
      this.settingsValue = s;
      const step = this.stepValue;
      if (!this.referenceTaken) await this.takeReference(); // π_ref = the starting (base) policy
      const rollout = await sampleGroups(this.backend, s, this.promptRng, this.stepValue);
      this.tokensValue += rollout.tokensGenerated;
      yield { kind: 'rollout', step, settings: { ...s }, rollout };
      yield { kind: 'verdicts', step, rollout };
      const packed = this.packAnswers(rollout);
      await this.computeAdvantages(rollout, packed, s); // KL-in-reward needs π_ref on every answer token, truncated ones too
      const batch = s.maskTruncated ? maskTruncated(packed, rollout) : packed;
      yield { kind: 'advantages', step, rollout, batch };
      const before = o.inspect && s.algorithm !== 'rft' ? await inspectAnswers.before(this.backend, rollout, batch, s) : null;
      const update = await this.update(rollout, batch, s);
      const inspection = o.inspect ? await inspectAnswers.after(this.backend, rollout, batch, s, before, o.gradientStep) : null;
      yield { kind: 'update', step, update, inspection };
      const accepted = update.finite && (this.opts.commits ? this.opts.commits.commit() : true);
      if (!accepted) await this.opts.commits?.rollback();
      const metrics = stepMetrics(rollout, update, s, this.tokensValue);
      if (accepted) this.stepValue++;
      const evaluationFollows = accepted && this.evaluationDue(this.stepValue, s);
      yield { kind: 'metrics', step, metrics, rollout, accepted, evaluationFollows };
      if (evaluationFollows) yield { kind: 'evaluation', step, evaluation: await this.evaluate(s) };
    } finally {
      this.stepOpen = false;
    }
  }

  /** One whole step; returns its metrics and rollout (tests, bench and scripts that need no phases). */
  async trainStep(settings?: Settings): Promise<{ metrics: StepMetrics; rollout: Rollout; evaluation: EvalMetrics | null }> {
    let out: { metrics: StepMetrics; rollout: Rollout } | null = null;
    let evaluation: EvalMetrics | null = null;
    for await (const ph of this.runStep(settings)) {
      if (ph.kind === 'metrics') out = ph;
      else if (ph.kind === 'evaluation') evaluation = ph.evaluation;
    }
    return { ...out!, evaluation };
  }

  /** Every answer after its prompt, mask on the answer tokens. */
  private packAnswers(rollout: Rollout): TokenBatch {
    const pairs = rollout.groups.flatMap((g) => g.tokens.map((t) => ({ prompt: g.promptTokens, response: t })));
    return packBatch(pairs, this.backend.config.seqLen, { trim: true });
  }

  /** Group-relative advantages (after KL-in-reward shaping when klMode = reward). */
  private async computeAdvantages(rollout: Rollout, batch: TokenBatch, s: Settings): Promise<void> {
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
    const A = groupAdvantages(rewards, G, advantageOf(s), s.scaleRewards);
    rollout.groups.forEach((g, p) => { g.advantages = Array.from(A.subarray(p * G, (p + 1) * G)); });
  }

  /**
   * µ updates of the clipped policy objective (algorithm grpo), or one cross-entropy step on
   * the verified answers only (algorithm rft: rejection-sampling fine-tuning, the cheaper
   * baseline at the same generated tokens).
   */
  private async update(rollout: Rollout, batch: TokenBatch, s: Settings): Promise<UpdateResult> {
    const t0 = now();
    const adamw = this.adamw(s);
    if (s.algorithm === 'rft') {
      // "verified" by the run's verifier — a weak one too: RFT can be hacked like GRPO
      const verified = rollout.groups.flatMap((g) => g.tokens.filter((_, i) => g.verdicts[i].correct && g.finished[i]).map((t) => ({ prompt: g.promptTokens, response: t })));
      if (verified.length === 0) return { loss: 0, gradNorm: 0, finite: true, metrics: {}, epochs: [], answers: 0, answerLogRatio: null, updateMs: now() - t0 };
      const r = await this.backend.trainStep(packBatch(verified, this.backend.config.seqLen, { trim: true }), { kind: 'ce' }, adamw);
      return { loss: r.loss, gradNorm: r.gradNorm, finite: r.finite, metrics: r.metrics, epochs: [r.metrics], answers: verified.length, answerLogRatio: null, updateMs: now() - t0 };
    }
    const spec = policyLossOf(rollout, batch, s);
    const sums: Record<string, number> = {};
    const epochs: Record<string, number>[] = [];
    let loss = 0, gradNorm = 0;
    // the µ inner epochs in one engine call (on WebGPU one submit and one readback)
    const mu = innerEpochs(s);
    const r = await this.backend.trainStep(batch, spec, adamw, { epochs: mu });
    for (const e of (r.epochs ?? [r]).filter((x) => x.finite)) {
      epochs.push(e.metrics);
      loss += e.loss / mu;
      gradNorm += e.gradNorm / mu;
      for (const [k, v] of Object.entries(e.metrics)) sums[k] = (sums[k] ?? 0) + v / mu;
    }
    const finite = r.finite;
    const answers = rollout.groups.reduce((a, g) => a + g.tokens.length, 0);
    return { loss, gradNorm, finite, metrics: sums, epochs, answers, answerLogRatio: r.answerLogRatio ?? null, updateMs: now() - t0 };
  }

  /** AdamW's settings for the step in progress: η with the linear warm-up. */
  private adamw(s: Settings): AdamWSettings {
    const warm = s.warmupSteps > 0 ? Math.min(1, (this.stepValue + 1) / s.warmupSteps) : 1;
    return adamwSettings(s.learningRate * warm, s.maxGradNorm);
  }

  /**
   * The counterfactual update of the step in progress (the step-through's "compare objectives"):
   * the advantages phase's batch under GRPO, Dr. GRPO, DAPO and GSPO, each from the current
   * weights, which are put back after each. Call it while runStep waits after its advantages
   * phase: the update the step then applies is unchanged.
   */
  compareObjectives(rollout: Rollout, batch: TokenBatch): Promise<ObjectiveComparison> {
    return compareObjectives(this.backend, rollout, batch, this.settingsValue, this.adamw(this.settingsValue));
  }

  /** Held-out greedy accuracy and pass@k on a fixed held-out set (same prompts every time). */
  async evaluate(settings: Settings = this.settingsValue): Promise<EvalMetrics> {
    const s = { ...settings };
    const difficulties = this.opts.evalDifficulties.length ? this.opts.evalDifficulties : [this.difficulty(s)];
    const c = this.contractValue;
    const full = c !== null && this.fullAt(this.stepValue);
    const o = { size: c ? c.size : this.opts.evalSize, step: this.stepValue, ...(c ? { promptSeed: CONTRACT_PROMPT_SEED, perPrompt: full } : {}) };
    const ev: EvalMetrics = { ...await evaluatePolicy(this.backend, s, { ...o, difficulties, passAtK: full || this.opts.evalPassAtK }), ...(full ? { contract: true as const } : {}) };
    if (s.watchTask === 'none' || s.watchTask === s.task) return ev;
    // the watched task, never trained on: its own held-out set, with pass@1 from G samples (what it forgets)
    const w = { ...s, task: s.watchTask };
    const d = this.difficulty(w);
    const other = await evaluatePolicy(this.backend, w, { ...o, size: full ? o.size : this.opts.evalSize, difficulties: [d], passAtK: true });
    if (ev.per_prompt && other.per_prompt) ev.per_prompt.watch_correct = other.per_prompt.correct;
    return { ...ev, watch: { task: s.watchTask, difficulty: d, heldout_accuracy: other.heldout_accuracy, pass1: other.pass_at_k['1'] ?? NaN } };
  }
}

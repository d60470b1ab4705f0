/**
 * What the step-through shows of one update, per answer: the objective term by term at the
 * start of the update, and log π before and after it.
 *
 * The terms come from `policyObjective` (src/model/objective.ts) — the same function that
 * computes the loss on the CPU reference and that shaders/policy_loss.wgsl mirrors — applied to
 * log-probs read back from the engine before the update, with exactly the loss the update
 * runs (so their metrics equal the first inner epoch's metrics from the engine; a test checks
 * it). Two extra forward passes before the update and one after: for the step-through only.
 *
 * Beside the update that was applied (AdamW: its first moment m is 90 % earlier batches at
 * β₁ = 0.9, and it scales each parameter by 1/√v), what this batch's gradient alone does: a plain
 * gradient step on this step's objective from the same starting weights w₀,
 *
 *   w_g = w₀ − s · g / ‖g‖,   g = ∇_θ L(w₀) (this batch only),
 *
 * sized to move the policy as far on this batch as the applied step did (the same mean
 * |Δ log π| per token; GradientStepSize says why not the same ‖Δw‖), then undone (as the
 * objectives comparison does). Both are measured on the same answers, so the page can say how
 * many answers with A > 0 each made more likely.
 *
 * What GRPO promises is not a count but a sum: the surrogate objective Σ_i Σ_t w_{i,t}·A_i·Δ log π(o_t)
 * (its first-order change from π_old, w the loss's aggregation weight) rises along −g, by
 * s·‖g‖ to first order for a step of length s when the surrogate is the whole loss. So the
 * gradient-alone step is also taken 10× shorter (one more forward pass, step-through only), and
 * the sum is reported after all three steps with that prediction (ObjectiveRise): kept in
 * aggregate, while single answers with A > 0 still fall — at the shorter step too, since an
 * answer's first-order move ∇log π_iᵀ(−g) has the same sign at any step length.
 */
import type { Backend, PerTokenOutputs, TokenBatch } from '../model/backend.ts';
import { ClipSide, policyObjective, type ObjectiveTerms } from '../model/objective.ts';
import type { Settings } from './settings.ts';
import { oldLogprobsOf, policyLossOf } from './lossSpec.ts';
import type { Rollout } from './rollout.ts';

export type ClipSideValue = (typeof ClipSide)[keyof typeof ClipSide];

/** One token's share of the objective. */
export interface TokenTerm {
  /** The ratio entering the surrogate (ρ_t, or the response's s_i under GSPO). */
  ratio: number;
  /** Token-level clip side (None under GSPO: the sequence is clipped as one unit). */
  clip: ClipSideValue;
  /** KL to π_ref by the chosen estimator (NaN when π_ref was not evaluated). */
  kl: number;
  /** Aggregation weight w_{i,t} (loss_type). */
  weight: number;
  /** Contribution to L: w·(surrogate + β·KL − c_H·H). */
  loss: number;
  /** dL/d log π_θ(o_t): the push on this token's log-probability (negative: made more likely). */
  grad: number;
}

export interface AnswerInspection {
  advantage: number;
  /** Σ_t log π_θ(o_t) at the start of the update and after it. */
  logpBefore: number;
  logpAfter: number;
  /** Σ_t log π(o_t) after this batch's gradient alone (a plain step that moves the policy as far as the applied one); null under RFT. */
  logpGradientAlone: number | null;
  /** The same after the gradient-alone step made SHORT_STEP times shorter; null under RFT. */
  logpGradientShort: number | null;
  /** Per token, at the start of the update (null under RFT: it trains by cross-entropy). */
  tokens: TokenTerm[] | null;
  /** GSPO: the sequence ratio and its clip side; null at token level. */
  sequence: { ratio: number; clip: ClipSideValue } | null;
  /** After the update, against π_old: what the next inner epoch would see. */
  ratioAfter: number[];
  clipAfter: ClipSideValue[];
}

/** What the update phase carries when asked: per answer, and the objective's metrics at the start of the update (= the engine's first inner epoch). */
export interface UpdateInspection {
  answers: AnswerInspection[][];
  /** policyObjective's metrics on the log-probs before the update; null under RFT. */
  metrics: Record<string, number> | null;
  /** The applied step against this batch's gradient alone (null under RFT). */
  step: StepGeometry | null;
}

/** The applied update Δw in parameter space, against this batch's descent direction −g. */
export interface StepGeometry {
  /** ‖Δw‖: the length of the applied step. */
  length: number;
  /** The length given to the gradient-alone step (see GradientStepSize). */
  gradientLength: number;
  /** cos(Δw, −g): 1 if AdamW had stepped straight down this batch's gradient. */
  cosine: number;
  /** Mean |Δ log π| per token on this batch: after the applied step, and after the gradient-alone step. */
  shiftApplied: number;
  shiftGradient: number;
  /** ‖g‖, this batch's loss gradient's norm at w₀. */
  gradientNorm: number;
  /** GRPO's promise after each step: the surrogate objective's rise Σ w·A·Δ log π. */
  objective: ObjectiveRise;
}

/** The gradient-alone step is also taken this many times shorter (where first order holds better). */
export const SHORT_STEP = 10;

/**
 * The surrogate objective's first-order change, J = Σ_i Σ_t w_{i,t}·A_i·Δ log π(o_{i,t}) (w: the
 * loss's aggregation weight; the same for every token of an answer), after each step. GRPO
 * promises J > 0 for a small enough step down its gradient, not that each answer with A > 0 rises.
 */
export interface ObjectiveRise {
  applied: number;
  gradientAlone: number;
  gradientShort: number;
  /**
   * The first-order predictions for the two gradient steps, s·‖g‖ and s/SHORT_STEP·‖g‖ (a step −s·g/‖g‖
   * changes the loss by −s·‖g‖ to first order, and J is minus the loss's change when the surrogate
   * is the whole loss); null when the loss has a KL leash or an entropy bonus besides.
   */
  predictedAlone: number | null;
  predictedShort: number | null;
}

/** J = Σ_k w_k·A_{row(k)}·(after_k − before_k) over the batch's B×T tokens (w already 0 off the mask). */
export function objectiveRise(B: number, T: number, weight: ArrayLike<number>, advantages: ArrayLike<number>, before: ArrayLike<number>, after: ArrayLike<number>): number {
  let j = 0;
  for (let b = 0; b < B; b++) {
    let row = 0;
    for (let t = 0; t < T; t++) {
      const k = b * T + t;
      if (weight[k] !== 0) row += weight[k] * (after[k] - before[k]);
    }
    j += advantages[b] * row;
  }
  return j;
}

/** How many answers each update moved the way their advantage asks (A > 0 up, A < 0 down). */
export interface PushCounts {
  positive: number;
  negative: number;
  /** After the applied (AdamW) update. */
  applied: { up: number; down: number };
  /** After this batch's gradient alone; null when it was not measured (RFT). */
  gradientAlone: { up: number; down: number } | null;
  /** After the same step SHORT_STEP times shorter; null when it was not measured. */
  gradientShort: { up: number; down: number } | null;
}

/** The one count of "did the answers move the way A asks" (the step-through, the tour and the measurement script read it). */
export function pushCounts(answers: readonly (Pick<AnswerInspection, 'advantage' | 'logpBefore' | 'logpAfter' | 'logpGradientAlone'> & { logpGradientShort?: number | null })[]): PushCounts {
  const pos = answers.filter((a) => a.advantage > 0);
  const neg = answers.filter((a) => a.advantage < 0);
  const measured = answers.every((a) => a.logpGradientAlone !== null);
  const short = answers.every((a) => a.logpGradientShort !== null && a.logpGradientShort !== undefined);
  const up = (xs: typeof pos, f: (a: (typeof pos)[number]) => number) => xs.filter((a) => f(a) > a.logpBefore).length;
  const down = (xs: typeof pos, f: (a: (typeof pos)[number]) => number) => xs.filter((a) => f(a) < a.logpBefore).length;
  return {
    positive: pos.length,
    negative: neg.length,
    applied: { up: up(pos, (a) => a.logpAfter), down: down(neg, (a) => a.logpAfter) },
    gradientAlone: measured ? { up: up(pos, (a) => a.logpGradientAlone!), down: down(neg, (a) => a.logpGradientAlone!) } : null,
    gradientShort: short ? { up: up(pos, (a) => a.logpGradientShort!), down: down(neg, (a) => a.logpGradientShort!) } : null,
  };
}

/** The objective evaluated before the update, with the metrics it gives (the engine's first epoch must agree). */
export interface BeforeUpdate {
  current: PerTokenOutputs;
  terms: ObjectiveTerms;
  gradLogprob: Float64Array;
  metrics: Record<string, number>;
  /** The weights at the start of the update, and this batch's gradient there. */
  weights: Float32Array;
  gradient: Float32Array;
}

function refNeeded(s: Settings): boolean {
  return (s.klMode === 'loss' && s.beta !== 0) || s.measureKl;
}

async function before(backend: Backend, rollout: Rollout, batch: TokenBatch, s: Settings): Promise<BeforeUpdate> {
  const current = await backend.logprobs(batch, { temperature: s.temperature });
  const ref = refNeeded(s) ? await backend.logprobs(batch, { temperature: s.temperature, reference: true }) : null;
  const spec = policyLossOf(rollout, batch, s);
  const out = policyObjective({ B: batch.B, T: batch.T, logprobs: current.logprobs, entropy: current.entropy, mask: batch.mask, oldLogprobs: spec.oldLogprobs, refLogprobs: ref?.logprobs ?? null, advantages: spec.advantages }, spec, { terms: true });
  const weights = await backend.getWeights();
  const { grads } = await backend.gradient(batch, spec);
  return { current, terms: out.terms!, gradLogprob: out.gradLogprob, metrics: out.metrics, weights, gradient: grads };
}

/** Mean |Δ log π| per scored token between two log-prob tensors: how far a step moved the policy on this batch. */
function meanShift(a: Float32Array, b: Float32Array, mask: Float32Array): number {
  let s = 0, n = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]) { s += Math.abs(a[i] - b[i]); n++; }
  return n ? s / n : 0;
}

/**
 * How the gradient-alone step is sized. `change` (the page's): as far as the applied step moved
 * the policy on this batch — the same mean |Δ log π| per token, found by rescaling twice from the
 * parameter-space length (for small steps the shift grows in proportion). `length`: the same
 * parameter-space length ‖Δw‖ as the applied step. The two differ because AdamW spreads its
 * length over every weight (each moves about η), while the raw gradient puts it on the few
 * weights with the largest gradients: at AdamW's length a plain step overshoots, and every
 * answer's log π falls, right or wrong (measured: `npm run update-push -- --match length`).
 */
export type GradientStepSize = 'change' | 'length';

/**
 * This batch's gradient alone: from w₀, a plain step −s·g/‖g‖, log π of every answer there, then
 * the applied weights put back. Returns the log-probs and the step's geometry; null if the
 * applied step or the gradient is zero (nothing to scale).
 */
async function gradientAlone(backend: Backend, rollout: Rollout, batch: TokenBatch, s: Settings, pre: BeforeUpdate, post: Float32Array, size: GradientStepSize): Promise<{ logprobs: Float32Array; short: Float32Array; step: StepGeometry } | null> {
  const applied = await backend.getWeights();
  const w0 = pre.weights;
  const g = pre.gradient;
  let dd = 0, gg = 0, dg = 0;
  for (let i = 0; i < w0.length; i++) {
    const d = applied[i] - w0[i];
    dd += d * d;
    gg += g[i] * g[i];
    dg += d * g[i];
  }
  const length = Math.sqrt(dd);
  const gNorm = Math.sqrt(gg);
  if (!(length > 0) || !(gNorm > 0)) return null;
  const before = pre.current.logprobs;
  const target = meanShift(post, before, batch.mask);
  const plain = new Float32Array(w0.length);
  const at = async (len: number) => {
    for (let i = 0; i < w0.length; i++) plain[i] = w0[i] - (len / gNorm) * g[i];
    await backend.setWeights(plain);
    return (await backend.logprobs(batch, { temperature: s.temperature })).logprobs;
  };
  let len = length;
  let logprobs = await at(len);
  for (let k = 0; size === 'change' && k < 2 && target > 0; k++) {
    const shift = meanShift(logprobs, before, batch.mask);
    if (!(shift > 0)) break;
    len *= target / shift;
    logprobs = await at(len);
  }
  const short = await at(len / SHORT_STEP);
  await backend.setWeights(applied);
  const spec = policyLossOf(rollout, batch, s);
  const J = (after: Float32Array) => objectiveRise(batch.B, batch.T, pre.terms.weight, spec.advantages, before, after);
  const surrogateOnly = spec.beta === 0 && spec.entropyCoef === 0; // then J's first-order change is exactly −(the loss's)
  const objective: ObjectiveRise = { applied: J(post), gradientAlone: J(logprobs), gradientShort: J(short), predictedAlone: surrogateOnly ? len * gNorm : null, predictedShort: surrogateOnly ? (len / SHORT_STEP) * gNorm : null };
  return { logprobs, short, step: { length, gradientLength: len, cosine: -dg / (length * gNorm), shiftApplied: target, shiftGradient: meanShift(logprobs, before, batch.mask), gradientNorm: gNorm, objective } };
}

const rowSum = (lp: Float32Array, b: number, T: number, start: number, n: number) => {
  let x = 0;
  for (let j = 0; j < n; j++) x += lp[b * T + start + j];
  return x;
};

async function after(backend: Backend, rollout: Rollout, batch: TokenBatch, s: Settings, pre: BeforeUpdate | null, size: GradientStepSize = 'change'): Promise<UpdateInspection> {
  const { T } = batch;
  const cur = pre?.current ?? await backend.logprobs(batch, { temperature: s.temperature });
  const post = await backend.logprobs(batch, { temperature: s.temperature });
  const alone = pre ? await gradientAlone(backend, rollout, batch, s, pre, post.logprobs, size) : null;
  // the ratios the next inner epoch would see: always against π_old, with the same clip bounds
  const spec = { ...policyLossOf(rollout, batch, s), beta: 0, measureKl: false, entropyCoef: 0 };
  const next = policyObjective({ B: batch.B, T, logprobs: post.logprobs, entropy: post.entropy, mask: batch.mask, oldLogprobs: oldLogprobsOf(rollout, batch), refLogprobs: null, advantages: spec.advantages }, spec, { terms: true }).terms!;
  const sequenceLevel = s.importanceSamplingLevel === 'sequence';
  let b = 0;
  const answers = rollout.groups.map((g) => g.tokens.map((tok, i) => {
    const start = g.promptTokens.length - 1;
    const at = (j: number) => b * T + start + j;
    const idx = Array.from(tok, (_, j) => at(j));
    const row = b++;
    const terms = pre?.terms;
    return {
      advantage: g.advantages[i],
      logpBefore: rowSum(cur.logprobs, row, T, start, tok.length),
      logpAfter: rowSum(post.logprobs, row, T, start, tok.length),
      logpGradientAlone: alone ? rowSum(alone.logprobs, row, T, start, tok.length) : null,
      logpGradientShort: alone ? rowSum(alone.short, row, T, start, tok.length) : null,
      tokens: terms ? idx.map((k) => ({ ratio: terms.ratio[k], clip: terms.clip[k] as ClipSideValue, kl: terms.kl[k], weight: terms.weight[k], loss: terms.loss[k], grad: pre!.gradLogprob[k] })) : null,
      sequence: terms && sequenceLevel ? { ratio: terms.seqRatio[row], clip: terms.seqClip[row] as ClipSideValue } : null,
      ratioAfter: idx.map((k) => (sequenceLevel ? next.seqRatio[row] : next.ratio[k])),
      clipAfter: idx.map((k) => (sequenceLevel ? next.seqClip[row] : next.clip[k]) as ClipSideValue),
    };
  }));
  return { answers, metrics: pre?.metrics ?? null, step: alone?.step ?? null };
}

export const inspectAnswers = { before, after };

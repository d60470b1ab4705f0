/**
 * What the step-through shows of one update, per answer: the objective term by term at the
 * start of the update, and log π before and after it.
 *
 * The terms come from `policyObjective` (src/model/objective.ts) — the same function that
 * computes the loss on the CPU reference and that shaders/policy_loss.wgsl mirrors — applied to
 * log-probs read back from the engine before the update, with exactly the loss the update
 * runs (so their metrics equal the first inner epoch's metrics from the engine; a test checks
 * it). Two extra forward passes before the update and one after: for the step-through only.
 */
import type { Backend, PerTokenOutputs, TokenBatch } from '../model/backend.ts';
import { ClipSide, policyObjective, type ObjectiveTerms } from '../model/objective.ts';
import type { Settings } from './settings.ts';
import { oldLogprobsOf, policyLossOf, type Rollout } from './trainer.ts';

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
}

/** The objective evaluated before the update, with the metrics it gives (the engine's first epoch must agree). */
export interface BeforeUpdate {
  current: PerTokenOutputs;
  terms: ObjectiveTerms;
  gradLogprob: Float64Array;
  metrics: Record<string, number>;
}

function refNeeded(s: Settings): boolean {
  return (s.klMode === 'loss' && s.beta !== 0) || s.measureKl;
}

async function before(backend: Backend, rollout: Rollout, batch: TokenBatch, s: Settings): Promise<BeforeUpdate> {
  const current = await backend.logprobs(batch, { temperature: s.temperature });
  const ref = refNeeded(s) ? await backend.logprobs(batch, { temperature: s.temperature, reference: true }) : null;
  const spec = policyLossOf(rollout, batch, s);
  const out = policyObjective({ B: batch.B, T: batch.T, logprobs: current.logprobs, entropy: current.entropy, mask: batch.mask, oldLogprobs: spec.oldLogprobs, refLogprobs: ref?.logprobs ?? null, advantages: spec.advantages }, spec, { terms: true });
  return { current, terms: out.terms!, gradLogprob: out.gradLogprob, metrics: out.metrics };
}

const rowSum = (lp: Float32Array, b: number, T: number, start: number, n: number) => {
  let x = 0;
  for (let j = 0; j < n; j++) x += lp[b * T + start + j];
  return x;
};

async function after(backend: Backend, rollout: Rollout, batch: TokenBatch, s: Settings, pre: BeforeUpdate | null): Promise<UpdateInspection> {
  const { T } = batch;
  const cur = pre?.current ?? await backend.logprobs(batch, { temperature: s.temperature });
  const post = await backend.logprobs(batch, { temperature: s.temperature });
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
      tokens: terms ? idx.map((k) => ({ ratio: terms.ratio[k], clip: terms.clip[k] as ClipSideValue, kl: terms.kl[k], weight: terms.weight[k], loss: terms.loss[k], grad: pre!.gradLogprob[k] })) : null,
      sequence: terms && sequenceLevel ? { ratio: terms.seqRatio[row], clip: terms.seqClip[row] as ClipSideValue } : null,
      ratioAfter: idx.map((k) => (sequenceLevel ? next.seqRatio[row] : next.ratio[k])),
      clipAfter: idx.map((k) => (sequenceLevel ? next.seqClip[row] : next.clip[k]) as ClipSideValue),
    };
  }));
  return { answers, metrics: pre?.metrics ?? null };
}

export const inspectAnswers = { before, after };

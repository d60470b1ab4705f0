/**
 * The clipped policy objective of GRPO and its family — the TypeScript twin of
 * shaders/policy_loss.wgsl. The CPU reference calls this function; the WebGPU engine runs the
 * WGSL kernel; a browser test checks that they agree, gradients included.
 *
 * For response i (tokens t with mask m_{i,t}, length |o_i| = Σ_t m_{i,t}) with advantage A_i:
 *
 *   token ratio      ρ_{i,t} = π_θ(o_t | q, o_<t) / π_old(o_t | q, o_<t) = exp(logp − logp_old)
 *   sequence ratio   s_i = exp( (1/|o_i|) Σ_t m_{i,t} (logp − logp_old) )          (GSPO)
 *   surrogate        ℓ_{i,t} = −min( r·A_i , clip(r, 1 − ε, 1 + ε_high)·A_i )
 *                    with r = ρ_{i,t} (importance_sampling_level = "token")
 *                    or   r = s_i     (importance_sampling_level = "sequence", one unit per response)
 *   KL leash         + β·k(π_θ, π_ref) per token, where with d = logp_ref − logp
 *                    k1 = −d = log π_θ/π_ref,   k3 = e^d − d − 1  (unbiased, always ≥ 0)
 *   entropy bonus    − c_H · H_{i,t}
 *
 *   aggregation (loss_type):
 *     grpo     L = (1/B) Σ_i (1/|o_i|) Σ_t m ℓ           each response weighs the same
 *     dapo     L = Σ_{i,t} m ℓ / Σ_{i,t} m                each token weighs the same
 *     dr_grpo  L = Σ_{i,t} m ℓ / (B · max_completion_length)   no length normalisation
 *
 * With π_old = π_θ detached (on-policy, µ = 1) every ratio is 1 and the gradient is the plain
 * policy gradient −A_i ∇log π. The clip only cuts the gradient: where the min picks the clipped
 * branch (r·A > clip(r)·A) the token's surrogate gradient is 0.
 *
 * Returned: the loss, dL/dlogp and dL/dH per position (the model's backward turns them into
 * logits gradients), and TRL-named metrics: clip_ratio/low_mean (r < 1 − ε with A < 0),
 * clip_ratio/high_mean (r > 1 + ε_high with A > 0), clip_ratio/region_mean (either), kl,
 * ratio_min/mean/max, entropy — each a masked mean over response tokens, except the clip shares at
 * the sequence level (GSPO): the share of the B answers whose one ratio is clipped, as TRL logs them.
 */
import type { PolicyLossSettings } from './backend.ts';

export interface PolicyObjectiveInput {
  B: number;
  T: number;
  /** [B*T] log π_θ(o_t) at the sampling temperature. */
  logprobs: ArrayLike<number>;
  /** [B*T] entropy of π_θ at each position. */
  entropy: ArrayLike<number>;
  /** [B*T] 1 on response tokens. */
  mask: ArrayLike<number>;
  /** [B*T] log π_old(o_t), or null: π_old = π_θ detached (ratio 1). */
  oldLogprobs: ArrayLike<number> | null;
  /** [B*T] log π_ref(o_t), or null when β = 0. */
  refLogprobs: ArrayLike<number> | null;
  /** [B] one advantage per response. */
  advantages: ArrayLike<number>;
}

export interface PolicyObjectiveOutput {
  loss: number;
  /** [B*T] dL/dlogp. */
  gradLogprob: Float64Array;
  /** [B*T] dL/dH. */
  gradEntropy: Float64Array;
  metrics: Record<string, number>;
  /** Each token's and each response's terms, when asked for (the step-through shows them). */
  terms?: ObjectiveTerms;
}

/** Which side of the clip is active: the min picked clip(r)·A, so the surrogate's gradient is 0. */
export const ClipSide = { None: 0, Low: -1, High: 1 } as const;

/**
 * The objective term by term, from the same loop that computes the loss: [B*T] per token and
 * [B] per response. Zero where the mask is 0.
 */
export interface ObjectiveTerms {
  /** The ratio that enters the surrogate: ρ_{i,t} (token level) or the response's s_i (sequence level). */
  ratio: Float64Array;
  /** Token level: the clip side active on this token. Sequence level: always None (see seqClip). */
  clip: Int8Array;
  /** k(π_θ, π_ref) per token (the chosen estimator); NaN without reference log-probs. */
  kl: Float64Array;
  /** The aggregation weight w_{i,t}·m_{i,t} of the token (loss_type). */
  weight: Float64Array;
  /** The token's contribution to L: w·(ℓ + β·k − c_H·H). */
  loss: Float64Array;
  /** [B] GSPO's sequence ratio s_i (also computed at token level, for reference). */
  seqRatio: Float64Array;
  /** [B] the clip side active on the whole response (sequence level only; None at token level). */
  seqClip: Int8Array;
}

/** Per-token aggregation weight w_{i,t} (before the mask) for each loss_type. */
export function aggregationWeights(B: number, T: number, mask: ArrayLike<number>, lossType: PolicyLossSettings['lossType'], maxCompletionLength: number): Float64Array {
  const rowTokens = new Float64Array(B);
  let allTokens = 0;
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) rowTokens[b] += mask[b * T + t];
    allTokens += rowTokens[b];
  }
  const w = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    if (lossType === 'grpo') w[b] = rowTokens[b] > 0 ? 1 / (B * rowTokens[b]) : 0;
    else if (lossType === 'dapo') w[b] = allTokens > 0 ? 1 / allTokens : 0;
    else w[b] = 1 / (B * Math.max(1, maxCompletionLength));
  }
  return w;
}

/** The clipped surrogate, KL leash and entropy bonus with their gradients. See the file comment. */
export function policyObjective(inp: PolicyObjectiveInput, s: PolicyLossSettings, o: { terms?: boolean } = {}): PolicyObjectiveOutput {
  const { B, T, logprobs, entropy, mask, oldLogprobs, refLogprobs, advantages } = inp;
  if (s.beta !== 0 && !refLogprobs) throw new Error('policyObjective: beta > 0 needs reference log-probs');
  const N = B * T;
  const gradLogprob = new Float64Array(N);
  const gradEntropy = new Float64Array(N);
  const terms: ObjectiveTerms | undefined = o.terms
    ? { ratio: new Float64Array(N), clip: new Int8Array(N), kl: new Float64Array(N).fill(refLogprobs ? 0 : NaN), weight: new Float64Array(N), loss: new Float64Array(N), seqRatio: new Float64Array(B), seqClip: new Int8Array(B) }
    : undefined;
  const w = aggregationWeights(B, T, mask, s.lossType, s.maxCompletionLength);
  const lo = 1 - s.epsilon;
  const hi = 1 + s.epsilonHigh;

  let loss = 0;
  let tokens = 0, clipLow = 0, clipHigh = 0, klSum = 0, entSum = 0;
  let seqClipLow = 0, seqClipHigh = 0; // GSPO: answers whose one ratio is clipped (TRL counts each sequence once)
  let ratioMin = Infinity, ratioMax = -Infinity, ratioSum = 0;

  for (let b = 0; b < B; b++) {
    const A = advantages[b];
    let len = 0, logRatioSum = 0;
    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      if (mask[i] === 0) continue;
      len += mask[i];
      logRatioSum += mask[i] * (oldLogprobs ? logprobs[i] - oldLogprobs[i] : 0);
    }
    if (len === 0) continue;
    // GSPO: one ratio for the whole response, the geometric mean of its token ratios.
    const seqRatio = Math.exp(logRatioSum / len);
    const seqActive = seqRatio * A <= Math.min(Math.max(seqRatio, lo), hi) * A;
    if (seqRatio < lo && A < 0) seqClipLow++;
    if (seqRatio > hi && A > 0) seqClipHigh++;
    let seqWeight = 0;
    if (terms) {
      terms.seqRatio[b] = seqRatio;
      if (s.importanceSamplingLevel === 'sequence' && !seqActive) terms.seqClip[b] = A > 0 ? ClipSide.High : ClipSide.Low;
    }

    for (let t = 0; t < T; t++) {
      const i = b * T + t;
      const m = mask[i];
      if (m === 0) continue;
      const wt = w[b] * m;
      const r = s.importanceSamplingLevel === 'sequence' ? seqRatio : Math.exp(oldLogprobs ? logprobs[i] - oldLogprobs[i] : 0);
      const clipped = Math.min(Math.max(r, lo), hi);
      const surrogate = -Math.min(r * A, clipped * A);
      const active = r * A <= clipped * A; // the unclipped branch is the min: gradient flows
      let tokenLoss = surrogate;
      if (s.importanceSamplingLevel === 'token') {
        if (active) gradLogprob[i] += wt * -A * r;
      } else {
        seqWeight += wt;
      }
      if (s.beta !== 0) {
        const d = refLogprobs![i] - logprobs[i];
        const kl = s.klEstimator === 'k1' ? -d : Math.exp(d) - d - 1;
        const dkl = s.klEstimator === 'k1' ? 1 : 1 - Math.exp(d);
        tokenLoss += s.beta * kl;
        gradLogprob[i] += wt * s.beta * dkl;
        klSum += m * kl;
        if (terms) terms.kl[i] = kl;
      } else if (refLogprobs) {
        const d = refLogprobs[i] - logprobs[i];
        const kl = s.klEstimator === 'k1' ? -d : Math.exp(d) - d - 1;
        klSum += m * kl;
        if (terms) terms.kl[i] = kl;
      }
      if (s.entropyCoef !== 0) {
        tokenLoss -= s.entropyCoef * entropy[i];
        gradEntropy[i] = -wt * s.entropyCoef;
      }
      loss += wt * tokenLoss;
      if (terms) {
        terms.ratio[i] = r;
        terms.weight[i] = wt;
        terms.loss[i] = wt * tokenLoss;
        if (s.importanceSamplingLevel === 'token' && !active) terms.clip[i] = A > 0 ? ClipSide.High : ClipSide.Low;
      }
      tokens += m;
      entSum += m * entropy[i];
      ratioSum += m * r;
      if (r < ratioMin) ratioMin = r;
      if (r > ratioMax) ratioMax = r;
      if (r < lo && A < 0) clipLow += m;
      if (r > hi && A > 0) clipHigh += m;
    }
    if (s.importanceSamplingLevel === 'sequence' && seqActive) {
      // d s_i / d logp_t = s_i · m_t / |o_i|; the response's loss −s_i·A enters with total weight Σ_t w_t.
      for (let t = 0; t < T; t++) {
        const i = b * T + t;
        if (mask[i] !== 0) gradLogprob[i] += seqWeight * -A * seqRatio * mask[i] / len;
      }
    }
  }
  const denom = Math.max(tokens, 1);
  // clip shares: per token, or per answer at the sequence level (over all B answers, as TRL's x.mean())
  const [low, high, clipDenom] = s.importanceSamplingLevel === 'sequence' ? [seqClipLow, seqClipHigh, Math.max(B, 1)] : [clipLow, clipHigh, denom];
  return {
    loss,
    gradLogprob,
    gradEntropy,
    terms,
    metrics: {
      'clip_ratio/low_mean': low / clipDenom,
      'clip_ratio/high_mean': high / clipDenom,
      'clip_ratio/region_mean': (low + high) / clipDenom,
      kl: klSum / denom,
      ratio_min: tokens ? ratioMin : 1,
      ratio_mean: tokens ? ratioSum / denom : 1,
      ratio_max: tokens ? ratioMax : 1,
      entropy: entSum / denom,
      policy_loss: loss,
    },
  };
}

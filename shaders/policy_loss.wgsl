// The clipped policy objective of GRPO and its family — the WGSL twin of policyObjective in
// src/model/objective.ts (read the formulas there; this file follows it line by line).
//
// For response b (tokens t with mask m, |o_b| = Σ_t m) with advantage A_b and aggregation
// weight w_b (grpo: 1/(B·|o_b|), dapo: 1/Σm, dr_grpo: 1/(B·max_len), computed on the CPU by
// aggregationWeights, the same function the TS twin uses):
//   r       = ρ_t = exp(logp − logp_old)              (token level)
//           = s_b = exp(Σ_t m (logp − logp_old) / |o_b|)   (sequence level, GSPO)
//   ℓ_t     = −min(r·A, clip(r, 1 − ε, 1 + ε_high)·A) + β·k(d) − c_H·H_t,   d = logp_ref − logp
//             k1 = −d, k3 = e^d − d − 1
//   L       = Σ_b w_b Σ_t m ℓ_t
// Gradients written per position: dL/dlogp and dL/dH (the logits backward turns them into
// dL/dz). Where the clipped branch is the min, the surrogate's gradient is 0.
//
// Entry points and dispatch:
//   policy_loss_rows    one workgroup of 64 per response row b: (B, 1, 1)
//                       writes gradLogprob/gradEntropy for the row and 10 partial sums to rowStats
//   policy_loss_reduce  one workgroup of 64: sums rowStats over rows into metrics[M_LOSS] (loss),
//                       M_ENTROPY_SUM, M_MASK_SUM and the policy metrics M_CLIP_LOW..M_POLICY_LOSS
// Bindings:
//   0 uniform P        shapes and settings
//   1 logprobs  [B*T]  log π_θ at temperature τ (from logprob_forward)
//   2 entropy   [B*T]
//   3 mask      [B*T]
//   4 refLogp   [B*T]  log π_ref (bound to logprobs when β = 0; then unused)
//   5 policyIn  [B*T + 2B]  old log-probs [B*T] (unused when has_old = 0), advantages [B], weights w [B]
//   6 gradLogp  [B*T]  out
//   7 gradEnt   [B*T]  out
//   8 rowStats  [B*10] out (rows) / in (reduce)
//   9 metrics   [METRIC_FLOATS] out (reduce only); slots M_*: src/gpu/metricSlots.ts

struct Params {
  B: u32,
  T: u32,
  sequence_level: u32,   // 0 token, 1 sequence (GSPO)
  kl_k3: u32,            // 0 k1, 1 k3
  has_old: u32,          // 0: π_old = π_θ detached (ratio 1)
  has_kl: u32,           // refLogp bound (β ≠ 0, or the KL is measured only: β = 0)
  epsilon: f32,
  epsilon_high: f32,
  beta: f32,
  entropy_coef: f32,
  _pad0: f32,
  _pad1: f32,
};

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> logprobs: array<f32>;
@group(0) @binding(2) var<storage, read> entropy: array<f32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read> refLogp: array<f32>;
@group(0) @binding(5) var<storage, read> policyIn: array<f32>;
@group(0) @binding(6) var<storage, read_write> gradLogp: array<f32>;
@group(0) @binding(7) var<storage, read_write> gradEnt: array<f32>;
@group(0) @binding(8) var<storage, read_write> rowStats: array<f32>;
@group(0) @binding(9) var<storage, read_write> metrics: array<f32>;

const WG: u32 = 64u;
const NSTAT: u32 = 10u;
// rowStats layout per row: 0 loss, 1 tokens, 2 clipLow, 3 clipHigh (tokens; at the sequence level
// 1 if the answer's ratio is clipped, else 0: TRL counts each sequence once), 4 klSum, 5 entSum,
// 6 ratioSum, 7 ratioMin, 8 ratioMax, 9 Σ_t m·log ρ (the row's log π_θ − log π_old: in the second
// inner epoch, how far the first moved this answer; read back per row, not reduced into a metric)
var<workgroup> red: array<array<f32, 10>, 64>;

fn log_ratio(i: u32) -> f32 {
  return select(0.0, logprobs[i] - policyIn[i], P.has_old == 1u);
}

// Sum (or min/max for slots 7, 8) of red[..][k] over the workgroup into red[0][k].
fn reduce_workgroup(lid: u32) {
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    workgroupBarrier();
    if (lid < s) {
      for (var k = 0u; k < NSTAT; k++) {
        let a = red[lid][k];
        let b = red[lid + s][k];
        red[lid][k] = select(select(a + b, min(a, b), k == 7u), max(a, b), k == 8u);
      }
    }
  }
  workgroupBarrier();
}

@compute @workgroup_size(64)
fn policy_loss_rows(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>) {
  let b = wid.x;
  let lid = lid3.x;
  let T = P.T;
  let N = P.B * T;
  let A = policyIn[N + b];
  let w = policyIn[N + P.B + b];
  let lo = 1.0 - P.epsilon;
  let hi = 1.0 + P.epsilon_high;

  // pass 1: |o_b| and Σ m·log ρ for the sequence ratio
  var len = 0.0;
  var lr_sum = 0.0;
  for (var t = lid; t < T; t += WG) {
    let i = b * T + t;
    len += mask[i];
    lr_sum += mask[i] * log_ratio(i);
  }
  for (var k = 0u; k < NSTAT; k++) { red[lid][k] = 0.0; }
  red[lid][0] = len;
  red[lid][1] = lr_sum;
  reduce_workgroup(lid);
  len = red[0][0];
  lr_sum = red[0][1];
  workgroupBarrier();

  let seq_ratio = exp(lr_sum / max(len, 1.0));
  let seq_clipped = clamp(seq_ratio, lo, hi);
  let seq_unclipped_min = seq_ratio * A <= seq_clipped * A;

  // pass 2: per-token gradients and partial metrics
  var st: array<f32, 10>;
  for (var k = 0u; k < NSTAT; k++) { st[k] = 0.0; }
  st[7] = 3.0e38;
  st[8] = -3.0e38;
  for (var t = lid; t < T; t += WG) {
    let i = b * T + t;
    let m = mask[i];
    var g = 0.0;
    var ge = 0.0;
    if (m != 0.0 && len > 0.0) {
      let wt = w * m;
      let r = select(exp(log_ratio(i)), seq_ratio, P.sequence_level == 1u);
      let clipped = clamp(r, lo, hi);
      var token_loss = -min(r * A, clipped * A);
      let unclipped_min = r * A <= clipped * A;
      if (P.sequence_level == 0u) {
        if (unclipped_min) { g += wt * -A * r; }
      } else if (seq_unclipped_min) {
        // d s_b / d logp_t = s_b · m / |o_b|; the row's surrogate enters with weight Σ_t w m = w·|o_b|
        g += (w * len) * -A * seq_ratio * m / len;
      }
      if (P.has_kl == 1u) {
        let d = refLogp[i] - logprobs[i];
        let kl = select(-d, exp(d) - d - 1.0, P.kl_k3 == 1u);
        let dkl = select(1.0, 1.0 - exp(d), P.kl_k3 == 1u);
        token_loss += P.beta * kl;
        g += wt * P.beta * dkl;
        st[4] += m * kl;
      }
      if (P.entropy_coef != 0.0) {
        token_loss -= P.entropy_coef * entropy[i];
        ge = -wt * P.entropy_coef;
      }
      st[0] += wt * token_loss;
      st[1] += m;
      st[5] += m * entropy[i];
      st[6] += m * r;
      st[7] = min(st[7], r);
      st[8] = max(st[8], r);
      if (r < lo && A < 0.0) { st[2] += m; }
      if (r > hi && A > 0.0) { st[3] += m; }
    }
    gradLogp[i] = g;
    gradEnt[i] = ge;
  }
  for (var k = 0u; k < NSTAT; k++) { red[lid][k] = st[k]; }
  reduce_workgroup(lid);
  if (lid == 0u) {
    for (var k = 0u; k < 9u; k++) { rowStats[b * NSTAT + k] = red[0][k]; }
    rowStats[b * NSTAT + 9u] = lr_sum;
    if (P.sequence_level == 1u) {
      // GSPO: each answer's one ratio counts once, as TRL logs it (not once per token)
      rowStats[b * NSTAT + 2u] = select(0.0, 1.0, len > 0.0 && seq_ratio < lo && A < 0.0);
      rowStats[b * NSTAT + 3u] = select(0.0, 1.0, len > 0.0 && seq_ratio > hi && A > 0.0);
    }
  }
}

@compute @workgroup_size(64)
fn policy_loss_reduce(@builtin(local_invocation_id) lid3: vec3<u32>) {
  let lid = lid3.x;
  var st: array<f32, 10>;
  for (var k = 0u; k < NSTAT; k++) { st[k] = 0.0; }
  st[7] = 3.0e38;
  st[8] = -3.0e38;
  for (var b = lid; b < P.B; b += WG) {
    for (var k = 0u; k < NSTAT; k++) {
      let x = rowStats[b * NSTAT + k];
      st[k] = select(select(st[k] + x, min(st[k], x), k == 7u), max(st[k], x), k == 8u);
    }
  }
  for (var k = 0u; k < NSTAT; k++) { red[lid][k] = st[k]; }
  reduce_workgroup(lid);
  if (lid == 0u) {
    let tokens = red[0][1];
    let denom = max(tokens, 1.0);
    let clip_denom = select(denom, max(f32(P.B), 1.0), P.sequence_level == 1u); // per answer at the sequence level
    metrics[M_LOSS] = red[0][0];
    metrics[M_ENTROPY_SUM] = red[0][5];
    metrics[M_MASK_SUM] = tokens;
    metrics[M_CLIP_LOW] = red[0][2] / clip_denom;                         // clip_ratio/low_mean
    metrics[M_CLIP_HIGH] = red[0][3] / clip_denom;                        // clip_ratio/high_mean
    metrics[M_CLIP_REGION] = (red[0][2] + red[0][3]) / clip_denom;        // clip_ratio/region_mean
    metrics[M_KL] = red[0][4] / denom;                                    // kl
    metrics[M_RATIO_MIN] = select(1.0, red[0][7], tokens > 0.0);          // ratio_min
    metrics[M_RATIO_MEAN] = select(1.0, red[0][6] / denom, tokens > 0.0); // ratio_mean
    metrics[M_RATIO_MAX] = select(1.0, red[0][8], tokens > 0.0);          // ratio_max
    metrics[M_ENTROPY] = red[0][5] / denom;                               // entropy
    metrics[M_POLICY_LOSS] = red[0][0];                                   // policy_loss
  }
}

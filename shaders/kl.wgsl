// The exact KL(π_θ ‖ π_ref) per response token, summed over the whole (small) vocabulary —
// what the k1 and k3 estimators of policy_loss.wgsl estimate from one sampled token. A metric
// only (no gradient): the KL chart plots it beside the estimator.
//
// With u_j = z_j / tau for the policy's logits z and r_j = y_j / tau for π_ref's logits y,
// log p_j = u_j − max u − log Σ exp(u − max u), log q_j likewise:
//   kl_exact_rows    kl[n] = mask[n] · Σ_j p_j (log p_j − log q_j)        one row per invocation
//   kl_exact_reduce  metrics[M_KL_EXACT] = Σ_n kl[n] / max(Σ_n mask[n], 1)   (a token mean, like the
//                    estimator's kl metric; fixed order: deterministic)
// The CPU twin is exactKlRows in src/model/reference/ops.ts.
//
// Bindings: 0 u: Params, 1 logits [N,V], 2 refLogits [N,V], 3 mask [N], 4 kl [N], 5 metrics (slots M_*: src/gpu/metricSlots.ts)
// Dispatch: kl_exact_rows: ceil(N/64) workgroups of 64; kl_exact_reduce: 1 workgroup of 256.

struct Params { N: u32, V: u32, tau: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> refLogits: array<f32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> kl: array<f32>;
@group(0) @binding(5) var<storage, read_write> metrics: array<f32>;

@compute @workgroup_size(64)
fn kl_exact_rows(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= u.N) { return; }
  if (mask[n] == 0.0) { kl[n] = 0.0; return; }
  let z = n * u.V;
  var mp = -3.4e38;
  var mq = -3.4e38;
  for (var j = 0u; j < u.V; j++) {
    mp = max(mp, logits[z + j] / u.tau);
    mq = max(mq, refLogits[z + j] / u.tau);
  }
  var sp = 0.0;
  var sq = 0.0;
  for (var j = 0u; j < u.V; j++) {
    sp += exp(logits[z + j] / u.tau - mp);
    sq += exp(refLogits[z + j] / u.tau - mq);
  }
  let lsp = mp + log(sp);
  let lsq = mq + log(sq);
  var s = 0.0;
  for (var j = 0u; j < u.V; j++) {
    let lp = logits[z + j] / u.tau - lsp;
    let lq = refLogits[z + j] / u.tau - lsq;
    s += exp(lp) * (lp - lq);
  }
  kl[n] = mask[n] * s;
}

var<workgroup> red: array<vec2f, 256>;

@compute @workgroup_size(256)
fn kl_exact_reduce(@builtin(local_invocation_id) lid: vec3u) {
  var s = vec2f(0.0);
  for (var n = lid.x; n < u.N; n += 256u) { s += vec2f(kl[n], mask[n]); }
  red[lid.x] = s;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w >>= 1u) {
    if (lid.x < w) { red[lid.x] += red[lid.x + w]; }
    workgroupBarrier();
  }
  if (lid.x == 0u) { metrics[M_KL_EXACT] = red[0].x / max(red[0].y, 1.0); }
}

// Log-softmax at a temperature: per-token log-prob of the target, entropy, the loss as a
// weighted sum, and the gradient back to the logits.
//
// With u_j = z_j / tau, m = max_j u_j, S = Σ_j exp(u_j − m), log p_j = u_j − m − log S:
//   logprob_forward   logp[n] = log p_{targets[n]},  entropy[n] = −Σ_j p_j log p_j
//                     (both 0 where mask[n] = 0)
//   logits_backward   dlogits[n,j] = ( gLogp[n]·(1[j=y] − p_j) − gEnt[n]·p_j·(log p_j + H) ) / tau
//   loss_reduce       metrics[M_LOSS] = Σ_n gLogp[n]·logp[n] + gEnt[n]·entropy[n]
//                     metrics[M_ENTROPY_SUM] = Σ_n mask[n]·entropy[n],  metrics[M_MASK_SUM] = Σ_n mask[n]
//                     (mean cross-entropy is gLogp = −mask/Σmask, gEnt = 0; any per-token loss
//                     given by its gradient reports this linear surrogate)
//   logsoftmax_fused  logprob_forward and logits_backward of one row in one pass over the
//                     logits (for losses whose per-token gradients are known before the forward:
//                     cross-entropy and 'pertoken'; the policy objective needs logp first)
// The probabilities are recomputed in the backward rather than stored ([N,V] saved).
// Row kernels come in two forms (ops.ts picks per adapter, the bench measures both):
// one row per invocation (logprob_forward, logits_backward, logsoftmax_fused), and one row per
// workgroup of 64 with tree reductions in workgroup memory (the same names + _wg).
//
// Bindings: 0 u: Params, 1 logits [N,V], 2 targets i32 [N], 3 mask [N], 4 logp [N], 5 entropy [N],
//           6 gradLogp [N], 7 gradEnt [N], 8 dlogits [N,V], 9 metrics (slots M_*: src/gpu/metricSlots.ts)
// Dispatch: logprob_forward / logits_backward / logsoftmax_fused: ceil(N/64) workgroups of 64,
//           one row each; the _wg forms: N workgroups of 64 (folded into y past 65535);
//           loss_reduce: 1 workgroup of 256.

struct Params { N: u32, V: u32, tau: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read> targets: array<i32>;
@group(0) @binding(3) var<storage, read> mask: array<f32>;
@group(0) @binding(4) var<storage, read_write> logp: array<f32>;
@group(0) @binding(5) var<storage, read_write> entropy: array<f32>;
@group(0) @binding(6) var<storage, read> gradLogp: array<f32>;
@group(0) @binding(7) var<storage, read> gradEnt: array<f32>;
@group(0) @binding(8) var<storage, read_write> dlogits: array<f32>;
@group(0) @binding(9) var<storage, read_write> metrics: array<f32>;

// max_j u_j and log S for row n
fn row_stats(z: u32) -> vec2f {
  var m = -3.4e38;
  for (var j = 0u; j < u.V; j++) { m = max(m, logits[z + j] / u.tau); }
  var S = 0.0;
  for (var j = 0u; j < u.V; j++) { S += exp(logits[z + j] / u.tau - m); }
  return vec2f(m, log(S));
}

@compute @workgroup_size(64)
fn logprob_forward(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= u.N) { return; }
  let z = n * u.V;
  let st = row_stats(z);
  var H = 0.0;
  for (var j = 0u; j < u.V; j++) {
    let lp = logits[z + j] / u.tau - st.x - st.y;
    H -= exp(lp) * lp;
  }
  let scored = mask[n] != 0.0;
  logp[n] = select(0.0, logits[z + u32(targets[n])] / u.tau - st.x - st.y, scored);
  entropy[n] = select(0.0, H, scored);
}

@compute @workgroup_size(64)
fn logits_backward(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= u.N) { return; }
  let z = n * u.V;
  let gL = gradLogp[n];
  let gE = gradEnt[n];
  if (gL == 0.0 && gE == 0.0) {
    for (var j = 0u; j < u.V; j++) { dlogits[z + j] = 0.0; }
    return;
  }
  let st = row_stats(z);
  var H = 0.0;
  for (var j = 0u; j < u.V; j++) {
    let lp = logits[z + j] / u.tau - st.x - st.y;
    H -= exp(lp) * lp;
  }
  let y = u32(targets[n]);
  for (var j = 0u; j < u.V; j++) {
    let lp = logits[z + j] / u.tau - st.x - st.y;
    let p = exp(lp);
    var g = gL * (select(0.0, 1.0, j == y) - p);
    g -= gE * p * (lp + H);
    dlogits[z + j] = g / u.tau;
  }
}

var<workgroup> partial: array<vec3f, 256>;   // 4 KiB (vec3f has 16-byte stride)

@compute @workgroup_size(256)
fn loss_reduce(@builtin(local_invocation_id) lid: vec3u) {
  var s = vec3f(0.0);
  for (var n = lid.x; n < u.N; n += 256u) {
    s += vec3f(gradLogp[n] * logp[n] + gradEnt[n] * entropy[n], mask[n] * entropy[n], mask[n]);
  }
  partial[lid.x] = s;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w >>= 1u) {
    if (lid.x < w) { partial[lid.x] += partial[lid.x + w]; }
    workgroupBarrier();
  }
  if (lid.x == 0u) {
    metrics[M_LOSS] = partial[0].x;
    metrics[M_ENTROPY_SUM] = partial[0].y;
    metrics[M_MASK_SUM] = partial[0].z;
  }
}

// ---- fused forward + gradient, one row per invocation

@compute @workgroup_size(64)
fn logsoftmax_fused(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= u.N) { return; }
  let z = n * u.V;
  let st = row_stats(z);
  var H = 0.0;
  for (var j = 0u; j < u.V; j++) {
    let lp = logits[z + j] / u.tau - st.x - st.y;
    H -= exp(lp) * lp;
  }
  let y = u32(targets[n]);
  let scored = mask[n] != 0.0;
  logp[n] = select(0.0, logits[z + y] / u.tau - st.x - st.y, scored);
  entropy[n] = select(0.0, H, scored);
  let gL = gradLogp[n];
  let gE = gradEnt[n];
  for (var j = 0u; j < u.V; j++) {
    let lp = logits[z + j] / u.tau - st.x - st.y;
    let p = exp(lp);
    var g = gL * (select(0.0, 1.0, j == y) - p);
    g -= gE * p * (lp + H);
    dlogits[z + j] = g / u.tau;
  }
}

// ---- one row per workgroup of 64

var<workgroup> red: array<f32, 64>;

// Σ (or max) over the workgroup of x; every invocation gets the result. Uniform control flow only.
fn wg_reduce(lid: u32, x: f32, isMax: bool) -> f32 {
  red[lid] = x;
  workgroupBarrier();
  for (var w = 32u; w > 0u; w >>= 1u) {
    if (lid < w) { red[lid] = select(red[lid] + red[lid + w], max(red[lid], red[lid + w]), isMax); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

// (max_j u_j, log S, H) of row z, all invocations of the workgroup taking part
fn wg_row_stats(lid: u32, z: u32) -> vec3f {
  var m = -3.4e38;
  for (var j = lid; j < u.V; j += 64u) { m = max(m, logits[z + j] / u.tau); }
  m = wg_reduce(lid, m, true);
  var S = 0.0;
  for (var j = lid; j < u.V; j += 64u) { S += exp(logits[z + j] / u.tau - m); }
  let logS = log(wg_reduce(lid, S, false));
  var H = 0.0;
  for (var j = lid; j < u.V; j += 64u) {
    let lp = logits[z + j] / u.tau - m - logS;
    H -= exp(lp) * lp;
  }
  return vec3f(m, logS, wg_reduce(lid, H, false));
}

fn wg_row(wid: vec3u, nwg: vec3u) -> u32 { return wid.x + wid.y * nwg.x; }

@compute @workgroup_size(64)
fn logprob_forward_wg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let n = wg_row(wid, nwg);
  if (n >= u.N) { return; }
  let z = n * u.V;
  let st = wg_row_stats(lid3.x, z);
  if (lid3.x == 0u) {
    let scored = mask[n] != 0.0;
    logp[n] = select(0.0, logits[z + u32(targets[n])] / u.tau - st.x - st.y, scored);
    entropy[n] = select(0.0, st.z, scored);
  }
}

// dlogits of row n from its stats (both _wg gradient kernels)
fn wg_write_dlogits(lid: u32, n: u32, z: u32, st: vec3f) {
  let gL = gradLogp[n];
  let gE = gradEnt[n];
  let y = u32(targets[n]);
  for (var j = lid; j < u.V; j += 64u) {
    let lp = logits[z + j] / u.tau - st.x - st.y;
    let p = exp(lp);
    var g = gL * (select(0.0, 1.0, j == y) - p);
    g -= gE * p * (lp + st.z);
    dlogits[z + j] = g / u.tau;
  }
}

@compute @workgroup_size(64)
fn logits_backward_wg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let n = wg_row(wid, nwg);
  if (n >= u.N) { return; }
  let z = n * u.V;
  // rows with no gradient are all-zero (computed anyway: the barriers need every invocation)
  let st = wg_row_stats(lid3.x, z);
  wg_write_dlogits(lid3.x, n, z, st);
}

@compute @workgroup_size(64)
fn logsoftmax_fused_wg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let n = wg_row(wid, nwg);
  if (n >= u.N) { return; }
  let z = n * u.V;
  let st = wg_row_stats(lid3.x, z);
  if (lid3.x == 0u) {
    let scored = mask[n] != 0.0;
    logp[n] = select(0.0, logits[z + u32(targets[n])] / u.tau - st.x - st.y, scored);
    entropy[n] = select(0.0, st.z, scored);
  }
  wg_write_dlogits(lid3.x, n, z, st);
}

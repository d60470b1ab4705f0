// AdamW with decoupled weight decay, on the whole flat parameter buffer in one dispatch.
//
//   g = grads[i] · clip scale                     (the global-norm clip coefficient)
//   m ← β1·m + (1 − β1)·g,   v ← β2·v + (1 − β2)·g²
//   m̂ = m / (1 − β1^t),      v̂ = v / (1 − β2^t)      (bc1, bc2 computed on the CPU from t)
//   p ← p − lr·( m̂ / (√v̂ + eps) + wd·decay[i]·p )
// decay[i] is 1 on 2-D tensors (embeddings, linear weights, lm_head) and 0 on biases and
// LayerNorm parameters (the reference's decaysWeights). Nothing changes when the step is not
// finite (a NaN/Inf loss or gradient): the step is skipped.
//
//   adamw_step       the clip scale and the finite flag from metrics[M_CLIP_SCALE], [M_FINITE],
//                    written by grad_norm_finalize (gradnorm.wgsl) in the dispatch before
//   adamw_clip_step  grad_norm_finalize and adamw_step in one dispatch, after grad_sumsq_partial:
//                    every workgroup sums the P partials in grad_norm_finalize's order (the same
//                    tree, so the same bits in every workgroup), takes ‖g‖, the finite flag and
//                    the clip scale from that sum, and workgroup 0 writes metrics[M_GRAD_NORM],
//                    [M_FINITE], [M_CLIP_SCALE] (no workgroup reads them). P is the tree form's
//                    64 (Ops.NORM_PARTIALS); the barrier-free form's 16,384 keep the two dispatches.
//
// Bindings: 0 u: Params, 1 params, 2 grads, 3 m, 4 v, 5 metrics (slots M_*: src/gpu/metricSlots.ts),
//           6 decay, 7 partials [P] and 8 nu: Norm (gradnorm.wgsl's uniform; adamw_clip_step only)
// Dispatch: ceil(n/256) workgroups of 256, folded into (x, y) past 65535.

struct Params { n: u32, lr: f32, beta1: f32, beta2: f32, eps: f32, wd: f32, bc1: f32, bc2: f32 }
struct Norm { n: u32, P: u32, maxNorm: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read_write> params: array<f32>;
@group(0) @binding(2) var<storage, read> grads: array<f32>;
@group(0) @binding(3) var<storage, read_write> m: array<f32>;
@group(0) @binding(4) var<storage, read_write> v: array<f32>;
@group(0) @binding(5) var<storage, read_write> metrics: array<f32>;
@group(0) @binding(6) var<storage, read> decay: array<f32>;
@group(0) @binding(7) var<storage, read> partials: array<f32>;
@group(0) @binding(8) var<uniform> nu: Norm;

var<workgroup> red: array<f32, 256>;

fn is_finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }

/** One parameter's AdamW step, its gradient times `scale`. */
fn adamw_one(i: u32, scale: f32) {
  let g = grads[i] * scale;
  let mi = u.beta1 * m[i] + (1.0 - u.beta1) * g;
  let vi = u.beta2 * v[i] + (1.0 - u.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  let mhat = mi / u.bc1;
  let vhat = vi / u.bc2;
  let p = params[i];
  params[i] = p - u.lr * (mhat / (sqrt(vhat) + u.eps) + u.wd * decay[i] * p);
}

@compute @workgroup_size(256)
fn adamw_step(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= u.n || metrics[M_FINITE] == 0.0) { return; }
  adamw_one(i, metrics[M_CLIP_SCALE]);
}

@compute @workgroup_size(256)
fn adamw_clip_step(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  // grad_norm_finalize's sum, in every workgroup
  var s = 0.0;
  for (var k = lid.x; k < nu.P; k += 256u) { s += partials[k]; }
  red[lid.x] = s;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w >>= 1u) {
    if (lid.x < w) { red[lid.x] += red[lid.x + w]; }
    workgroupBarrier();
  }
  let norm = sqrt(red[0]);
  let finite = is_finite(norm) && is_finite(metrics[M_LOSS]);
  var scale = 1.0;
  if (nu.maxNorm > 0.0 && norm > nu.maxNorm) { scale = nu.maxNorm / norm; }
  if (wid.x == 0u && wid.y == 0u && lid.x == 0u) {
    metrics[M_GRAD_NORM] = norm;
    metrics[M_FINITE] = select(0.0, 1.0, finite);
    metrics[M_CLIP_SCALE] = scale;
  }
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i < u.n && finite) { adamw_one(i, scale); }
}

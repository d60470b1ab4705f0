// Global gradient L2 norm and the clip coefficient, as a deterministic two-stage reduction.
//
//   grad_sumsq_partial   partials[w] = Σ_{i ≡ w-th stripe} grads[i]²       (fixed P workgroups, a tree in workgroup memory)
//   grad_sumsq_rows      the barrier-free form for CPU adapters (SwiftShader pays dearly for barriers):
//                        partials[j] = Σ_{i ≡ j mod P} grads[i]², one invocation per j (P = 64·256)
//   grad_norm_finalize   norm = √(Σ_w partials[w]), w < P
//                        finite = loss (metrics[M_LOSS]) and norm are finite
//                        scale = maxNorm / norm if maxNorm > 0 and norm > maxNorm, else 1
//                        metrics[M_GRAD_NORM] = norm, metrics[M_FINITE] = finite ? 1 : 0, metrics[M_CLIP_SCALE] = scale
// AdamW (adamw.wgsl) multiplies each gradient by metrics[M_CLIP_SCALE] and skips the step when !finite.
//
// Bindings: 0 u: Params, 1 grads, 2 partials [P], 3 metrics [METRIC_FLOATS] (slots M_*: src/gpu/metricSlots.ts)
// Dispatch: grad_sumsq_partial: P workgroups of 256 (P = u.P); grad_sumsq_rows: P / 256 workgroups of 256;
//           grad_norm_finalize: 1 workgroup of 256.

struct Params { n: u32, P: u32, maxNorm: f32, _pad: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> grads: array<f32>;
@group(0) @binding(2) var<storage, read_write> partials: array<f32>;
@group(0) @binding(3) var<storage, read_write> metrics: array<f32>;

var<workgroup> red: array<f32, 256>;

fn reduce_256(lid: u32) {
  workgroupBarrier();
  for (var w = 128u; w > 0u; w >>= 1u) {
    if (lid < w) { red[lid] += red[lid + w]; }
    workgroupBarrier();
  }
}

fn is_finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }

@compute @workgroup_size(256)
fn grad_sumsq_partial(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  var s = 0.0;
  for (var i = wid.x * 256u + lid.x; i < u.n; i += u.P * 256u) { let g = grads[i]; s += g * g; }
  red[lid.x] = s;
  reduce_256(lid.x);
  if (lid.x == 0u) { partials[wid.x] = red[0]; }
}

@compute @workgroup_size(256)
fn grad_sumsq_rows(@builtin(global_invocation_id) gid: vec3u) {
  var s = 0.0;
  for (var i = gid.x; i < u.n; i += u.P) { let g = grads[i]; s += g * g; }
  partials[gid.x] = s;
}

@compute @workgroup_size(256)
fn grad_norm_finalize(@builtin(local_invocation_id) lid: vec3u) {
  var s = 0.0;
  for (var i = lid.x; i < u.P; i += 256u) { s += partials[i]; }
  red[lid.x] = s;
  reduce_256(lid.x);
  if (lid.x == 0u) {
    let norm = sqrt(red[0]);
    let finite = is_finite(norm) && is_finite(metrics[M_LOSS]);
    var scale = 1.0;
    if (u.maxNorm > 0.0 && norm > u.maxNorm) { scale = u.maxNorm / norm; }
    metrics[M_GRAD_NORM] = norm;
    metrics[M_FINITE] = select(0.0, 1.0, finite);
    metrics[M_CLIP_SCALE] = scale;
  }
}

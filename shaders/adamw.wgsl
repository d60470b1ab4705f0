// AdamW with decoupled weight decay, on the whole flat parameter buffer in one dispatch.
//
//   g = grads[i] · metrics[M_CLIP_SCALE]         (global-norm clip coefficient, gradnorm.wgsl)
//   m ← β1·m + (1 − β1)·g,   v ← β2·v + (1 − β2)·g²
//   m̂ = m / (1 − β1^t),      v̂ = v / (1 − β2^t)      (bc1, bc2 computed on the CPU from t)
//   p ← p − lr·( m̂ / (√v̂ + eps) + wd·decay[i]·p )
// decay[i] is 1 on 2-D tensors (embeddings, linear weights, lm_head) and 0 on biases and
// LayerNorm parameters (the reference's decaysWeights). Nothing changes when metrics[M_FINITE] = 0
// (a NaN/Inf loss or gradient): the step is skipped.
//
// Bindings: 0 u: Params, 1 params, 2 grads, 3 m, 4 v, 5 metrics (slots M_*: src/gpu/metricSlots.ts), 6 decay
// Dispatch: ceil(n/256) workgroups of 256, folded into (x, y) past 65535.

struct Params { n: u32, lr: f32, beta1: f32, beta2: f32, eps: f32, wd: f32, bc1: f32, bc2: f32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read_write> params: array<f32>;
@group(0) @binding(2) var<storage, read> grads: array<f32>;
@group(0) @binding(3) var<storage, read_write> m: array<f32>;
@group(0) @binding(4) var<storage, read_write> v: array<f32>;
@group(0) @binding(5) var<storage, read> metrics: array<f32>;
@group(0) @binding(6) var<storage, read> decay: array<f32>;

@compute @workgroup_size(256)
fn adamw_step(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= u.n || metrics[M_FINITE] == 0.0) { return; }
  let g = grads[i] * metrics[M_CLIP_SCALE];
  let mi = u.beta1 * m[i] + (1.0 - u.beta1) * g;
  let vi = u.beta2 * v[i] + (1.0 - u.beta2) * g * g;
  m[i] = mi;
  v[i] = vi;
  let mhat = mi / u.bc1;
  let vhat = vi / u.bc2;
  let p = params[i];
  params[i] = p - u.lr * (mhat / (sqrt(vhat) + u.eps) + u.wd * decay[i] * p);
}

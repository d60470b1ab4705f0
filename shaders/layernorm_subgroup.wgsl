// LayerNorm's row kernels with subgroup reductions: layernorm.wgsl's *_wg entry points (same
// formulas, same bindings, one row per workgroup of 64) with each Σ taken by subgroupAdd inside
// a subgroup and the subgroup sums combined through workgroup memory — one barrier pair per
// reduction instead of log2(64) + 1. Compiled only on devices with the 'subgroups' feature
// (kernels.ts); elsewhere the *_wg or one-row-per-invocation forms run.
//
// Bindings: as layernorm.wgsl.
// Dispatch: N workgroups of 64 (folded into y past 65535); backward_dx_sg with pgroups > 0 takes the
// parameter gradients in its first pgroups workgroups (layernorm.wgsl; ln_params_columns is
// layernorm_params.wgsl, which kernels.ts appends to both files).

enable subgroups;

struct Params { N: u32, C: u32, flags: u32, pgroups: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@group(0) @binding(2) var<storage, read> gamma: array<f32>;
@group(0) @binding(3) var<storage, read> beta: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<storage, read_write> mean: array<f32>;
@group(0) @binding(6) var<storage, read_write> rstd: array<f32>;
@group(0) @binding(7) var<storage, read> dout: array<f32>;
@group(0) @binding(8) var<storage, read_write> dinp: array<f32>;
@group(0) @binding(9) var<storage, read_write> dgamma: array<f32>;
@group(0) @binding(10) var<storage, read_write> dbeta: array<f32>;

const EPS = 1e-5;

var<workgroup> part: array<f32, 64>;

// Σ over the workgroup of x (every invocation gets the sum). Each subgroup's elected invocation
// writes the subgroup's sum at its own index, the rest write 0, and every invocation adds all 64
// slots in index order, so the result does not depend on how invocations map to subgroups.
fn sg_sum(lid: u32, x: f32) -> f32 {
  let s = subgroupAdd(x);
  part[lid] = select(0.0, s, subgroupElect());
  workgroupBarrier();
  var t = 0.0;
  for (var j = 0u; j < 64u; j++) { t += part[j]; }
  workgroupBarrier();   // part is reused by the next reduction
  return t;
}

@compute @workgroup_size(64)
fn layernorm_forward_sg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let n = wid.x + wid.y * nwg.x;   // rows folded into y past 65535
  let lid = lid3.x;
  if (n >= u.N) { return; }
  let x = n * u.C;
  var s = 0.0;
  for (var i = lid; i < u.C; i += 64u) { s += inp[x + i]; }
  let m = sg_sum(lid, s) / f32(u.C);
  var v = 0.0;
  for (var i = lid; i < u.C; i += 64u) { let d = inp[x + i] - m; v += d * d; }
  let r = 1.0 / sqrt(sg_sum(lid, v) / f32(u.C) + EPS);
  for (var i = lid; i < u.C; i += 64u) { out[x + i] = (inp[x + i] - m) * r * gamma[i] + beta[i]; }
  if (lid == 0u) {
    mean[n] = m;
    rstd[n] = r;
  }
}

@compute @workgroup_size(64)
fn layernorm_backward_dx_sg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let w = wid.x + wid.y * nwg.x;   // folded into y past 65535
  let lid = lid3.x;
  if (w < u.pgroups) { ln_params_columns(w, lid); return; }
  let n = w - u.pgroups;
  if (n >= u.N) { return; }
  let x = n * u.C;
  let m = mean[n];
  let s = rstd[n];
  var g1 = 0.0;
  var g2 = 0.0;
  for (var i = lid; i < u.C; i += 64u) {
    let xhat = (inp[x + i] - m) * s;
    let g = gamma[i] * dout[x + i];
    g1 += g;
    g2 += g * xhat;
  }
  let gMean = sg_sum(lid, g1) / f32(u.C);
  let gxMean = sg_sum(lid, g2) / f32(u.C);
  let acc = (u.flags & 1u) != 0u;
  for (var i = lid; i < u.C; i += 64u) {
    let xhat = (inp[x + i] - m) * s;
    let g = gamma[i] * dout[x + i];
    var d = s * (g - gMean - xhat * gxMean);
    if (acc) { d += dinp[x + i]; }
    dinp[x + i] = d;
  }
}

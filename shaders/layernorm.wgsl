// LayerNorm over the last axis (eps 1e-5, biased variance), forward caching mean/rstd, and its
// backward split into the row-wise input gradient and the column-wise parameter gradients.
//
//   layernorm_forward    μ = mean_i x_i, rstd = 1/√(mean_i (x_i−μ)² + 1e-5)
//                        out_i = (x_i − μ)·rstd·gamma_i + beta_i;  mean[n] = μ, rstd[n] = rstd
//   layernorm_backward_dx  with x̂ = (x−μ)·rstd, g_i = gamma_i·dout_i:
//                        dinp_i (+)= rstd·(g_i − mean_j g_j − x̂_i·mean_j(g_j x̂_j))
//   layernorm_backward_params   dgamma_i (+)= Σ_n x̂_i·dout_i,   dbeta_i (+)= Σ_n dout_i
// flags: bit 0 = accumulate (dinp += …, and dgamma/dbeta += …).
// pgroups: the backward_dx kernels (every form) also take the parameter gradients, in their first
//   pgroups workgroups (ceil(C/16); 0: dx only, the parameter gradients by backward_params): one
//   dispatch for the whole LayerNorm backward. Each of those workgroups sums 16 columns, four
//   invocations a column, over the rows in the same order and the same four interleaved partials
//   as backward_params (ln_params_columns, layernorm_params.wgsl, appended by kernels.ts), so the
//   two paths give the same bits; dgamma and dbeta are written (flags bit 0 is dinp's alone there).
//
// Bindings: 0 u: Params, 1 inp [N,C], 2 gamma [C], 3 beta [C], 4 out [N,C], 5 mean [N], 6 rstd [N],
//           7 dout [N,C], 8 dinp [N,C], 9 dgamma [C], 10 dbeta [C]
// Two forms of the row kernels, chosen per adapter by ops.ts (the bench measures both):
//   layernorm_forward, layernorm_backward_dx        one row per invocation: ceil(N/64) workgroups
//                                                   of 64 (CPU adapters: no barriers)
//   layernorm_forward_wg, layernorm_backward_dx_wg  one row per workgroup of 64: each invocation
//                                                   takes columns lid, lid+64, …, and the sums are
//                                                   tree reductions in workgroup memory; N workgroups
//                                                   (GPUs; layernorm_subgroup.wgsl has the subgroup form)
// backward_params: ceil(C/64) workgroups of 64x4: 64 columns, each summed over interleaved rows
//                  by 4 invocations, combined in a fixed order (deterministic).
// backward_dx with pgroups > 0: pgroups more workgroups first (row form: pgroups + ceil(N/64);
//                  the others: pgroups + N, folded into y past 65535).

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

@compute @workgroup_size(64)
fn layernorm_forward(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  if (n >= u.N) { return; }
  let x = n * u.C;
  var m = 0.0;
  for (var i = 0u; i < u.C; i++) { m += inp[x + i]; }
  m /= f32(u.C);
  var v = 0.0;
  for (var i = 0u; i < u.C; i++) { let d = inp[x + i] - m; v += d * d; }
  v /= f32(u.C);
  let s = 1.0 / sqrt(v + EPS);
  for (var i = 0u; i < u.C; i++) { out[x + i] = (inp[x + i] - m) * s * gamma[i] + beta[i]; }
  mean[n] = m;
  rstd[n] = s;
}

@compute @workgroup_size(64)
fn layernorm_backward_dx(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  if (wid.x < u.pgroups) { ln_params_columns(wid.x, lid3.x); return; }
  let n = (wid.x - u.pgroups) * 64u + lid3.x;
  if (n >= u.N) { return; }
  let x = n * u.C;
  let m = mean[n];
  let s = rstd[n];
  var gMean = 0.0;
  var gxMean = 0.0;
  for (var i = 0u; i < u.C; i++) {
    let xhat = (inp[x + i] - m) * s;
    let g = gamma[i] * dout[x + i];
    gMean += g;
    gxMean += g * xhat;
  }
  gMean /= f32(u.C);
  gxMean /= f32(u.C);
  let acc = (u.flags & 1u) != 0u;
  for (var i = 0u; i < u.C; i++) {
    let xhat = (inp[x + i] - m) * s;
    let g = gamma[i] * dout[x + i];
    var d = s * (g - gMean - xhat * gxMean);
    if (acc) { d += dinp[x + i]; }
    dinp[x + i] = d;
  }
}

var<workgroup> colPartial: array<vec2f, 256>;

@compute @workgroup_size(64, 4)
fn layernorm_backward_params(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let i = wid.x * 64u + lid.x;
  var acc = vec2f(0.0);   // (dgamma, dbeta)
  if (i < u.C) {
    for (var n = lid.y; n < u.N; n += 4u) {
      let d = dout[n * u.C + i];
      acc += vec2f((inp[n * u.C + i] - mean[n]) * rstd[n] * d, d);
    }
  }
  colPartial[lid.y * 64u + lid.x] = acc;
  workgroupBarrier();
  if (lid.y == 0u && i < u.C) {
    var t = colPartial[lid.x] + colPartial[64u + lid.x] + colPartial[128u + lid.x] + colPartial[192u + lid.x];
    if ((u.flags & 1u) != 0u) { t += vec2f(dgamma[i], dbeta[i]); }
    dgamma[i] = t.x;
    dbeta[i] = t.y;
  }
}

// ---- one row per workgroup of 64 (tree reductions in workgroup memory)

var<workgroup> red: array<f32, 64>;

// Σ over the workgroup of x (every invocation gets the sum). Call from uniform control flow.
fn wg_sum(lid: u32, x: f32) -> f32 {
  red[lid] = x;
  workgroupBarrier();
  for (var w = 32u; w > 0u; w >>= 1u) {
    if (lid < w) { red[lid] += red[lid + w]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();   // red is reused by the next reduction
  return r;
}

@compute @workgroup_size(64)
fn layernorm_forward_wg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
  let n = wid.x + wid.y * nwg.x;   // rows folded into y past 65535
  let lid = lid3.x;
  if (n >= u.N) { return; }
  let x = n * u.C;
  var s = 0.0;
  for (var i = lid; i < u.C; i += 64u) { s += inp[x + i]; }
  let m = wg_sum(lid, s) / f32(u.C);
  var v = 0.0;
  for (var i = lid; i < u.C; i += 64u) { let d = inp[x + i] - m; v += d * d; }
  let r = 1.0 / sqrt(wg_sum(lid, v) / f32(u.C) + EPS);
  for (var i = lid; i < u.C; i += 64u) { out[x + i] = (inp[x + i] - m) * r * gamma[i] + beta[i]; }
  if (lid == 0u) {
    mean[n] = m;
    rstd[n] = r;
  }
}

@compute @workgroup_size(64)
fn layernorm_backward_dx_wg(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_id) lid3: vec3u) {
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
  let gMean = wg_sum(lid, g1) / f32(u.C);
  let gxMean = wg_sum(lid, g2) / f32(u.C);
  let acc = (u.flags & 1u) != 0u;
  for (var i = lid; i < u.C; i += 64u) {
    let xhat = (inp[x + i] - m) * s;
    let g = gamma[i] * dout[x + i];
    var d = s * (g - gMean - xhat * gxMean);
    if (acc) { d += dinp[x + i]; }
    dinp[x + i] = d;
  }
}

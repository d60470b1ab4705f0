// LayerNorm over the last axis (eps 1e-5, biased variance), forward caching mean/rstd, and its
// backward split into the row-wise input gradient and the column-wise parameter gradients.
//
//   layernorm_forward    μ = mean_i x_i, rstd = 1/√(mean_i (x_i−μ)² + 1e-5)
//                        out_i = (x_i − μ)·rstd·gamma_i + beta_i;  mean[n] = μ, rstd[n] = rstd
//   layernorm_backward_dx  with x̂ = (x−μ)·rstd, g_i = gamma_i·dout_i:
//                        dinp_i (+)= rstd·(g_i − mean_j g_j − x̂_i·mean_j(g_j x̂_j))
//   layernorm_backward_params   dgamma_i (+)= Σ_n x̂_i·dout_i,   dbeta_i (+)= Σ_n dout_i
// flags: bit 0 = accumulate (dinp += …, and dgamma/dbeta += …).
//
// Bindings: 0 u: Params, 1 inp [N,C], 2 gamma [C], 3 beta [C], 4 out [N,C], 5 mean [N], 6 rstd [N],
//           7 dout [N,C], 8 dinp [N,C], 9 dgamma [C], 10 dbeta [C]
// Dispatch: forward / backward_dx: ceil(N/64) workgroups of 64, one row per invocation;
//           backward_params: ceil(C/64) workgroups of 64, one column per invocation.

struct Params { N: u32, C: u32, flags: u32, _pad: u32 }

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
fn layernorm_backward_dx(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
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

@compute @workgroup_size(64)
fn layernorm_backward_params(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i >= u.C) { return; }
  var dg = 0.0;
  var db = 0.0;
  for (var n = 0u; n < u.N; n++) {
    let d = dout[n * u.C + i];
    dg += (inp[n * u.C + i] - mean[n]) * rstd[n] * d;
    db += d;
  }
  if ((u.flags & 1u) != 0u) { dg += dgamma[i]; db += dbeta[i]; }
  dgamma[i] = dg;
  dbeta[i] = db;
}

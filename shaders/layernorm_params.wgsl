// LayerNorm's parameter gradients, shared by layernorm.wgsl and layernorm_subgroup.wgsl: kernels.ts
// appends this file to both (WGSL has no include). It uses their declarations: u (N, C), inp,
// mean, rstd, dout, dgamma, dbeta.
//
// dgamma[i] = Σ_n x̂·dout, dbeta[i] = Σ_n dout for 16 columns per workgroup of 64: invocation
// lid sums column w·16 + (lid mod 16) over rows n ≡ k (mod 4), k = lid / 16, in increasing n
// (neighbouring invocations read neighbouring columns of one row); the four partials meet in
// workgroup memory and are added ((p0 + p1) + p2) + p3 — backward_params' order exactly, so the
// fused and the unfused LayerNorm backward give the same bits.
// Call from uniform control flow (it has a barrier): w is the workgroup's index, uniform.
const LN_PARAM_COLUMNS = 16u;

var<workgroup> lnParamPartial: array<vec2f, 64>;

fn ln_params_columns(w: u32, lid: u32) {
  let i = w * LN_PARAM_COLUMNS + lid % LN_PARAM_COLUMNS;
  let k = lid / LN_PARAM_COLUMNS;
  var p = vec2f(0.0);
  if (i < u.C) {
    for (var n = k; n < u.N; n += 4u) {
      let d = dout[n * u.C + i];
      p += vec2f((inp[n * u.C + i] - mean[n]) * rstd[n] * d, d);
    }
  }
  lnParamPartial[lid] = p;
  workgroupBarrier();
  if (k == 0u && i < u.C) {
    let t = lnParamPartial[lid] + lnParamPartial[lid + 16u] + lnParamPartial[lid + 32u] + lnParamPartial[lid + 48u];
    dgamma[i] = t.x;
    dbeta[i] = t.y;
  }
}

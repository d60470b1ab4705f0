// LayerNorm's parameter gradients for one column, shared by layernorm.wgsl and
// layernorm_subgroup.wgsl: kernels.ts appends this file to both (WGSL has no include). It uses
// their declarations: u (N, C), inp, mean, rstd, dout, dgamma, dbeta.
//
// dgamma[i] = Σ_n x̂·dout, dbeta[i] = Σ_n dout for column i, by one invocation: rows n ≡ k (mod 4)
// in partial k, in increasing n, then ((p0 + p1) + p2) + p3 — backward_params' order exactly.
fn ln_params_column(i: u32) {
  if (i >= u.C) { return; }
  var p = array<vec2f, 4>(vec2f(0.0), vec2f(0.0), vec2f(0.0), vec2f(0.0));
  for (var k = 0u; k < 4u; k++) {
    for (var n = k; n < u.N; n += 4u) {
      let d = dout[n * u.C + i];
      p[k] += vec2f((inp[n * u.C + i] - mean[n]) * rstd[n] * d, d);
    }
  }
  let t = p[0] + p[1] + p[2] + p[3];
  dgamma[i] = t.x;
  dbeta[i] = t.y;
}

// GELU, tanh form (PyTorch approximate='tanh'), elementwise.
//
//   gelu_forward    out = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
//   gelu_backward   dinp (+)= dout·(0.5·(1 + th) + 0.5·x·(1 − th²)·√(2/π)·(1 + 3·0.044715·x²)),
//                   th = tanh(√(2/π)·(x + 0.044715·x³))
//   gelu_backward_inplace   dinp = dinp·gelu'(x)   (dinp holds dout; matmul.wgsl's fallback for
//                   the GELU-backward epilogue of matmul_vec4.wgsl)
// flags: bit 0 = accumulate into dinp.
// tanh is computed from exp of a clamped argument: some WGSL implementations of tanh return
// NaN for large |u|, and tanh(±10) is ±1 in f32 anyway.
//
// Bindings: 0 u: Params, 1 inp, 2 out (forward); 1 inp, 3 dout, 4 dinp (backward).
// Dispatch: ceil(n/256) workgroups of 256, folded into (x, y) past 65535.

struct Params { n: u32, flags: u32, _a: u32, _b: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> inp: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
@group(0) @binding(3) var<storage, read> dout: array<f32>;
@group(0) @binding(4) var<storage, read_write> dinp: array<f32>;

const GELU_SCALE = 0.7978845608028654;   // √(2/π)

fn stable_tanh(x: f32) -> f32 {
  let y = clamp(x, -10.0, 10.0);
  let e = exp(2.0 * y);
  return (e - 1.0) / (e + 1.0);
}

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * 256u; }

@compute @workgroup_size(256)
fn gelu_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.n) { return; }
  let x = inp[i];
  out[i] = 0.5 * x * (1.0 + stable_tanh(GELU_SCALE * (x + 0.044715 * x * x * x)));
}

@compute @workgroup_size(256)
fn gelu_backward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.n) { return; }
  let x = inp[i];
  let th = stable_tanh(GELU_SCALE * (x + 0.044715 * x * x * x));
  let local = 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * GELU_SCALE * (1.0 + 3.0 * 0.044715 * x * x);
  var d = local * dout[i];
  if ((u.flags & 1u) != 0u) { d += dinp[i]; }
  dinp[i] = d;
}

@compute @workgroup_size(256)
fn gelu_backward_inplace(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.n) { return; }
  let x = inp[i];
  let th = stable_tanh(GELU_SCALE * (x + 0.044715 * x * x * x));
  let local = 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * GELU_SCALE * (1.0 + 3.0 * 0.044715 * x * x);
  dinp[i] = local * dinp[i];
}

// Causal multi-head self-attention from a fused qkv tensor, its backward, and the one-position
// decode step over a KV cache.
// This is the row form (CPU adapters); GPUs take attention_tiled.wgsl (query tiles, K/V tiles
// through workgroup memory) for the forward and backward, this file's decode in both forms.
//
// qkv [B,T,3D]: per position [q (D) | k (D) | v (D)]; head h uses columns h·hs..(h+1)·hs of each.
//   attention_forward      preatt[t2] = scale·q_t·k_t2 (t2 ≤ t), scale = 1/√hs
//                          att[b,h,t,:] = softmax over t2 ≤ t (max-subtracted), 0 for t2 > t
//                          out[b,t,h·hs+i] = Σ_{t2≤t} att[b,h,t,t2]·v_t2[i]
//   attention_backward_q   per (b,h,t): datt[t2] = dout_t·v_t2,
//                          dpreatt[t2] = att[t2]·(datt[t2] − Σ_j att[j]·datt[j])   (stored)
//                          dq_t = scale·Σ_t2 dpreatt[t2]·k_t2                      (written)
//   attention_backward_kv  per (b,h,t2), gathering over the queries t ≥ t2 (no atomics):
//                          dk_t2 = scale·Σ_t dpreatt[t,t2]·q_t,  dv_t2 = Σ_t att[t,t2]·dout_t
//   attention_decode       per (r,h) at position pos (from `step`): append k, v of row r to the
//                          cache [R,S,D] at pos, then out[r,h] = softmax(scale·q·K[0..pos])·V[0..pos],
//                          the scores kept in att [R,H,S] between the passes over them (the same
//                          operation order as attention_forward, so the two agree).
//
// Bindings: 0 u: Params, 1 qkv, 2 att [B,H,T,T] (decode: [R,H,S] scores), 3 out [B,T,D], 4 dout [B,T,D],
//           5 dpreatt [B,H,T,T], 6 dqkv [B,T,3D], 7 kcache, 8 vcache [R,S,D], 9 step: Step
// Dispatch: ceil(B·H·T / 64) workgroups of 64 (decode: ceil(R·H / 64)), one (b,h,t) per invocation.

struct Params { B: u32, T: u32, D: u32, H: u32 }   // decode: B = R rows, T = S cache stride
struct Step { pos: u32, _a: u32, _b: u32, _c: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read_write> att: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read> dout: array<f32>;
@group(0) @binding(5) var<storage, read_write> dpreatt: array<f32>;
@group(0) @binding(6) var<storage, read_write> dqkv: array<f32>;
@group(0) @binding(7) var<storage, read_write> kcache: array<f32>;
@group(0) @binding(8) var<storage, read_write> vcache: array<f32>;
@group(0) @binding(9) var<uniform> step: Step;

// att[row + 0..=last] ← the softmax of the scores stored there (maxval: their max), in place.
fn softmax_in_place(row: u32, last: u32, maxval: f32) {
  var sum = 0.0;
  for (var t2 = 0u; t2 <= last; t2++) {
    let e = exp(att[row + t2] - maxval);
    att[row + t2] = e;
    sum += e;
  }
  let inv = 1.0 / sum;
  for (var t2 = 0u; t2 <= last; t2++) { att[row + t2] *= inv; }
}

@compute @workgroup_size(64)
fn attention_forward(@builtin(global_invocation_id) gid: vec3u) {
  let idx = gid.x;
  if (idx >= u.B * u.H * u.T) { return; }
  let t = idx % u.T;
  let h = (idx / u.T) % u.H;
  let b = idx / (u.T * u.H);
  let hs = u.D / u.H;
  let C3 = 3u * u.D;
  let scale = 1.0 / sqrt(f32(hs));
  let q = (b * u.T + t) * C3 + h * hs;
  let row = ((b * u.H + h) * u.T + t) * u.T;
  var maxval = -3.4e38;
  for (var t2 = 0u; t2 <= t; t2++) {
    let k = (b * u.T + t2) * C3 + u.D + h * hs;
    var s = 0.0;
    for (var i = 0u; i < hs; i++) { s += qkv[q + i] * qkv[k + i]; }
    s *= scale;
    att[row + t2] = s;
    maxval = max(maxval, s);
  }
  softmax_in_place(row, t, maxval);
  for (var t2 = t + 1u; t2 < u.T; t2++) { att[row + t2] = 0.0; }
  let o = (b * u.T + t) * u.D + h * hs;
  for (var i = 0u; i < hs; i++) {
    var s = 0.0;
    for (var t2 = 0u; t2 <= t; t2++) { s += att[row + t2] * qkv[(b * u.T + t2) * C3 + 2u * u.D + h * hs + i]; }
    out[o + i] = s;
  }
}

@compute @workgroup_size(64)
fn attention_backward_q(@builtin(global_invocation_id) gid: vec3u) {
  let idx = gid.x;
  if (idx >= u.B * u.H * u.T) { return; }
  let t = idx % u.T;
  let h = (idx / u.T) % u.H;
  let b = idx / (u.T * u.H);
  let hs = u.D / u.H;
  let C3 = 3u * u.D;
  let scale = 1.0 / sqrt(f32(hs));
  let row = ((b * u.H + h) * u.T + t) * u.T;
  let dO = (b * u.T + t) * u.D + h * hs;
  // datt[t2] = dout_t · v_t2, kept in dpreatt until the softmax backward overwrites it
  var dot = 0.0;
  for (var t2 = 0u; t2 <= t; t2++) {
    let v = (b * u.T + t2) * C3 + 2u * u.D + h * hs;
    var s = 0.0;
    for (var i = 0u; i < hs; i++) { s += qkv[v + i] * dout[dO + i]; }
    dpreatt[row + t2] = s;
    dot += att[row + t2] * s;
  }
  for (var t2 = 0u; t2 < u.T; t2++) {
    dpreatt[row + t2] = select(0.0, att[row + t2] * (dpreatt[row + t2] - dot), t2 <= t);
  }
  let q = (b * u.T + t) * C3 + h * hs;
  for (var i = 0u; i < hs; i++) {
    var s = 0.0;
    for (var t2 = 0u; t2 <= t; t2++) { s += dpreatt[row + t2] * qkv[(b * u.T + t2) * C3 + u.D + h * hs + i]; }
    dqkv[q + i] = s * scale;
  }
}

@compute @workgroup_size(64)
fn attention_backward_kv(@builtin(global_invocation_id) gid: vec3u) {
  let idx = gid.x;
  if (idx >= u.B * u.H * u.T) { return; }
  let t2 = idx % u.T;
  let h = (idx / u.T) % u.H;
  let b = idx / (u.T * u.H);
  let hs = u.D / u.H;
  let C3 = 3u * u.D;
  let scale = 1.0 / sqrt(f32(hs));
  let k = (b * u.T + t2) * C3 + u.D + h * hs;
  let v = k + u.D;
  for (var i = 0u; i < hs; i++) {
    var sk = 0.0;
    var sv = 0.0;
    for (var t = t2; t < u.T; t++) {
      let row = ((b * u.H + h) * u.T + t) * u.T;
      sk += dpreatt[row + t2] * qkv[(b * u.T + t) * C3 + h * hs + i];
      sv += att[row + t2] * dout[(b * u.T + t) * u.D + h * hs + i];
    }
    dqkv[k + i] = sk * scale;
    dqkv[v + i] = sv;
  }
}

@compute @workgroup_size(64)
fn attention_decode(@builtin(global_invocation_id) gid: vec3u) {
  let idx = gid.x;
  if (idx >= u.B * u.H) { return; }
  let h = idx % u.H;
  let r = idx / u.H;
  let hs = u.D / u.H;
  let C3 = 3u * u.D;
  let pos = step.pos;
  let scale = 1.0 / sqrt(f32(hs));
  let q = r * C3 + h * hs;
  let cacheRow = r * u.T * u.D + h * hs;   // + t2·D
  for (var i = 0u; i < hs; i++) {
    kcache[cacheRow + pos * u.D + i] = qkv[q + u.D + i];
    vcache[cacheRow + pos * u.D + i] = qkv[q + 2u * u.D + i];
  }
  let row = (r * u.H + h) * u.T;           // this (r,h)'s scores: att[row + t2]
  var maxval = -3.4e38;
  for (var t2 = 0u; t2 <= pos; t2++) {
    var s = 0.0;
    for (var i = 0u; i < hs; i++) { s += qkv[q + i] * kcache[cacheRow + t2 * u.D + i]; }
    s *= scale;
    att[row + t2] = s;
    maxval = max(maxval, s);
  }
  softmax_in_place(row, pos, maxval);
  let o = r * u.D + h * hs;
  for (var i = 0u; i < hs; i++) {
    var s = 0.0;
    for (var t2 = 0u; t2 <= pos; t2++) { s += att[row + t2] * vcache[cacheRow + t2 * u.D + i]; }
    out[o + i] = s;
  }
}

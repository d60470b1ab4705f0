// One whole transformer block of the KV-cache decode step in ONE dispatch: a workgroup per
// rollout row runs the block's eight ops back to back on its row, the row held in workgroup
// memory between them (what the op-by-op decode spends 7 dispatches on: layernorm, qkv matmul,
// attention_decode, proj matmul + residual, layernorm, fc matmul + GELU, fc2 matmul + residual).
// The first layer's dispatch also does the embedding (encoder_decode), the last one the final
// LayerNorm and the LM head, so a decode position is L dispatches + sample_next instead of 7L + 4.
//
//   decode_block   per row r at position pos (from `step`):
//                  x = first ? wte[tokens[r·S + pos]] + wpe[pos] : xres[r]
//                  a = LN1(x); qkv = a·Wqkv + bqkv; K/V cache[r, pos] = k, v
//                  per head h: s_t = scale·q_h·k_t (t ≤ pos), p = softmax(s), y_h = Σ_t p_t v_t
//                  x = x + (y·Wproj + bproj)
//                  x = x + (gelu(LN2(x)·Wfc + bfc)·Wfc2 + bfc2)
//                  last ? logits[r] = LNf(x)·Wlm : xres[r] = x
//                  Each sum runs in the order of the op kernels it replaces (a matmul's dot
//                  product over k in increasing k, then + bias, then + residual; attention's
//                  scores, softmax and weighted sum as attention_decode), except LayerNorm's mean
//                  and variance: tree sums in workgroup memory, as layernorm_forward_wg.
//
// Every weight is read from the one flat parameter buffer at the offsets in Params (the shared
// offset table, src/model/config.ts), so the block needs one binding for all its weights.
// Limits (ops.ts checks them and keeps the op-by-op decode otherwise): D ≤ 256, H·S ≤ 1024.
// Workgroup memory: 2368 floats (9.25 KiB of WebGPU's default 16 KiB).
//
// Bindings: 0 u: Params, 1 P (flat params), 2 tokens i32 [R,S], 3 xres [R,D] (read and written
//           in place: a row is read into workgroup memory before it is written), 4 kcache,
//           5 vcache [R,S,D] of this layer, 6 logits [R,V], 7 step: Step
// Dispatch: R workgroups of 64 (folded into y past 65535), one row each.

struct Params {
  R: u32, S: u32, D: u32, H: u32,
  V: u32, flags: u32, wte: u32, wpe: u32,
  ln1g: u32, ln1b: u32, qkvw: u32, qkvb: u32,
  projw: u32, projb: u32, ln2g: u32, ln2b: u32,
  fcw: u32, fcb: u32, fc2w: u32, fc2b: u32,
  lnfg: u32, lnfb: u32, lm: u32, _pad: u32,
}
struct Step { pos: u32, _a: u32, _b: u32, _c: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> P: array<f32>;
@group(0) @binding(2) var<storage, read> tokens: array<i32>;
@group(0) @binding(3) var<storage, read_write> xres: array<f32>;
@group(0) @binding(4) var<storage, read_write> kcache: array<f32>;
@group(0) @binding(5) var<storage, read_write> vcache: array<f32>;
@group(0) @binding(6) var<storage, read_write> logits: array<f32>;
@group(0) @binding(7) var<uniform> step: Step;

const WG = 64u;
const DMAX = 256u;
const FIRST = 1u;
const LAST = 2u;
const EPS = 1e-5;
const GELU_SCALE = 0.7978845608028654; // √(2/π)

var<workgroup> xs: array<f32, 256>;     // the residual stream of this row
var<workgroup> ln: array<f32, 256>;     // a LayerNorm's output, then attention's output y
var<workgroup> qkv: array<f32, 768>;
var<workgroup> big: array<f32, 1024>;   // attention's scores [H, S], then the MLP's hidden [4D]
var<workgroup> red: array<f32, 64>;

fn stable_tanh(x: f32) -> f32 {
  let y = clamp(x, -10.0, 10.0);
  let e = exp(2.0 * y);
  return (e - 1.0) / (e + 1.0);
}

fn gelu(x: f32) -> f32 {
  return 0.5 * x * (1.0 + stable_tanh(GELU_SCALE * (x + 0.044715 * x * x * x)));
}

// Σ over the workgroup of each invocation's v (a tree in workgroup memory); every invocation gets it.
fn wg_sum(v: f32, lid: u32) -> f32 {
  red[lid] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
  let t = red[0];
  workgroupBarrier();
  return t;
}

// ln = LayerNorm(xs) with gamma at P[g], beta at P[b].
fn layernorm(g: u32, b: u32, lid: u32) {
  let D = u.D;
  var s = 0.0;
  for (var i = lid; i < D; i += WG) { s += xs[i]; }
  let m = wg_sum(s, lid) / f32(D);
  var q = 0.0;
  for (var i = lid; i < D; i += WG) { let d = xs[i] - m; q += d * d; }
  let rs = 1.0 / sqrt(wg_sum(q, lid) / f32(D) + EPS);
  for (var i = lid; i < D; i += WG) { ln[i] = (xs[i] - m) * rs * P[g + i] + P[b + i]; }
  workgroupBarrier();
}

@compute @workgroup_size(64)
fn decode_block(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let r = wid.x + wid.y * nwg.x;
  // uniform control flow: a workgroup past R still takes every barrier, and writes nothing
  let live = r < u.R;
  let row = min(r, u.R - 1u);
  let D = u.D;
  let H = u.H;
  let S = u.S;
  let pos = step.pos;
  let hs = D / H;
  let scale = 1.0 / sqrt(f32(hs));

  if ((u.flags & FIRST) != 0u) {
    let tok = u32(tokens[row * S + pos]);
    for (var i = lid; i < D; i += WG) { xs[i] = P[u.wte + tok * D + i] + P[u.wpe + pos * D + i]; }
  } else {
    for (var i = lid; i < D; i += WG) { xs[i] = xres[row * D + i]; }
  }
  workgroupBarrier();

  // ---- attention
  layernorm(u.ln1g, u.ln1b, lid);
  let C3 = 3u * D;
  for (var j = lid; j < C3; j += WG) {
    var acc = 0.0;
    for (var c = 0u; c < D; c++) { acc += ln[c] * P[u.qkvw + c * C3 + j]; }
    qkv[j] = acc + P[u.qkvb + j];
  }
  workgroupBarrier();
  let cacheRow = row * S * D;
  if (live) {
    for (var i = lid; i < D; i += WG) {
      kcache[cacheRow + pos * D + i] = qkv[D + i];
      vcache[cacheRow + pos * D + i] = qkv[2u * D + i];
    }
  }
  // scores: big[h·S + t] for t ≤ pos; this position's key from workgroup memory, earlier ones from the cache
  let n = pos + 1u;
  for (var e = lid; e < H * n; e += WG) {
    let h = e / n;
    let t = e % n;
    var s = 0.0;
    if (t == pos) {
      for (var i = 0u; i < hs; i++) { s += qkv[h * hs + i] * qkv[D + h * hs + i]; }
    } else {
      for (var i = 0u; i < hs; i++) { s += qkv[h * hs + i] * kcache[cacheRow + t * D + h * hs + i]; }
    }
    s *= scale;
    big[h * S + t] = s;
  }
  workgroupBarrier();
  // softmax per head, in attention_decode's order
  for (var h = lid; h < H; h += WG) {
    var mx = -3.4e38;
    for (var t = 0u; t < n; t++) { mx = max(mx, big[h * S + t]); }
    var sum = 0.0;
    for (var t = 0u; t < n; t++) {
      let e = exp(big[h * S + t] - mx);
      big[h * S + t] = e;
      sum += e;
    }
    let inv = 1.0 / sum;
    for (var t = 0u; t < n; t++) { big[h * S + t] *= inv; }
  }
  workgroupBarrier();
  for (var i = lid; i < D; i += WG) {
    let h = i / hs;
    var s = 0.0;
    for (var t = 0u; t < pos; t++) { s += big[h * S + t] * vcache[cacheRow + t * D + i]; }
    s += big[h * S + pos] * qkv[2u * D + i];
    ln[i] = s;
  }
  workgroupBarrier();
  // x = x + (y·Wproj + b)
  for (var j = lid; j < D; j += WG) {
    var acc = 0.0;
    for (var c = 0u; c < D; c++) { acc += ln[c] * P[u.projw + c * D + j]; }
    xs[j] = (acc + P[u.projb + j]) + xs[j];
  }
  workgroupBarrier();

  // ---- MLP
  layernorm(u.ln2g, u.ln2b, lid);
  let C4 = 4u * D;
  for (var j = lid; j < C4; j += WG) {
    var acc = 0.0;
    for (var c = 0u; c < D; c++) { acc += ln[c] * P[u.fcw + c * C4 + j]; }
    big[j] = gelu(acc + P[u.fcb + j]);
  }
  workgroupBarrier();
  for (var j = lid; j < D; j += WG) {
    var acc = 0.0;
    for (var c = 0u; c < C4; c++) { acc += big[c] * P[u.fc2w + c * D + j]; }
    xs[j] = (acc + P[u.fc2b + j]) + xs[j];
  }
  workgroupBarrier();

  if ((u.flags & LAST) == 0u) {
    if (live) { for (var i = lid; i < D; i += WG) { xres[row * D + i] = xs[i]; } }
    return;
  }
  layernorm(u.lnfg, u.lnfb, lid);
  if (live) {
    for (var v = lid; v < u.V; v += WG) {
      var acc = 0.0;
      for (var c = 0u; c < D; c++) { acc += ln[c] * P[u.lm + c * u.V + v]; }
      logits[row * u.V + v] = acc;
    }
  }
}

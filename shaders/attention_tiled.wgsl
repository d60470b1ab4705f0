// Causal attention, the GPU form: a workgroup of 64 takes a tile of query rows of one (b,h) (of two
// heads, 32 rows each, when T ≤ 32, so no half-workgroup idles at T = 32) and streams K and V
// through workgroup memory in tiles of KT = 1024 / (heads·hs) key rows (hs = 32: 32 or 16 keys,
// hs = 8: 128 or 64), loading only the tiles up to the tile's last query row (causal).
// Same formulas and layouts as attention.wgsl (its header); this file adds:
//
//   attention_forward_tiled   one workgroup per query tile, one query row per invocation with q in
//                             registers. Two passes over the keys, not an online softmax: the
//                             backward reads the normalised probabilities `att`, so the T×T scores
//                             are written anyway, and two passes keep the row form's operation order
//                             (scores, max, Σ exp, ÷ Σ, then Σ att·v in ascending t2): the two forms,
//                             and the KV-cache decode, agree bit for bit on SwiftShader (the bench's
//                             maxAbsDiff is 0), elsewhere up to the compiler's choice of FMAs.
//   attention_backward_tiled  one workgroup per head (T ≤ 32: per two heads): a head's whole backward
//                             in one dispatch (attention.wgsl needs two). Phase 1, one query row t
//                             per invocation (64 rows at a time): datt = dout_t·V (V tiles),
//                             dpreatt = att ⊙ (datt − Σ att·datt) (stored), dq_t = scale·Σ dpreatt·K
//                             (K tiles). Then a storage + workgroup barrier (the head's dpreatt rows
//                             are all written by this workgroup), and phase 2, one key row t2 per
//                             invocation: dk, dv gathered over the queries t ≥ t2 in ascending order,
//                             Q and dO streamed through workgroup memory.
//
// Workgroup memory: two tiles of 1024 f32 = 8 KiB (WebGPU's default limit is 16 KiB) for every
// head size hs ≤ 64 (the registers hold hs ≤ 64 floats per row; Ops takes the row form above).
// Storage buffers: forward 3, backward 5 (default limit 8).
//
// Bindings as attention.wgsl: 0 u: Params, 1 qkv, 2 att, 3 out, 4 dout, 5 dpreatt, 6 dqkv.
// Dispatch, P = 2 heads per workgroup when T ≤ 32, else 1: forward grid1d(ceil(B·H/P)·ceil(T·P/64))
// workgroups of 64, backward grid1d(ceil(B·H/P)).

struct Params { B: u32, T: u32, D: u32, H: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> qkv: array<f32>;
@group(0) @binding(2) var<storage, read_write> att: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
@group(0) @binding(4) var<storage, read> dout: array<f32>;
@group(0) @binding(5) var<storage, read_write> dpreatt: array<f32>;
@group(0) @binding(6) var<storage, read_write> dqkv: array<f32>;

const WG = 64u;          // invocations per workgroup
const TILE = 1024u;      // floats per workgroup-memory tile (split between the slots)
const HS_MAX = 64u;      // largest head size (registers per row)

var<workgroup> tileA: array<f32, 1024>;
var<workgroup> tileB: array<f32, 1024>;

// How a workgroup's 64 invocations split between heads: T ≤ 32 → P = 2 heads of RQ = 32 rows
// (no idle half-workgroup at T = 32), else P = 1 head of RQ = 64 rows. Slot s = lid / RQ takes head
// bh0 + s and the s-th 1024/P floats of each tile, so KT = 1024 / (P·hs) rows per tile.
// (Split holds only workgroup-uniform values: the barriers' loops are bounded by them.)
struct Split { P: u32, RQ: u32, KT: u32 }
fn split(hs: u32) -> Split {
  let P = select(1u, 2u, u.T <= 32u);
  return Split(P, WG / P, TILE / (P * hs));
}

// Rows r0..r0+n-1, columns col + h·hs .. + hs of qkv [B,T,3D] for the P heads bh0.. into tileA
// (slot s at s·1024/P, row-major [n, hs]); heads past B·H are skipped.
fn load_qkv(lid: u32, sp: Split, bh0: u32, r0: u32, n: u32, col: u32, hs: u32) {
  let C3 = 3u * u.D;
  let per = n * hs;
  for (var e = lid; e < sp.P * per; e += WG) {
    let s = e / per;
    let w = e % per;
    let bh = bh0 + s;
    if (bh < u.B * u.H) {
      tileA[s * (TILE / sp.P) + w] = qkv[((bh / u.H) * u.T + r0 + w / hs) * C3 + col + (bh % u.H) * hs + w % hs];
    }
  }
}
// The same from dout [B,T,D] into tileB.
fn load_dout(lid: u32, sp: Split, bh0: u32, r0: u32, n: u32, hs: u32) {
  let per = n * hs;
  for (var e = lid; e < sp.P * per; e += WG) {
    let s = e / per;
    let w = e % per;
    let bh = bh0 + s;
    if (bh < u.B * u.H) {
      tileB[s * (TILE / sp.P) + w] = dout[((bh / u.H) * u.T + r0 + w / hs) * u.D + (bh % u.H) * hs + w % hs];
    }
  }
}

// Workgroup index of a grid1d dispatch (x folded into y past 65535).
fn flat_group(wid: vec3u, nwg: vec3u) -> u32 { return wid.y * nwg.x + wid.x; }

@compute @workgroup_size(64)
fn attention_forward_tiled(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let hs = u.D / u.H;
  let sp = split(hs);
  let slot = lid / sp.RQ;
  let BH = u.B * u.H;
  let tiles = (u.T + sp.RQ - 1u) / sp.RQ;           // query tiles per head
  let g = flat_group(wid, nwg);
  if (g >= ((BH + sp.P - 1u) / sp.P) * tiles) { return; }   // whole workgroup: uniform
  let q0 = (g % tiles) * sp.RQ;
  let bh0 = (g / tiles) * sp.P;
  let bh = bh0 + slot;
  let h = bh % u.H;
  let b = bh / u.H;
  let C3 = 3u * u.D;
  let KT = sp.KT;
  let tb = slot * (TILE / sp.P);                 // this slot's part of the tiles
  let scale = 1.0 / sqrt(f32(hs));
  let t = q0 + lid % sp.RQ;
  let live = t < u.T && bh < BH;
  let tc = min(t, u.T - 1u);                        // dead rows read a valid row, write nothing
  let bc = min(b, u.B - 1u);
  let lastKey = min(q0 + sp.RQ, u.T);               // keys 0..lastKey-1 (causal)
  let row = ((bc * u.H + h) * u.T + tc) * u.T;
  var q: array<f32, HS_MAX>;
  for (var i = 0u; i < hs; i++) { q[i] = qkv[(bc * u.T + tc) * C3 + h * hs + i]; }

  // pass 1: scores into att (K tiles), and their max
  var maxval = -3.4e38;
  for (var k0 = 0u; k0 < lastKey; k0 += KT) {
    let n = min(KT, lastKey - k0);
    workgroupBarrier();
    load_qkv(lid, sp, bh0, k0, n, u.D, hs);
    workgroupBarrier();
    if (live) {
      let jn = min(n, t + 1u - min(k0, t + 1u));   // keys of this tile with t2 ≤ t
      for (var j = 0u; j < jn; j++) {
        var s = 0.0;
        for (var i = 0u; i < hs; i++) { s += q[i] * tileA[tb + j * hs + i]; }
        s *= scale;
        att[row + k0 + j] = s;
        maxval = max(maxval, s);
      }
    }
  }
  // softmax in place (as attention.wgsl's softmax_in_place), the future masked to 0
  if (live) {
    var sum = 0.0;
    for (var t2 = 0u; t2 <= t; t2++) {
      let e = exp(att[row + t2] - maxval);
      att[row + t2] = e;
      sum += e;
    }
    let inv = 1.0 / sum;
    for (var t2 = 0u; t2 <= t; t2++) { att[row + t2] *= inv; }
    for (var t2 = t + 1u; t2 < u.T; t2++) { att[row + t2] = 0.0; }
  }
  // pass 2: out = Σ att·v (V tiles), accumulated in ascending t2 as the row form
  var acc: array<f32, HS_MAX>;
  for (var i = 0u; i < hs; i++) { acc[i] = 0.0; }
  for (var k0 = 0u; k0 < lastKey; k0 += KT) {
    let n = min(KT, lastKey - k0);
    workgroupBarrier();
    load_qkv(lid, sp, bh0, k0, n, 2u * u.D, hs);
    workgroupBarrier();
    if (live) {
      let jn = min(n, t + 1u - min(k0, t + 1u));
      for (var j = 0u; j < jn; j++) {
        let a = att[row + k0 + j];
        for (var i = 0u; i < hs; i++) { acc[i] += a * tileA[tb + j * hs + i]; }
      }
    }
  }
  if (live) {
    let o = (b * u.T + t) * u.D + h * hs;
    for (var i = 0u; i < hs; i++) { out[o + i] = acc[i]; }
  }
}

@compute @workgroup_size(64)
fn attention_backward_tiled(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let hs = u.D / u.H;
  let sp = split(hs);
  let slot = lid / sp.RQ;
  let BH = u.B * u.H;
  let g = flat_group(wid, nwg);
  if (g >= (BH + sp.P - 1u) / sp.P) { return; }     // whole workgroup: uniform
  let bh0 = g * sp.P;
  let bh = bh0 + slot;
  let headLive = bh < BH;
  let h = bh % u.H;
  let b = min(bh / u.H, u.B - 1u);
  let C3 = 3u * u.D;
  let KT = sp.KT;
  let tb = slot * (TILE / sp.P);
  let scale = 1.0 / sqrt(f32(hs));
  let base = (b * u.H + h) * u.T * u.T;            // this head's [T,T] block of att / dpreatt

  // ---- phase 1: one query row t per invocation, RQ rows of each head at a time
  for (var c0 = 0u; c0 < u.T; c0 += sp.RQ) {
    let t = c0 + lid % sp.RQ;
    let live = t < u.T && headLive;
    let tc = min(t, u.T - 1u);
    let lastKey = min(c0 + sp.RQ, u.T);
    let row = base + tc * u.T;
    var d: array<f32, HS_MAX>;                      // dout_t, then dq_t
    for (var i = 0u; i < hs; i++) { d[i] = dout[(b * u.T + tc) * u.D + h * hs + i]; }
    // datt[t2] = dout_t · v_t2 (kept in dpreatt), dot = Σ att·datt
    var dot = 0.0;
    for (var k0 = 0u; k0 < lastKey; k0 += KT) {
      let n = min(KT, lastKey - k0);
      workgroupBarrier();
      load_qkv(lid, sp, bh0, k0, n, 2u * u.D, hs);
      workgroupBarrier();
      if (live) {
        let jn = min(n, t + 1u - min(k0, t + 1u));
        for (var j = 0u; j < jn; j++) {
          var s = 0.0;
          for (var i = 0u; i < hs; i++) { s += tileA[tb + j * hs + i] * d[i]; }
          dpreatt[row + k0 + j] = s;
          dot += att[row + k0 + j] * s;
        }
      }
    }
    if (live) {
      for (var t2 = 0u; t2 < u.T; t2++) {
        dpreatt[row + t2] = select(0.0, att[row + t2] * (dpreatt[row + t2] - dot), t2 <= t);
      }
    }
    // dq_t = scale · Σ_t2 dpreatt[t2] · k_t2
    for (var i = 0u; i < hs; i++) { d[i] = 0.0; }
    for (var k0 = 0u; k0 < lastKey; k0 += KT) {
      let n = min(KT, lastKey - k0);
      workgroupBarrier();
      load_qkv(lid, sp, bh0, k0, n, u.D, hs);
      workgroupBarrier();
      if (live) {
        let jn = min(n, t + 1u - min(k0, t + 1u));
        for (var j = 0u; j < jn; j++) {
          let gr = dpreatt[row + k0 + j];
          for (var i = 0u; i < hs; i++) { d[i] += gr * tileA[tb + j * hs + i]; }
        }
      }
    }
    if (live) {
      let q = (b * u.T + t) * C3 + h * hs;
      for (var i = 0u; i < hs; i++) { dqkv[q + i] = d[i] * scale; }
    }
  }

  // every dpreatt row of these heads is written (by this workgroup): make them visible to it
  storageBarrier();
  workgroupBarrier();

  // ---- phase 2: one key row t2 per invocation, gathering over the queries t ≥ t2 (Q, dO tiles)
  for (var c0 = 0u; c0 < u.T; c0 += sp.RQ) {
    let t2 = c0 + lid % sp.RQ;
    let live = t2 < u.T && headLive;
    var dk: array<f32, HS_MAX>;
    var dv: array<f32, HS_MAX>;
    for (var i = 0u; i < hs; i++) { dk[i] = 0.0; dv[i] = 0.0; }
    for (var r0 = c0; r0 < u.T; r0 += KT) {          // query rows r0..r0+n-1 (all ≥ c0)
      let n = min(KT, u.T - r0);
      workgroupBarrier();
      load_qkv(lid, sp, bh0, r0, n, 0u, hs);
      load_dout(lid, sp, bh0, r0, n, hs);
      workgroupBarrier();
      if (live) {
        for (var j = select(0u, t2 - r0, t2 > r0); j < n; j++) {
          let r = base + (r0 + j) * u.T + t2;
          let gr = dpreatt[r];
          let a = att[r];
          for (var i = 0u; i < hs; i++) {
            dk[i] += gr * tileA[tb + j * hs + i];
            dv[i] += a * tileB[tb + j * hs + i];
          }
        }
      }
    }
    if (live) {
      let k = (b * u.T + t2) * C3 + u.D + h * hs;
      for (var i = 0u; i < hs; i++) {
        dqkv[k + i] = dk[i] * scale;
        dqkv[k + u.D + i] = dv[i];
      }
    }
  }
}

// Register-blocked matmuls with vec4 loads and stores: the fast path of matmul.wgsl's three
// layouts, taken when the shapes allow vec4 access (ops.ts picks it; matmul.wgsl stays the
// general fallback). Same operations, same flags (the fused bias gradient of the TN layout
// included), plus two fused epilogues:
//
//   matmul_nn_v4   C[M,N] (+)= A[M,K] · B[K,N] (+ bias[N]) (+ res)   needs K % 4 == 0, N % 4 == 0
//   matmul_nt_v4   C[M,N] (+)= A[M,K] · B[N,K]ᵀ                      needs K % 4 == 0, N % 4 == 0
//   matmul_tn_v4   C[M,N] (+)= A[K,M]ᵀ · B[K,N]                      needs M % 4 == 0, N % 4 == 0
//                  (dbias[N] (+)= Σ_k B[k,N] with flag bit 5: dW and db = Σ_rows dy in one dispatch)
// flags: bit 0 accumulate (C += …; dbias += … too), bit 1 + bias[N], bit 2 + res[M,N],
//        bit 3 fused GELU forward: C = pre-activation x, aux = gelu(x)      (fc: fch, fchGelu)
//        bit 4 fused GELU backward: C = (A·op(B)) ⊙ gelu'(aux), aux = x    (dfch from dfchGelu)
//        bit 5 TN only: also write the column sums of B into dbias (the bias gradient). The
//              workgroups of the first row block of C (wid.y == 0) see every column of B over
//              all of K; their first row of invocations (lid.y == 0) adds up the vec4 of B it
//              multiplies anyway, k = 0, 1, …, K − 1 in order, and writes it: deterministic, one
//              producer per element, no extra dispatch (the direct form: the invocations that
//              hold rows 0..3 of C, gid.y == 0, the same sums in the same order).
// (gelu(x) = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), gelu.wgsl's formula.)
//
// Tiling: a workgroup of 8x8 invocations computes a 32x32 block of C, each invocation a 4x4
// register block (4 rows × one vec4 of columns). K is walked in 16-wide slices; each slice of
// A and B is loaded as 128 vec4 per operand (2 per invocation) into workgroup memory laid out
// k-major as vec4 (As[k][m/4], Bs[k][n/4], 4 KiB in all), so the inner product reads one vec4
// of A and one of B per k and does 16 multiply-adds.
//
// Bindings: 0 u: Params, 1 a, 2 b, 3 bias, 4 c (read_write), 5 res, 6 aux (read_write),
//           7 dbias (read_write; the TN entry points only: 7 storage buffers there, within
//           WebGPU's default 8 per stage; the others' 'auto' layouts leave it out)
//           (all vec4 arrays; unused bias/res/aux/dbias still need a buffer, see ops.ts; an
//           unused aux and dbias must not be the same one: writable bindings may not alias)
// Dispatch: (ceil(N/32), ceil(M/32)) workgroups of 8x8.

struct Params { M: u32, N: u32, K: u32, flags: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4f>;
@group(0) @binding(2) var<storage, read> b: array<vec4f>;
@group(0) @binding(3) var<storage, read> bias: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> c: array<vec4f>;
@group(0) @binding(5) var<storage, read> res: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> aux: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> dbias: array<vec4f>;

const BK = 16u;
var<workgroup> As: array<vec4f, 128>;   // As[k*8 + m/4] = rows m..m+3 of the A tile at k
var<workgroup> Bs: array<vec4f, 128>;   // Bs[k*8 + n/4] = cols n..n+3 of the B tile at k

const NN = 0u;
const NT = 1u;
const TN = 2u;
const DBIAS = 32u;   // flag bit 5
const GELU_SCALE = 0.7978845608028654;   // √(2/π)

fn stable_tanh(x: vec4f) -> vec4f {
  let e = exp(2.0 * clamp(x, vec4f(-10.0), vec4f(10.0)));
  return (e - 1.0) / (e + 1.0);
}
fn gelu(x: vec4f) -> vec4f {
  return 0.5 * x * (1.0 + stable_tanh(GELU_SCALE * (x + 0.044715 * x * x * x)));
}
fn gelu_grad(x: vec4f) -> vec4f {
  let th = stable_tanh(GELU_SCALE * (x + 0.044715 * x * x * x));
  return 0.5 * (1.0 + th) + 0.5 * x * (1.0 - th * th) * GELU_SCALE * (1.0 + 3.0 * 0.044715 * x * x);
}

// Stage the k0 slice of op(A) and op(B) into As / Bs (zeros outside the matrices).
fn load_tiles(form: u32, tid: u32, m0: u32, n0: u32, k0: u32) {
  let K4 = u.K / 4u;
  let M4 = u.M / 4u;
  let N4 = u.N / 4u;
  for (var i = 0u; i < 2u; i++) {
    let e = tid + i * 64u;
    // A
    if (form == TN) {
      // A[K,M]: vec4 along m, lands as one vec4 of As
      let k = e / 8u;
      let mq = e % 8u;
      var v = vec4f(0.0);
      if (k0 + k < u.K && m0 / 4u + mq < M4) { v = a[(k0 + k) * M4 + m0 / 4u + mq]; }
      As[k * 8u + mq] = v;
    } else {
      // A[M,K]: vec4 along k, scattered into 4 k-rows of As
      let m = e / 4u;
      let kq = e % 4u;
      var v = vec4f(0.0);
      if (m0 + m < u.M && k0 + kq * 4u < u.K) { v = a[(m0 + m) * K4 + k0 / 4u + kq]; }
      for (var j = 0u; j < 4u; j++) { As[(kq * 4u + j) * 8u + m / 4u][m % 4u] = v[j]; }
    }
    // B
    if (form == NT) {
      // B[N,K]: vec4 along k, scattered into 4 k-rows of Bs
      let n = e / 4u;
      let kq = e % 4u;
      var v = vec4f(0.0);
      if (n0 + n < u.N && k0 + kq * 4u < u.K) { v = b[(n0 + n) * K4 + k0 / 4u + kq]; }
      for (var j = 0u; j < 4u; j++) { Bs[(kq * 4u + j) * 8u + n / 4u][n % 4u] = v[j]; }
    } else {
      // B[K,N]: vec4 along n
      let k = e / 8u;
      let nq = e % 8u;
      var v = vec4f(0.0);
      if (k0 + k < u.K && n0 / 4u + nq < N4) { v = b[(k0 + k) * N4 + n0 / 4u + nq]; }
      Bs[k * 8u + nq] = v;
    }
  }
}

// dbias[colq] (+)= s (columns n = 4·colq..4·colq+3; N % 4 == 0, so a vec4 is all in or all out).
fn store_dbias(colq: u32, s: vec4f) {
  if (colq >= u.N / 4u) { return; }
  var v = s;
  if ((u.flags & 1u) != 0u) { v += dbias[colq]; }
  dbias[colq] = v;
}

fn store(row: u32, colq: u32, acc: vec4f) {
  let N4 = u.N / 4u;
  if (row >= u.M || colq >= N4) { return; }
  let i = row * N4 + colq;
  var v = acc;
  if ((u.flags & 2u) != 0u) { v += bias[colq]; }
  if ((u.flags & 4u) != 0u) { v += res[i]; }
  if ((u.flags & 16u) != 0u) { v *= gelu_grad(aux[i]); }
  if ((u.flags & 1u) != 0u) { v += c[i]; }
  c[i] = v;
  if ((u.flags & 8u) != 0u) { aux[i] = gelu(v); }
}

// Whether this invocation of the tiled form sums B's columns for dbias (see bit 5 above).
fn tile_sums_bias(form: u32, wid: vec3u, lid: vec3u) -> bool {
  return form == TN && (u.flags & DBIAS) != 0u && wid.y == 0u && lid.y == 0u;
}

// Returns the sums over all of K of its vec4 of B's columns when tile_sums_bias (else zeros).
fn matmul_tile(form: u32, wid: vec3u, lid: vec3u) -> vec4f {
  let tid = lid.y * 8u + lid.x;
  let m0 = wid.y * 32u;
  let n0 = wid.x * 32u;
  let db = tile_sums_bias(form, wid, lid);
  var bsum = vec4f(0.0);
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  for (var k0 = 0u; k0 < u.K; k0 += BK) {
    load_tiles(form, tid, m0, n0, k0);
    workgroupBarrier();
    for (var k = 0u; k < BK; k++) {
      let av = As[k * 8u + lid.y];
      let bv = Bs[k * 8u + lid.x];
      if (db) { bsum += bv; }
      acc0 += av.x * bv;
      acc1 += av.y * bv;
      acc2 += av.z * bv;
      acc3 += av.w * bv;
    }
    workgroupBarrier();
  }
  let row = m0 + lid.y * 4u;
  let colq = n0 / 4u + lid.x;
  store(row, colq, acc0);
  store(row + 1u, colq, acc1);
  store(row + 2u, colq, acc2);
  store(row + 3u, colq, acc3);
  return bsum;
}

@compute @workgroup_size(8, 8)
fn matmul_nn_v4(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) { _ = matmul_tile(NN, wid, lid); }

@compute @workgroup_size(8, 8)
fn matmul_nt_v4(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) { _ = matmul_tile(NT, wid, lid); }

@compute @workgroup_size(8, 8)
fn matmul_tn_v4(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let s = matmul_tile(TN, wid, lid);
  if (tile_sums_bias(TN, wid, lid)) { store_dbias(wid.x * 8u + lid.x, s); }
}

// ---------------------------------------------------------------------------------------------
// The same three layouts with the same 4x4 register block per invocation, read straight from
// storage (no workgroup memory, no barriers): matmul_{nn,nt,tn}_v4d. Where "shared" memory is
// ordinary CPU cache (SwiftShader), staging tiles is pure overhead and this form is faster;
// on GPUs the tiled form above is. ops.ts picks one per adapter; the bench measures both.
// Per step of 4 along K an invocation loads 8 vec4 and does 64 multiply-adds.
// Dispatch: (ceil(N/32), ceil(M/32)) workgroups of 8x8, as above.

// Row r of the block, clamped into the matrix (rows past M are computed and never stored).
fn crow(r: u32, n: u32) -> u32 { return min(r, n - 1u); }

// Whether this invocation of the direct form sums B's columns for dbias: the first 4 rows of C.
fn direct_sums_bias(form: u32, gid: vec3u) -> bool {
  return form == TN && (u.flags & DBIAS) != 0u && gid.y == 0u;
}

// Returns the sums over all of K of its vec4 of B's columns when direct_sums_bias (else zeros).
fn matmul_direct(form: u32, gid: vec3u) -> vec4f {
  let row = gid.y * 4u;
  let colq = gid.x;
  let M4 = u.M / 4u;
  let N4 = u.N / 4u;
  let K4 = u.K / 4u;
  if (row >= u.M || colq >= N4) { return vec4f(0.0); }
  let db = direct_sums_bias(form, gid);
  var bsum = vec4f(0.0);
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
  if (form == TN) {
    // A[K,M]: the 4 rows of the block at k are one vec4
    for (var k = 0u; k < u.K; k++) {
      let av = a[k * M4 + row / 4u];
      let bv = b[k * N4 + colq];
      if (db) { bsum += bv; }
      acc0 += av.x * bv;
      acc1 += av.y * bv;
      acc2 += av.z * bv;
      acc3 += av.w * bv;
    }
  } else {
    let r0 = crow(row, u.M) * K4;
    let r1 = crow(row + 1u, u.M) * K4;
    let r2 = crow(row + 2u, u.M) * K4;
    let r3 = crow(row + 3u, u.M) * K4;
    for (var kq = 0u; kq < K4; kq++) {
      let a0 = a[r0 + kq];
      let a1 = a[r1 + kq];
      let a2 = a[r2 + kq];
      let a3 = a[r3 + kq];
      if (form == NT) {
        // B[N,K]: columns n..n+3 of the block are 4 rows of B, each a vec4 along k
        let n = colq * 4u;
        let b0 = b[n * K4 + kq];
        let b1 = b[(n + 1u) * K4 + kq];
        let b2 = b[(n + 2u) * K4 + kq];
        let b3 = b[(n + 3u) * K4 + kq];
        acc0 += vec4f(dot(a0, b0), dot(a0, b1), dot(a0, b2), dot(a0, b3));
        acc1 += vec4f(dot(a1, b0), dot(a1, b1), dot(a1, b2), dot(a1, b3));
        acc2 += vec4f(dot(a2, b0), dot(a2, b1), dot(a2, b2), dot(a2, b3));
        acc3 += vec4f(dot(a3, b0), dot(a3, b1), dot(a3, b2), dot(a3, b3));
      } else {
        // B[K,N]: rows k..k+3 of B at columns n..n+3
        let k = kq * 4u;
        let b0 = b[k * N4 + colq];
        let b1 = b[(k + 1u) * N4 + colq];
        let b2 = b[(k + 2u) * N4 + colq];
        let b3 = b[(k + 3u) * N4 + colq];
        acc0 += a0.x * b0 + a0.y * b1 + a0.z * b2 + a0.w * b3;
        acc1 += a1.x * b0 + a1.y * b1 + a1.z * b2 + a1.w * b3;
        acc2 += a2.x * b0 + a2.y * b1 + a2.z * b2 + a2.w * b3;
        acc3 += a3.x * b0 + a3.y * b1 + a3.z * b2 + a3.w * b3;
      }
    }
  }
  store(row, colq, acc0);
  store(row + 1u, colq, acc1);
  store(row + 2u, colq, acc2);
  store(row + 3u, colq, acc3);
  return bsum;
}

@compute @workgroup_size(8, 8)
fn matmul_nn_v4d(@builtin(global_invocation_id) gid: vec3u) { _ = matmul_direct(NN, gid); }

@compute @workgroup_size(8, 8)
fn matmul_nt_v4d(@builtin(global_invocation_id) gid: vec3u) { _ = matmul_direct(NT, gid); }

@compute @workgroup_size(8, 8)
fn matmul_tn_v4d(@builtin(global_invocation_id) gid: vec3u) {
  let s = matmul_direct(TN, gid);
  if (direct_sums_bias(TN, gid)) { store_dbias(gid.x, s); }
}

// Matrix multiply in the three layouts a linear layer needs, so the backward never transposes;
// the TN layout also sums the columns of B on the way (the bias gradient, fused).
//
//   matmul_nn    C[M,N] (+)= A[M,K] · B[K,N] (+ bias[N])    forward:  y = x · W + b, W [in,out]
//   matmul_nt    C[M,N] (+)= A[M,K] · B[N,K]ᵀ               backward: dx = dy · Wᵀ
//   matmul_tn    C[M,N] (+)= A[K,M]ᵀ · B[K,N]               backward: dW = xᵀ · dy
//                (dbias[N] (+)= Σ_k B[k,N] with flag bit 5)  backward: db = Σ_rows dy
// flags: bit 0 = accumulate into C (C += …; dbias += … too), bit 1 = add bias[N],
// bit 2 = add res[M,N] (the residual stream, fused: residual2 = residual + atty·W + b without a
// separate add), bit 5 = TN only: also write the column sums of B into dbias.
//
// Bindings: 0 u: Params, 1 a, 2 b, 3 bias (read), 4 c (read_write), 5 res (read),
//           7 dbias (read_write; matmul_tn / matmul_tn_d only: the other entry points do not
//           use it, so their 'auto' layouts leave it out).
// Unused bias/res bindings still need a buffer: the caller binds any read-only one; an unused
// dbias needs a writable one that aliases no other writable binding (ops.ts has a dummy).
// Dispatch: (ceil(N/32), ceil(M/32)) workgroups of 8x8, a 4x4 block of C per invocation (see
//           Tiling below; matmul_*_d: the same blocks without workgroup memory).
// The bias gradient: the workgroups of the first row block of C (wid.y == 0) see every column
// of B over all of K; their first row of invocations (lid.y == 0) adds up the 4 columns of B it
// multiplies anyway, k = 0, 1, …, K − 1 in order (deterministic; both forms give the same sums),
// and writes them. One producer per dbias element, no extra dispatch, no atomics.
// The vec4 fast path of the same three layouts is matmul_vec4.wgsl.

struct Params { M: u32, N: u32, K: u32, flags: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> c: array<f32>;
@group(0) @binding(5) var<storage, read> res: array<f32>;
@group(0) @binding(7) var<storage, read_write> dbias: array<f32>;

// Tiling: a workgroup of 8x8 invocations computes a 32x32 block of C, each invocation a 4x4
// register block; K is walked in 16-wide slices staged in workgroup memory (As, Bs: 4 KiB).
// Register blocking amortises each barrier over 4·4·16 multiply-adds per invocation.
const BM = 32u;
const BN = 32u;
const BK = 16u;
var<workgroup> As: array<f32, 512>;   // As[k*BM + m] = A-tile (m, k)
var<workgroup> Bs: array<f32, 512>;   // Bs[k*BN + n] = B-tile (k, n)

const NN = 0u;
const NT = 1u;
const TN = 2u;
const DBIAS = 32u;   // flag bit 5

// Whether this invocation sums the columns of B for dbias: TN with the flag, first row block of
// C, first row of invocations (the 8 that hold row 0 of the block: every column of it once).
fn sums_bias(form: u32, wid: vec3u, lid: vec3u) -> bool {
  return form == TN && (u.flags & DBIAS) != 0u && wid.y == 0u && lid.y == 0u;
}

// dbias[n0..n0+3] (+)= s, columns past N skipped.
fn store_dbias(n0: u32, s: vec4f) {
  for (var j = 0u; j < 4u; j++) {
    let col = n0 + j;
    if (col >= u.N) { return; }
    var v = s[j];
    if ((u.flags & 1u) != 0u) { v += dbias[col]; }
    dbias[col] = v;
  }
}

// Element (m, k) of op(A) and (k, n) of op(B) for each layout, 0 outside the matrix.
fn load_a(form: u32, m: u32, k: u32) -> f32 {
  if (m >= u.M || k >= u.K) { return 0.0; }
  if (form == TN) { return a[k * u.M + m]; }
  return a[m * u.K + k];
}
fn load_b(form: u32, k: u32, n: u32) -> f32 {
  if (k >= u.K || n >= u.N) { return 0.0; }
  if (form == NT) { return b[n * u.K + k]; }
  return b[k * u.N + n];
}

fn store(row: u32, col: u32, acc: f32) {
  if (row >= u.M || col >= u.N) { return; }
  var v = acc;
  if ((u.flags & 2u) != 0u) { v += bias[col]; }
  let i = row * u.N + col;
  if ((u.flags & 4u) != 0u) { v += res[i]; }
  if ((u.flags & 1u) != 0u) { v += c[i]; }
  c[i] = v;
}

// Returns the column sums of its 4 columns of B over all of K when sums_bias (else zeros).
fn matmul_tile(form: u32, wid: vec3u, lid: vec3u) -> vec4f {
  let tid = lid.y * 8u + lid.x;
  let m0 = wid.y * BM;
  let n0 = wid.x * BN;
  let db = sums_bias(form, wid, lid);
  var acc: array<vec4f, 4>;
  var bsum = vec4f(0.0);
  for (var k0 = 0u; k0 < u.K; k0 += BK) {
    for (var i = 0u; i < 8u; i++) {
      let e = tid + i * 64u;
      As[e] = load_a(form, m0 + e % BM, k0 + e / BM);
      Bs[e] = load_b(form, k0 + e / BN, n0 + e % BN);
    }
    workgroupBarrier();
    for (var k = 0u; k < BK; k++) {
      let av = vec4f(As[k * BM + lid.y * 4u], As[k * BM + lid.y * 4u + 1u], As[k * BM + lid.y * 4u + 2u], As[k * BM + lid.y * 4u + 3u]);
      let bv = vec4f(Bs[k * BN + lid.x * 4u], Bs[k * BN + lid.x * 4u + 1u], Bs[k * BN + lid.x * 4u + 2u], Bs[k * BN + lid.x * 4u + 3u]);
      if (db) { bsum += bv; }
      acc[0] += av.x * bv;
      acc[1] += av.y * bv;
      acc[2] += av.z * bv;
      acc[3] += av.w * bv;
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    for (var j = 0u; j < 4u; j++) {
      store(m0 + lid.y * 4u + i, n0 + lid.x * 4u + j, acc[i][j]);
    }
  }
  return bsum;
}

// The direct form (CPU adapters, where workgroup memory is plain cache and every barrier is a
// costly context switch): the same 4x4 register block per invocation, read straight from
// storage with no workgroup memory and no barriers. The sum runs over k in the same order as
// matmul_tile (whose zero padding adds exact zeros), so both forms give the same result.
fn matmul_direct(form: u32, wid: vec3u, lid: vec3u) -> vec4f {
  let m0 = wid.y * BM + lid.y * 4u;
  let n0 = wid.x * BN + lid.x * 4u;
  let db = sums_bias(form, wid, lid);
  var acc: array<vec4f, 4>;
  var bsum = vec4f(0.0);
  for (var k = 0u; k < u.K; k++) {
    let av = vec4f(load_a(form, m0, k), load_a(form, m0 + 1u, k), load_a(form, m0 + 2u, k), load_a(form, m0 + 3u, k));
    let bv = vec4f(load_b(form, k, n0), load_b(form, k, n0 + 1u), load_b(form, k, n0 + 2u), load_b(form, k, n0 + 3u));
    if (db) { bsum += bv; }
    acc[0] += av.x * bv;
    acc[1] += av.y * bv;
    acc[2] += av.z * bv;
    acc[3] += av.w * bv;
  }
  for (var i = 0u; i < 4u; i++) {
    for (var j = 0u; j < 4u; j++) {
      store(m0 + i, n0 + j, acc[i][j]);
    }
  }
  return bsum;
}

@compute @workgroup_size(8, 8)
fn matmul_nn(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) { _ = matmul_tile(NN, wid, lid); }

@compute @workgroup_size(8, 8)
fn matmul_nn_d(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) { _ = matmul_direct(NN, wid, lid); }

@compute @workgroup_size(8, 8)
fn matmul_nt_d(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) { _ = matmul_direct(NT, wid, lid); }

@compute @workgroup_size(8, 8)
fn matmul_tn_d(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let s = matmul_direct(TN, wid, lid);
  if (sums_bias(TN, wid, lid)) { store_dbias(wid.x * BN + lid.x * 4u, s); }
}

@compute @workgroup_size(8, 8)
fn matmul_nt(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) { _ = matmul_tile(NT, wid, lid); }

@compute @workgroup_size(8, 8)
fn matmul_tn(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let s = matmul_tile(TN, wid, lid);
  if (sums_bias(TN, wid, lid)) { store_dbias(wid.x * BN + lid.x * 4u, s); }
}

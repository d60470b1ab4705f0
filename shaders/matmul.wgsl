// Matrix multiply in the three layouts a linear layer needs, so the backward never transposes,
// plus the bias gradient as a column reduction.
//
//   matmul_nn    C[M,N] (+)= A[M,K] · B[K,N] (+ bias[N])    forward:  y = x · W + b, W [in,out]
//   matmul_nt    C[M,N] (+)= A[M,K] · B[N,K]ᵀ               backward: dx = dy · Wᵀ
//   matmul_tn    C[M,N] (+)= A[K,M]ᵀ · B[K,N]               backward: dW = xᵀ · dy
//   bias_backward  C[N] (+)= Σ_m A[m,N]                      backward: db = Σ_rows dy
// flags: bit 0 = accumulate into C (C += …), bit 1 = add bias[N], bit 2 = add res[M,N]
// (the residual stream, fused: residual2 = residual + atty·W + b without a separate add).
//
// Bindings: 0 u: Params, 1 a, 2 b, 3 bias (read), 4 c (read_write), 5 res (read).
// Unused bias/res bindings still need a buffer: the caller binds any read-only one.
// Dispatch: matmul_*: (ceil(N/16), ceil(M/16)) workgroups of 16x16, one output element per
//           invocation, K walked in 16-wide tiles staged in workgroup memory (2 KiB);
//           bias_backward: ceil(N/256) workgroups of 256, one column per invocation.
// A later optimisation (register blocking, vec4 loads) keeps these entry points and bindings.

struct Params { M: u32, N: u32, K: u32, flags: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read> bias: array<f32>;
@group(0) @binding(4) var<storage, read_write> c: array<f32>;
@group(0) @binding(5) var<storage, read> res: array<f32>;

const TILE = 16u;
var<workgroup> As: array<array<f32, 16>, 16>;   // As[m][k]
var<workgroup> Bs: array<array<f32, 16>, 16>;   // Bs[k][n]

fn store(row: u32, col: u32, acc: f32) {
  if (row >= u.M || col >= u.N) { return; }
  var v = acc;
  if ((u.flags & 2u) != 0u) { v += bias[col]; }
  let i = row * u.N + col;
  if ((u.flags & 4u) != 0u) { v += res[i]; }
  if ((u.flags & 1u) != 0u) { v += c[i]; }
  c[i] = v;
}

fn tile_product(ly: u32, lx: u32) -> f32 {
  var s = 0.0;
  for (var k = 0u; k < TILE; k++) { s += As[ly][k] * Bs[k][lx]; }
  return s;
}

@compute @workgroup_size(16, 16)
fn matmul_nn(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let row = wid.y * TILE + lid.y;
  let col = wid.x * TILE + lid.x;
  var acc = 0.0;
  for (var k0 = 0u; k0 < u.K; k0 += TILE) {
    let ka = k0 + lid.x;
    As[lid.y][lid.x] = select(0.0, a[row * u.K + ka], row < u.M && ka < u.K);
    let kb = k0 + lid.y;
    Bs[lid.y][lid.x] = select(0.0, b[kb * u.N + col], kb < u.K && col < u.N);
    workgroupBarrier();
    acc += tile_product(lid.y, lid.x);
    workgroupBarrier();
  }
  store(row, col, acc);
}

@compute @workgroup_size(16, 16)
fn matmul_nt(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let row = wid.y * TILE + lid.y;
  let col = wid.x * TILE + lid.x;
  var acc = 0.0;
  for (var k0 = 0u; k0 < u.K; k0 += TILE) {
    let ka = k0 + lid.x;
    As[lid.y][lid.x] = select(0.0, a[row * u.K + ka], row < u.M && ka < u.K);
    // Bs[k][n] = B[n0 + n, k0 + k]: thread (y = k, x = n)
    let kb = k0 + lid.y;
    Bs[lid.y][lid.x] = select(0.0, b[col * u.K + kb], kb < u.K && col < u.N);
    workgroupBarrier();
    acc += tile_product(lid.y, lid.x);
    workgroupBarrier();
  }
  store(row, col, acc);
}

@compute @workgroup_size(16, 16)
fn matmul_tn(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u) {
  let row = wid.y * TILE + lid.y;
  let col = wid.x * TILE + lid.x;
  var acc = 0.0;
  for (var k0 = 0u; k0 < u.K; k0 += TILE) {
    // As[m][k] = A[k0 + k, m0 + m]: thread (y = m, x = k)
    let ka = k0 + lid.x;
    As[lid.y][lid.x] = select(0.0, a[ka * u.M + row], row < u.M && ka < u.K);
    let kb = k0 + lid.y;
    Bs[lid.y][lid.x] = select(0.0, b[kb * u.N + col], kb < u.K && col < u.N);
    workgroupBarrier();
    acc += tile_product(lid.y, lid.x);
    workgroupBarrier();
  }
  store(row, col, acc);
}

@compute @workgroup_size(256)
fn bias_backward(@builtin(global_invocation_id) gid: vec3u) {
  let col = gid.x;
  if (col >= u.N) { return; }
  var s = 0.0;
  for (var m = 0u; m < u.M; m++) { s += a[m * u.N + col]; }
  if ((u.flags & 1u) != 0u) { s += c[col]; }
  c[col] = s;
}

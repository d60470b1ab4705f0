// The plain vec4 matmul: the baseline the bench measures the register-blocked tiles against
// (it is not used by the model).
//
//   matmul_plain_vec4   C[M,N] = A[M,K] · B[N,K]ᵀ
//                       one output element per invocation, c[m,n] = Σ_k4 dot(a4[m,k4], b4[n,k4]),
//                       both operands read as vec4 along K straight from storage (no workgroup
//                       tiling, no register blocking). Needs K % 4 == 0.
//
// Bindings: 0 u: Params, 1 a [M,K/4] vec4, 2 b [N,K/4] vec4, 4 c [M,N]
// Dispatch: (ceil(N/16), ceil(M/16)) workgroups of 16x16.

struct Params { M: u32, N: u32, K: u32, flags: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> a: array<vec4f>;
@group(0) @binding(2) var<storage, read> b: array<vec4f>;
@group(0) @binding(4) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(16, 16)
fn matmul_plain_vec4(@builtin(global_invocation_id) gid: vec3u) {
  let n = gid.x;
  let m = gid.y;
  if (m >= u.M || n >= u.N) { return; }
  let K4 = u.K / 4u;
  var s = vec4f(0.0);
  for (var k = 0u; k < K4; k++) { s += a[m * K4 + k] * b[n * K4 + k]; }
  c[m * u.N + n] = s.x + s.y + s.z + s.w;
}

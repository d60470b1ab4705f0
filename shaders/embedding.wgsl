// Embedding: token + position lookup, and its backward as gathers (no float atomics).
//
// Forward (llm.c encoder_forward):
//   encoder_forward   out[n,:] = wte[tokens[n],:] + wpe[n % T,:]            n = b*T + t
//   encoder_decode    out[r,:] = wte[tokens[r*S + pos],:] + wpe[pos,:]      one position per row,
//                     pos from `step` (the rollout's token table is [R, S], S = stride)
// Backward: the reference scatter-adds dout into the looked-up rows; here each output element
// gathers what would be scattered into it, so the result is deterministic without atomics:
//   wte_index         a counting sort of the token ids: index[v] = first slot of token v,
//                     index[V] = N, index[V+1+slot] = the positions n with tokens[n] = v in
//                     increasing n (one workgroup: O(V·N/64 + V) per invocation)
//   wte_backward      dwte[v,d] = Σ_{n : tokens[n] = v} dout[n,d], summed over v's slots in
//                     increasing n (one thread per (v,d): O(count(v)), not O(N))
//   wpe_backward      dwpe[t,d] = Σ_b dout[b*T+t,d]  (t < T; rows T..Tmax-1 get 0) one thread per (t,d)
//
// Bindings: 0 u: Params, 1 tokens: i32[], 2 wte, 3 wpe, 4 out (forward)
//           5 dout, 6 dwte, 7 dwpe (backward), 8 step: Step (decode only),
//           9 index: i32 [V + 1 + N] (wte_index writes, wte_backward reads)
// Dispatch: ceil(count / 256) workgroups of 256, folded into (x, y) when x would exceed 65535;
// count = N*D (forward), R*D (decode), V*D (wte_backward), Tmax*D (wpe_backward);
// wte_index: 1 workgroup of 64.

struct Params {
  N: u32,      // rows (B*T, or R for decode)
  T: u32,      // positions per row (forward), token-table stride S (decode)
  D: u32,      // channels
  V: u32,      // vocabulary (wte_backward) / Tmax rows of wpe (wpe_backward)
}
struct Step { pos: u32, _a: u32, _b: u32, _c: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> tokens: array<i32>;
@group(0) @binding(2) var<storage, read> wte: array<f32>;
@group(0) @binding(3) var<storage, read> wpe: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<storage, read> dout: array<f32>;
@group(0) @binding(6) var<storage, read_write> dwte: array<f32>;
@group(0) @binding(7) var<storage, read_write> dwpe: array<f32>;
@group(0) @binding(8) var<uniform> step: Step;
@group(0) @binding(9) var<storage, read_write> index: array<i32>;

fn flat(gid: vec3u, nwg: vec3u) -> u32 { return gid.x + gid.y * nwg.x * 256u; }

@compute @workgroup_size(256)
fn encoder_forward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.N * u.D) { return; }
  let n = i / u.D;
  let d = i % u.D;
  let t = n % u.T;
  out[i] = wte[u32(tokens[n]) * u.D + d] + wpe[t * u.D + d];
}

@compute @workgroup_size(256)
fn encoder_decode(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.N * u.D) { return; }
  let r = i / u.D;
  let d = i % u.D;
  let tok = u32(tokens[r * u.T + step.pos]);
  out[i] = wte[tok * u.D + d] + wpe[step.pos * u.D + d];
}

@compute @workgroup_size(64)
fn wte_index(@builtin(local_invocation_id) lid: vec3u) {
  // counts per token id
  for (var v = lid.x; v < u.V; v += 64u) {
    var c = 0;
    for (var n = 0u; n < u.N; n++) { c += select(0, 1, tokens[n] == i32(v)); }
    index[v] = c;
  }
  storageBarrier();
  workgroupBarrier();
  // exclusive prefix sum (V is small: one invocation)
  if (lid.x == 0u) {
    var run = 0;
    for (var v = 0u; v < u.V; v++) { let c = index[v]; index[v] = run; run += c; }
    index[u.V] = run;
  }
  storageBarrier();
  workgroupBarrier();
  // positions of each id, in increasing n
  for (var v = lid.x; v < u.V; v += 64u) {
    var slot = u32(index[v]);
    for (var n = 0u; n < u.N; n++) {
      if (tokens[n] == i32(v)) { index[u.V + 1u + slot] = i32(n); slot++; }
    }
  }
}

@compute @workgroup_size(256)
fn wte_backward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.V * u.D) { return; }
  let v = i / u.D;
  let d = i % u.D;
  var s = 0.0;
  let end = u32(index[v + 1u]);
  for (var p = u32(index[v]); p < end; p++) { s += dout[u32(index[u.V + 1u + p]) * u.D + d]; }
  dwte[i] = s;
}

@compute @workgroup_size(256)
fn wpe_backward(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = flat(gid, nwg);
  if (i >= u.V * u.D) { return; }   // u.V = Tmax here
  let t = i / u.D;
  let d = i % u.D;
  var s = 0.0;
  if (t < u.T) {
    let B = u.N / u.T;
    for (var b = 0u; b < B; b++) { s += dout[(b * u.T + t) * u.D + d]; }
  }
  dwpe[i] = s;
}

// Token selection for batched decoding, with the counter-based RNG shared with the reference.
//
// hash4 / uniform4 are src/model/rng.ts bit for bit (u32 multiplication wraps like Math.imul):
//   mix32 = lowbias32,  hash4(a,b,c,d) = mix32(mix32(mix32(mix32(a ^ 0x9e3779b9) ^ b) ^ c) ^ d)
//   uniform4 = (hash4 >> 8) / 2^24
//
//   sample_next   per rollout row r, after the forward of position pos (from `step`):
//                 the next position j = pos + 1 holds a prompt token (j < promptLen[r]: nothing to
//                 do) or the row's next response token i = j − promptLen[r]. If the row is still
//                 live (no EOS yet, i < budget[r]) draw u = uniform4(seed, stream, r, i) and pick
//                 the token exactly as the reference's sampleToken:
//                   temperature 0: argmax (ties to the lowest id), log-prob at temperature 1;
//                   otherwise s_j = z_j/τ, m = max s, e_j = exp(s_j − m), S = Σ e_j (in order),
//                   the first j with cumulative Σ e > u·S (else the last j with e_j > 0);
//                   logprob = s_j − m − log S.
//                 tokens[r,j] = token, logprobs[r,j] = logprob; state[r] = responses tokens so far,
//                 with bit 31 set once the row has stopped (EOS).
//
// Bindings: 0 u: Params, 1 logits [R,V], 2 tokens i32 [R,S], 3 rows u32 [R,2] (promptLen, budget),
//           4 state u32 [R], 5 logprobs f32 [R,S], 6 step: Step
// Dispatch: ceil(R/64) workgroups of 64, one row per invocation.

struct Params { R: u32, V: u32, S: u32, seed: u32, stream: u32, temperature: f32, eos: u32, _pad: u32 }
struct Step { pos: u32, _a: u32, _b: u32, _c: u32 }

@group(0) @binding(0) var<uniform> u: Params;
@group(0) @binding(1) var<storage, read> logits: array<f32>;
@group(0) @binding(2) var<storage, read_write> tokens: array<i32>;
@group(0) @binding(3) var<storage, read> rows: array<u32>;
@group(0) @binding(4) var<storage, read_write> state: array<u32>;
@group(0) @binding(5) var<storage, read_write> logprobs: array<f32>;
@group(0) @binding(6) var<uniform> step: Step;

const STOPPED = 0x80000000u;

fn mix32(x0: u32) -> u32 {
  var x = x0;
  x ^= x >> 16u;
  x *= 0x7feb352du;
  x ^= x >> 15u;
  x *= 0x846ca68bu;
  x ^= x >> 16u;
  return x;
}

fn hash4(a: u32, b: u32, c: u32, d: u32) -> u32 {
  var h = mix32(a ^ 0x9e3779b9u);
  h = mix32(h ^ b);
  h = mix32(h ^ c);
  h = mix32(h ^ d);
  return h;
}

fn uniform4(a: u32, b: u32, c: u32, d: u32) -> f32 {
  return f32(hash4(a, b, c, d) >> 8u) / 16777216.0;
}

@compute @workgroup_size(64)
fn sample_next(@builtin(global_invocation_id) gid: vec3u) {
  let r = gid.x;
  if (r >= u.R) { return; }
  let j = step.pos + 1u;
  let promptLen = rows[2u * r];
  let budget = rows[2u * r + 1u];
  let st = state[r];
  if (j < promptLen || (st & STOPPED) != 0u) { return; }
  let i = st;   // response tokens so far
  if (i >= budget || j >= u.S) { return; }
  let z = r * u.V;
  let tau = select(1.0, u.temperature, u.temperature > 0.0);
  var m = -3.4e38;
  var argmax = 0u;
  for (var k = 0u; k < u.V; k++) {
    let s = logits[z + k] / tau;
    if (s > m) { m = s; argmax = k; }
  }
  var S = 0.0;
  for (var k = 0u; k < u.V; k++) { S += exp(logits[z + k] / tau - m); }
  var token = argmax;
  if (u.temperature > 0.0) {
    let threshold = uniform4(u.seed, u.stream, r, i) * S;
    var c = 0.0;
    var last = argmax;
    var found = false;
    for (var k = 0u; k < u.V; k++) {
      let e = exp(logits[z + k] / tau - m);
      if (e > 0.0) { last = k; }
      c += e;
      if (c > threshold) { token = k; found = true; break; }
    }
    if (!found) { token = last; }
  }
  tokens[r * u.S + j] = i32(token);
  logprobs[r * u.S + j] = logits[z + token] / tau - m - log(S);
  var next = i + 1u;
  if (token == u.eos) { next |= STOPPED; }
  state[r] = next;
}

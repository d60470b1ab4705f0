/**
 * The operations of the canonical model as flat CPU functions: the clean, minimal reference.
 *
 * In the style of llm.c's train_gpt2.c: one pair of plain-loop functions per operation family,
 * `xxxForward` caching what `xxxBackward` needs, and every backward ACCUMULATING (+=) into its
 * gradient arrays, so the caller zeroes gradients once per step and shared inputs (the
 * residual stream) sum their gradients for free. These functions are the oracle the WGSL
 * kernels are checked against (shaders/*.wgsl hold the same pairs).
 *
 * Shapes, named once and used everywhere:
 *   B batch, T time (sequence positions), D = C channels (d_model), V vocabulary,
 *   H heads, hs = D / H head size, N = B*T rows, OC output channels.
 * Every array is row-major and flat. Functions are generic over `Floats` so the gradient
 * check can run the very same code in float64; sums are accumulated in JS numbers (float64).
 */

/** A flat float buffer: Float32Array for the model, Float64Array for the gradient check. */
export type Floats = Float32Array | Float64Array;

// ---------------------------------------------------------------------------------------------
// embedding

/**
 * Token + position embedding.
 *   out[b,t,:] = wte[inputs[b,t], :] + wpe[t, :]          positions t = 0..T-1
 * out [B,T,D], inputs [B,T] token ids, wte [V,D], wpe [≥T,D].
 */
export function embeddingForward(out: Floats, inputs: Int32Array, wte: Floats, wpe: Floats, B: number, T: number, D: number): void {
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const o = (b * T + t) * D;
      const ix = inputs[b * T + t] * D;
      const p = t * D;
      for (let i = 0; i < D; i++) out[o + i] = wte[ix + i] + wpe[p + i];
    }
  }
}

/** Embedding of one decoding position for R rows: out[r,:] = wte[tokens[r], :] + wpe[pos, :]. */
export function embeddingDecodeForward(out: Floats, tokens: Int32Array, wte: Floats, wpe: Floats, pos: number, R: number, D: number): void {
  for (let r = 0; r < R; r++) {
    const ix = tokens[r] * D;
    for (let i = 0; i < D; i++) out[r * D + i] = wte[ix + i] + wpe[pos * D + i];
  }
}

/**
 * Backward of the embedding: a scatter-add of the output gradient into the looked-up rows.
 *   dwte[inputs[b,t], :] += dout[b,t,:],   dwpe[t, :] += dout[b,t,:]
 */
export function embeddingBackward(dwte: Floats, dwpe: Floats, dout: Floats, inputs: Int32Array, B: number, T: number, D: number): void {
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < T; t++) {
      const o = (b * T + t) * D;
      const ix = inputs[b * T + t] * D;
      const p = t * D;
      for (let i = 0; i < D; i++) {
        dwte[ix + i] += dout[o + i];
        dwpe[p + i] += dout[o + i];
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// matmul (linear layer)

/**
 * Linear layer with weights stored [in, out]:
 *   out[n,o] = bias[o] + Σ_c inp[n,c] · w[c,o]
 * out [N,OC], inp [N,C], w [C,OC], bias [OC] or null.
 */
export function matmulForward(out: Floats, inp: Floats, w: Floats, bias: Floats | null, N: number, C: number, OC: number): void {
  const acc = new Float64Array(OC);
  for (let n = 0; n < N; n++) {
    for (let o = 0; o < OC; o++) acc[o] = bias ? bias[o] : 0;
    for (let c = 0; c < C; c++) {
      const x = inp[n * C + c];
      const wr = c * OC;
      for (let o = 0; o < OC; o++) acc[o] += x * w[wr + o];
    }
    for (let o = 0; o < OC; o++) out[n * OC + o] = acc[o];
  }
}

/**
 * Backward of the linear layer (accumulates):
 *   dinp[n,c] += Σ_o dout[n,o] · w[c,o]
 *   dw[c,o]   += Σ_n inp[n,c] · dout[n,o]
 *   dbias[o]  += Σ_n dout[n,o]
 */
export function matmulBackward(dinp: Floats, dw: Floats, dbias: Floats | null, dout: Floats, inp: Floats, w: Floats, N: number, C: number, OC: number): void {
  for (let n = 0; n < N; n++) {
    const dr = n * OC;
    for (let c = 0; c < C; c++) {
      const wr = c * OC;
      let s = 0;
      for (let o = 0; o < OC; o++) s += dout[dr + o] * w[wr + o];
      dinp[n * C + c] += s;
    }
  }
  // dw row by row in float64 (contiguous rows; float32 sums over N would lose digits)
  const acc = new Float64Array(C * OC);
  for (let n = 0; n < N; n++) {
    const dr = n * OC;
    for (let c = 0; c < C; c++) {
      const x = inp[n * C + c];
      if (x === 0) continue;
      const ar = c * OC;
      for (let o = 0; o < OC; o++) acc[ar + o] += x * dout[dr + o];
    }
  }
  for (let i = 0; i < C * OC; i++) dw[i] += acc[i];
  if (dbias) {
    for (let o = 0; o < OC; o++) {
      let s = 0;
      for (let n = 0; n < N; n++) s += dout[n * OC + o];
      dbias[o] += s;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// layernorm

/** LayerNorm epsilon (PyTorch's default). */
export const LAYERNORM_EPS = 1e-5;

/**
 * LayerNorm over the last axis, biased variance:
 *   μ = (1/C) Σ_i x_i,   σ² = (1/C) Σ_i (x_i − μ)²,   rstd = 1/√(σ² + 1e-5)
 *   out_i = (x_i − μ) · rstd · gamma_i + beta_i
 * out, inp [N,C]; mean, rstd [N] (cached for the backward); gamma, beta [C].
 */
export function layernormForward(out: Floats, mean: Floats, rstd: Floats, inp: Floats, gamma: Floats, beta: Floats, N: number, C: number): void {
  for (let n = 0; n < N; n++) {
    const x = n * C;
    let m = 0;
    for (let i = 0; i < C; i++) m += inp[x + i];
    m /= C;
    let v = 0;
    for (let i = 0; i < C; i++) {
      const d = inp[x + i] - m;
      v += d * d;
    }
    v /= C;
    const s = 1 / Math.sqrt(v + LAYERNORM_EPS);
    for (let i = 0; i < C; i++) out[x + i] = (inp[x + i] - m) * s * gamma[i] + beta[i];
    mean[n] = m;
    rstd[n] = s;
  }
}

/**
 * Backward of LayerNorm (accumulates). With x̂_i = (x_i − μ)·rstd and g_i = gamma_i · dout_i:
 *   dbeta_i  += dout_i
 *   dgamma_i += x̂_i · dout_i
 *   dinp_i   += rstd · ( g_i − mean_j(g_j) − x̂_i · mean_j(g_j · x̂_j) )
 */
export function layernormBackward(dinp: Floats, dgamma: Floats, dbeta: Floats, dout: Floats, inp: Floats, gamma: Floats, mean: Floats, rstd: Floats, N: number, C: number): void {
  for (let n = 0; n < N; n++) {
    const x = n * C;
    const m = mean[n];
    const s = rstd[n];
    let gMean = 0;
    let gxMean = 0;
    for (let i = 0; i < C; i++) {
      const xhat = (inp[x + i] - m) * s;
      const g = gamma[i] * dout[x + i];
      gMean += g;
      gxMean += g * xhat;
    }
    gMean /= C;
    gxMean /= C;
    for (let i = 0; i < C; i++) {
      const xhat = (inp[x + i] - m) * s;
      const g = gamma[i] * dout[x + i];
      dbeta[i] += dout[x + i];
      dgamma[i] += xhat * dout[x + i];
      dinp[x + i] += s * (g - gMean - xhat * gxMean);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// causal multi-head self-attention

/**
 * Causal multi-head attention from a fused qkv tensor.
 * qkv [B,T,3D]: per position [q (D) | k (D) | v (D)]; head h uses columns h·hs..(h+1)·hs of each.
 *   preatt[b,h,t,t2] = scale · q_t · k_t2,   scale = 1/√hs,   for t2 ≤ t
 *   att[b,h,t,:]     = softmax over t2 ≤ t (max-subtracted), 0 for t2 > t
 *   out[b,t,h·hs+i]  = Σ_{t2≤t} att[b,h,t,t2] · v_t2[i]
 * out [B,T,D]; preatt, att [B,H,T,T] (cached; entries with t2 > t are written 0).
 */
export function attentionForward(out: Floats, preatt: Floats, att: Floats, qkv: Floats, B: number, T: number, D: number, H: number): void {
  const hs = D / H;
  const C3 = 3 * D;
  const scale = 1 / Math.sqrt(hs);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      for (let t = 0; t < T; t++) {
        const q = (b * T + t) * C3 + h * hs;
        const row = ((b * H + h) * T + t) * T;
        // pass 1: scores and their max
        let maxval = -Infinity;
        for (let t2 = 0; t2 <= t; t2++) {
          const k = (b * T + t2) * C3 + D + h * hs;
          let s = 0;
          for (let i = 0; i < hs; i++) s += qkv[q + i] * qkv[k + i];
          s *= scale;
          preatt[row + t2] = s;
          if (s > maxval) maxval = s;
        }
        // pass 2: exp and sum, then normalise; the future is masked to exactly 0
        let sum = 0;
        for (let t2 = 0; t2 <= t; t2++) {
          const e = Math.exp(preatt[row + t2] - maxval);
          att[row + t2] = e;
          sum += e;
        }
        const inv = 1 / sum;
        for (let t2 = 0; t2 < T; t2++) {
          if (t2 <= t) att[row + t2] *= inv;
          else {
            att[row + t2] = 0;
            preatt[row + t2] = 0;
          }
        }
        // pass 3: weighted sum of values
        const o = (b * T + t) * D + h * hs;
        for (let i = 0; i < hs; i++) {
          let s = 0;
          for (let t2 = 0; t2 <= t; t2++) s += att[row + t2] * qkv[(b * T + t2) * C3 + 2 * D + h * hs + i];
          out[o + i] = s;
        }
      }
    }
  }
}

/**
 * Backward of causal attention (accumulates into dqkv, datt, dpreatt; datt and dpreatt are
 * scratch [B,H,T,T] the caller zeroes). With a = att[b,h,t,:]:
 *   datt[t2]     += dout_t · v_t2                         dv_t2 += a[t2] · dout_t
 *   dpreatt[t2]  += a[t2] · (datt[t2] − Σ_j a[j]·datt[j])   (softmax backward)
 *   dq_t         += scale · Σ_t2 dpreatt[t2] · k_t2          dk_t2 += scale · dpreatt[t2] · q_t
 */
export function attentionBackward(dqkv: Floats, dpreatt: Floats, datt: Floats, dout: Floats, qkv: Floats, att: Floats, B: number, T: number, D: number, H: number): void {
  const hs = D / H;
  const C3 = 3 * D;
  const scale = 1 / Math.sqrt(hs);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      for (let t = 0; t < T; t++) {
        const row = ((b * H + h) * T + t) * T;
        const q = (b * T + t) * C3 + h * hs;
        const dO = (b * T + t) * D + h * hs;
        // value accumulation
        for (let t2 = 0; t2 <= t; t2++) {
          const v = (b * T + t2) * C3 + 2 * D + h * hs;
          let s = 0;
          for (let i = 0; i < hs; i++) {
            s += qkv[v + i] * dout[dO + i];
            dqkv[v + i] += att[row + t2] * dout[dO + i];
          }
          datt[row + t2] += s;
        }
        // softmax: the Jacobian a_j(δ_jk − a_k) contracted in O(T)
        let dot = 0;
        for (let t2 = 0; t2 <= t; t2++) dot += att[row + t2] * datt[row + t2];
        for (let t2 = 0; t2 <= t; t2++) dpreatt[row + t2] += att[row + t2] * (datt[row + t2] - dot);
        // q · k
        for (let t2 = 0; t2 <= t; t2++) {
          const k = (b * T + t2) * C3 + D + h * hs;
          const g = dpreatt[row + t2] * scale;
          for (let i = 0; i < hs; i++) {
            dqkv[q + i] += qkv[k + i] * g;
            dqkv[k + i] += qkv[q + i] * g;
          }
        }
      }
    }
  }
}

/**
 * One decoding position of causal attention with a KV cache (all R rows at the same position).
 * kcache, vcache [R,S,D]: row r's keys and values of positions 0..S-1. First writes the k and v
 * of qkv[r] (layout as in attentionForward) at position pos, then for each head h:
 *   s[t2] = scale · q · kcache[r,t2]  (t2 = 0..pos),  a = softmax(s) (max-subtracted),
 *   out[r, h·hs+i] = Σ_t2 a[t2] · vcache[r,t2,h·hs+i]
 * Same arithmetic, in the same order, as row pos of attentionForward: the cached decoder and
 * the full forward give bit-identical results. out [R,D], qkv [R,3D].
 */
export function attentionDecodeForward(out: Floats, kcache: Floats, vcache: Floats, qkv: Floats, pos: number, R: number, S: number, D: number, H: number): void {
  const hs = D / H;
  const scale = 1 / Math.sqrt(hs);
  // scratch of the caller's float type: attentionForward rounds its preatt/att the same way
  const scores = out instanceof Float32Array ? new Float32Array(pos + 1) : new Float64Array(pos + 1);
  for (let r = 0; r < R; r++) {
    const q = r * 3 * D;
    const c = (r * S + pos) * D;
    for (let i = 0; i < D; i++) {
      kcache[c + i] = qkv[q + D + i];
      vcache[c + i] = qkv[q + 2 * D + i];
    }
    for (let h = 0; h < H; h++) {
      let maxval = -Infinity;
      for (let t2 = 0; t2 <= pos; t2++) {
        const k = (r * S + t2) * D + h * hs;
        let sc = 0;
        for (let i = 0; i < hs; i++) sc += qkv[q + h * hs + i] * kcache[k + i];
        sc *= scale;
        scores[t2] = sc;
        if (sc > maxval) maxval = sc;
      }
      let sum = 0;
      for (let t2 = 0; t2 <= pos; t2++) {
        const e = Math.exp(scores[t2] - maxval);
        scores[t2] = e;
        sum += e;
      }
      const inv = 1 / sum;
      for (let t2 = 0; t2 <= pos; t2++) scores[t2] *= inv;
      for (let i = 0; i < hs; i++) {
        let o = 0;
        for (let t2 = 0; t2 <= pos; t2++) o += scores[t2] * vcache[(r * S + t2) * D + h * hs + i];
        out[r * D + h * hs + i] = o;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// GELU (tanh form)

const GELU_SCALE = Math.sqrt(2 / Math.PI);

/** GELU, tanh approximation (PyTorch approximate='tanh'): out = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). */
export function geluForward(out: Floats, inp: Floats, N: number): void {
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    out[i] = 0.5 * x * (1 + Math.tanh(GELU_SCALE * (x + 0.044715 * x * x * x)));
  }
}

/**
 * Backward of tanh-GELU (accumulates). With u = √(2/π)(x + 0.044715x³), th = tanh(u):
 *   dinp += dout · ( 0.5(1 + th) + 0.5·x·(1 − th²)·√(2/π)(1 + 3·0.044715·x²) )
 * (sech² is written 1 − tanh² so large |u| cannot overflow cosh.)
 */
export function geluBackward(dinp: Floats, inp: Floats, dout: Floats, N: number): void {
  for (let i = 0; i < N; i++) {
    const x = inp[i];
    const th = Math.tanh(GELU_SCALE * (x + 0.044715 * x * x * x));
    const local = 0.5 * (1 + th) + 0.5 * x * (1 - th * th) * GELU_SCALE * (1 + 3 * 0.044715 * x * x);
    dinp[i] += local * dout[i];
  }
}

// ---------------------------------------------------------------------------------------------
// residual

/** out = a + b, elementwise over N. (Its backward is "add dout to both", done inline by the model.) */
export function residualForward(out: Floats, a: Floats, b: Floats, N: number): void {
  for (let i = 0; i < N; i++) out[i] = a[i] + b[i];
}

/** Backward of the residual add (accumulates): da += dout, db += dout. */
export function residualBackward(da: Floats, db: Floats, dout: Floats, N: number): void {
  for (let i = 0; i < N; i++) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

// ---------------------------------------------------------------------------------------------
// log-softmax at a temperature: per-token log-probs and entropies

/**
 * Per-position log-prob of the target and entropy of softmax(logits / tau).
 * With u_j = z_j / tau, m = max_j u_j, S = Σ_j exp(u_j − m), log p_j = u_j − m − log S:
 *   logprobs[n] = log p_{targets[n]}           (0 where mask[n] = 0)
 *   entropy[n]  = −Σ_j p_j log p_j             (0 where mask[n] = 0)
 *   probs[n,:]  = p                             (every row, if probs is given; the backward needs it)
 * logits [N,V], targets [N], mask [N] or null (= all ones), tau > 0.
 */
export function logsoftmaxForward(
  logprobs: Floats,
  entropy: Floats,
  probs: Floats | null,
  logits: Floats,
  targets: Int32Array,
  mask: ArrayLike<number> | null,
  tau: number,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const z = n * V;
    let m = -Infinity;
    for (let j = 0; j < V; j++) {
      const u = logits[z + j] / tau;
      if (u > m) m = u;
    }
    let S = 0;
    for (let j = 0; j < V; j++) S += Math.exp(logits[z + j] / tau - m);
    const logS = Math.log(S);
    let H = 0;
    for (let j = 0; j < V; j++) {
      const lp = logits[z + j] / tau - m - logS;
      const p = Math.exp(lp);
      H -= p * lp;
      if (probs) probs[z + j] = p;
    }
    const scored = mask === null || mask[n] !== 0;
    logprobs[n] = scored ? logits[z + targets[n]] / tau - m - logS : 0;
    entropy[n] = scored ? H : 0;
  }
}

/**
 * Backward from per-token gradients of log-prob and entropy to the logits (accumulates).
 * With p = softmax(z/tau) (given as probs) and H = −Σ p log p, for target y:
 *   dlogits[n,j] += ( gLogp·(1[j=y] − p_j) + gEnt·(−p_j·(log p_j + H)) ) / tau
 * gradLogprob [N], gradEntropy [N] or null. Positions whose gradients are 0 get nothing.
 * Mean cross-entropy over masked positions is gradLogprob = −mask / Σ mask, gradEntropy null.
 */
export function logitsBackward(
  dlogits: Floats,
  probs: Floats,
  targets: Int32Array,
  gradLogprob: ArrayLike<number>,
  gradEntropy: ArrayLike<number> | null,
  tau: number,
  N: number,
  V: number,
): void {
  for (let n = 0; n < N; n++) {
    const gL = gradLogprob[n];
    const gE = gradEntropy ? gradEntropy[n] : 0;
    if (gL === 0 && gE === 0) continue;
    const z = n * V;
    let H = 0;
    if (gE !== 0) for (let j = 0; j < V; j++) H -= plogp(probs[z + j]);
    const y = targets[n];
    for (let j = 0; j < V; j++) {
      const p = probs[z + j];
      let g = gL * ((j === y ? 1 : 0) - p);
      if (gE !== 0) g += gE * -(plogp(p) + p * H);
      dlogits[z + j] += g / tau;
    }
  }
}

/** p·log p with the limit 0 at p = 0. */
function plogp(p: number): number {
  return p > 0 ? p * Math.log(p) : 0;
}

/**
 * The exact KL(π_θ ‖ π_ref) of each row from the two probability tables p, q [N,V]:
 *   KL_n = Σ_v p_v (log p_v − log q_v)       (0 where mask is 0)
 * What k1 and k3 estimate from one sampled token; the small vocabulary makes it cheap. A metric
 * only (no backward). The CPU twin of shaders/kl.wgsl (kl_exact_rows).
 */
export function exactKlRows(p: ArrayLike<number>, q: ArrayLike<number>, mask: ArrayLike<number>, N: number, V: number): Float64Array {
  const kl = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    if (!mask[i]) continue;
    let s = 0;
    for (let v = 0; v < V; v++) {
      const pv = p[i * V + v];
      if (pv > 0) s += pv * (Math.log(pv) - Math.log(Math.max(q[i * V + v], 1e-30)));
    }
    kl[i] = mask[i] * s;
  }
  return kl;
}

// ---------------------------------------------------------------------------------------------
// optimizer: global-norm clipping and AdamW

/** Global L2 norm of a gradient buffer: √(Σ_i g_i²). */
export function globalGradNorm(grads: Floats, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += grads[i] * grads[i];
  return Math.sqrt(s);
}

/**
 * Clip the global gradient norm in place: g ← g · maxNorm / max(‖g‖, maxNorm).
 * maxNorm = 0 turns clipping off. Returns the norm before clipping.
 */
export function clipGradients(grads: Floats, n: number, maxNorm: number): number {
  const norm = globalGradNorm(grads, n);
  if (maxNorm > 0 && norm > maxNorm) {
    const scale = maxNorm / norm;
    for (let i = 0; i < n; i++) grads[i] *= scale;
  }
  return norm;
}

/**
 * One AdamW step on n entries (in place on params, m, v), step t ≥ 1, decoupled weight decay:
 *   m ← β1·m + (1 − β1)·g,   v ← β2·v + (1 − β2)·g²
 *   m̂ = m / (1 − β1^t),      v̂ = v / (1 − β2^t)
 *   p ← p − lr·( m̂ / (√v̂ + eps) + wd·p )
 * This equals torch.optim.AdamW (which first scales p by 1 − lr·wd, then takes the Adam step).
 * Weight decay applies only to matrices: the model passes wd = 0 for tensors where
 * `decaysWeights(shape)` is false (biases, LayerNorm gains and biases), the GPU does the same.
 */
export function adamwUpdate(
  params: Floats,
  grads: Floats,
  m: Floats,
  v: Floats,
  t: number,
  lr: number,
  beta1: number,
  beta2: number,
  eps: number,
  weightDecay: number,
  n: number,
): void {
  const bc1 = 1 - Math.pow(beta1, t);
  const bc2 = 1 - Math.pow(beta2, t);
  for (let i = 0; i < n; i++) {
    const g = grads[i];
    const mi = (m[i] = beta1 * m[i] + (1 - beta1) * g);
    const vi = (v[i] = beta2 * v[i] + (1 - beta2) * g * g);
    const mhat = mi / bc1;
    const vhat = vi / bc2;
    params[i] -= lr * (mhat / (Math.sqrt(vhat) + eps) + weightDecay * params[i]);
  }
}

/**
 * Whether AdamW's weight decay applies to a tensor: only to 2-D tensors (the embeddings, the
 * linear weights and lm_head), never to biases or LayerNorm parameters (nanoGPT's rule).
 */
export function decaysWeights(shape: readonly number[]): boolean {
  return shape.length >= 2;
}

// ---------------------------------------------------------------------------------------------
// sampling

/**
 * Draw one token from softmax(logits / temperature) with one uniform u ∈ [0, 1); logits is one row [V].
 * The exact procedure (the WGSL twin in shaders/sample.wgsl does the same steps in f32):
 *   temperature = 0: return argmax_j z_j, ties to the lowest id (scan j = 0..V-1, replace on >).
 *   otherwise:  s_j = z_j / temperature;  m = max_j s_j;  e_j = exp(s_j − m);  S = Σ_j e_j
 *               (summed in order j = 0..V-1); then scan j = 0..V-1 with c += e_j and return the
 *               first j with c > u·S. If rounding leaves no such j, return the last j with e_j > 0.
 * Returns the token and its log-prob log p_j = s_j − m − log S (at temperature 1 when greedy).
 * The reference computes in float64, the GPU in f32: they can disagree only when u·S lands
 * within rounding of a bin edge.
 */
export function sampleToken(logits: ArrayLike<number>, V: number, temperature: number, u: number): { token: number; logprob: number } {
  const tau = temperature > 0 ? temperature : 1;
  let m = -Infinity;
  let argmax = 0;
  for (let j = 0; j < V; j++) {
    const s = logits[j] / tau;
    if (s > m) {
      m = s;
      argmax = j;
    }
  }
  let S = 0;
  for (let j = 0; j < V; j++) S += Math.exp(logits[j] / tau - m);
  const logS = Math.log(S);
  let token = argmax;
  if (temperature > 0) {
    const threshold = u * S;
    let c = 0;
    let last = -1;
    token = -1;
    for (let j = 0; j < V; j++) {
      const e = Math.exp(logits[j] / tau - m);
      if (e > 0) last = j;
      c += e;
      if (c > threshold) {
        token = j;
        break;
      }
    }
    if (token < 0) token = last;
  }
  return { token, logprob: logits[token] / tau - m - logS };
}

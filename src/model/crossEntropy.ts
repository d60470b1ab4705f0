/**
 * Mean cross-entropy over the masked positions, the supervised loss (LossSpec kind 'ce'), and its
 * per-token gradient — defined once, here: the CPU reference uses both, the WebGPU engine
 * uploads crossEntropyGradLogprob's values (as f32) and sums the loss on the GPU (loss_reduce).
 */

/** Mean cross-entropy over masked positions: L = −Σ mask·logp / Σ mask (0 if nothing is masked in). */
export function meanCrossEntropy(logprobs: ArrayLike<number>, mask: ArrayLike<number>): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    s += mask[i] * logprobs[i];
    n += mask[i];
  }
  return n > 0 ? -s / n : 0;
}

/** The per-token gradient of meanCrossEntropy: dL/dlogp = −mask / Σ mask (all 0 if nothing is masked in). */
export function crossEntropyGradLogprob(mask: ArrayLike<number>): Float64Array {
  let n = 0;
  for (let i = 0; i < mask.length; i++) n += mask[i];
  const g = new Float64Array(mask.length);
  if (n > 0) for (let i = 0; i < mask.length; i++) g[i] = -mask[i] / n;
  return g;
}

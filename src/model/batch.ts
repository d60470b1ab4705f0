/**
 * Packing (prompt, response) token sequences into a TokenBatch — used by supervised
 * fine-tuning (responses = reference solutions) and by RL (responses = sampled answers), so
 * both train on exactly the same layout.
 *
 * Row b holds  BOS prompt… response… [EOS]  left-aligned, PAD after. Position t reads row[t]
 * and predicts row[t+1]; mask is 1 exactly on the positions that predict a response token
 * (including the EOS, so the model learns to stop).
 */
import { BOS, PAD } from '../tasks/tokenizer.ts';
import type { TokenBatch } from './backend.ts';

export interface PackedPair {
  /** Prompt tokens, starting with BOS. */
  prompt: ArrayLike<number>;
  /** Response tokens, ending with EOS when the response finished. */
  response: ArrayLike<number>;
}

/**
 * Pack `pairs` into rows of T positions. With `maxT`, T is the longest row (≤ maxT) rather than
 * the model's context: padding positions cost compute but, being masked and after each row's
 * end under causal attention, change no number — so trimming them is free speed.
 */
export function packBatch(pairs: PackedPair[], maxT: number, opts: { trim?: boolean } = {}): TokenBatch {
  const B = pairs.length;
  const longest = pairs.reduce((a, p) => Math.max(a, p.prompt.length + p.response.length - 1), 1);
  const T = opts.trim ? Math.min(maxT, longest) : maxT;
  const inputs = new Int32Array(B * T).fill(PAD);
  const targets = new Int32Array(B * T).fill(PAD);
  const mask = new Float32Array(B * T);
  pairs.forEach((p, b) => {
    if (p.prompt[0] !== BOS) throw new Error(`packBatch: prompt ${b} does not start with BOS`);
    const row = [...Array.from(p.prompt), ...Array.from(p.response)];
    if (row.length - 1 > T) throw new Error(`packBatch: row ${b} needs ${row.length - 1} positions, the model has ${T}`);
    for (let t = 0; t + 1 < row.length; t++) {
      inputs[b * T + t] = row[t];
      targets[b * T + t] = row[t + 1];
      if (t + 1 >= p.prompt.length) mask[b * T + t] = 1;
    }
  });
  return { B, T, inputs, targets, mask };
}

/** Per-response sums of a per-token quantity over the mask: e.g. the sequence log-probability. */
export function sumPerRow(values: ArrayLike<number>, batch: TokenBatch): Float64Array {
  const out = new Float64Array(batch.B);
  for (let b = 0; b < batch.B; b++) for (let t = 0; t < batch.T; t++) out[b] += batch.mask[b * batch.T + t] * values[b * batch.T + t];
  return out;
}

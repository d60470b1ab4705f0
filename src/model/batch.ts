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
import type { LossSpec, TokenBatch } from './backend.ts';
import type { ModelConfig } from './config.ts';

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

/**
 * The checks every backend makes on a batch before running it (the CPU reference and the WebGPU
 * engine call this one function): B and T whole numbers with 1 ≤ T ≤ seqLen, inputs, targets and
 * mask of B*T entries each, every token id and target in 0..V−1, every mask value 0 or 1.
 * Throws an Error naming the first thing wrong (where, and what was expected); `what` (the
 * caller, e.g. 'trainStep') prefixes the message.
 */
export function validateBatch(batch: TokenBatch, config: Pick<ModelConfig, 'seqLen' | 'vocabSize'>, what = 'batch'): void {
  const { B, T, inputs, targets, mask } = batch;
  const { seqLen, vocabSize: V } = config;
  if (!Number.isInteger(B) || B < 0) throw new Error(`${what}: B = ${B} must be a whole number ≥ 0`);
  if (!Number.isInteger(T) || T < 1) throw new Error(`${what}: T = ${T} must be a whole number ≥ 1`);
  if (T > seqLen) throw new Error(`${what}: T = ${T} exceeds seqLen ${seqLen}`);
  const N = B * T;
  for (const [name, a] of [['inputs', inputs], ['targets', targets], ['mask', mask]] as const) {
    if (a.length !== N) throw new Error(`${what}: batch arrays must have B*T = ${B}·${T} = ${N} entries, ${name} has ${a.length}`);
  }
  for (let i = 0; i < N; i++) {
    if (!(inputs[i] >= 0 && inputs[i] < V)) throw new Error(`${what}: token id ${inputs[i]} at ${i} (row ${Math.floor(i / T)}, position ${i % T}) is outside 0..${V - 1}`);
    if (!(targets[i] >= 0 && targets[i] < V)) throw new Error(`${what}: target id ${targets[i]} at ${i} (row ${Math.floor(i / T)}, position ${i % T}) is outside 0..${V - 1}`);
    if (mask[i] !== 0 && mask[i] !== 1) throw new Error(`${what}: mask value ${mask[i]} at ${i} (row ${Math.floor(i / T)}, position ${i % T}) is not 0 or 1`);
  }
}

/**
 * The shape checks of a LossSpec against its batch, shared by both backends: per-token
 * gradients ('pertoken') and π_old's log-probs ('policy') of B*T entries, one advantage per row.
 */
export function validateLoss(batch: TokenBatch, loss: LossSpec, what = 'trainStep'): void {
  const { B, T } = batch;
  const N = B * T;
  if (loss.kind === 'pertoken') {
    if (loss.gradLogprob.length !== N || (loss.gradEntropy && loss.gradEntropy.length !== N)) {
      throw new Error(`${what}: per-token gradients must have B*T = ${N} entries, got gradLogprob ${loss.gradLogprob.length}${loss.gradEntropy ? `, gradEntropy ${loss.gradEntropy.length}` : ''}`);
    }
  } else if (loss.kind === 'policy') {
    if (loss.advantages.length !== B) throw new Error(`${what}: ${loss.advantages.length} advantages for B = ${B} responses`);
    if (loss.oldLogprobs && loss.oldLogprobs.length !== N) throw new Error(`${what}: oldLogprobs must have B*T = ${N} entries, got ${loss.oldLogprobs.length}`);
  }
}

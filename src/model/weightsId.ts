/**
 * The starting weights' identity: a short hex id of a flat f32 weight buffer, so that two runs
 * are called "same seed, same base" (overlays, lesson contrasts) only when they started from
 * the same bits — not merely from checkpoints of the same name (a custom task's cold-start base,
 * a watched task's two-task base, a re-made base all change the weights under one name).
 *
 * The hash: two 32-bit lanes over the f32 words — FNV-1a (offset basis 0x811c9dc5, prime
 * 16777619) and a second FNV-1a-style lane with a different basis and MurmurHash's multiplier
 * and a shift — each finished with the buffer's length and a murmur3 avalanche, written as 16
 * lowercase hex digits. Deterministic, not cryptographic: an id, not a signature. Cost: one pass,
 * about 1 ms per 10^6 weights. A fresh init (weights null) is hashed as the init it is
 * (src/model/init.ts: the same bits on every engine for the config and seed).
 */
import { paramLayout, type ModelConfig } from './config.ts';
import { initWeights } from './init.ts';

const fmix = (h: number) => {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};
const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, '0');

/** 16 hex digits identifying these exact f32 bits (their count included). */
export function weightsId(weights: Float32Array): string {
  const words = new Uint32Array(weights.buffer, weights.byteOffset, weights.length);
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    a = Math.imul(a ^ w, 16777619);
    b = Math.imul(b ^ w, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return hex8(fmix(a ^ words.length)) + hex8(fmix(b ^ Math.imul(words.length, 0x9e3779b1)));
}

/** The id of the weights a run starts from: the given ones, else the seeded fresh init of `config`. */
export function startingWeightsId(config: ModelConfig, weights: Float32Array | null, seed: number): string {
  return weightsId(weights ?? initWeights(paramLayout(config), seed));
}

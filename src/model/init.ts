/**
 * Seeded weight initialisation of the canonical model, shared by every backend.
 *
 * The draw order is part of reproducibility (same seed → same bits on every engine):
 * ONE `Rng(seed)` walks the offset table in its order (wte, wpe, then per layer ln1.g … fc2.b,
 * then lnf.g, lnf.b, lm_head); each 'normal' tensor takes size consecutive draws
 * 0.02 · rng.normal() in row-major order (Box-Muller, so draws come in cos/sin pairs and a
 * spare carries over from one tensor to the next); 'zeros' and 'ones' tensors draw nothing.
 * Alignment padding between tensors stays 0.
 */
import type { ParamLayout } from './config.ts';
import { Rng } from './rng.ts';

/** Standard deviation of the normal init (GPT-2's 0.02). */
export const INIT_STD = 0.02;

/** A fresh flat weight buffer [layout.total]: normal(0, 0.02) weights, zero biases, unit LayerNorm gains. */
export function initWeights(layout: ParamLayout, seed: number): Float32Array {
  const w = new Float32Array(layout.total);
  const rng = new Rng(seed);
  for (const t of layout.tensors) {
    const view = w.subarray(t.offset, t.offset + t.size);
    if (t.init === 'normal') for (let i = 0; i < t.size; i++) view[i] = INIT_STD * rng.normal();
    else if (t.init === 'ones') view.fill(1);
  }
  return w;
}

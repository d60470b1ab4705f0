/**
 * The held-out split: a prompt is held out when a well-mixed 32-bit hash of the task id and
 * the WHOLE prompt text falls in the lowest HELDOUT_FRACTION of the range. Training and
 * held-out pools are disjoint by construction (isHeldOut is a pure function of the prompt),
 * and both come from the same distribution: the design doc's warning is that a structured
 * rule ("second operand a multiple of 5") is a distribution shift, not a held-out set.
 */
import { mix32 } from '../model/rng.ts';
import type { Rng } from '../model/rng.ts';
import type { Instance, Task } from './types.ts';

/** Fraction of prompts held out (about 20%). */
export const HELDOUT_FRACTION = 0.2;

/** A 32-bit hash of a string: each UTF-16 unit folded in through the lowbias32 mixer. */
export function hashString(s: string, seed = 0x5bd1e995): number {
  let h = mix32(seed ^ s.length);
  for (let i = 0; i < s.length; i++) h = mix32((h ^ s.charCodeAt(i)) + 0x9e3779b9);
  return mix32(h ^ 0x27d4eb2f);
}

/** True when this task's prompt belongs to the held-out pool: hash(taskId NUL prompt) < 0.2 · 2^32. */
export function isHeldOut(taskId: string, prompt: string): boolean {
  return hashString(`${taskId}\u0000${prompt}`) < HELDOUT_FRACTION * 4294967296;
}

export type Split = 'train' | 'heldout';

/**
 * n instances of one split, by rejection sampling from the task's generator (about 5 draws
 * per held-out instance, 1.25 per training one). Throws if the split seems empty.
 */
export function samplePrompts(task: Task, rng: Rng, difficulty: number, split: Split, n: number): Instance[] {
  const want = split === 'heldout';
  const out: Instance[] = [];
  const maxDraws = 1000 + n * 200;
  for (let draws = 0; out.length < n; draws++) {
    if (draws >= maxDraws) {
      throw new Error(`samplePrompts: found only ${out.length} of ${n} ${split} prompts for ${task.id} difficulty ${difficulty} in ${maxDraws} draws`);
    }
    const inst = task.generate(rng, difficulty);
    if (isHeldOut(task.id, inst.prompt) === want) out.push(inst);
  }
  return out;
}

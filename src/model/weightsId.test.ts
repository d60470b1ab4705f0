// The starting weights' identity: deterministic, 16 hex digits, moved by any one bit, and a fresh
// init hashed as the seeded init every engine starts from.
import { describe, expect, it } from 'vitest';
import { CONFIGS, paramLayout } from './config.ts';
import { initWeights } from './init.ts';
import { startingWeightsId, weightsId } from './weightsId.ts';

describe('weightsId', () => {
  it('is 16 hex digits, the same for the same bits, another for one flipped bit, another length or another seed', () => {
    const config = { vocabSize: 40, ...CONFIGS.micro };
    const w = initWeights(paramLayout(config), 3);
    const id = weightsId(w);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(weightsId(new Float32Array(w))).toBe(id);
    expect(startingWeightsId(config, null, 3)).toBe(id);
    expect(startingWeightsId(config, null, 4)).not.toBe(id);
    const seen = new Set([id]);
    for (const i of [0, 1, w.length >> 1, w.length - 1]) {
      const v = new Float32Array(w);
      new Uint32Array(v.buffer)[i] ^= 1; // the lowest mantissa bit
      seen.add(weightsId(v));
    }
    expect(seen.size).toBe(5);
    expect(weightsId(new Float32Array(4))).not.toBe(weightsId(new Float32Array(5)));
    expect(weightsId(w.subarray(1))).not.toBe(id);
  });
});

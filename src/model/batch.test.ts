/**
 * validateBatch / validateLoss: the one set of batch and loss-shape checks both backends make
 * (src/model/reference/backend.ts and src/gpu/backend.ts call them); messages say what is wrong
 * and where.
 */
import { describe, expect, it } from 'vitest';
import { adamwSettings, type LossSpec, type TokenBatch } from './backend.ts';
import { validateBatch, validateLoss } from './batch.ts';
import { crossEntropyGradLogprob, meanCrossEntropy } from './crossEntropy.ts';
import { ReferenceBackend } from './reference/backend.ts';

const config = { vocabSize: 12, seqLen: 6, dModel: 8, nHeads: 2, nLayers: 1 };
const batch = (over: Partial<TokenBatch> = {}): TokenBatch => ({
  B: 2, T: 3,
  inputs: Int32Array.from([1, 2, 3, 4, 5, 6]),
  targets: Int32Array.from([2, 3, 4, 5, 6, 7]),
  mask: Float32Array.from([0, 1, 1, 0, 1, 0]),
  ...over,
});

describe('validateBatch', () => {
  it('accepts a well-formed batch (and an empty one)', () => {
    expect(() => validateBatch(batch(), config)).not.toThrow();
    expect(() => validateBatch({ B: 0, T: 3, inputs: new Int32Array(0), targets: new Int32Array(0), mask: new Float32Array(0) }, config)).not.toThrow();
  });

  const cases: [string, Partial<TokenBatch>, RegExp][] = [
    ['T beyond the context', { T: 7, B: 1, inputs: new Int32Array(7), targets: new Int32Array(7), mask: new Float32Array(7) }, /trainStep: T = 7 exceeds seqLen 6/],
    ['a fractional B', { B: 1.5 }, /B = 1\.5 must be a whole number/],
    ['T = 0', { T: 0, B: 0 }, /T = 0 must be a whole number ≥ 1/],
    ['a short inputs array', { inputs: new Int32Array(5) }, /batch arrays must have B\*T = 2·3 = 6 entries, inputs has 5/],
    ['a long mask', { mask: new Float32Array(7) }, /mask has 7/],
    ['a token id out of range', { inputs: Int32Array.from([1, 2, 3, 4, 12, 6]) }, /token id 12 at 4 \(row 1, position 1\) is outside 0\.\.11/],
    ['a negative target', { targets: Int32Array.from([2, -1, 4, 5, 6, 7]) }, /target id -1 at 1 \(row 0, position 1\) is outside 0\.\.11/],
    ['a mask value that is not 0 or 1', { mask: Float32Array.from([0, 1, 0.5, 0, 1, 0]) }, /mask value 0\.5 at 2 \(row 0, position 2\) is not 0 or 1/],
    ['a NaN in the mask', { mask: Float32Array.from([0, 1, NaN, 0, 1, 0]) }, /mask value NaN at 2/],
  ];
  for (const [name, over, msg] of cases) {
    it(`rejects ${name}`, () => {
      expect(() => validateBatch(batch(over), config, 'trainStep')).toThrow(msg);
    });
  }

  it('is what the CPU reference checks (trainStep and logprobs)', async () => {
    const be = ReferenceBackend.create(config, 1);
    const bad = batch({ mask: Float32Array.from([0, 1, 2, 0, 1, 0]) });
    await expect(be.trainStep(bad, { kind: 'ce' }, adamwSettings(0, 0))).rejects.toThrow(/trainStep: mask value 2 at 2/);
    await expect(be.logprobs(batch({ targets: Int32Array.from([2, 3, 4, 5, 6, 99]) }))).rejects.toThrow(/logprobs: target id 99 at 5/);
  });
});

describe('validateLoss', () => {
  const policy = (over: object): LossSpec => ({
    kind: 'policy', advantages: new Float32Array(2), oldLogprobs: null,
    epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 3, temperature: 1,
    ...over,
  } as LossSpec);
  it('accepts matching shapes', () => {
    expect(() => validateLoss(batch(), { kind: 'ce' })).not.toThrow();
    expect(() => validateLoss(batch(), { kind: 'pertoken', gradLogprob: new Float32Array(6), gradEntropy: new Float32Array(6) })).not.toThrow();
    expect(() => validateLoss(batch(), policy({ oldLogprobs: new Float32Array(6) }))).not.toThrow();
  });
  it('rejects wrong lengths, saying which', () => {
    expect(() => validateLoss(batch(), { kind: 'pertoken', gradLogprob: new Float32Array(5) })).toThrow(/per-token gradients must have B\*T = 6 entries, got gradLogprob 5/);
    expect(() => validateLoss(batch(), { kind: 'pertoken', gradLogprob: new Float32Array(6), gradEntropy: new Float32Array(4) })).toThrow(/gradEntropy 4/);
    expect(() => validateLoss(batch(), policy({ advantages: new Float32Array(3) }))).toThrow(/trainStep: 3 advantages for B = 2 responses/);
    expect(() => validateLoss(batch(), policy({ oldLogprobs: new Float32Array(5) }))).toThrow(/oldLogprobs must have B\*T = 6 entries, got 5/);
  });
});

describe('the cross-entropy gradient (src/model/crossEntropy.ts)', () => {
  it('gives the values the WebGPU engine used to compute inline, bit for bit in f32', () => {
    const mask = Float32Array.from({ length: 37 }, (_, i) => (i % 5 === 0 || i % 7 === 3 ? 0 : 1));
    // the engine's former inline form
    let n = 0;
    for (let i = 0; i < mask.length; i++) n += mask[i];
    const old = new Float32Array(mask.length);
    for (let i = 0; i < mask.length; i++) old[i] = -mask[i] / n;
    expect(Float32Array.from(crossEntropyGradLogprob(mask))).toEqual(old);
    expect(Array.from(crossEntropyGradLogprob(new Float32Array(4)))).toEqual([0, 0, 0, 0]);
    expect(meanCrossEntropy([-1, -3, -5], [1, 0, 1])).toBe(3);
  });
});

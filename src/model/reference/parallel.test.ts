/**
 * The data-parallel CPU engine against the single-thread reference (the oracle): the same
 * gradient, loss and metrics within float tolerance, the same samples bit for bit, and the same
 * run for the same number of shards whatever order their answers arrive in.
 */
import { describe, expect, it } from 'vitest';
import type { AdamWSettings, LossSpec, TokenBatch } from '../backend.ts';
import type { ModelConfig } from '../config.ts';
import { Rng } from '../rng.ts';
import { BOS, VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { ReferenceBackend } from './backend.ts';
import { ParallelReferenceBackend, ReplicaShard, splitRows, type Shard } from './parallel.ts';
import { initWeights } from '../init.ts';
import { paramLayout } from '../config.ts';

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 10, dModel: 16, nHeads: 2, nLayers: 1 };
const opt: AdamWSettings = { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, gradClip: 1.0 };
const B = 7;
const T = 10;

function batch(seed: number): TokenBatch {
  const rng = new Rng(seed);
  const inputs = new Int32Array(B * T).map(() => rng.int(VOCAB_SIZE));
  const targets = new Int32Array(B * T).map(() => rng.int(VOCAB_SIZE));
  const mask = new Float32Array(B * T).map((_, i) => (i % T >= 3 && i % T < 10 - (Math.floor(i / T) % 4) ? 1 : 0));
  return { B, T, inputs, targets, mask };
}

/** The clipped objective with the KL term (π_ref: the 'both' pass) and a token-mean aggregation (normalised over the whole batch). */
const loss = (oldLogprobs: Float32Array | null): LossSpec => ({
  kind: 'policy', advantages: Float32Array.from({ length: B }, (_, b) => (b % 3) - 1 + 0.25 * b), oldLogprobs,
  epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04, klEstimator: 'k3', lossType: 'dapo', importanceSamplingLevel: 'token',
  entropyCoef: 0.01, maxCompletionLength: 7, temperature: 0.9, measureKl: true,
});

/** Shards in this thread; shard k answers after (n − k)·3 ms (the last shard's answer first), or with `inOrder` k·3 ms. */
const shards = (n: number, inOrder = false): Shard[] => Array.from({ length: n }, (_, k) => {
  const s = new ReplicaShard(config);
  const late = <T>(x: Promise<T>) => x.then((v) => new Promise<T>((r) => setTimeout(() => r(v), (inOrder ? k : n - k) * 3)));
  return { forward: (...a) => late(s.forward(...a)), backward: (...a) => late(s.backward(...a)), sample: (...a) => late(s.sample(...a)) };
});

const weights = () => initWeights(paramLayout(config), 5);
const maxRel = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  let d = 0, s = 0;
  for (let i = 0; i < x.length; i++) { d = Math.max(d, Math.abs(x[i] - y[i])); s = Math.max(s, Math.abs(y[i])); }
  return d / s;
};

/** Two updates of µ = 2 epochs (π_old from the first sample's log-probs), then the gradient at the result. */
async function run(be: ReferenceBackend) {
  await be.snapshotReference();
  const s = await be.sample({ prompts: [[BOS, 3, 4], [BOS, 5]], numGenerations: 3, temperature: 1, maxNewTokens: 6, seed: 11, stream: 2 });
  const bt = batch(3);
  const old = (await be.logprobs(bt, { temperature: 0.9 })).logprobs;
  const steps = [await be.trainStep(bt, loss(old), opt, { epochs: 2 }), await be.trainStep(batch(4), loss(null), opt)];
  const grad = await be.gradient(batch(5), loss(null));
  return { s, steps, grad, weights: await be.getWeights() };
}

describe('ParallelReferenceBackend (the CPU engine on several workers)', () => {
  it('splits rows contiguously and evenly', () => {
    expect(splitRows(7, 3)).toEqual([[0, 3], [3, 5], [5, 7]]);
    expect(splitRows(2, 4)).toEqual([[0, 1], [1, 2]]);
  });

  it('equals the single-thread reference within float tolerance, and one shard count always gives the same run', async () => {
    const one = await run(new ReferenceBackend(config, weights()));
    const three = await run(new ParallelReferenceBackend(config, weights(), shards(3)));
    const again = await run(new ParallelReferenceBackend(config, weights(), shards(3, true)));
    // sampling: each row's draws are its own, so the slices put together are the same samples
    expect(three.s).toEqual(one.s);
    for (const [p, r] of three.steps.map((x, i) => [x, one.steps[i]] as const)) {
      expect(p.finite && r.finite).toBe(true);
      expect(Math.abs(p.loss - r.loss)).toBeLessThan(1e-6);
      expect(Math.abs(p.gradNorm - r.gradNorm) / r.gradNorm).toBeLessThan(1e-5);
      for (const k of Object.keys(r.metrics)) expect(Math.abs(p.metrics[k] - r.metrics[k]), k).toBeLessThan(1e-5);
    }
    expect(maxRel(three.grad.grads, one.grad.grads)).toBeLessThan(1e-5);
    expect(maxRel(three.weights, one.weights)).toBeLessThan(1e-3); // after 3 Adam updates (≈ lr·sign(g) on near-zero gradients)
    // deterministic for a given number of shards, though their answers arrive in another order
    expect(again.grad.grads).toEqual(three.grad.grads);
    expect(again.weights).toEqual(three.weights);
  });
});

/**
 * The self-check's work (selfCheck.ts walks the ladder of forms with it): what runs on both engines
 * from the same weights, in the order the GPU produces it — multi-tile attention as an op, the
 * forward of a batch as long as the model's context, the gradient of every loss form, a two-epoch
 * update, and sampling from the updated policy — and the CPU reference's side of it, computed once.
 */
import { ReferenceBackend } from '../model/reference/backend.ts';
import * as refOps from '../model/reference/ops.ts';
import { packBatch } from '../model/batch.ts';
import type { AdamWSettings, Backend, LossSpec, PolicyLossSettings, TokenBatch } from '../model/backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { Rng } from '../model/rng.ts';
import type { Comparer, RefSample } from '../model/selfCheckCompare.ts';
import { SAMPLE_CHECK_TEMPERATURE, sampleDists, sampleRequests } from '../model/selfCheckSampling.ts';
import type { WebGPUBackend } from './backend.ts';
import { BOS, EOS } from '../tasks/tokenizer.ts';

/** The check's batch: a row as long as the model's context (every attention position) and a short one. */
function checkBatch(config: ModelConfig) {
  const V = config.vocabSize;
  const tok = (i: number) => 3 + (i % (V - 3));
  const long = Array.from({ length: config.seqLen - 4 }, (_, i) => tok(7 * i + 3));
  const pairs = [
    { prompt: [BOS, tok(5), tok(9), tok(2)], response: [...long, EOS] },
    { prompt: [BOS, tok(11), tok(3)], response: [tok(8), tok(6), tok(2), tok(13), tok(5), EOS] },
  ];
  return { pairs, batch: packBatch(pairs, config.seqLen, { trim: true }) };
}

/**
 * Every loss form the lab offers, each at least once: the three aggregations (grpo, dr_grpo, dapo),
 * token and sequence ratios (the sequence one also at GSPO's own clip range), k1 and k3, the
 * entropy bonus on and off, β = 0 without the reference forward; and cross-entropy (SFT, RFT).
 */
const LOSS_FORMS: { name: string; form: Partial<PolicyLossSettings> | 'ce' }[] = [
  { name: 'grpo, token ratio, k3, entropy bonus', form: {} },
  { name: 'dr_grpo, sequence ratio, k1', form: { lossType: 'dr_grpo', importanceSamplingLevel: 'sequence', klEstimator: 'k1', entropyCoef: 0 } },
  { name: 'dapo, token ratio, β = 0', form: { lossType: 'dapo', beta: 0, measureKl: false } },
  { name: 'grpo, sequence ratio at GSPO\'s clip range', form: { importanceSamplingLevel: 'sequence', epsilon: 3e-4, epsilonHigh: 4e-4 } },
  { name: 'cross-entropy (SFT, RFT)', form: 'ce' },
];

function policyLoss(batch: TokenBatch, oldLogprobs: Float32Array, form: Partial<PolicyLossSettings> = {}): LossSpec {
  return {
    kind: 'policy', advantages: new Float32Array([1.2, -0.8]), oldLogprobs, epsilon: 0.2, epsilonHigh: 0.28, beta: 0.04, klEstimator: 'k3',
    lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0.01, maxCompletionLength: batch.T, temperature: 0.9, measureKl: true, ...form,
  };
}
const CHECK_ADAMW: AdamWSettings = { lr: 1e-3, beta1: 0.9, beta2: 0.99, eps: 1e-3, weightDecay: 0.01, gradClip: 1 };

/** The model's part of the check on one engine: forward, the gradient of each loss form, a two-epoch update; each tensor to `emit`. */
async function modelWork(be: Backend, oldLogprobs: Float32Array | null, emit: (what: string, x: ArrayLike<number>) => void): Promise<Float32Array> {
  const { batch } = checkBatch(be.config);
  const fwd = await be.logprobs(batch, { temperature: 0.9 });
  const masked = (x: Float32Array) => x.map((v, i) => v * batch.mask[i]);
  emit('forward log-probs', masked(fwd.logprobs));
  emit('forward entropies', masked(fwd.entropy));
  // π_old a little off the current policy, so ratios are clipped on both sides; the reference's, shared
  const old = oldLogprobs ?? Float32Array.from(fwd.logprobs, (v, i) => v + 0.05 * Math.sin(i));
  for (const { name, form } of LOSS_FORMS) {
    const g = await be.gradient(batch, form === 'ce' ? { kind: 'ce' } : policyLoss(batch, old, form));
    emit(`gradient, ${name}: loss`, [g.loss]);
    emit(`gradient, ${name}`, g.grads);
  }
  const u = await be.trainStep(batch, policyLoss(batch, old), CHECK_ADAMW, { epochs: 2 });
  emit('update: loss, gradient norm and metrics of each epoch', (u.epochs ?? [u]).flatMap((e) => [e.loss, e.gradNorm, ...Object.keys(e.metrics).sort().map((k) => e.metrics[k])]));
  const s = await be.getOptimizerState();
  emit('update: AdamW m (the gradients)', s.m);
  emit('update: AdamW v', s.v);
  emit('update: weights after AdamW', await be.getWeights());
  return old;
}

/**
 * Multi-tile attention, as an op: T = KT + 66 takes the tiled form's K/V tiles of KT = 1024 / hs
 * rows twice for its last 66 query rows (more than one 64-row query tile), so a third of the
 * rows weigh keys from a second tile.
 */
export function attentionCheckShape(config: ModelConfig) {
  const hs = config.dModel / config.nHeads;
  return { B: 1, T: Math.floor(1024 / Math.max(4, hs)) + 66, D: config.dModel, H: config.nHeads };
}
function attentionInputs(config: ModelConfig) {
  const { B, T, D } = attentionCheckShape(config);
  const rng = new Rng(20261201);
  return { qkv: Float32Array.from({ length: B * T * 3 * D }, () => rng.normal()), dout: Float32Array.from({ length: B * T * D }, () => rng.normal()) };
}
const attentionWhat = (config: ModelConfig) => `attention at T = ${attentionCheckShape(config).T}`;

function attentionReference(config: ModelConfig, emit: (what: string, x: ArrayLike<number>) => void): void {
  const { B, T, D, H } = attentionCheckShape(config);
  const { qkv, dout } = attentionInputs(config);
  const out = new Float32Array(B * T * D);
  const att = new Float32Array(B * H * T * T);
  refOps.attentionForward(out, new Float32Array(B * H * T * T), att, qkv, B, T, D, H);
  const dqkv = new Float32Array(B * T * 3 * D);
  refOps.attentionBackward(dqkv, new Float32Array(B * H * T * T), new Float32Array(B * H * T * T), dout, qkv, att, B, T, D, H);
  emit(`${attentionWhat(config)}: output`, out);
  emit(`${attentionWhat(config)}: dq, dk, dv`, dqkv);
}

async function attentionGpu(be: WebGPUBackend, emit: (what: string, x: ArrayLike<number>) => void): Promise<void> {
  const { B, T, D, H } = attentionCheckShape(be.config);
  const { qkv, dout } = attentionInputs(be.config);
  const { ctx } = be;
  const bufs = [ctx.upload('self-check qkv', qkv), ctx.upload('self-check dout', dout), ctx.arena.storage('self-check out', B * T * D), ctx.arena.storage('self-check att', B * H * T * T),
    ctx.arena.storage('self-check dqkv', B * T * 3 * D), ctx.arena.storage('self-check dpreatt', B * H * T * T)];
  const [bQkv, bDout, bOut, bAtt, bDqkv, bDpre] = bufs;
  try {
    const [out, dqkv] = await ctx.run((p) => {
      ctx.ops.attentionForward(p, bOut, bAtt, bQkv, B, T, D, H);
      ctx.ops.attentionBackward(p, bDqkv, bDpre, bDout, bQkv, bAtt, B, T, D, H);
    }, [{ buffer: bOut, floats: B * T * D }, { buffer: bDqkv, floats: B * T * 3 * D }]);
    emit(`${attentionWhat(be.config)}: output`, out);
    emit(`${attentionWhat(be.config)}: dq, dk, dv`, dqkv);
  } finally {
    for (const b of bufs) ctx.arena.destroy(b);
  }
}

/** The CPU reference's side of the check, computed once: every tensor in the order the GPU produces it. */
export interface Reference {
  tensors: Map<string, Float32Array>;
  oldLogprobs: Float32Array;
  greedy: RefSample;
  stochastic: RefSample;
}

/** The CPU reference's numbers for the whole check, from `weights`: computed once per check. */
export async function referenceRun(config: ModelConfig, weights: Float32Array): Promise<Reference> {
  const tensors = new Map<string, Float32Array>();
  const emit = (what: string, x: ArrayLike<number>) => { tensors.set(what, Float32Array.from(x)); };
  attentionReference(config, emit);
  const ref = new ReferenceBackend(config, weights);
  await ref.snapshotReference();
  const oldLogprobs = await modelWork(ref, null, emit);
  const updated = await ref.getWeights();
  const [greedy, stochastic] = await Promise.all(sampleRequests(checkBatch(config).pairs.map((p) => p.prompt), config.seqLen).map(async (req) => {
    const out = await ref.sample(req);
    return { req, out, dists: sampleDists(config, updated, req, out) };
  }));
  ref.dispose();
  return { tensors, oldLogprobs, greedy, stochastic };
}

/** One pass of the check on the GPU engine with its current forms; throws Mismatch at the first disagreement (`at.sampling`: it got to the sampling). */
export async function compareOnce(gpu: WebGPUBackend, ref: Reference, c: Comparer, at: { sampling: boolean }): Promise<void> {
  const emit = (what: string, x: ArrayLike<number>) => c.check(what, x);
  await attentionGpu(gpu, emit);
  await modelWork(gpu, ref.oldLogprobs, emit);
  at.sampling = true;
  c.checkSample('greedy sampling', await gpu.sample(ref.greedy.req), ref.greedy);
  c.checkSample(`sampling at τ = ${SAMPLE_CHECK_TEMPERATURE}`, await gpu.sample(ref.stochastic.req), ref.stochastic);
}

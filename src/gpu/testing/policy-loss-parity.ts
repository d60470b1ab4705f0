/**
 * Browser-side body of e2e/gpu-policy-loss.spec.ts: the WGSL policy objective
 * (shaders/policy_loss.wgsl) against its TypeScript twin (src/model/objective.ts) run by the
 * CPU reference — loss, every objective metric and every parameter gradient (which contains
 * the gradient with respect to the logits), on random batches whose sizes are not multiples
 * of any workgroup, with a frozen π_ref ≠ π_θ and π_old ≠ π_θ so clipping and KL are active.
 */
import { adamwSettings, type LossSpec, type PolicyLossSettings, type TokenBatch } from '../../model/backend.ts';
import { paramLayout, type ModelConfig } from '../../model/config.ts';
import { initWeights } from '../../model/init.ts';
import { ReferenceBackend } from '../../model/reference/backend.ts';
import { Rng } from '../../model/rng.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createWebGPUBackend } from '../backend.ts';
import { METRIC_SLOTS, POLICY_METRIC_NAMES } from '../metricSlots.ts';

export interface PolicyParityRow {
  case: string;
  loss: number;
  metrics: number;
  grads: number;
  clipRegion: number;
}

const CASES: [string, Partial<PolicyLossSettings>, boolean][] = [
  ['token/grpo/k3/β, π_old', { lossType: 'grpo', klEstimator: 'k3', beta: 0.05 }, true],
  ['token/dapo/k1/entropy, π_old', { lossType: 'dapo', klEstimator: 'k1', beta: 0.1, entropyCoef: 0.03, epsilonHigh: 0.28 }, true],
  ['sequence (GSPO)/dr_grpo, π_old', { lossType: 'dr_grpo', importanceSamplingLevel: 'sequence', epsilon: 0.02, epsilonHigh: 0.02 }, true],
  ['token/grpo on-policy, τ=0.7', { lossType: 'grpo', temperature: 0.7 }, false],
  ['token/grpo β=0, KL measured only', { beta: 0, measureKl: true }, true],
];

function relTo(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let scale = 0, diff = 0;
  for (let i = 0; i < b.length; i++) {
    scale = Math.max(scale, Math.abs(b[i]));
    diff = Math.max(diff, Math.abs(a[i] - b[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

export async function runPolicyLossParity(): Promise<PolicyParityRow[]> {
  const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 13, dModel: 16, nHeads: 2, nLayers: 1 };
  const layout = paramLayout(config);
  const w0 = initWeights(layout, 3);
  const rng = new Rng(11);
  const w1 = w0.map((x) => x + 0.02 * rng.normal());
  const B = 7, T = 13;
  const batch: TokenBatch = { B, T, inputs: new Int32Array(B * T), targets: new Int32Array(B * T), mask: new Float32Array(B * T) };
  for (let b = 0; b < B; b++) {
    const start = 2 + rng.int(3), len = 1 + rng.int(T - start);
    for (let t = 0; t < T; t++) {
      batch.inputs[b * T + t] = 4 + rng.int(VOCAB_SIZE - 4);
      batch.targets[b * T + t] = 4 + rng.int(VOCAB_SIZE - 4);
      if (t >= start && t < start + len) batch.mask[b * T + t] = 1;
    }
  }
  const advantages = Float32Array.from({ length: B }, () => rng.normal());

  const cpu = new ReferenceBackend(config, w0);
  const gpu = await createWebGPUBackend(config, { seed: 3, weights: w0 });
  await cpu.snapshotReference();
  await gpu.snapshotReference();
  const rows: PolicyParityRow[] = [];
  const noUpdate = adamwSettings(0, 0);
  for (const [name, over, withOld] of CASES) {
    await cpu.setWeights(w1);
    await gpu.setWeights(w1);
    const s: PolicyLossSettings = { epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 9, temperature: 1, ...over };
    const cur = await cpu.logprobs(batch, { temperature: s.temperature });
    const old = withOld ? cur.logprobs.map((x, i) => (batch.mask[i] ? x + 0.8 * (rng.next() - 0.5) : 0)) : null;
    const spec: LossSpec = { kind: 'policy', advantages, oldLogprobs: old, ...s };
    const rc = await cpu.trainStep(batch, spec, noUpdate);
    const cpuGrads = Float32Array.from(cpu.model.grads);
    const rg = await gpu.trainStep(batch, spec, noUpdate);
    const [gpuGrads] = await gpu.ctx.run(() => {}, [{ buffer: gpu.model.grads, floats: layout.total }]);
    let metricErr = 0;
    // the policy objective's metrics, and the exact KL over the vocabulary wherever π_ref is evaluated (shaders/kl.wgsl)
    const names: string[] = [...POLICY_METRIC_NAMES, ...(s.beta !== 0 || s.measureKl ? [METRIC_SLOTS.KL_EXACT.metric] : [])];
    if (names.includes('kl_exact') && !(rc.metrics.kl_exact > 0 && Number.isFinite(rg.metrics.kl_exact))) throw new Error(`${name}: kl_exact missing (cpu ${rc.metrics.kl_exact}, gpu ${rg.metrics.kl_exact})`);
    for (const k of names) metricErr = Math.max(metricErr, Math.abs(rg.metrics[k] - rc.metrics[k]) / Math.max(1e-3, Math.abs(rc.metrics[k])));
    rows.push({ case: name, loss: Math.abs(rg.loss - rc.loss) / Math.max(1e-3, Math.abs(rc.loss)), metrics: metricErr, grads: relTo(gpuGrads, cpuGrads), clipRegion: rc.metrics['clip_ratio/region_mean'] });
  }
  gpu.dispose();
  return rows;
}

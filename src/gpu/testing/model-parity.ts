/**
 * Browser-side body of e2e/gpu-model.spec.ts: the WebGPU engine against the PyTorch goldens
 * (src/model/goldens/micro.json): logits, losses, every parameter gradient (mean CE, and the
 * per-token logp + entropy loss at temperature 0.7), and the losses / grad norms of 10 AdamW
 * steps. Error of a tensor = max_i |gpu_i − golden_i| / max_i |golden_i| (the reference's
 * golden test uses the same measure), of a scalar = |gpu − golden| / |golden|.
 */
import golden from '../../model/goldens/micro.json';
import type { ModelConfig } from '../../model/config.ts';
import { paramLayout } from '../../model/config.ts';
import { initWeights } from '../../model/init.ts';
import type { WebGPUBackend } from '../backend.ts';
import { createWebGPUBackend } from '../backend.ts';
import { M, METRIC_FLOATS } from '../metricSlots.ts';

export interface GoldenRow {
  what: string;
  ce: number;
  pertoken: number | null;
}

function scaledErr(gpu: ArrayLike<number>, gold: number[]): number {
  let scale = 0;
  let diff = 0;
  for (let i = 0; i < gold.length; i++) {
    scale = Math.max(scale, Math.abs(gold[i]));
    diff = Math.max(diff, Math.abs(gpu[i] - gold[i]));
  }
  return diff / scale;
}
const relErr = (a: number, g: number) => Math.abs(a - g) / Math.abs(g);

/** Forward + loss + backward only (no optimizer), one submit; returns logits, loss and flat grads. */
async function gradients(be: WebGPUBackend, gL: Float32Array, gE: Float32Array, tau: number) {
  const { B, T } = golden.batch;
  const N = B * T;
  const m = be.model;
  const ctx = be.ctx;
  const a = m.ensureActivations(B, T);
  const q = ctx.device.queue;
  q.writeBuffer(a.inputs, 0, Int32Array.from(golden.batch.inputs));
  q.writeBuffer(a.targets, 0, Int32Array.from(golden.batch.targets));
  q.writeBuffer(a.mask, 0, Float32Array.from(golden.batch.mask));
  q.writeBuffer(a.gradLogprob, 0, gL);
  q.writeBuffer(a.gradEntropy, 0, gE);
  const [logits, met, grads] = await ctx.run(
    (pass) => {
      m.recordForward(pass, m.params, B, T);
      m.recordLogsoftmax(pass, B, T, tau);
      ctx.ops.lossReduce(pass, m.metrics, a.logprobs, a.entropy, a.mask, a.gradLogprob, a.gradEntropy, N);
      m.recordBackward(pass, B, T, tau);
    },
    [{ buffer: a.logits, floats: N * be.config.vocabSize }, { buffer: m.metrics, floats: METRIC_FLOATS }, { buffer: m.grads, floats: be.layout.total }],
  );
  return { logits, loss: met[M.LOSS], grads };
}

export async function runModelParity(forms: { matmulForm?: 'tiled' | 'direct'; reductionForm?: 'row' | 'workgroup' | 'subgroup'; attentionForm?: 'tiled' | 'row' } = {}): Promise<{ rows: GoldenRow[]; steps: { step: number; torch: number; gpu: number; relErr: number; normRelErr: number }[] }> {
  const config = golden.config as ModelConfig;
  const layout = paramLayout(config);
  const w = initWeights(layout, golden.seed);
  for (const t of layout.tensors) if (t.init === 'normal') for (let i = t.offset; i < t.offset + t.size; i++) w[i] *= golden.initScale;
  const be = await createWebGPUBackend(config, { seed: golden.seed, weights: w, limits: 'default', ...forms });
  const { B, T } = golden.batch;
  const N = B * T;
  const mask = golden.batch.mask;
  const n = mask.reduce((s, x) => s + x, 0);
  const ce = await gradients(be, Float32Array.from(mask, (x) => -x / n), new Float32Array(N), 1);
  const pt = await gradients(be, Float32Array.from(golden.pertoken.gradLogprob), Float32Array.from(golden.pertoken.gradEntropy), golden.pertoken.tau);
  const rows: GoldenRow[] = [
    { what: 'logits', ce: scaledErr(ce.logits, golden.ce.logits), pertoken: null },
    { what: 'loss', ce: relErr(ce.loss, golden.ce.loss), pertoken: relErr(pt.loss, golden.pertoken.loss) },
  ];
  for (const t of layout.tensors) {
    rows.push({
      what: `grad ${t.name}`,
      ce: scaledErr(ce.grads.subarray(t.offset, t.offset + t.size), (golden.ce.grads as Record<string, number[]>)[t.name]),
      pertoken: scaledErr(pt.grads.subarray(t.offset, t.offset + t.size), (golden.pertoken.grads as Record<string, number[]>)[t.name]),
    });
  }
  const opt = golden.train.adamw;
  const batch = { B, T, inputs: Int32Array.from(golden.batch.inputs), targets: Int32Array.from(golden.batch.targets), mask: Float32Array.from(mask) };
  const steps = [];
  for (let s = 0; s < opt.steps; s++) {
    const r = await be.trainStep(batch, { kind: 'ce' }, opt);
    if (!r.finite) throw new Error(`step ${s + 1} not finite`);
    steps.push({ step: s + 1, torch: golden.train.losses[s], gpu: r.loss, relErr: relErr(r.loss, golden.train.losses[s]), normRelErr: relErr(r.gradNorm, golden.train.gradNorms[s]) });
  }
  be.dispose();
  return { rows, steps };
}

/**
 * Writes the input of scripts/golden.py: the micro config, its offset table, the initial
 * weights (flat, by the table), a fixed batch, per-token loss coefficients and the AdamW
 * settings. golden.py builds the same model in PyTorch from these and writes
 * src/model/goldens/micro.json, which src/model/reference/golden.test.ts compares against.
 *
 *   npx tsx scripts/golden-input.ts /tmp/golden-input.json
 *   /usr/bin/python3 scripts/golden.py /tmp/golden-input.json src/model/goldens/micro.json
 *
 * Weights: initWeights(layout, seed) with every 'normal' tensor scaled by INIT_SCALE, so
 * attention is not uniform and GELU is not linear (a golden of a near-trivial model checks
 * little). The test rebuilds them the same way and checks their sums against the golden.
 */
import { writeFileSync } from 'node:fs';
import { paramLayout } from '../src/model/config.ts';
import type { ModelConfig } from '../src/model/config.ts';
import { initWeights } from '../src/model/init.ts';
import { Rng } from '../src/model/rng.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 8, dModel: 16, nHeads: 2, nLayers: 2 };
const SEED = 1337;
const INIT_SCALE = 5;
const B = 2;
const T = 8;

const layout = paramLayout(config);
const weights = initWeights(layout, SEED);
for (const t of layout.tensors) if (t.init === 'normal') for (let i = t.offset; i < t.offset + t.size; i++) weights[i] *= INIT_SCALE;

const rng = new Rng(SEED + 1);
const inputs: number[] = [];
const targets: number[] = [];
const mask: number[] = [];
for (let i = 0; i < B * T; i++) {
  inputs.push(rng.int(VOCAB_SIZE));
  targets.push(rng.int(VOCAB_SIZE));
  mask.push(i % T >= 2 && i !== B * T - 1 ? 1 : 0); // 2 prompt positions per row, last position padding
}
// an arbitrary per-token loss L = Σ gL·logp + Σ gE·H at temperature 0.7
const gradLogprob = mask.map((m) => m * rng.normal());
const gradEntropy = mask.map((m) => m * rng.normal());

const input = {
  config,
  seed: SEED,
  initScale: INIT_SCALE,
  layout: layout.tensors.map((t) => ({ name: t.name, shape: t.shape, offset: t.offset, size: t.size })),
  total: layout.total,
  weights: Array.from(weights),
  batch: { B, T, inputs, targets, mask },
  pertoken: { tau: 0.7, gradLogprob, gradEntropy },
  adamw: { lr: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, gradClip: 1.0, steps: 10 },
};
const out = process.argv[2] ?? '/tmp/golden-input.json';
writeFileSync(out, JSON.stringify(input));
console.log(`wrote ${out}: ${layout.numParams} parameters, B=${B}, T=${T}`);

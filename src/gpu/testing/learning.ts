/**
 * Browser-side body of e2e/gpu-learning.spec.ts: supervised learning of "reverse three letters"
 * (`abc=` → `cba` EOS) on WebGPU, with the first steps mirrored on the CPU reference.
 *
 * Data: all 26³ strings; held-out = those whose mixed hash is ≡ 0 mod 8 (a well-mixed hash of
 * the whole instance, so held-out prompts come from the training distribution); batches are
 * drawn from the rest by a seeded Rng. Held-out accuracy = exact match of greedy decoding
 * (sample() at temperature 0) on held-out strings.
 */
import type { AdamWSettings } from '../../model/backend.ts';
import { packBatch } from '../../model/batch.ts';
import type { ModelConfig } from '../../model/config.ts';
import { ReferenceBackend } from '../../model/reference/backend.ts';
import { mix32, Rng } from '../../model/rng.ts';
import { decode, encode, encodePrompt, EOS, VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createWebGPUBackend } from '../backend.ts';
import type { WebGPUBackend } from '../backend.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface LearningOptions {
  seed: number;
  batchSize: number;
  maxSteps: number;
  /** Steps mirrored on the reference, losses compared. */
  compareSteps: number;
  evalEvery: number;
  /** Held-out strings per intermediate evaluation (the final one uses all of them). */
  evalSize: number;
  target: number;
  opt: AdamWSettings;
}

async function accuracy(be: WebGPUBackend, words: string[]): Promise<number> {
  let ok = 0;
  for (let i = 0; i < words.length; i += 256) {
    const chunk = words.slice(i, i + 256);
    const r = await be.sample({ prompts: chunk.map((w) => encodePrompt(w + '=')), numGenerations: 1, temperature: 0, maxNewTokens: 4, seed: 0, stream: 0 });
    chunk.forEach((w, j) => {
      const t = r.tokens[j];
      if (decode(t) === [...w].reverse().join('') && t[t.length - 1] === EOS && t.length === 4) ok++;
    });
  }
  return ok / words.length;
}

export async function runLearning(o: LearningOptions) {
  const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 9, dModel: 32, nHeads: 4, nLayers: 2 };
  const train: string[] = [];
  const heldOut: string[] = [];
  for (let i = 0; i < 26 ** 3; i++) {
    const w = LETTERS[Math.floor(i / 676)] + LETTERS[Math.floor(i / 26) % 26] + LETTERS[i % 26];
    (mix32(i ^ 0x51ed5eed) % 8 === 0 ? heldOut : train).push(w);
  }
  const rng = new Rng(o.seed);
  const makeBatch = () => {
    const pairs = [];
    for (let b = 0; b < o.batchSize; b++) {
      const w = train[rng.int(train.length)];
      pairs.push({ prompt: encodePrompt(w + '='), response: [...encode([...w].reverse().join('')), EOS] });
    }
    return packBatch(pairs, config.seqLen - 1);
  };
  const gpu = await createWebGPUBackend(config, { seed: o.seed });
  const cpu = ReferenceBackend.create(config, o.seed);
  const compare: { step: number; gpu: number; ref: number; relErr: number }[] = [];
  const curve: { step: number; loss: number; heldOut?: number }[] = [];
  const t0 = performance.now();
  let heldOutAcc = 0;
  let steps = 0;
  for (let s = 1; s <= o.maxSteps; s++) {
    const batch = makeBatch();
    const r = await gpu.trainStep(batch, { kind: 'ce' }, o.opt);
    steps = s;
    if (s <= o.compareSteps) {
      const c = await cpu.trainStep(batch, { kind: 'ce' }, o.opt);
      compare.push({ step: s, gpu: r.loss, ref: c.loss, relErr: Math.abs(r.loss - c.loss) / Math.abs(c.loss) });
    }
    if (s % o.evalEvery === 0) {
      const acc = await accuracy(gpu, heldOut.slice(0, o.evalSize));
      curve.push({ step: s, loss: r.loss, heldOut: acc });
      console.log(`learning: step ${s} loss ${r.loss.toFixed(4)} held-out ${acc.toFixed(3)} (${((performance.now() - t0) / s).toFixed(0)} ms/step)`);
      if (acc >= o.target) break;
    } else if (s % 25 === 0) curve.push({ step: s, loss: r.loss });
  }
  const trainMs = performance.now() - t0;
  heldOutAcc = await accuracy(gpu, heldOut);
  const trainAcc = await accuracy(gpu, train.slice(0, 512));
  gpu.dispose();
  return { compare, curve, steps, heldOutAcc, trainAcc, heldOutSize: heldOut.length, trainSize: train.length, msPerStep: trainMs / steps };
}

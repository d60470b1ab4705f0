/**
 * Browser-side body of e2e/gpu-bench.spec.ts: the bench's code paths on micro sizes (no timing
 * claims), and the profiler's promise that profiling never changes the model: a backend that
 * takes one step under the profiler (traced step + replays) ends with the same weights, bit for
 * bit, as a twin that takes the same step plainly.
 */
import { DEFAULT_ADAMW } from '../../model/backend.ts';
import { CONFIGS } from '../../model/config.ts';
import type { ModelConfig } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createWebGPUBackend } from '../backend.ts';
import { benchMatmul, benchReductions, benchSample, benchTrainStep, randomBatch } from '../bench/engineBench.ts';
import { Profiler } from '../profiler.ts';

export async function runBenchSmoke() {
  const config: ModelConfig = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const step = await benchTrainStep(config, 4, 12, 1, { profile: true });
  const sample = await benchSample(config, 4, 1);
  const matmul = await benchMatmul(36, 20, 28, 1, 1);
  const reductions = await benchReductions(20, 36, 51, 1, 1);

  // profiling leaves the model exactly where a plain step leaves it
  const batch = randomBatch(3, 4, 12, config.vocabSize);
  const opt = { ...DEFAULT_ADAMW, lr: 1e-2 };
  const a = await createWebGPUBackend(config, { seed: 11, timestamps: true });
  const b = await createWebGPUBackend(config, { seed: 11 });
  const profiler = new Profiler(a);
  const profile = await profiler.profileTrainStep(batch, opt);
  await b.trainStep(batch, { kind: 'ce' }, opt);
  const [wa, wb] = [await a.getWeights(), await b.getWeights()];
  const [sa, sb] = [await a.getOptimizerState(), await b.getOptimizerState()];
  let weightDiffs = 0;
  for (let i = 0; i < wa.length; i++) if (wa[i] !== wb[i] || sa.m[i] !== sb.m[i] || sa.v[i] !== sb.v[i]) weightDiffs++;
  const errors = [...a.ctx.errors, ...b.ctx.errors];
  profiler.destroy();
  a.dispose();
  b.dispose();
  return { step, sample, matmul, reductions, profile, weightDiffs, errors };
}

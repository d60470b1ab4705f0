/**
 * Browser-side body of e2e/gpu-engine.spec.ts: the engine on a device with WebGPU's default
 * limits; submits and readbacks counted by wrapping GPUQueue.submit and GPUBuffer.mapAsync;
 * live buffers (and cache sizes) before and after 200 training steps.
 */
import { installGpuCounters } from './counters.ts';
import { CONFIGS } from '../../model/config.ts';
import type { ModelConfig } from '../../model/config.ts';
import { DEFAULT_ADAMW } from '../../model/backend.ts';
import type { TokenBatch } from '../../model/backend.ts';
import { Rng } from '../../model/rng.ts';
import { encodePrompt, VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createWebGPUBackend } from '../backend.ts';
import { MAX_CACHED_BIND_GROUPS, MAX_CACHED_UNIFORMS } from '../ops.ts';

function randomBatch(rng: Rng, B: number, T: number, V: number): TokenBatch {
  const inputs = Int32Array.from({ length: B * T }, () => 4 + rng.int(V - 4));
  const targets = Int32Array.from({ length: B * T }, () => 4 + rng.int(V - 4));
  const mask = Float32Array.from({ length: B * T }, (_, i) => (i % T >= 3 ? 1 : 0));
  return { B, T, inputs, targets, mask };
}

export async function runEngineChecks(steps = 200) {
  const { counts, restore } = installGpuCounters();
  try {
    const config: ModelConfig = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
    const adapter = (await navigator.gpu.requestAdapter())!;
    const be = await createWebGPUBackend(config, { seed: 1, limits: 'default' });
    const lim = be.ctx.device.limits;
    const limits = {
      device: { maxStorageBuffersPerShaderStage: lim.maxStorageBuffersPerShaderStage, maxComputeWorkgroupStorageSize: lim.maxComputeWorkgroupStorageSize },
      adapter: { maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage, maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
    };
    const rng = new Rng(5);
    const batch = randomBatch(rng, 8, 12, config.vocabSize);
    const delta = async <T>(f: () => Promise<T>) => {
      const s0 = counts.submits;
      const m0 = counts.maps;
      const value = await f();
      return { value, submits: counts.submits - s0, maps: counts.maps - m0 };
    };
    const opt = { ...DEFAULT_ADAMW, lr: 3e-3 };
    const step = await delta(() => be.trainStep(batch, { kind: 'ce' }, opt));
    const pertoken = await delta(() =>
      be.trainStep(batch, { kind: 'pertoken', gradLogprob: batch.mask.map((m) => -m / 50), gradEntropy: batch.mask.map((m) => 0.01 * m) }, opt),
    );
    const prompts = ['abc=', 'hello=', 'x='].map(encodePrompt);
    const rollout = await delta(() => be.sample({ prompts, numGenerations: 4, temperature: 1, maxNewTokens: 8, seed: 1, stream: 2 }));
    const lp = await delta(() => be.logprobs(batch, { temperature: 0.8 }));

    // leaks: steady state after the warm-up above, then `steps` more training steps and rollouts
    const live0 = be.liveBuffers;
    const bytes0 = be.ctx.arena.bytes;
    const cache0 = be.ctx.ops.cacheSizes;
    const losses: number[] = [];
    for (let s = 0; s < steps; s++) {
      const r = await be.trainStep(batch, { kind: 'ce' }, opt);
      losses.push(r.loss);
      if (s % 50 === 0) await be.sample({ prompts, numGenerations: 4, temperature: 1, maxNewTokens: 8, seed: 1, stream: s });
    }
    const live1 = be.liveBuffers;
    const bytes1 = be.ctx.arena.bytes;
    const cache1 = be.ctx.ops.cacheSizes;

    // bounded caches: GRPO batches change shape (T) every step; many distinct shapes must not
    // grow the uniform / bind-group caches (or the live buffers) without bound
    const shapes = { steps: 0, maxUniforms: 0, maxBindGroups: 0, maxLive: 0, trims0: be.ctx.ops.trims, trims: 0, liveBase: live1 };
    for (let round = 0; round < 3; round++) {
      for (let T = 2; T <= config.seqLen; T++) {
        const B = 3 + ((T + round) % 5);
        await be.trainStep(randomBatch(rng, B, T, config.vocabSize), { kind: 'ce' }, opt);
        await be.logprobs(randomBatch(rng, B, T, config.vocabSize));
        shapes.steps++;
        const c = be.ctx.ops.cacheSizes;
        shapes.maxUniforms = Math.max(shapes.maxUniforms, c.uniforms);
        shapes.maxBindGroups = Math.max(shapes.maxBindGroups, c.bindGroups);
        shapes.maxLive = Math.max(shapes.maxLive, be.liveBuffers);
      }
    }
    shapes.trims = be.ctx.ops.trims - shapes.trims0;
    const errors = [...be.ctx.errors];
    be.dispose();
    return {
      limits,
      counts: {
        trainStep: { submits: step.submits, readbacks: step.maps, finite: step.value.finite },
        trainStepPertoken: { submits: pertoken.submits, readbacks: pertoken.maps, finite: pertoken.value.finite },
        sample: { submits: rollout.submits, readbacks: rollout.maps, rows: rollout.value.tokens.length },
        logprobs: { submits: lp.submits, readbacks: lp.maps, finite: lp.value.logprobs.every(Number.isFinite) },
      },
      leak: { live0, live1, bytes0, bytes1, cache0, cache1, firstLoss: losses[0], lastLoss: losses[losses.length - 1], steps },
      shapes: { ...shapes, bounds: { uniforms: MAX_CACHED_UNIFORMS, bindGroups: MAX_CACHED_BIND_GROUPS } },
      errors,
    };
  } finally {
    restore();
  }
}

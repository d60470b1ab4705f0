/**
 * Browser-side bodies of e2e/grpo-webgpu.spec.ts: GRPO on the WebGPU engine.
 *   countGrpoStep   one GRPO step's submits and readbacks per phase, counted by wrapping
 *                   GPUQueue.submit and GPUBuffer.mapAsync
 *   learnOnWebGPU   a GRPO run from a shipped base checkpoint, held-out accuracy before/after
 */
import { decodeCheckpoint } from '../../model/checkpoint.ts';
import { CONFIGS } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createBackend } from '../backends.ts';
import { defaultSettings, type Settings } from '../settings.ts';
import { GrpoTrainer } from '../trainer.ts';
import { installGpuCounters } from '../../gpu/testing/counters.ts';

export async function countGrpoStep() {
  const be = await createBackend('webgpu', { vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 1 });
  await be.snapshotReference();
  const settings: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 4, numGenerations: 4, beta: 0.04, maxCompletionLength: 6, numIterations: 1 };
  const tr = new GrpoTrainer(be, settings, { evalSize: 4, evalPassAtK: false });
  await tr.trainStep(); // warm: pipelines, buffers and bind groups exist after this
  const { counts, restore } = installGpuCounters();
  try {
    const at = () => ({ ...counts });
    const c0 = at();
    const rollout = await tr.rollout();
    const c1 = at();
    const batch = tr.batchOf(rollout);
    await tr.computeAdvantages(rollout, batch);
    const c2 = at();
    const u = await tr.update(rollout, batch);
    const c3 = at();
    be.dispose();
    return {
      rollout: { submits: c1.submits - c0.submits, readbacks: c1.maps - c0.maps },
      advantages: { submits: c2.submits - c1.submits, readbacks: c2.maps - c1.maps },
      update: { submits: c3.submits - c2.submits, readbacks: c3.maps - c2.maps },
      finite: u.finite,
      kl: u.metrics.kl,
    };
  } finally {
    restore();
  }
}

export async function learnOnWebGPU(checkpointUrl: string, overrides: Partial<Settings>, steps: number, evalSize: number) {
  const bytes = new Uint8Array(await (await fetch(checkpointUrl)).arrayBuffer());
  const ck = decodeCheckpoint(bytes);
  const be = await createBackend('webgpu', ck.config, { seed: 1, weights: ck.weights });
  await be.snapshotReference();
  const settings: Settings = { ...defaultSettings(), task: String(ck.metadata.task), difficulty: Number(ck.metadata.difficulty), ...overrides };
  const tr = new GrpoTrainer(be, settings, { evalSize, evalPassAtK: true });
  const before = await tr.evaluate();
  const rewards: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < steps; i++) rewards.push((await tr.trainStep()).metrics.reward);
  const after = await tr.evaluate();
  be.dispose();
  return {
    before: { greedy: before.heldout_accuracy, pass1: before.pass_at_k['1'] },
    after: { greedy: after.heldout_accuracy, pass1: after.pass_at_k['1'] },
    rewards,
    msPerStep: (performance.now() - t0) / steps,
  };
}

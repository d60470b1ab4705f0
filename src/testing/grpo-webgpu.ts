/**
 * Browser-side bodies of e2e/grpo-webgpu.spec.ts: GRPO on the WebGPU engine.
 *   countGrpoStep   one GRPO step's submits and readbacks per phase, counted by wrapping
 *                   GPUQueue.submit and GPUBuffer.mapAsync
 *   learnOnWebGPU   a GRPO run from a shipped base checkpoint, held-out accuracy before/after
 */
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { CONFIGS } from '../model/config.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { createBackend } from '../model/engines.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import type { ObjectiveComparison } from '../rl/counterfactual.ts';
import { GrpoTrainer, policyLossOf, type UpdateResult } from '../rl/trainer.ts';
import { adamwSettings } from '../model/backend.ts';
import { rolloutWithAdvantages } from '../rl/testing/phases.ts';
import { installGpuCounters } from '../gpu/testing/counters.ts';
import { createWebGPUBackend } from '../gpu/backend.ts';
import { pipelineStats, type KernelForms } from '../gpu/kernels.ts';

/**
 * One GRPO step's traffic at µ, in the adapter's kernel forms or those given; `late`: pipelines the
 * context's up-front compile did not predict (formKernels), compiled at first dispatch by the
 * context, a step and an evaluation.
 */
export async function countGrpoStep(mu = 1, forms: Partial<KernelForms> = {}) {
  const late0 = pipelineStats.late;
  const be = await createWebGPUBackend({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 1, ...forms });
  await be.snapshotReference();
  const settings: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 4, numGenerations: 4, beta: 0.04, maxCompletionLength: 6, numIterations: mu };
  const tr = new GrpoTrainer(be, settings, { evalSize: 4, evalPassAtK: false });
  await tr.trainStep(); // warm: pipelines, buffers and bind groups exist after this
  await tr.evaluate();
  const late = pipelineStats.late - late0;
  const { counts, restore } = installGpuCounters();
  try {
    const at = () => ({ ...counts });
    const c0 = at();
    let c1 = c0, c2 = c0, c3 = c0;
    let u: UpdateResult | null = null;
    for await (const ph of tr.runStep()) { // the counts when each phase arrives: its work is done
      if (ph.kind === 'rollout') c1 = at();
      else if (ph.kind === 'advantages') c2 = at();
      else if (ph.kind === 'update') { c3 = at(); u = ph.update; }
    }
    be.dispose();
    return {
      rollout: { submits: c1.submits - c0.submits, readbacks: c1.maps - c0.maps },
      advantages: { submits: c2.submits - c1.submits, readbacks: c2.maps - c1.maps },
      update: { submits: c3.submits - c2.submits, readbacks: c3.maps - c2.maps },
      finite: u!.finite,
      kl: u!.metrics.kl,
      forms: { matmulForm: be.ctx.ops.matmulForm, reductionForm: be.ctx.ops.reductionForm, attentionForm: be.ctx.ops.attentionForm, decodeForm: be.ctx.ops.decodeForm },
      late,
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

/**
 * One stepped update on WebGPU, as the step-through runs it (inspect: true), under token- and
 * sequence-level ratios: the objective's metrics computed term by term on the CPU (from
 * policyObjective, on log-probs read back before the update) beside the WGSL kernel's metrics
 * of the same update's first inner epoch.
 */
export async function inspectedStepOnWebGPU() {
  const be = await createBackend('webgpu', { vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 3 });
  const out = [];
  for (const level of ['token', 'sequence'] as const) {
    const settings: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 4, numGenerations: 4, beta: 0.04, maxCompletionLength: 6, numIterations: 2, importanceSamplingLevel: level, learningRate: 5e-3, warmupSteps: 0 };
    const tr = new GrpoTrainer(be, settings, { evalSize: 4, evalPassAtK: false });
    for (let i = 0; i < 3; i++) await tr.trainStep(); // π_θ moves away from π_ref
    let compared: ObjectiveComparison | null = null;
    for await (const ph of tr.runStep(settings, { inspect: true })) {
      // the step-through's "compare objectives": four engine updates, undone before the real one
      if (ph.kind === 'advantages') compared = await tr.compareObjectives(ph.rollout, ph.batch);
      if (ph.kind !== 'update') continue;
      const answers = ph.inspection!.answers.flat();
      const column = compared!.objectives.find((o) => o.id === compared!.runObjective)!.answers.flat();
      out.push({
        runObjective: compared!.runObjective,
        /** The applied update's Δ log π per answer beside the comparison's column for the run's objective. */
        applied: answers.map((x) => x.logpAfter - x.logpBefore),
        compared: column.map((x) => x.deltaLogp),
        level,
        cpu: ph.inspection!.metrics!,
        gpu: ph.update.epochs[0],
        tokenLoss: answers.reduce((a, x) => a + x.tokens!.reduce((y, t) => y + t.loss, 0), 0),
        perAnswerClip: answers.every((x) => (level === 'sequence') === (x.sequence !== null)),
      });
    }
  }
  be.dispose();
  return out;
}

/**
 * µ inner epochs in one submit against the same epochs as µ separate calls, from the same
 * state on the same batch: the weights after, and each epoch's loss and metrics.
 */
export async function epochsInOneSubmit(mu: number) {
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const settings: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 4, numGenerations: 4, beta: 0.04, maxCompletionLength: 6, numIterations: mu, learningRate: 3e-3, warmupSteps: 0 };
  const runs = [];
  for (const oneCall of [true, false]) {
    const be = await createBackend('webgpu', config, { seed: 2 });
    await be.snapshotReference();
    const tr = new GrpoTrainer(be, settings, { evalSize: 4, evalPassAtK: false });
    const { rollout, batch } = await rolloutWithAdvantages(tr);
    const spec = policyLossOf(rollout, batch, settings);
    const opt = adamwSettings(settings.learningRate, settings.maxGradNorm);
    const epochs = oneCall
      ? (await be.trainStep(batch, spec, opt, { epochs: mu })).epochs!
      : await (async () => { const r = []; for (let e = 0; e < mu; e++) r.push(await be.trainStep(batch, spec, opt)); return r; })();
    runs.push({ weights: await be.getWeights(), step: (await be.getOptimizerState()).step, epochs: epochs.map((e) => ({ loss: e.loss, gradNorm: e.gradNorm, kl: e.metrics.kl, clip: e.metrics['clip_ratio/region_mean'], finite: e.finite })) });
    be.dispose();
  }
  const [one, many] = runs;
  let maxDiff = 0;
  for (let i = 0; i < one.weights.length; i++) maxDiff = Math.max(maxDiff, Math.abs(one.weights[i] - many.weights[i]));
  return { one: one.epochs, many: many.epochs, steps: [one.step, many.step], weightsMaxDiff: maxDiff };
}

/**
 * The two engine outputs the step-through and lesson 2 read beyond the loss, WebGPU against the
 * CPU reference from the same weights on the same GRPO batch (β > 0, µ = 2): `gradient()` (this
 * batch's loss gradient alone, every parameter) and `answerLogRatio` (each answer's Σ log ρ at
 * the start of the second inner epoch, rowStats slot 9 of shaders/policy_loss.wgsl). Error of a
 * tensor = max |gpu − cpu| / max |cpu|.
 */
export async function gradientAndAnswerShiftParity() {
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const settings: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 4, numGenerations: 4, beta: 0.04, maxCompletionLength: 6, numIterations: 2, learningRate: 5e-3, warmupSteps: 0 };
  const cpu = await createBackend('cpu', config, { seed: 4 });
  const gpu = await createBackend('webgpu', config, { seed: 4, weights: await cpu.getWeights() });
  for (const be of [cpu, gpu]) await be.snapshotReference();
  const tr = new GrpoTrainer(cpu, settings, { evalSize: 4, evalPassAtK: false });
  for (let i = 0; i < 2; i++) await tr.trainStep(); // π_θ away from π_ref on the CPU, then the GPU takes the same weights
  await gpu.setWeights(await cpu.getWeights());
  await gpu.setOptimizerState(await cpu.getOptimizerState()); // and AdamW's moments: the next update is the same on both
  const { rollout, batch } = await rolloutWithAdvantages(tr);
  const spec = policyLossOf(rollout, batch, settings);
  const opt = adamwSettings(settings.learningRate, settings.maxGradNorm);
  const scaledErr = (a: Float32Array, ref: Float32Array) => {
    let d = 0, m = 0;
    for (let i = 0; i < ref.length; i++) { d = Math.max(d, Math.abs(a[i] - ref[i])); m = Math.max(m, Math.abs(ref[i])); }
    return { err: d / m, scale: m };
  };
  const g = [await cpu.gradient(batch, spec), await gpu.gradient(batch, spec)];
  // gradient() changed nothing: the update that follows starts from the same weights on both
  const steps = [await cpu.trainStep(batch, spec, opt, { epochs: 2 }), await gpu.trainStep(batch, spec, opt, { epochs: 2 })];
  const rows = steps.map((r) => r.answerLogRatio!);
  const out = { gradient: scaledErr(g[1].grads, g[0].grads), loss: [g[0].loss, g[1].loss], answerShift: scaledErr(rows[1], rows[0]), rows: rows[0].length, B: batch.B, weightsAfter: scaledErr(await gpu.getWeights(), await cpu.getWeights()) };
  cpu.dispose();
  gpu.dispose();
  return out;
}

// GRPO on the WebGPU engine: the step stays on the GPU, and the policy learns.
import { expect, test } from './fixtures.ts';

const GPU_FORMS = { matmulForm: 'tiled', reductionForm: 'workgroup', attentionForm: 'tiled', decodeForm: 'fused' } as const;

test('one GRPO step: one submit + one readback for the rollout, one of each for the update, at any µ; the context compiled up front every kernel it ran', async ({ page }) => {
  await page.goto('/e2e/harness.html');
  // the adapter's forms at µ = 1 and 4, and the GPUs' forms (forced here: SwiftShader's are the CPU adapters')
  for (const [mu, forms] of [[1, {}], [4, {}], [2, GPU_FORMS]] as const) {
    const r = await page.evaluate(async ([mu, forms]) => {
      const m: typeof import('../src/testing/grpo-webgpu.ts') = await import('/src/testing/grpo-webgpu.ts' as string);
      return m.countGrpoStep(mu, forms);
    }, [mu, forms] as const);
    if (Object.keys(forms).length) expect(r.forms).toEqual(forms);
    // formKernels predicted every pipeline a step and an evaluation dispatch (none compiled at first dispatch)
    expect(r.late, `µ = ${mu} ${JSON.stringify(r.forms)}`).toBe(0);
    console.log(`GRPO step on WebGPU (β > 0, µ = ${mu}):`, JSON.stringify(r));
    expect(r.rollout).toEqual({ submits: 1, readbacks: 1 });
    expect(r.advantages).toEqual({ submits: 0, readbacks: 0 }); // the verifier and advantages are CPU-only
    expect(r.update, `µ = ${mu}`).toEqual({ submits: 1, readbacks: 1 }); // π_ref forward, then µ × (objective, backward, AdamW): one submit
    expect(r.finite).toBe(true);
    expect(r.kl).toBeGreaterThan(0); // β > 0 after one update: π_ref was evaluated and π_θ has moved from it
  }
});

test('µ inner epochs in one submit equal µ separate updates: the same weights, each epoch\'s own loss and metrics', async ({ page }) => {
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m: typeof import('../src/testing/grpo-webgpu.ts') = await import('/src/testing/grpo-webgpu.ts' as string);
    return m.epochsInOneSubmit(3);
  });
  console.log('µ = 3 in one submit vs three calls:', JSON.stringify(r));
  expect(r.steps).toEqual([3, 3]); // AdamW's t advanced once per epoch in both
  expect(r.weightsMaxDiff).toBeLessThan(1e-6);
  expect(r.one.length).toBe(3);
  for (let e = 0; e < 3; e++) {
    expect(r.one[e].finite).toBe(true);
    expect(Math.abs(r.one[e].loss - r.many[e].loss)).toBeLessThan(1e-6 + 1e-5 * Math.abs(r.many[e].loss));
    expect(Math.abs(r.one[e].kl - r.many[e].kl)).toBeLessThan(1e-7 + 1e-5 * r.many[e].kl);
  }
  expect(r.one[2].kl).toBeGreaterThan(r.one[0].kl); // the epochs are not copies of one another: π_θ moves away from π_ref
});

test('GRPO on WebGPU raises held-out accuracy from the shipped reverse-d2 base', async ({ page }) => {
  test.setTimeout(600_000);
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m: typeof import('../src/testing/grpo-webgpu.ts') = await import('/src/testing/grpo-webgpu.ts' as string);
    const { LEARNING_RECIPE } = await import('/src/rl/testing/recipe.ts' as string);
    // 30 steps (was 40): evaluated along one run, pass@1 0.217 → 0.387 / 0.404 / 0.424 / 0.457 / 0.469 at steps
    // 20 / 25 / 30 / 35 / 40, greedy 0.641 → 0.797 at 30; 20 steps would leave 0.02 above the bar, 30 leaves 0.06
    return m.learnOnWebGPU('/checkpoints/reverse-d2.ckpt', LEARNING_RECIPE, 30, 64);
  });
  console.log(`WebGPU GRPO, reverse d2: held-out greedy ${r.before.greedy.toFixed(3)} → ${r.after.greedy.toFixed(3)}, pass@1 ${r.before.pass1.toFixed(3)} → ${r.after.pass1.toFixed(3)}, ${r.msPerStep.toFixed(0)} ms/step`);
  console.log(`rewards: ${r.rewards.map((x) => x.toFixed(2)).join(' ')}`);
  // Held-out accuracy of the policy as it samples (pass@1 at τ = 1, 64 prompts × 8 samples: the
  // precise estimate), and its greedy answers (64 prompts: noisier, ±6 points) must not fall.
  expect(r.after.pass1 - r.before.pass1).toBeGreaterThanOrEqual(0.15);
  expect(r.after.greedy).toBeGreaterThanOrEqual(r.before.greedy);
});

test('the step-through\'s term-by-term objective (CPU, policyObjective) matches the WGSL kernel\'s metrics of the same update, and its objectives comparison leaves that update unchanged', async ({ page }) => {
  await page.goto('/e2e/harness.html');
  const rows = await page.evaluate(async () => {
    const m: typeof import('../src/testing/grpo-webgpu.ts') = await import('/src/testing/grpo-webgpu.ts' as string);
    return m.inspectedStepOnWebGPU();
  });
  expect(rows.length).toBe(2);
  for (const r of rows) {
    console.log(`${r.level}: kl cpu ${r.cpu.kl.toExponential(3)} gpu ${r.gpu.kl.toExponential(3)}, loss cpu ${r.cpu.policy_loss.toExponential(4)} gpu ${r.gpu.policy_loss.toExponential(4)}, clipped ${r.gpu['clip_ratio/region_mean']}`);
    for (const k of ['kl', 'entropy', 'ratio_mean', 'policy_loss', 'clip_ratio/region_mean']) {
      expect(Math.abs(r.cpu[k] - r.gpu[k]), `${r.level} ${k}: cpu ${r.cpu[k]} gpu ${r.gpu[k]}`).toBeLessThan(2e-3 * Math.abs(r.gpu[k]) + 1e-7);
    }
    expect(r.cpu.kl).toBeGreaterThan(1e-4); // π_θ ≠ π_ref: the comparison is not of two zeros
    expect(Math.abs(r.tokenLoss - r.gpu.policy_loss)).toBeLessThan(2e-3 * Math.abs(r.gpu.policy_loss) + 1e-7);
    expect(r.perAnswerClip).toBe(true);
    // the comparison ran on the engine and put its state back: the applied update is its column for the run's objective
    expect(r.runObjective).toBe(r.level === 'token' ? 'grpo' : 'gspo');
    const worst = Math.max(...r.applied.map((d, i) => Math.abs(d - r.compared[i])));
    console.log(`${r.level}: applied Δ log π vs the comparison's ${r.runObjective} column, largest difference ${worst.toExponential(2)} (largest |Δ| ${Math.max(...r.applied.map(Math.abs)).toExponential(2)})`);
    expect(worst).toBeLessThan(1e-3 * Math.max(...r.applied.map(Math.abs)) + 1e-5);
  }
});

test('this batch\'s gradient alone and each answer\'s shift after the first inner epoch: WebGPU against the CPU reference', async ({ page }) => {
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m: typeof import('../src/testing/grpo-webgpu.ts') = await import('/src/testing/grpo-webgpu.ts' as string);
    return m.gradientAndAnswerShiftParity();
  });
  console.log('gradient() and answerLogRatio, WebGPU vs CPU:', JSON.stringify(r));
  expect(r.rows).toBe(r.B);
  expect(r.gradient.scale).toBeGreaterThan(1e-4); // a real gradient, not zeros
  expect(r.gradient.err).toBeLessThan(1e-5);
  expect(Math.abs(r.loss[1] - r.loss[0])).toBeLessThan(1e-4 * Math.abs(r.loss[0]) + 1e-6);
  expect(r.answerShift.scale).toBeGreaterThan(1e-4); // the first epoch moved the answers
  expect(r.answerShift.err).toBeLessThan(1e-4);
  expect(r.weightsAfter.err).toBeLessThan(1e-5); // gradient() left both engines where they were
});

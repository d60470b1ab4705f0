// GRPO on the WebGPU engine: the step stays on the GPU, and the policy learns.
import { expect, test } from '@playwright/test';

test('one GRPO step: one submit + one readback for the rollout, one of each for the update', async ({ page }) => {
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m: typeof import('../src/rl/testing/grpo-webgpu.ts') = await import('/src/rl/testing/grpo-webgpu.ts' as string);
    return m.countGrpoStep();
  });
  console.log('GRPO step on WebGPU (β > 0, µ = 1):', JSON.stringify(r));
  expect(r.rollout).toEqual({ submits: 1, readbacks: 1 });
  expect(r.advantages).toEqual({ submits: 0, readbacks: 0 }); // the verifier and advantages are CPU-only
  expect(r.update).toEqual({ submits: 1, readbacks: 1 }); // π_ref forward, objective, backward, AdamW: one submit
  expect(r.finite).toBe(true);
  expect(r.kl).toBeGreaterThanOrEqual(0);
});

import { expect, test, type Page } from './fixtures.ts';
import { stubViteClient, watchErrors } from './reliability-page.ts';

// NaN/Inf: a debug hook writes NaN into one weight on the GPU (behind the mirror's back), so the
// next forward is non-finite. The update's one readback reports it; the step is rejected, the
// weights and AdamW state roll back to the last good step, the run pauses with an explanation,
// and the charts never receive the NaN step. Backend: WebGPU (SwiftShader here), micro batch.

const state = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);
const mirror = (page: Page) => page.evaluate(() => (window as any).__lab.checkMirror());

test('an injected NaN weight: the step is rejected, rolled back and explained; charts skip it', async ({ page }) => {
  const pageErrors = watchErrors(page);
  await stubViteClient(page);
  await page.goto('/?backend=webgpu&numGenerations=4&promptsPerStep=4&numIterations=1&evalEvery=200&learningRate=0.005');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  await expect(page.getByTestId('engine-line')).toContainText('Engine: WebGPU');
  // the engine checked itself on this adapter before the first step, and says so
  await expect(page.getByTestId('engine-line')).toContainText(/Self-check: \d+ kernels passed against the CPU reference in [\d.]+ m?s, worst error/);
  for (let i = 1; i <= 2; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await page.waitForFunction((k) => (window as any).__lab.store.getState().stepsCompleted >= k, i, { timeout: 60_000 });
  }
  // The CPU mirror (from the update's readback) equals the engine's real state.
  const m0 = await mirror(page);
  expect(m0).toEqual({ weights: 0, m: 0, v: 0, step: [2, 2], finite: true });
  const stepsBefore = await state(page, 's.steps');
  const pointsBefore = await page.getByTestId('chart-reward').getAttribute('data-points');

  const index = await page.evaluate(() => (window as any).__lab.poisonWeight());
  await page.getByRole('button', { name: /Play/ }).click();
  const error = page.getByTestId('run-error');
  await expect(error).toBeVisible({ timeout: 60_000 });
  await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused', null, { timeout: 60_000 });
  const text = (await error.textContent()) ?? '';
  console.log(`poisoned float ${index}; the page says: ${text}`);
  expect(text).toContain('Step 2 was rejected');
  expect(text).toContain('NaN/Inf');
  expect(text).toContain('rolled back to the last good step (2 steps applied)');
  expect(text).toContain('learning rate η = 0.005 is high');
  expect(await state(page, 's.rejected')).toEqual({ step: 2, rolledBackTo: 2 });
  // Nothing of the NaN step reached the history or the charts.
  expect(await state(page, 's.steps')).toEqual(stepsBefore);
  await expect(page.getByTestId('chart-reward')).toHaveAttribute('data-points', pointsBefore!);
  // The engine holds the last good weights and AdamW state again (the NaN is gone).
  const m1 = await mirror(page);
  console.log('after rollback, engine vs last good state (max |diff|):', JSON.stringify(m1));
  expect(m1).toEqual({ weights: 0, m: 0, v: 0, step: [2, 2], finite: true });

  // Training goes on from the rolled-back state.
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().steps.length === 3, null, { timeout: 60_000 });
  const after = (await state(page, 's.steps.map((m) => ({ step: m.step, finite: m.finite, loss: m.policy_loss }))')) as { step: number; finite: boolean; loss: number }[];
  console.table(after);
  expect(after.map((m) => m.step)).toEqual([0, 1, 2]);
  expect(after.every((m) => m.finite && Number.isFinite(m.loss))).toBe(true);
  expect(await mirror(page)).toMatchObject({ weights: 0, step: [3, 3], finite: true });
  expect(pageErrors).toEqual([]);
});

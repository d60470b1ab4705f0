import { expect, test, type Page } from './fixtures.ts';
import { stubViteClient, watchErrors } from './reliability-page.ts';

// No WebGPU (Firefox, older Safari) and a blocked GPU (no adapter): the lab says so in one
// sentence, marks the engine as the CPU reference, and trains with the same features.

const SMALL = 'numGenerations=4&promptsPerStep=4&evalEvery=2';

async function trainTwoSteps(page: Page) {
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  for (let i = 1; i <= 2; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await page.waitForFunction((k) => (window as any).__lab.store.getState().stepsCompleted >= k, i, { timeout: 60_000 });
  }
  return page.evaluate(() => {
    const s = (window as any).__lab.store.getState();
    return { backend: s.backendName, steps: s.steps.length, evals: s.evals.length, finite: s.steps.every((m: any) => m.finite), error: s.error };
  });
}

test('a browser without navigator.gpu runs the CPU reference, says so once and marks it', async ({ page }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  await page.addInitScript(() => { delete (Navigator.prototype as any).gpu; });
  await page.goto(`/?${SMALL}`);
  await expect(page.getByTestId('webgpu-status')).toHaveText(/does not offer WebGPU, so the lab runs on the CPU reference/);
  const line = page.getByTestId('engine-line');
  await expect(line).toContainText('This browser has no WebGPU, so the lab runs on the CPU reference', { timeout: 60_000 });
  await expect(page.getByTestId('cpu-badge')).toHaveText('CPU reference');
  const r = await trainTwoSteps(page);
  console.log('no navigator.gpu:', JSON.stringify(r), '|', await line.textContent());
  expect(r).toEqual({ backend: 'cpu', steps: 2, evals: 2, finite: true, error: null });
  await page.screenshot({ path: 'test-results/reliability-no-webgpu.png', clip: { x: 0, y: 0, width: 1280, height: 260 } });
  expect(errors).toEqual([]);
});

test('a blocked GPU (requestAdapter gives null) falls back to the CPU reference with one sentence', async ({ page }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  await page.addInitScript(() => { (GPU.prototype as any).requestAdapter = async () => null; });
  await page.goto(`/?${SMALL}`);
  await expect(page.getByTestId('webgpu-status')).toHaveText(/no GPU adapter was granted .*runs on the CPU reference/);
  await expect(page.getByTestId('engine-line')).toContainText('WebGPU is present but gave no usable GPU (blocked or unsupported), so the lab runs on the CPU reference', { timeout: 60_000 });
  await expect(page.getByTestId('cpu-badge')).toBeVisible();
  const r = await trainTwoSteps(page);
  console.log('blocked GPU:', JSON.stringify(r), '|', await page.getByTestId('engine-line').textContent());
  expect(r).toEqual({ backend: 'cpu', steps: 2, evals: 2, finite: true, error: null });
  expect(errors).toEqual([]);
});

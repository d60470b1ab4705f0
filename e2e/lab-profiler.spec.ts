import { expect, test } from '@playwright/test';

// The profiler panel: one real step on WebGPU, timed by phase and by kernel family.
test('the profiler card times one real step by phase and kernel family', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?backend=webgpu&numGenerations=2&promptsPerStep=2&numIterations=1&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 90_000 });
  const card = page.getByTestId('profiler');
  await card.getByRole('button', { name: 'profile one step' }).click();
  await expect(card.getByText(/matmul/).first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toContainText('1 step');
  const rows = await card.locator('text=/\\d+(\\.\\d+)? ms/').count();
  console.log(`profiler rows with timings: ${rows}`);
  expect(rows).toBeGreaterThan(3);
  await card.screenshot({ path: 'test-results/profiler.png' });
  expect(errors).toEqual([]);
});

import { expect, test } from '@playwright/test';

// The first page: the WebGPU adapter line, and a real training curve that falls.
test('page shows the WebGPU adapter and a falling loss curve', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByTestId('webgpu-status')).toContainText(/WebGPU adapter: \S+/);
  await page.getByRole('button', { name: 'Train' }).click();
  const readout = page.getByTestId('loss-readout');
  await expect(readout).toContainText(/step (4\d|[5-9]\d|\d{3,})/, { timeout: 120_000 });
  await page.getByRole('button', { name: 'Pause' }).click();
  const losses = await page.evaluate(() => (window as unknown as { __lossHistory: number[] }).__lossHistory);
  const first = losses.slice(0, 5).reduce((a, b) => a + b, 0) / 5;
  const last = losses.slice(-5).reduce((a, b) => a + b, 0) / 5;
  console.log(`loss: first 5 mean ${first.toFixed(3)}, last 5 mean ${last.toFixed(3)} over ${losses.length} steps`);
  expect(last).toBeLessThan(first * 0.8);
  expect(await page.locator('[data-testid="loss-chart"] path.recharts-curve').count()).toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/first-page.png' });
  expect(errors).toEqual([]);
});

import { expect, test } from './fixtures.ts';

// The first page: the WebGPU adapter line, and a real reward curve that gains points.
// Backend: the page's default choice (WebGPU when it can run a GRPO update, else the CPU
// reference with a notice) on a micro batch; the engine line says which one ran.
test('page shows the WebGPU adapter and a reward curve that gains points', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/?numGenerations=4&promptsPerStep=2&evalEvery=100');
  await expect(page.getByTestId('webgpu-status')).toContainText(/WebGPU adapter: \S+/);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 180_000 });
  const engine = await page.getByTestId('engine-line').textContent();
  console.log(engine);
  const chart = page.getByTestId('chart-reward');
  const before = Number(await chart.getAttribute('data-points'));
  await page.getByRole('button', { name: /Play/ }).click();
  // While the run streams the page redraws only the cards a student can see: one below the fold
  // keeps its last drawing (data-frozen) and catches up when it scrolls into view.
  const kl = page.getByTestId('chart-kl');
  await expect(kl).toHaveAttribute('data-frozen', 'true', { timeout: 60_000 });
  await expect(chart).not.toHaveAttribute('data-frozen');
  await kl.scrollIntoViewIfNeeded();
  await expect(kl).not.toHaveAttribute('data-frozen');
  await expect(kl.locator('.recharts-line path').first()).toBeVisible();
  await page.locator('h1').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 5, null, { timeout: 180_000 });
  await page.getByRole('button', { name: /Pause/ }).click();
  await expect(page.locator('[data-frozen]')).toHaveCount(0); // paused: every card shows the run as it is
  const rewards = await page.evaluate(() => (window as any).__lab.store.getState().steps.map((m: any) => m.reward));
  console.log(`rewards of the first ${rewards.length} steps: ${rewards.map((r: number) => r.toFixed(3)).join(' ')}`);
  expect(rewards.length).toBeGreaterThanOrEqual(5);
  for (const r of rewards) expect(Number.isFinite(r)).toBe(true);
  expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThanOrEqual(before + 5);
  expect(await page.locator('[data-testid="chart-reward"] .recharts-line path').count()).toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/first-page.png' });
  expect(errors).toEqual([]);
});

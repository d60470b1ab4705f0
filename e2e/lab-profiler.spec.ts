import { expect, test } from './fixtures.ts';

// The profiler panel: one real step on WebGPU, timed by phase and by kernel family.
test('the profiler card times one real step by phase and kernel family', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The replay must be valid WebGPU (a replay naming a released buffer is dropped by the device and would time nothing).
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto('/?backend=webgpu&numGenerations=2&promptsPerStep=2&numIterations=1&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 90_000 });
  const card = page.getByTestId('profiler');
  await card.getByRole('button', { name: 'profile one step' }).click();
  await expect(card.getByText(/matmul/).first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toContainText('1 step');
  const rows = await card.locator('text=/\\d+(\\.\\d+)? ms/').count();
  console.log(`profiler rows with timings: ${rows}`);
  expect(rows).toBeGreaterThan(3);
  // Phases and kernel families are two groupings of the same dispatches, timed separately: their totals agree
  // up to timing noise. Each group is the fastest of its replays, taken in rounds over all groups, three
  // rounds and more while the groupings disagree (src/gpu/profiler.ts): 1-4 % apart here, alone or beside
  // another test; a factor 1.5 leaves room. (Three replays of one group back to back, the form before,
  // read 0.26 under a burst of other work; three rounds, the form after that, read 0.47 once in CI.)
  const p = await page.evaluate(() => (window as any).__lab.store.getState().profile);
  const sum = (rows: { ms: number; dispatches: number }[]) => rows.reduce((a, r) => a + r.ms, 0);
  const count = (rows: { ms: number; dispatches: number }[]) => rows.reduce((a, r) => a + r.dispatches, 0);
  console.log(`profile (${p.source}): phases ${sum(p.phases).toFixed(1)} ms, families ${sum(p.families).toFixed(1)} ms, kernels ${sum(p.kernels).toFixed(1)} ms over ${p.dispatches} dispatches, ${p.rounds} rounds, spread ${p.spread.toFixed(2)}; rollout ${p.phases.find((r: { name: string }) => r.name === 'rollout')?.ms.toFixed(1)} ms`);
  expect(count(p.phases)).toBe(p.dispatches);
  expect(count(p.families)).toBe(p.dispatches);
  expect(sum(p.families) / sum(p.phases)).toBeGreaterThan(1 / 1.5);
  expect(sum(p.families) / sum(p.phases)).toBeLessThan(1.5);
  expect(sum(p.kernels) / sum(p.phases)).toBeGreaterThan(1 / 1.5);
  expect(sum(p.kernels) / sum(p.phases)).toBeLessThan(1.5);
  await card.screenshot({ path: 'test-results/profiler.png' });
  expect(errors).toEqual([]);
});

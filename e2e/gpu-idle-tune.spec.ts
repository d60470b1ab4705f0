import { expect, test } from './fixtures.ts';

// A run's kernel forms are timed at its own rows (prompts × G = 32 × 8 = 256 here), and a tune cut
// short by its budget is finished in the lab's idle time (src/lab/idleTune.ts): a slice starts only
// after the lab has been idle a while, a step pressed during one waits for its run under way (never
// runs beside it: a step is still 2 submits and 2 readbacks, the engine's state its mirror), and the
// choice is taken when the next run starts, without a second self-check. On SwiftShader 256 rows
// cannot be timed within the 2 s budget (one run of the subgroup reductions alone takes seconds).

const tune = (page: import('@playwright/test').Page) => page.evaluate(() => (window as any).__lab.tuneState());

test('a 256-row run: its forms timed at 256 rows, the rest of the tune in idle time, a step never beside a slice', async ({ page }) => {
  await page.goto('/?backend=webgpu&numGenerations=8&promptsPerStep=32&numIterations=1&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 240_000 });
  const idleFrom = Date.now();
  const line = page.getByTestId('engine-line');
  await expect(line).toContainText(/Kernel forms(?: timed on this GPU|: no family fully timed on this GPU) for 256 rows/);
  console.log(`load: ${(await line.textContent())?.match(/Kernel forms[^]*$/)?.[0]}`);
  expect(await tune(page)).toMatchObject({ rows: 256, finished: false, slices: 0 });
  const work0 = await page.evaluate(() => (window as any).__lab.engineWork());

  // the first slice after ~3 s of idle time; Step pressed during it waits for its run under way
  await page.waitForFunction(() => (window as any).__lab.tuneState().slicing, null, { timeout: 60_000 });
  expect(Date.now() - idleFrom).toBeGreaterThanOrEqual(2500);
  const pressed = Date.now();
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsStarted >= 1, null, { timeout: 120_000 });
  console.log(`Step pressed during a slice: the step started ${Date.now() - pressed} ms later`);
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 240_000 });

  // a step as the engine counts it: no slice's work in it (none starts before the lab has been idle a while)
  const c0 = await page.evaluate(() => (window as any).__lab.gpuCounts());
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 2, null, { timeout: 240_000 });
  const c1 = await page.evaluate(() => (window as any).__lab.gpuCounts());
  expect({ submits: c1.submits - c0.submits, readbacks: c1.maps - c0.maps }).toEqual({ submits: 2, readbacks: 2 });
  expect(await page.evaluate(() => (window as any).__lab.checkMirror())).toEqual({ weights: 0, m: 0, v: 0, step: [2, 2], finite: true });

  // idle: the tune is finished a family at a time
  const t = Date.now();
  await page.waitForFunction(() => (window as any).__lab.tuneState().finished === true, null, { timeout: 300_000, polling: 500 });
  const done = await tune(page);
  console.log(`finished in idle time ${Date.now() - t} ms after step 2, ${done.slices} slices`);
  expect(done.timed).toEqual(['matmul', 'reduction', 'attention', 'decode']);
  expect(await page.evaluate(() => (window as any).__lab.checkMirror())).toEqual({ weights: 0, m: 0, v: 0, step: [2, 2], finite: true }); // the slices left the run's state alone

  // the next run takes the choice (checked against the CPU reference first if it differs): no second self-check
  await page.getByRole('button', { name: /Reset/ }).click();
  await page.waitForFunction(() => { const s = (window as any).__lab.store.getState(); return s.runs.length === 1 && s.status === 'ready' && s.stepsCompleted === 0 && s.evals.length === 1; }, null, { timeout: 240_000 });
  await expect(line).toContainText('Self-check: passed on this GPU earlier in this session');
  await expect(line).toContainText(/Kernel forms timed on this GPU for 256 rows/);
  console.log(`reset: ${(await line.textContent())?.match(/Kernel forms[^]*$/)?.[0]}`);
  expect(await tune(page)).toMatchObject({ rows: 256, finished: true });
  expect((await page.evaluate(() => (window as any).__lab.engineWork())).selfChecks).toBe(work0.selfChecks);
});

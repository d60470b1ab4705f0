import { expect, test, type Page } from './fixtures.ts';
import { stubViteClient, watchErrors } from './reliability-page.ts';

// Device lost (driver reset, GPU sleep), triggered with device.destroy() mid-run: the engine
// notices, recreates the device and pipelines, restores the last good weights, AdamW state and
// π_ref, and continues; at most the step in progress is redone; the page says what happened.
// The last good state rides in the update's one readback: a step is still 2 submits + 2 readbacks,
// with the engine in its worker (src/worker/gpuEngine.ts) as on the page.

const state = (page: Page, f: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${f}; })()`);
const mirror = (page: Page) => page.evaluate(() => (window as any).__lab.checkMirror());

test('device.destroy() mid-run: recreated, restored, ≤ 1 step lost, and the page says so', async ({ page }) => {
  const pageErrors = watchErrors(page);
  await stubViteClient(page);
  await page.goto('/?backend=webgpu&numGenerations=4&promptsPerStep=4&numIterations=1&evalEvery=200&beta=0.02');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 60_000 });
  expect(await page.evaluate(() => (window as any).__lab.gpuInWorker())).toBe(true); // the engine runs in its worker
  // queue submits and buffer maps (readbacks) of the engine, counted where it runs from here on
  const c0 = await page.evaluate(() => (window as any).__lab.gpuCounts());
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 2, null, { timeout: 60_000 });
  const c1 = await page.evaluate(() => (window as any).__lab.gpuCounts());
  const perStep = { submits: c1.submits - c0.submits, readbacks: c1.maps - c0.maps };
  console.log('one GRPO step with the state mirror on (β > 0):', JSON.stringify(perStep));
  expect(perStep).toEqual({ submits: 2, readbacks: 2 }); // rollout 1 + 1, update 1 + 1
  expect(await mirror(page)).toEqual({ weights: 0, m: 0, v: 0, step: [2, 2], finite: true });

  // Run, and lose the device in the middle of a step.
  await page.getByRole('button', { name: /Play/ }).click();
  await page.waitForFunction(() => { const s = (window as any).__lab.store.getState(); return s.stepsCompleted >= 4 && s.inStep; }, null, { timeout: 60_000 });
  const at = (await state(page, '({ completed: s.steps.length, started: s.stepsStarted })')) as { completed: number; started: number };
  expect(await page.evaluate(() => (window as any).__lab.destroyDevice())).toBe(true);
  const fault = page.getByTestId('fault-device-lost');
  await expect(fault).toBeVisible({ timeout: 120_000 });
  await page.waitForFunction((n) => (window as any).__lab.store.getState().steps.length >= n + 3, at.completed, { timeout: 120_000 });
  await page.getByRole('button', { name: /Pause/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused', null, { timeout: 60_000 });

  const text = (await fault.textContent()) ?? '';
  const s = (await state(page, '({ steps: s.steps.map((m) => m.step), finite: s.steps.every((m) => m.finite), rec: s.lastRecovery, discarded: s.discardedSteps, backend: s.backendName, started: s.stepsStarted, completed: s.stepsCompleted, error: s.error })')) as any;
  const m = await mirror(page);
  console.log(`destroyed during step ${at.started - 1} (${at.completed} recorded); the page says: ${text}`);
  console.table([{ recorded: s.steps.length, started: s.started, discarded: s.discarded, restoredAdamStep: s.rec.restoredStep, completedAtLoss: s.rec.completedSteps, engine: s.backend, adamStepNow: m.step[0] }]);
  expect(text).toContain('The GPU device was lost (destroyed');
  expect(text).toContain('restored from the last completed step');
  expect(s.backend).toBe('webgpu');
  expect(s.rec.engine).toBe('webgpu');
  // Every recorded step is there once, in order: nothing recorded was lost or repeated.
  expect(s.steps).toEqual(Array.from({ length: s.steps.length }, (_, i) => i));
  expect(s.finite).toBe(true);
  // The new engine started from the last completed update (AdamW's step count = recorded steps, µ = 1)…
  expect(s.rec.restoredStep).toBe(s.rec.completedSteps);
  expect(s.rec.completedSteps).toBeGreaterThanOrEqual(at.completed);
  // …at most the step in progress was redone…
  expect(s.discarded).toBeLessThanOrEqual(1);
  expect(s.started - s.steps.length).toBeLessThanOrEqual(1);
  // …and after it the mirror still equals the engine's state, with every update since counted.
  expect(m).toEqual({ weights: 0, m: 0, v: 0, step: [s.steps.length, s.steps.length], finite: true });
  expect(s.error).toBeNull();
  await page.screenshot({ path: 'test-results/reliability-device-lost.png', clip: { x: 0, y: 0, width: 1280, height: 300 } });
  expect(pageErrors).toEqual([]);
});

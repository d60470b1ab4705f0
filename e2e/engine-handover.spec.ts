import { readFileSync } from 'node:fs';
import { expect, newRun, test } from './fixtures.ts';

// First open answers in seconds: the run starts on the CPU reference while WebGPU compiles and
// checks itself, and moves to WebGPU at a step boundary, said on the engine line and in the store
// (engineHandover); Play does not move when the line changes. A reset or a lesson of the same
// model shape keeps the WebGPU engine: no pipeline compiled, no self-check again, and the new
// run's step 1 is the same as the first run's (the kept engine starts clean).

// The hand-over is what `auto` does on a graphics card. On a software adapter (SwiftShader, as on
// these machines) `auto` runs the CPU engine and never compiles WebGPU (software-adapter.spec.ts),
// so the page here is told the adapter is a graphics card: its info on the page (where the lab
// picks the engine) loses the fallback flag and the software name. The engine's worker still
// runs SwiftShader, as it would run the card.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(GPUAdapterInfo.prototype, 'isFallbackAdapter', { get: () => false });
    Object.defineProperty(GPUAdapterInfo.prototype, 'architecture', { get: () => 'stand-in-graphics-card' });
  });
});

const lab = (page: import('@playwright/test').Page, expr: string) => page.evaluate(`(() => { const s = window.__lab.store.getState(); return ${expr}; })()`);

test('first open: Play before the self-check, step 1 on the CPU reference, WebGPU from step 2, announced', async ({ page }) => {
  await page.goto('/?numGenerations=4&promptsPerStep=2&numIterations=1&evalEvery=100');
  const play = page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Play$/ });
  await expect(play).toBeEnabled({ timeout: 60_000 });
  // usable while WebGPU is still compiling: no self-check has finished, the run is on the CPU reference
  expect(await page.evaluate(() => (window as any).__lab.engineWork())).toMatchObject({ selfChecks: 0 });
  expect(await lab(page, 's.backendName')).toBe('cpu');
  const line = page.getByTestId('engine-line');
  await expect(line).toContainText('WebGPU is getting ready');
  const y0 = (await play.boundingBox())!.y;
  await page.getByRole('button', { name: /^Step/ }).click(); // step 1 starts at once, on the CPU reference
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 120_000 });
  await page.getByRole('button', { name: /^Step/ }).click(); // step 2 waits for WebGPU, then runs on it
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 2, null, { timeout: 180_000 });
  expect(await lab(page, '({ be: s.backendName, h: s.engineHandover, finite: s.steps.every((m) => m.finite) })')).toEqual({ be: 'webgpu', h: { fromStep: 2, from: 'cpu', to: 'webgpu' }, finite: true });
  await expect(line).toContainText('Step 1 ran on the CPU reference; WebGPU from step 2.');
  await expect(line).toContainText(/Self-check: \d+ kernels passed/);
  await expect(line).not.toContainText('getting ready');
  expect((await play.boundingBox())!.y).toBe(y0);
  // the engine carries the committed state: its mirror equals the engine after the step it ran
  expect(await page.evaluate(() => (window as any).__lab.checkMirror())).toEqual({ weights: 0, m: 0, v: 0, step: [2, 2], finite: true });
  // the run's record says so too
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Metrics JSON' }).click()]);
  const rec = JSON.parse(readFileSync((await dl.path())!, 'utf8'));
  expect([rec.backend, rec.engineHandover, rec.steps.length]).toEqual(['webgpu', { fromStep: 2, from: 'cpu', to: 'webgpu' }, 2]);
  await page.screenshot({ path: 'test-results/engine-handover.png' });
});

test('a reset and a lesson of the same model shape keep the WebGPU engine: nothing compiled or checked again, the same step 1', async ({ page }) => {
  await page.goto('/?backend=webgpu&numGenerations=4&promptsPerStep=2&numIterations=1&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 180_000 });
  const work0 = await page.evaluate(() => (window as any).__lab.engineWork());
  expect(work0.selfChecks).toBe(1);
  expect(work0.pipelines).toBeGreaterThan(0);
  const step1 = '({ be: s.backendName, m: s.steps.map((m) => [m.reward, m.policy_loss, m.entropy, m.grad_norm, m.mean_length]) })';
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 60_000 });
  const first = await lab(page, step1);
  await page.getByRole('button', { name: /Reset/ }).click();
  await page.waitForFunction(() => { const s = (window as any).__lab.store.getState(); return s.runs.length === 1 && s.status === 'ready' && s.stepsCompleted === 0 && s.evals.length === 1; }, null, { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 60_000 });
  expect(await lab(page, step1)).toEqual(first); // the kept engine starts from the base with a fresh AdamW state
  // the lesson's step-0 evaluation does not block Play: the run is 'ready' (Play enabled) before its evals[0] lands
  await page.evaluate(() => { const w = window as any; w.__readyBeforeE0 = false; w.__lab.store.subscribe((s: any) => { if (s.status === 'ready' && s.evals.length === 0) w.__readyBeforeE0 = true; }); });
  await page.getByTestId('lesson-mixed-groups').click();
  await page.waitForFunction(() => { const s = (window as any).__lab.store.getState(); return s.lessonId === 'mixed-groups' && s.status === 'ready' && s.stepsCompleted === 0 && s.evals.length === 1; }, null, { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 60_000 });
  expect(await page.evaluate(() => (window as any).__lab.engineWork())).toEqual(work0);
  expect(await page.evaluate(() => (window as any).__readyBeforeE0)).toBe(true);
  expect(await lab(page, 's.backendName')).toBe('webgpu');
  await expect(page.getByTestId('engine-line')).toContainText('Self-check: passed on this GPU earlier in this session');
  const mu = await lab(page, 's.settings.numIterations'); // the lesson's µ: AdamW steps per GRPO step
  expect(await page.evaluate(() => (window as any).__lab.checkMirror())).toEqual({ weights: 0, m: 0, v: 0, step: [mu, mu], finite: true });
});

test('WebGPU asked for while it gets ready (a resume, ?backend=webgpu): the run waits for that engine, nothing compiled twice', async ({ page }) => {
  await page.goto('/?numGenerations=4&promptsPerStep=2&numIterations=1&evalEvery=100');
  await expect(page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Play$/ })).toBeEnabled({ timeout: 60_000 });
  expect(await lab(page, 's.backendName')).toBe('cpu');
  await page.evaluate(() => (window as any).__lab.store.setState({ backendPref: 'webgpu' })); // the run reloads for it at the next step
  await page.getByRole('button', { name: /^Step/ }).click();
  await page.waitForFunction(() => (window as any).__lab.store.getState().stepsCompleted >= 1, null, { timeout: 180_000 });
  const kernels = await page.evaluate(async () => Object.keys((await import('/src/gpu/kernels.ts' as string)).KERNELS).length);
  const work = await page.evaluate(() => (window as any).__lab.engineWork());
  expect(await lab(page, '({ be: s.backendName, h: s.engineHandover })')).toEqual({ be: 'webgpu', h: null });
  expect(work.selfChecks).toBe(1);
  expect(work.pipelines).toBeLessThanOrEqual(kernels); // one engine's pipelines
});

test('auto, once the step-0 evaluation is over: a reset runs on the warm WebGPU engine at once (never on the CPU reference), the step-through too', async ({ page }) => {
  await page.goto('/?numGenerations=4&promptsPerStep=2&numIterations=1&evalEvery=100');
  await page.waitForFunction(() => { const s = (window as any).__lab.store.getState(); return s.backendName === 'webgpu' && s.evals.length === 1 && s.status === 'ready'; }, null, { timeout: 180_000 });
  // every engine the page names from here on (a run left behind at step 0 once kept the next run on the
  // CPU reference until it was idle, and the step-through is never idle: a whole update on the CPU)
  await page.evaluate(() => { const w = window as any; w.__engines = []; w.__lab.store.subscribe((s: any) => { if (w.__engines.at(-1) !== s.backendName) w.__engines.push(s.backendName); }); });
  await newRun(page, () => page.getByRole('button', { name: /Reset/ }).click(), (s) => s.evals.length === 1);
  await page.getByLabel('Step through one update').check();
  await page.getByRole('button', { name: /Start: sample a rollout/ }).click();
  await expect(page.getByTestId('inspector-phase')).toHaveAttribute('data-phase', 'prompts', { timeout: 60_000 });
  expect(await page.evaluate(() => (window as any).__engines)).toEqual(['webgpu']);
  await expect(page.getByTestId('engine-line')).not.toContainText('getting ready');
});

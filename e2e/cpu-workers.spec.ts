import { expect, test, type Page } from './fixtures.ts';
import { watchErrors } from './reliability-page.ts';

// The CPU engine on background workers (src/worker/cpuEngine.ts): the page answers while a
// step computes; a worker that stops mid-run (or goes silent: the watchdog) is replaced and the run
// goes on from its last completed step; where workers cannot start, the engine (CPU or WebGPU) runs on the page with one sentence.

const SMALL = 'numGenerations=4&promptsPerStep=4&evalEvery=2';
const lab = (page: Page) => page.evaluate(() => { const s = (window as any).__lab.store.getState(); return { steps: s.stepsCompleted, inStep: s.inStep, status: s.status, backend: s.backendName }; });
const inStep = (page: Page) => page.waitForFunction(() => (window as any).__lab.store.getState().inStep, null, { timeout: 60_000, polling: 'raf' });
const stepsAtLeast = (page: Page, n: number) => page.waitForFunction((k) => (window as any).__lab.store.getState().stepsCompleted >= k, n, { timeout: 60_000 });

/** The page's own clock from the next key or pointer press to the first change of `selector` on screen (the frame after it). */
const answerTime = (page: Page, selector: string) => page.evaluate((sel) => {
  const w = window as any, el = document.querySelector(sel)!;
  w.__input = w.__shown = w.__atInput = undefined;
  // the run's state at the press itself (read after it, a step may have finished meanwhile on a loaded machine)
  const at = () => { const st = w.__lab.store.getState(); return { steps: st.stepsCompleted, inStep: st.inStep }; };
  for (const type of ['keydown', 'pointerdown']) addEventListener(type, () => { w.__input ??= performance.now(); w.__atInput ??= at(); }, { capture: true, once: true });
  new MutationObserver((_, o) => { w.__firstText = el.textContent; requestAnimationFrame(() => { w.__shown = performance.now(); }); o.disconnect(); }).observe(el, { childList: true, characterData: true, subtree: true });
}, selector);
const answered = async (page: Page) => Math.round(await (await page.waitForFunction(() => (window as any).__shown && (window as any).__shown - (window as any).__input)).jsonValue());

test('?backend=cpu: a slider moved and Pause pressed mid-step answer at once; the step in progress finishes', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/?backend=cpu');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  expect(await page.evaluate(() => (window as any).__lab.cpuWorkers())).toBeGreaterThan(0);
  const play = page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Play$|Pause$|Pausing…$/ });
  await play.click();
  await stepsAtLeast(page, 1);
  await inStep(page);
  // the G slider, by keyboard, while the step computes: the page's own clock from the key to the new value on screen
  const g = page.getByTestId('value-numGenerations');
  const before = await g.textContent();
  await answerTime(page, '[data-testid="value-numGenerations"]');
  await page.getByLabel('Group size G', { exact: true }).press('ArrowRight');
  await expect(g).not.toHaveText(before!); // how soon: the page's own clock (sliderMs), not this wait's
  const atSlider = await lab(page);
  const sliderMs = await answered(page);
  // Pause mid-step: the button says so at once; the page is paused after that step
  await inStep(page);
  await answerTime(page, '[aria-label="Transport"] button.primary');
  await play.click();
  const pausingMs = await answered(page); // how soon the button changed
  // what it changed to: "Pausing…" (read by the observer at the change: it lasts only until the step ends, which a loaded machine may reach before a look from here)
  expect(await page.evaluate(() => (window as any).__firstText)).toMatch(/Pausing…/);
  const atPause = await page.evaluate(() => (window as any).__atInput as { steps: number; inStep: boolean }); // at the click: the step then in progress is the last
  await expect(page.getByTestId('run-status')).toContainText(`paused · ${atPause.steps + 1} step`, { timeout: 60_000 });
  const pausedMs = Math.round(await page.evaluate(() => performance.now() - (window as any).__input));
  await page.screenshot({ path: 'test-results/cpu-workers-paused.png', clip: { x: 0, y: 0, width: 1280, height: 400 } });
  console.log(`slider's new value on screen ${sliderMs} ms after the key (mid-step: ${atSlider.inStep}); Pausing… on screen ${pausingMs} ms after the click (mid-step: ${atPause.inStep}, step ${atPause.steps + 1}); paused ${pausedMs} ms after it`);
  expect(atSlider.inStep && atPause.inStep).toBe(true);
  // on the page's thread a step's update held a key 1-4 s on this (shared, 2-core) machine; here tens of ms, a few hundred under heavy load
  expect(sliderMs).toBeLessThan(1000);
  expect(pausingMs).toBeLessThan(1000);
  expect(errors).toEqual([]);
});

test('a CPU worker that stops mid-run, or stops answering, is replaced; the run goes on from its last completed step', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto(`/?backend=cpu&${SMALL}&numIterations=1`); // µ = 1: the AdamW step counts the run's steps
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  await stepsAtLeast(page, 1);
  await page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Play$/ }).click();
  await inStep(page);
  expect(await page.evaluate(() => (window as any).__lab.crashWorker())).toBe(true);
  await expect(page.getByTestId('fault-device-lost')).toContainText('A background worker of the CPU engine stopped', { timeout: 60_000 });
  const at = await page.evaluate(() => (window as any).__lab.store.getState().lastRecovery);
  await stepsAtLeast(page, at.completedSteps + 2);
  // a worker that stops answering without any error (stuck): its watchdog (limit lowered to 3 s here) finds it, the same recovery
  expect(await page.evaluate(() => (window as any).__lab.hangWorker(3000))).toBe(true);
  await page.waitForFunction((n) => (window as any).__lab.store.getState().lastRecovery.completedSteps > n, at.completedSteps, { timeout: 30_000 });
  const silent = await page.evaluate(() => (window as any).__lab.store.getState().lastRecovery);
  await stepsAtLeast(page, silent.completedSteps + 1);
  await page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Pause$/ }).click();
  await expect(page.getByTestId('run-status')).toContainText('paused', { timeout: 60_000 });
  const r = await page.evaluate(async () => {
    const l = (window as any).__lab, s = l.store.getState();
    return { workers: l.cpuWorkers(), steps: s.steps.map((m: any) => m.step), finite: s.steps.every((m: any) => m.finite), error: s.error, mirror: await l.checkMirror() };
  });
  console.log('worker stopped:', JSON.stringify(at), 'went silent:', JSON.stringify(silent), JSON.stringify(r));
  expect(at.restoredStep).toBe(at.completedSteps);
  expect(silent.restoredStep).toBe(silent.completedSteps);
  expect(r.steps).toEqual(r.steps.map((_: number, i: number) => i)); // every step once, none lost
  expect(r.mirror.weights).toBe(0);
  expect(r.mirror.step[0]).toBe(r.steps.length);
  expect(r.workers).toBeGreaterThan(0);
  expect(r.finite && r.error === null).toBe(true);
  expect(errors).toEqual([]);
});

/** Serve the page with a content-security policy that refuses every worker. */
const noWorkers = (page: Page) => page.route('**/*', async (route) => {
  if (route.request().resourceType() !== 'document') return route.continue();
  const res = await route.fetch();
  await route.fulfill({ response: res, headers: { ...res.headers(), 'content-security-policy': "worker-src 'none'" } });
});

test('where workers cannot start (a content-security policy), the CPU engine runs on the page and says so once', async ({ page }) => {
  const errors = watchErrors(page);
  await noWorkers(page);
  await page.goto(`/?backend=cpu&${SMALL}`);
  await expect(page.getByTestId('engine-line')).toContainText('did not start the background workers, so the CPU engine runs on the page itself', { timeout: 60_000 });
  await page.getByRole('button', { name: /^Step/ }).click();
  await stepsAtLeast(page, 1);
  expect(await page.evaluate(() => (window as any).__lab.cpuWorkers())).toBe(0);
  expect(errors.filter((e) => !/Content Security Policy|worker-src/.test(e))).toEqual([]);
});

test('where workers cannot start, the WebGPU engine runs on the page and says so once', async ({ page }) => {
  const errors = watchErrors(page);
  await noWorkers(page);
  await page.goto(`/?backend=webgpu&${SMALL}`);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  const line = (await page.getByTestId('engine-line').textContent()) ?? '';
  expect(line.split('did not start a background worker for WebGPU, so the WebGPU engine runs on the page itself').length).toBe(2); // once
  await page.getByRole('button', { name: /^Step/ }).click();
  await stepsAtLeast(page, 1);
  expect(await page.evaluate(() => { const l = (window as any).__lab; return [l.store.getState().backendName, l.gpuInWorker()]; })).toEqual(['webgpu', false]);
  expect(errors.filter((e) => !/Content Security Policy|worker-src/.test(e))).toEqual([]);
});

import { expect, test } from './fixtures.ts';
import { SOAK_QUERY, runUntil, soakSample } from '../scripts/soak.ts';
import { MAX_CACHED_UNIFORMS } from '../src/gpu/ops.ts';
import { stubViteClient, watchErrors } from './reliability-page.ts';

// The short soak (npm run soak is the 1000-step one): 80 GRPO steps of the micro model on WebGPU
// in the lab page. GPU buffers outside the engine's bounded per-shape uniform cache stay exactly
// flat (the cache adds a 16-byte uniform per new rollout length, up to its bound), the readbacks are exactly two per
// step (rollout + update, the state mirror included) plus two per evaluation, the JS heap after GC
// grows by less than 4 MB (the history is not yet at its 500-point bound here). The window starts
// at step 60: the first steps warm up (JIT, the bounded shape caches filling). Measured once on
// SwiftShader, heap after GC at steps 22/61/101/141/182: 31.1/33.5/35.3/36.1/36.0 MB — a warm-up
// that flattens, not a per-step leak; a window from step 20 measured the warm-up (4.2 MB).

test('short soak: 80 steps (after 60 of warm-up) on WebGPU with flat buffers, 2 readbacks a step, bounded heap', async ({ page }) => {
  const errors = watchErrors(page);
  await stubViteClient(page);
  const cdp = await page.context().newCDPSession(page);
  await page.goto(`/?backend=webgpu&${SOAK_QUERY}`);
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  await expect(page.getByTestId('engine-line')).toContainText('Engine: WebGPU');
  // Sample between steps (paused), so no step is half counted.
  const pausedSample = async () => {
    await page.getByRole('button', { name: /Pause/ }).click();
    await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused', null, { timeout: 60_000 });
    // paused, the charts out of sight draw, one per task (src/ui/drawTurns.ts): sampled once all are drawn, so both samples hold the same charts
    await page.waitForFunction(() => [...document.querySelectorAll('section.chart-card:not([data-points="0"])')].every((c) => c.querySelector('.chart-body .recharts-wrapper')), null, { timeout: 60_000 });
    return soakSample(page, cdp);
  };
  await page.getByRole('button', { name: /Play/ }).click();
  await runUntil(page, 60, 180_000);
  const a = await pausedSample();
  await page.getByRole('button', { name: /Play/ }).click();
  await runUntil(page, 140, 240_000);
  const b = await pausedSample();
  console.table([a, b]);
  expect(b.ownedBuffers).toBe(a.ownedBuffers);
  expect(b.gpuBytes - 16 * b.cachedUniforms).toBe(a.gpuBytes - 16 * a.cachedUniforms);
  expect(b.cachedUniforms).toBeLessThanOrEqual(MAX_CACHED_UNIFORMS);
  // (each evaluation: one greedy and one pass@k sampling readback)
  expect(b.readbacks - a.readbacks).toBe(2 * (b.step - a.step) + 2 * (b.evals - a.evals));
  expect(b.heapUsedMB - a.heapUsedMB).toBeLessThan(4);
  expect(b.finite).toBe(true);
  expect(errors).toEqual([]);
});

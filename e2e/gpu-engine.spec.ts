// The engine under WebGPU's default limits; one submit and one readback per training step and
// per rollout (counted by wrapping the queue and mapAsync); no buffer leaks over 200 steps.
import { expect, test } from './fixtures.ts';

test('default limits, one submit + one readback per step and per rollout, no leaks over 200 steps', async ({ page }) => {
  // other engineers edit this tree while tests run: stub Vite's HMR client so an edit elsewhere
  // cannot full-reload the page in the middle of a GPU run (the engine modules need no HMR)
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m = await import('/src/gpu/testing/engine-checks.ts' as string);
    return m.runEngineChecks(200);
  });
  console.log('limits (device as requested vs what the adapter offers):', JSON.stringify(r.limits));
  console.table(r.counts);
  console.log('buffers / caches before and after 200 steps:', JSON.stringify(r.leak));
  expect(r.errors).toEqual([]);
  // the device really has only the defaults, and everything ran on it
  expect(r.limits.device.maxStorageBuffersPerShaderStage).toBe(8);
  expect(r.limits.device.maxComputeWorkgroupStorageSize).toBe(16384);
  for (const k of ['trainStep', 'trainStepPertoken', 'sample', 'logprobs'] as const) {
    expect(r.counts[k].submits, `${k} submits`).toBe(1);
    expect(r.counts[k].readbacks, `${k} readbacks`).toBe(1);
  }
  expect(r.counts.trainStep.finite).toBe(true);
  expect(r.counts.sample.rows).toBe(12);
  expect(r.leak.live1).toBe(r.leak.live0);
  expect(r.leak.bytes1).toBe(r.leak.bytes0);
  expect(r.leak.cache1).toEqual(r.leak.cache0);
  expect(r.leak.lastLoss).toBeLessThan(r.leak.firstLoss);
  // many batch shapes (B and T changing every step, as in GRPO): caches stay within their bounds
  console.log('distinct batch shapes:', JSON.stringify(r.shapes));
  expect(r.shapes.trims).toBeGreaterThan(0); // the shapes did overflow the caches, and they were emptied
  // a trim happens at a step boundary, so one step's worth (< 100 entries here) may sit on top of the bound
  expect(r.shapes.maxUniforms).toBeLessThanOrEqual(r.shapes.bounds.uniforms + 100);
  expect(r.shapes.maxBindGroups).toBeLessThanOrEqual(r.shapes.bounds.bindGroups + 200);
  expect(r.shapes.maxLive).toBeLessThanOrEqual(r.shapes.liveBase + r.shapes.bounds.uniforms + 100 + 64);
});

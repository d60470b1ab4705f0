// Learning on the GPU: supervised "reverse three letters" in headless Chromium on WebGPU reaches
// ≥ 95% exact match on held-out strings (greedy sample()), and its first 20 losses equal the
// CPU reference run from the same seed within 1e-3 relative.
import { expect, test } from './fixtures.ts';

test('reverse-3-letters: ≥ 95% held-out exact match on WebGPU, first 20 losses = reference', async ({ page }) => {
  test.setTimeout(600_000);
  page.on('console', (m) => m.text().startsWith('learning:') && console.log(m.text()));
  // other engineers edit this tree while tests run: stub Vite's HMR client so an edit elsewhere
  // cannot full-reload the page in the middle of a GPU run (the engine modules need no HMR)
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m = await import('/src/gpu/testing/learning.ts' as string);
    return m.runLearning({
      seed: 42, batchSize: 64, maxSteps: 1500, compareSteps: 20, evalEvery: 50, evalSize: 256, target: 0.97,
      opt: { lr: 1e-2, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, gradClip: 1 },
    });
  });
  console.log('first 20 losses, WebGPU vs CPU reference (same seed, same batches):');
  console.table(r.compare.map((c: { step: number; gpu: number; ref: number; relErr: number }) => ({ step: c.step, webgpu: c.gpu.toFixed(6), reference: c.ref.toFixed(6), relErr: c.relErr.toExponential(2) })));
  console.table(r.curve);
  console.log(`stopped after ${r.steps} steps (${r.msPerStep.toFixed(0)} ms/step): held-out exact match ${r.heldOutAcc.toFixed(4)} on ${r.heldOutSize} strings, train ${r.trainAcc.toFixed(4)}`);
  expect(r.compare.length).toBe(20);
  for (const c of r.compare) expect(c.relErr, `step ${c.step}`).toBeLessThan(1e-3);
  expect(r.heldOutAcc).toBeGreaterThanOrEqual(0.95);
});

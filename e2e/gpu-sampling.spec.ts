// Sampling parity: greedy decoding equals the reference token for token; at temperature 1 the
// GPU's token frequencies match softmax probabilities (chi-square, fixed seed).
import { expect, test } from './fixtures.ts';

test('greedy decoding with the KV cache equals the reference; temperature-1 frequencies pass chi-square', async ({ page }) => {
  // other engineers edit this tree while tests run: stub Vite's HMR client so an edit elsewhere
  // cannot full-reload the page in the middle of a GPU run (the engine modules need no HMR)
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m = await import('/src/gpu/testing/sampling.ts' as string);
    return m.runSamplingParity();
  });
  console.log('greedy decoding, GPU (KV cache) vs reference (full recompute):');
  console.table(r.greedy);
  console.log(`temperature 1, same uniforms: ${r.agree}/${r.total} response tokens agree (prefix until the first difference)`);
  console.log(`chi-square of 4000 first tokens vs softmax: χ² = ${r.chi2.toFixed(2)}, df = ${r.df}, p = ${r.pValue.toFixed(3)}`);
  console.table(r.table);
  for (const row of r.greedy) {
    expect(row.equal, `row ${row.row}: gpu ${row.gpu} vs ref ${row.ref}`).toBe(true);
    expect(row.maxLogprobDiff).toBeLessThan(1e-4);
  }
  expect(r.greedy.some((row: { gpu: string }) => row.gpu.split(' ').length >= 5)).toBe(true);
  expect(r.agree / r.total).toBeGreaterThan(0.97);
  expect(r.df).toBeGreaterThanOrEqual(5);
  expect(r.pValue).toBeGreaterThan(0.001);
});

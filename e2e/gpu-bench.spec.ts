// The bench's code paths on micro sizes (a smoke test: no speed targets here; those live in
// `npm run bench`), and the profiler leaving the model untouched.
import { expect, test } from './fixtures.ts';

test('bench code paths run on micro sizes; profiling a step changes nothing but the step itself', async ({ page }) => {
  // stub Vite's HMR client so an edit elsewhere cannot reload the page mid-run
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');
  const r = await page.evaluate(async () => {
    const m = await import('/src/gpu/testing/bench-smoke.ts' as string);
    return m.runBenchSmoke();
  });
  console.log(`profile (${r.profile.source}) of ${r.profile.label}: ${r.profile.dispatches} dispatches`);
  console.table(r.profile.phases);
  console.table(r.profile.families);
  console.table(r.matmul.rows);
  console.table(r.reductions.rows);
  expect(r.errors).toEqual([]);
  // one training step: one readback, the dispatches the profiler traced
  expect(r.step.readbacks_per_step).toBe(1);
  expect(r.step.dispatches_per_step).toBeGreaterThan(20);
  expect(r.step.profile.dispatches).toBe(r.step.dispatches_per_step);
  expect(r.step.gflops).toBeGreaterThan(0);
  // a rollout: one submit, one readback
  expect(r.sample.submits).toBe(1);
  expect(r.sample.readbacks).toBe(1);
  // every matmul kernel computes the product (checked against a float64 CPU product)
  for (const row of r.matmul.rows) expect(row.maxAbsDiff, row.kernel).toBeLessThan(1e-4);
  expect(r.reductions.rows.length).toBeGreaterThanOrEqual(6);
  // the profile names the step's phases and families, all timed
  expect(r.profile.phases.map((p: { name: string }) => p.name).sort()).toEqual(['backward', 'forward', 'loss', 'optimizer']);
  expect(r.profile.families.map((f: { name: string }) => f.name)).toContain('matmul');
  for (const row of [...r.profile.phases, ...r.profile.families]) expect(row.ms).toBeGreaterThanOrEqual(0);
  expect(r.profile.gpuMs).toBeGreaterThan(0);
  // profiling = one real step: weights and AdamW moments equal a plain step's, bit for bit
  expect(r.weightDiffs).toBe(0);
});

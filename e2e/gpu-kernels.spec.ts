// Kernel parity: every WGSL kernel against its CPU reference op, in headless Chromium.
import { expect, test } from './fixtures.ts';

test('every kernel matches the CPU reference op within atol + rtol·|ref|', async ({ page }) => {
  // other engineers edit this tree while tests run: stub Vite's HMR client so an edit elsewhere
  // cannot full-reload the page in the middle of a GPU run (the engine modules need no HMR)
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');
  const { rows, atol, rtol } = await page.evaluate(async () => {
    const m = await import('/src/gpu/testing/kernel-parity.ts' as string);
    return { rows: await m.runKernelParity({ limits: 'default' }), atol: m.ATOL as number, rtol: m.RTOL as number };
  });
  console.log(`kernel parity (f32), tolerance |gpu − ref| ≤ ${atol} + ${rtol}·|ref|`);
  console.table(rows.map((r: { kernel: string; shape: string; maxdiff: number; worst: number }) => ({ kernel: r.kernel, shape: r.shape, maxdiff: r.maxdiff.toExponential(2), 'worst/tol': r.worst.toFixed(3) })));
  const bad = rows.filter((r: { worst: number }) => !(r.worst <= 1));
  expect(bad, JSON.stringify(bad, null, 1)).toEqual([]);
  expect(rows.length).toBeGreaterThan(40);
});

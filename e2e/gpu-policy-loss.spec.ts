// The WGSL policy objective equals its TypeScript twin: loss, metrics and every gradient.
import { expect, test } from './fixtures.ts';

const TOL = 1e-3; // f32 on the GPU vs the reference's f32 model with f64 sums, relative to scale

test('policy_loss.wgsl matches policyObjective (loss, metrics, all parameter gradients)', async ({ page }) => {
  await page.goto('/e2e/harness.html');
  const rows = await page.evaluate(async () => {
    const m: typeof import('../src/gpu/testing/policy-loss-parity.ts') = await import('/src/gpu/testing/policy-loss-parity.ts' as string);
    return m.runPolicyLossParity();
  });
  console.log(`policy objective, WebGPU vs TS twin (relative to scale), tolerance ${TOL}`);
  console.table(rows.map((r) => ({ case: r.case, loss: r.loss.toExponential(2), metrics: r.metrics.toExponential(2), grads: r.grads.toExponential(2), 'clip region': r.clipRegion.toFixed(3) })));
  expect(rows.length).toBe(5);
  for (const r of rows) {
    expect(r.loss, `${r.case} loss`).toBeLessThan(TOL);
    expect(r.metrics, `${r.case} metrics`).toBeLessThan(TOL);
    expect(r.grads, `${r.case} grads`).toBeLessThan(TOL);
  }
  expect(rows.slice(0, 3).every((r) => r.clipRegion > 0)).toBe(true); // the cases exercise the clip
});

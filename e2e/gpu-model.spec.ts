// Model parity: the WebGPU engine against the PyTorch goldens (src/model/goldens/micro.json).
import { expect, test } from './fixtures.ts';

const TOL = 1e-3;

// the GPU forms (tiled attention included) and the CPU-adapter forms, forced, besides the adapter's own
for (const forms of [{}, { matmulForm: 'tiled', reductionForm: 'workgroup', attentionForm: 'tiled' }, { matmulForm: 'direct', reductionForm: 'subgroup', attentionForm: 'row' }] as const) {
test(`logits, every gradient and 10 AdamW-step losses match PyTorch within 1e-3 relative (kernel forms: ${JSON.stringify(forms) === '{}' ? "the adapter's" : JSON.stringify(forms)})`, async ({ page }) => {
  // other engineers edit this tree while tests run: stub Vite's HMR client so an edit elsewhere
  // cannot full-reload the page in the middle of a GPU run (the engine modules need no HMR)
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');
  const { rows, steps } = await page.evaluate(async (forms) => {
    const m = await import('/src/gpu/testing/model-parity.ts' as string);
    return m.runModelParity(forms);
  }, forms);
  const fmt = (x: number | null) => (x === null ? '' : x.toExponential(2));
  console.log(`WebGPU vs PyTorch goldens: max |gpu − torch| / max |torch| per tensor (scalars relative), tolerance ${TOL}`);
  console.table(rows.map((r: { what: string; ce: number; pertoken: number | null }) => ({ what: r.what, ce: fmt(r.ce), 'pertoken tau 0.7': fmt(r.pertoken) })));
  console.table(steps.map((s: { step: number; torch: number; gpu: number; relErr: number; normRelErr: number }) => ({ step: s.step, torch: s.torch.toFixed(7), webgpu: s.gpu.toFixed(7), 'loss rel err': fmt(s.relErr), 'grad norm rel err': fmt(s.normRelErr) })));
  expect(rows.length).toBe(2 + 29);
  for (const r of rows) {
    expect(r.ce, `${r.what} (ce)`).toBeLessThan(TOL);
    if (r.pertoken !== null) expect(r.pertoken, `${r.what} (pertoken)`).toBeLessThan(TOL);
  }
  expect(steps.length).toBe(10);
  for (const s of steps) {
    expect(s.relErr, `step ${s.step} loss`).toBeLessThan(TOL);
    expect(s.normRelErr, `step ${s.step} grad norm`).toBeLessThan(TOL);
  }
});
}

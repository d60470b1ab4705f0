// The engine's self-check on this adapter: it passes as it is; a broken tiled matmul (or tiled
// attention) is found and replaced by its safer form alone, with a sentence that says so; a kernel broken in every form
// leaves nothing to run on the GPU. The engine's weights come back unchanged each time.
import { expect, test } from './fixtures.ts';


test('self-check: passes with the GPU forms, replaces a broken tiled matmul or tiled attention by its safer form, gives up when every form is broken', async ({ page }) => {
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');

  const [ok, tiled, attention, adamw, again] = await page.evaluate(async () => {
    const m: typeof import('../src/gpu/testing/self-check.ts') = await import('/src/gpu/testing/self-check.ts' as string);
    // intact, broken tiled matmul, broken tiled attention, broken AdamW; then intact again: the broken kernels were put back
    return m.runSelfChecks(['none', 'tiled-matmul', 'tiled-attention', 'adamw', 'none']);
  });
  console.log(`intact: ${ok.sentence} (${ok.numbers} numbers, ${ok.ms.toFixed(0)} ms)`);
  expect(ok.ok).toBe(true);
  expect(ok.forms).toEqual({ matmul: 'tiled', reduction: 'workgroup', attention: 'tiled' });
  expect(ok.failures).toEqual([]);
  expect(ok.kernels).toBeGreaterThan(20);
  expect(ok.worst).toBeLessThanOrEqual(1);
  expect(ok.sentence).toMatch(/^Self-check: \d+ kernels passed against the CPU reference, worst error \de-\d+ \([\d.e-]+ of the tolerance\)\.$/);
  expect(ok.restored).toBe(true);

  console.log(`broken tiled matmul: ${tiled.sentence}`);
  expect(tiled.ok).toBe(true);
  expect(tiled.forms).toEqual({ matmul: 'direct', reduction: 'workgroup', attention: 'tiled' });
  expect(tiled.opsForms).toEqual({ matmul: 'direct', scalar: false, reduction: 'workgroup', attention: 'tiled' });
  expect(tiled.failures.map((f: { forms: unknown }) => f.forms)).toEqual([{ matmul: 'tiled', reduction: 'workgroup', attention: 'tiled' }]);
  expect(tiled.sentence).toMatch(/replaced the tiled matmul \(workgroup memory\) by the direct matmul \(no barriers\), which gave wrong numbers here \(forward log-probs/);
  expect(tiled.restored).toBe(true);

  console.log(`broken tiled attention: ${attention.sentence}`);
  expect(attention.ok).toBe(true);
  expect(attention.forms).toEqual({ matmul: 'tiled', reduction: 'workgroup', attention: 'row' }); // only the attention gave way
  expect(attention.sentence).toMatch(/replaced the tiled attention \(K\/V through workgroup memory\) by the one-row-per-invocation attention, which gave wrong numbers here \(update: AdamW m \(the gradients\)/); // 1 % off in the forward shows in the gradients
  expect(attention.restored).toBe(true);

  console.log(`broken AdamW: ${adamw.sentence} (${adamw.failures.length} combinations tried)`);
  expect(adamw.ok).toBe(false);
  expect(adamw.failures.length).toBe(12); // every mix of matmul (3) × reductions (2) × attention (2) forms
  for (const f of adamw.failures) expect(f.what).toMatch(/AdamW v/);
  expect(adamw.sentence).toMatch(/so the lab runs on the CPU reference\.$/);
  expect(adamw.restored).toBe(true);

  // with the kernels put back, the GPU forms pass again
  expect(again.ok).toBe(true);
  expect(again.forms).toEqual({ matmul: 'tiled', reduction: 'workgroup', attention: 'tiled' });
});

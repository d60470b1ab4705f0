// The engine's self-check on this adapter: it passes as it is and prints its coverage; a kernel
// broken on purpose is found at the first tensor it makes, and replaced by its safer form alone
// (tiled matmul, tiled attention, its multi-tile path, the workgroup-tree reductions, the GELU fused
// into the vec4 matmuls, the fused clip + AdamW; the fused decode block by the op-by-op decode) or,
// where the kernel has one form (sampling, its temperature, the sequence-level loss, AdamW), the lab
// falls back to the CPU reference with a sentence that says so. The engine's weights come back
// unchanged each time. In the page, a reset does not run the check again.
import { expect, test } from './fixtures.ts';
import { stubViteClient } from './reliability-page.ts';

test('self-check: covers what the lab runs, finds each broken form at its first tensor, replaces it or falls back', async ({ page }) => {
  // 15 checks, four of them with a kernel every form shares broken (6-7 combinations of forms each)
  test.setTimeout(480_000);
  await page.route('**/@vite/client', (route) => route.fulfill({ contentType: 'text/javascript', body: 'export {}' }));
  await page.goto('/e2e/harness.html');

  const cases = ['none', 'tiled-matmul', 'tiled-attention', 'multi-tile', 'layernorm', 'layernorm-backward', 'layernorm-params', 'gelu', 'sampling', 'temperature', 'sequence-loss', 'adamw', 'optimizer-clip', 'decode-block', 'none'] as const;
  const results = await page.evaluate(async (c) => {
    const m: typeof import('../src/gpu/testing/self-check.ts') = await import('/src/gpu/testing/self-check.ts' as string);
    return m.runSelfChecks([...c]);
  }, cases);
  const r = Object.fromEntries(results.slice(0, -1).map((x) => [x.broken, x]));
  const ok = r.none;
  console.log(`intact: ${ok.sentence} (${ok.numbers} numbers; check ${ok.ms.toFixed(0)} ms, of which the CPU reference ${ok.referenceMs.toFixed(0)} ms; near-ties ${ok.nearTies})`);
  for (const t of ok.tensors) console.log(`  ${t.what.padEnd(58)} ${String(t.numbers).padStart(6)} numbers, worst ${t.worst.toPrecision(2)} of the tolerance`);
  expect(ok.ok).toBe(true);
  const GPU = { matmul: 'tiled', reduction: 'workgroup', attention: 'tiled', decode: 'fused' };
  expect(ok.forms).toEqual(GPU);
  expect(ok.failures).toEqual([]);
  expect(ok.kernels).toBeGreaterThan(25);
  expect(ok.worst).toBeLessThanOrEqual(1);
  expect(ok.sentence).toMatch(/^Self-check: \d+ kernels passed against the CPU reference in [\d.]+ m?s, worst error \de-\d+ \([\d.e-]+ of the tolerance\)\.$/);
  expect(ok.restored).toBe(true);
  // what it covers: multi-tile attention, every loss form, both sampling branches
  const what = ok.tensors.map((t: { what: string }) => t.what);
  expect(what[0]).toMatch(/^attention at T = (\d+): output$/);
  expect(Number(/T = (\d+)/.exec(what[0])![1])).toBeGreaterThan(128 + 64); // micro: hs 8, K/V tiles of 128 rows, query tiles of 64
  for (const form of ['grpo, token ratio, k3, entropy bonus', 'dr_grpo, sequence ratio, k1', 'dapo, token ratio, β = 0', "grpo, sequence ratio at GSPO's clip range", 'cross-entropy (SFT, RFT)']) {
    expect(what).toContain(`gradient, ${form}`);
  }
  expect(what).toEqual(expect.arrayContaining(['greedy sampling', 'sampling at τ = 0.7', 'update: AdamW m (the gradients)', 'update: weights after AdamW']));

  // a broken fused decode costs the decode alone: the check's one retry, the engine left on the op-by-op decode
  const dec = r['decode-block'];
  console.log(`broken decode-block: ${dec.sentence}`);
  expect(dec.failures.map((f: { forms: object }) => f.forms)).toEqual([GPU]);
  expect(dec.opsForms).toEqual({ matmul: 'tiled', scalar: false, reduction: 'workgroup', attention: 'tiled', decode: 'ops' });
  expect(dec.sentence).toMatch(/; replaced the fused decode block by the op-by-op decode, which gave wrong numbers here \(greedy sampling: /);

  // each fault: caught at the first tensor it makes, the form replaced alone (or the CPU fallback)
  const expectations: [string, RegExp, object | null][] = [
    ['tiled-matmul', /^forward log-probs/, { ...GPU, matmul: 'direct' }],
    ['tiled-attention', /^attention at T = \d+: output/, { ...GPU, attention: 'row' }],
    ['multi-tile', /^attention at T = \d+: output/, { ...GPU, attention: 'row' }], // never runs in the model at T ≤ 32
    ['layernorm', /^forward log-probs/, { ...GPU, reduction: 'row' }], // 1 % off
    ['layernorm-backward', /^gradient, grpo, token ratio, k3, entropy bonus \[/, { ...GPU, reduction: 'row' }], // 1 % off, at the gradients' tolerance
    ['layernorm-params', /^gradient, grpo, token ratio, k3, entropy bonus \[/, { ...GPU, reduction: 'row' }], // dgamma 1 % off, in the dx kernel's fused parameter workgroups
    ['gelu', /^forward log-probs/, { ...GPU, matmul: 'plain' }], // 1 % off
    // the tree forms' fused clip + AdamW (adamw_clip_step) sums 63 of the 64 partials: the row form keeps grad_norm_finalize
    ['optimizer-clip', /^update: loss, gradient norm and metrics of each epoch/, { ...GPU, reduction: 'row' }],
    ['sampling', /^sampling at τ = 0\.7: tokens row \d+ token \d+: \d+ vs \d+, not a near-tie/, null],
    ['temperature', /^sampling at τ = 0\.7: log-probs row 0 token 0: /, null], // τ 0.25 % off: only a τ ≠ 1 sees it
    ['sequence-loss', /^gradient, dr_grpo, sequence ratio, k1: loss/, null], // 1 % off
    ['adamw', /^update: AdamW v/, null],
    // 0.25 % off in the rollout's fused decode only: the op-by-op decode takes over, still on WebGPU
    ['decode-block', /^greedy sampling: log-probs row \d+ token \d+: /, { ...GPU, decode: 'ops' }],
  ];
  for (const [broken, first, forms] of expectations) {
    const x = r[broken];
    console.log(`broken ${broken}: ${x.sentence} (${x.failures.length} combinations failed; the first at ${x.failures[0]?.worst.toPrecision(3)}× the tolerance)`);
    expect(x.failures.length).toBeGreaterThan(0);
    expect(x.failures[0].what).toMatch(first);
    expect(x.restored).toBe(true);
    if (forms) {
      expect(x.ok).toBe(true);
      expect(x.forms).toEqual(forms);
      expect(x.sentence).toMatch(/; replaced the .*, which gave wrong numbers here \(/);
    } else {
      expect(x.ok).toBe(false);
      // the adapter's forms, each family alone at each safer form (matmul twice, reductions, attention), then
      // the safest of every family, where the same fault stops the walk: no mix of the 12 can mend a
      // kernel they all share. A fault met at the sampling also the op-by-op decode, once (the fused
      // decode runs none of those forms), kept from then on
      const atSampling = /sampling/.test(x.failures[0].what);
      type F = { forms: { matmul: string; reduction: string; attention: string; decode: string } };
      const tried = x.failures.map(({ forms: f }: F) => `${f.matmul}/${f.reduction}/${f.attention}`);
      expect(tried).toEqual([...(atSampling ? ['tiled/workgroup/tiled'] : []), 'tiled/workgroup/tiled', 'direct/workgroup/tiled', 'plain/workgroup/tiled', 'tiled/row/tiled', 'tiled/workgroup/row', 'plain/row/row']);
      expect(x.failures.map((f: F) => f.forms.decode)).toEqual(atSampling ? ['fused', ...Array(6).fill('ops')] : Array(6).fill('fused'));
      for (const f of x.failures) expect(f.what).toMatch(first);
      expect(x.sentence).toMatch(/^Self-check: a kernel that every form shares gave wrong numbers on this GPU \(.+; the same with the safest form of each\), so the lab runs on the CPU reference\.$/);
    }
  }
  expect(r['tiled-matmul'].opsForms).toEqual({ matmul: 'direct', scalar: false, reduction: 'workgroup', attention: 'tiled', decode: 'fused' });

  // with the kernels put back, the GPU forms pass again
  const again = results[results.length - 1];
  expect(again.ok).toBe(true);
  expect(again.forms).toEqual(GPU);
});

test('self-check in the page: once per GPU and model for the session, not again on reset', async ({ page }) => {
  await stubViteClient(page);
  await page.goto('/?backend=webgpu&numGenerations=4&promptsPerStep=4&evalEvery=200');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  const line = page.getByTestId('engine-line');
  await expect(line).toContainText(/Self-check: \d+ kernels passed against the CPU reference in [\d.]+ m?s, worst error/);
  console.log(`first load: ${(await line.textContent())?.match(/Self-check:[^.]*\.[^.]*\./)?.[0]}`);
  const t0 = Date.now();
  await page.getByRole('button', { name: /Reset/ }).click();
  // the status can still read "paused · 0 steps" before the reset's load begins: wait for the new engine's line itself
  await expect(line).toContainText('Self-check: passed on this GPU earlier in this session', { timeout: 120_000 });
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  console.log(`reset: ${Date.now() - t0} ms to a new engine; ${(await line.textContent())?.match(/Self-check:[^;]*; not run again\./)?.[0]}`);
  await expect(line).toContainText(/Kernel forms(?: timed on this GPU|: no family fully timed on this GPU) for 16 rows/); // the run's prompts × G = 4 × 4, not a default

  // a run of 256 rows (64 prompts × G = 4): no self-check again, but its kernel forms timed at its own rows
  const t1 = Date.now();
  await page.evaluate(() => { const st = (window as any).__lab.store; st.setState({ settings: { ...st.getState().settings, promptsPerStep: 64 } }); });
  await page.getByRole('button', { name: /Reset/ }).click();
  await expect(line).toContainText(/Kernel forms(?: timed on this GPU|: no family fully timed on this GPU) for 256 rows/, { timeout: 120_000 });
  await expect(line).toContainText('Self-check: passed on this GPU earlier in this session');
  await expect(page.getByTestId('run-status')).toContainText('paused · 0 steps', { timeout: 120_000 });
  console.log(`256 rows: ${Date.now() - t1} ms to the new run; ${(await line.textContent())?.match(/Kernel forms[^]*$/)?.[0]}`);
});

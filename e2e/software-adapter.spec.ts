import { expect, settled, test, type Page } from './fixtures.ts';

// A software WebGPU adapter (SwiftShader: Chrome on a machine without a usable GPU, as here) is
// slower than the lab's own CPU engine on the same processor, so the default backend (auto) runs
// the CPU engine there and never compiles WebGPU; the header names the adapter, says it is a
// software one and that the lab runs on its CPU engine, and the engine line says the same at
// every moment. Asking for WebGPU in the address still runs WebGPU on it, and both lines say so.

const SMALL = 'numGenerations=4&promptsPerStep=2&numIterations=1&evalEvery=100';

/** Every (header, engine line) pair the page showed, from its first frame (a MutationObserver). */
async function watchLines(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __lines: [string, string][] };
    w.__lines = [];
    const look = () => {
      const pair: [string, string] = [document.querySelector('[data-testid="webgpu-status"]')?.textContent ?? '', document.querySelector('.engine-line')?.textContent ?? ''];
      const last = w.__lines.at(-1);
      if (!last || last[0] !== pair[0] || last[1] !== pair[1]) w.__lines.push(pair);
    };
    document.addEventListener('DOMContentLoaded', () => new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true }));
  });
}
const lines = (page: Page) => page.evaluate(() => (window as unknown as { __lines: [string, string][] }).__lines);

// The page sees SwiftShader's adapter on any machine (here it is SwiftShader; on a laptop with a GPU
// the tests run the same): its info says what SwiftShader's says, fallback flag included. The
// engine's worker still runs on whatever adapter the machine has (engine-handover.spec.ts does the
// reverse: a graphics card presented on SwiftShader).
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(GPUAdapterInfo.prototype, 'isFallbackAdapter', { get: () => true });
    Object.defineProperty(GPUAdapterInfo.prototype, 'vendor', { get: () => 'google' });
    Object.defineProperty(GPUAdapterInfo.prototype, 'architecture', { get: () => 'swiftshader' });
  });
});

test('auto on a software adapter: the CPU engine, WebGPU never compiled, header and engine line agree throughout', async ({ page }) => {
  await watchLines(page);
  await page.goto(`/?${SMALL}`);
  const header = page.getByTestId('webgpu-status');
  await expect(header).toHaveText('WebGPU adapter: google / swiftshader, a software adapter (no graphics card: the processor does its work). The lab runs on its own CPU engine, faster here.');
  await settled(page, undefined, undefined, 180_000);
  const line = page.getByTestId('engine-line');
  await expect(page.getByTestId('cpu-badge')).toHaveText('CPU reference');
  await expect(line).toContainText('CPU reference: the same math, faster here than WebGPU on a software adapter.');
  await expect(page.getByTestId('engine-details')).toContainText("This browser's WebGPU adapter (google / swiftshader) is a software one");
  await expect(line).not.toContainText('getting ready');
  for (let i = 1; i <= 2; i++) {
    await page.getByRole('button', { name: /^Step/ }).click();
    await settled(page, (s, k) => s.stepsCompleted >= k, i, 120_000);
  }
  const s = await page.evaluate(() => { const st = (window as any).__lab.store.getState(); return { be: st.backendName, h: st.engineHandover, software: st.webgpu?.software, finite: st.steps.every((m: any) => m.finite) }; });
  expect(s).toEqual({ be: 'cpu', h: null, software: true, finite: true });
  expect(await page.evaluate(() => (window as any).__lab.engineWork())).toEqual({ pipelines: 0, selfChecks: 0 }); // WebGPU was never compiled
  // at every moment the page showed: never a WebGPU engine line, and once the header knows the adapter it says the CPU engine runs
  const seen = await lines(page);
  expect(seen.length).toBeGreaterThan(1);
  for (const [h, e] of seen) {
    expect(e).not.toMatch(/Engine: WebGPU/);
    expect(h).toMatch(/^(Checking for WebGPU…|WebGPU adapter: google \/ swiftshader, a software adapter .*The lab runs on its own CPU engine, faster here\.)$/);
    if (/Engine: CPU reference/.test(e)) expect(h).toMatch(/its own CPU engine/);
  }
  await page.screenshot({ path: 'test-results/software-adapter.png', clip: { x: 0, y: 0, width: 1280, height: 300 } });
});

test('asked for in the address, WebGPU still runs on the software adapter, and both lines say so', async ({ page }) => {
  await watchLines(page);
  await page.goto(`/?backend=webgpu&${SMALL}`);
  const header = page.getByTestId('webgpu-status');
  await expect(header).toHaveText(/^WebGPU adapter: google \/ swiftshader, a software adapter \(no graphics card: the processor does its work\)\. This page's address asks for WebGPU, so the lab runs on it, though its own CPU engine is faster here\.$/);
  await settled(page, undefined, undefined, 240_000); // compiled and checked on the processor: minutes on a loaded machine
  expect(await page.evaluate(() => (window as any).__lab.store.getState().backendName)).toBe('webgpu');
  await expect(page.getByTestId('engine-line')).toContainText('Engine: WebGPU, on a software adapter (no graphics card: the processor does its work).');
  await expect(page.getByTestId('engine-details')).toContainText(/Self-check: \d+ kernels passed/);
  for (const [h, e] of await lines(page)) {
    expect(e).not.toMatch(/Engine: CPU reference/);
    expect(h).not.toMatch(/The lab runs on its own CPU engine/);
  }
});

/**
 * Soak: N GRPO steps of the micro model in the lab page, in headless Chromium on WebGPU, with the
 * live GPU buffer count (the engine's arena), the JS heap (after a forced GC, via CDP) and the
 * metric history's length sampled at step 0, N/2 and N. A long run must stay flat: no buffer
 * leak, no heap growth, history bounded (src/store/history.ts).
 *
 *   npm run soak                       1000 steps, prints the table and a JSON line
 *   npm run soak -- --steps 200        a shorter run
 *   npm run soak -- --backend cpu      the CPU reference instead (buffers are then 0)
 *
 * Exit code 1 if the buffers outside the engine's per-shape uniform cache changed between N/2
 * and N, that cache outgrew its bound (MAX_CACHED_UNIFORMS: rollouts of new lengths add 16-byte
 * uniforms until it is emptied), the heap grew more than 10 % over that span, or a history
 * exceeded its bound. Settings are small (P = 2 prompts × G = 4, µ = 1, short answers,
 * evaluation every 100 steps) so 1000 steps take minutes on SwiftShader.
 */
import { type CDPSession, type Page } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { withBrowserPage } from './browser.ts';
import { MAX_CACHED_BIND_GROUPS, MAX_CACHED_UNIFORMS } from '../src/gpu/ops.ts';

export const SOAK_QUERY = 'numGenerations=4&promptsPerStep=2&numIterations=1&maxCompletionLength=6&evalEvery=100';

export interface SoakSample {
  step: number;
  /** All live GPU buffers of the engine (the arena). */
  liveBuffers: number;
  /** Of which: the per-shape uniform cache (bounded, emptied past MAX_CACHED_UNIFORMS). */
  cachedUniforms: number;
  /** Live buffers outside that cache: must not change at all. */
  ownedBuffers: number;
  cachedBindGroups: number;
  gpuBytes: number;
  readbacks: number;
  heapUsedMB: number;
  steps: number;
  evals: number;
  finite: boolean;
}

/** One sample: engine counters from the page's test hook, the JS heap after a forced GC. */
export async function soakSample(page: Page, cdp: CDPSession): Promise<SoakSample> {
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const s = await page.evaluate(async () => {
    const lab = (window as any).__lab;
    const st = lab.store.getState();
    const e = await lab.engineStats(); // asked of the engine's worker
    return { step: st.stepsCompleted, liveBuffers: e.liveBuffers, cachedUniforms: e.cachedUniforms, ownedBuffers: e.liveBuffers - e.cachedUniforms, cachedBindGroups: e.cachedBindGroups, gpuBytes: e.bytes, readbacks: e.readbacks, steps: st.steps.length, evals: st.evals.length, finite: st.steps.every((m: any) => m.finite) && !st.error };
  });
  return { ...s, heapUsedMB: Math.round((heap.usedSize / 2 ** 20) * 10) / 10 };
}

/** Play until `target` steps are completed (the loop keeps running). */
export async function runUntil(page: Page, target: number, timeoutMs: number): Promise<void> {
  await page.waitForFunction((n) => (window as any).__lab.store.getState().stepsCompleted >= n, target, { timeout: timeoutMs, polling: 250 });
}

/** Flatness verdicts over the second half of the run. */
export function soakVerdict(mid: SoakSample, end: SoakSample, maxHistory = 500): string[] {
  const problems: string[] = [];
  if (end.ownedBuffers !== mid.ownedBuffers) problems.push(`GPU buffers outside the uniform cache went from ${mid.ownedBuffers} to ${end.ownedBuffers}`);
  if (end.cachedUniforms > MAX_CACHED_UNIFORMS || end.cachedBindGroups > MAX_CACHED_BIND_GROUPS) problems.push(`shape caches past their bounds: ${end.cachedUniforms} uniforms, ${end.cachedBindGroups} bind groups`);
  // the bytes may differ only by the cache's 16-byte uniforms
  if (end.gpuBytes - 16 * end.cachedUniforms !== mid.gpuBytes - 16 * mid.cachedUniforms) problems.push(`GPU bytes outside the uniform cache went from ${mid.gpuBytes - 16 * mid.cachedUniforms} to ${end.gpuBytes - 16 * end.cachedUniforms}`);
  if (end.heapUsedMB > mid.heapUsedMB * 1.1 + 1) problems.push(`JS heap grew from ${mid.heapUsedMB} MB to ${end.heapUsedMB} MB`);
  if (end.steps > maxHistory || end.evals > maxHistory) problems.push(`history not bounded: ${end.steps} steps, ${end.evals} evaluations`);
  if (!end.finite) problems.push('a step was not finite or the run reported an error');
  return problems;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string, dflt: string) => { const i = args.indexOf(`--${name}`); return i >= 0 ? args[i + 1] : dflt; };
  const N = Number(flag('steps', '1000'));
  const backend = flag('backend', 'webgpu');
  if (!(N >= 2)) throw new Error('--steps must be at least 2');
  const t0 = Date.now();
  await withBrowserPage(async (page) => {
    const cdp = await page.context().newCDPSession(page);
    await page.waitForFunction(() => { const s = (window as any).__lab?.store.getState(); return s && s.status === 'ready' && typeof (window as any).__lab.engineStats === 'function'; }, null, { timeout: 180_000 });
    const samples: SoakSample[] = [await soakSample(page, cdp)];
    for (const target of [Math.floor(N / 2), N]) {
      await page.getByRole('button', { name: /Play/ }).click();
      await runUntil(page, target, 60 * 60_000);
      // sample between steps (paused, saves settled), so nothing of a step in flight is counted
      await page.getByRole('button', { name: /Pause/ }).click();
      await page.waitForFunction(() => (window as any).__lab.store.getState().status === 'paused', null, { timeout: 120_000 });
      await page.evaluate(() => (window as any).__lab.savesSettled());
      samples.push(await soakSample(page, cdp));
      process.stderr.write(`step ${samples.at(-1)!.step} after ${Math.round((Date.now() - t0) / 1000)} s\n`);
    }
    console.table(samples);
    const problems = soakVerdict(samples[1], samples[2]);
    console.log(JSON.stringify({ steps: N, backend, seconds: Math.round((Date.now() - t0) / 1000), samples, problems }));
    if (problems.length) {
      console.error(`soak: NOT flat: ${problems.join('; ')}`);
      process.exitCode = 1;
    } else {
      console.error('soak: flat (buffers, GPU bytes, heap within 10 %, history bounded)');
    }
  }, { path: `/?backend=${backend}&${SOAK_QUERY}` });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => { console.error(e); process.exit(1); });
}

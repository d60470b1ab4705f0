/**
 * npm run lesson-times [-- --engines cpu,webgpu,auto] [--lessons mixed-groups,…] [--all-variants | --variants 0,1] [--json]
 *
 * How long a lesson run takes in the page, as a student sees it: the production build (vite
 * build into a temporary folder, served by vite preview) in headless Chromium at 1280×800; for
 * each lesson (its first variant, or every variant with --all-variants) and each engine
 * (`?backend=cpu`: the CPU reference; `?backend=webgpu`: WGSL on this browser's adapter; `auto`:
 * the page's default, whichever engine it picks here), the
 * page is opened on the lesson, waits until the run is ready and its step-0 evaluation is in,
 * the prediction is skipped, and Play is pressed: the clock runs from the press until the
 * verdict is judged and the run has stopped (the steps, the evaluations between, the verdict
 * step's full evaluation, the page's drawing). The page's first opening (the engine's compile
 * and self-check, the step-0 evaluation) is not counted: `npm run first-open` measures that.
 *
 * Prints one line per run and a markdown table (seconds to the verdict, ms per step); README.md's
 * "How long a run takes" quotes it, with the machine it ran on.
 */
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { findBrowser } from './find-browser.mjs';
import { LESSONS } from '../src/rl/lessons.ts';

const args = process.argv.slice(2);
const flag = (n: string) => { const i = args.indexOf(`--${n}`); return i >= 0 ? args[i + 1] : undefined; };
const engines = (flag('engines') ?? 'cpu,webgpu').split(',');
const wanted = flag('lessons')?.split(',');
const log = (m: string) => process.stderr.write(`lesson-times: ${m}\n`);

const freePort = () => new Promise<number>((ok, no) => {
  const s = createServer();
  s.once('error', no);
  s.listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => ok(p)); });
});

interface Row { lesson: number; id: string; variant: string; steps: number; engine: string; seconds: number; msPerStep: number; verdict: string }
type LabWindow = { __lab?: { store: { getState(): { status: string; evals: unknown[]; verdict: { judged: { state: string } } | null; stepsCompleted: number } } } };

async function main() {
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chromium or Chrome found: install one (e.g. "apt-get install -y chromium") or set CHROMIUM_PATH.');
  const root = resolve('.');
  const outDir = mkdtempSync(join(tmpdir(), 'rlvr-lesson-times-'));
  log(`building the production bundle into ${outDir}`);
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const port = await freePort();
  const server = await preview({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1' } });
  const browser = await chromium.launch({ executablePath, args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const rows: Row[] = [];
  let adapter = '';
  try {
    for (const [n, lesson] of LESSONS.entries()) {
      if (wanted && !wanted.includes(lesson.id)) continue;
      const variants = args.includes('--all-variants') ? lesson.variants.keys() : (flag('variants')?.split(',').map(Number).filter((v) => v < lesson.variants.length) ?? [0]);
      for (const v of variants) {
        for (const engine of engines) {
          const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
          page.on('pageerror', (e) => log(`[page error] ${e.message}`));
          await page.goto(`http://127.0.0.1:${port}/?backend=${engine}&lesson=${lesson.id}&variant=${v}`);
          await page.waitForFunction(() => { const s = (window as LabWindow).__lab?.store.getState(); return !!s && s.status === 'ready' && s.evals.length === 1; }, null, { timeout: 600_000, polling: 200 });
          adapter ||= (await page.getByTestId('webgpu-status').textContent().catch(() => '')) ?? '';
          const skip = page.getByRole('button', { name: 'Skip' });
          if (await skip.count()) await skip.click();
          const t0 = Date.now();
          await page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Play$/ }).click();
          await page.waitForFunction(() => { const s = (window as LabWindow).__lab?.store.getState(); return !!s?.verdict && s.status !== 'running'; }, null, { timeout: 1_800_000, polling: 100 });
          const seconds = (Date.now() - t0) / 1000;
          const s = await page.evaluate(() => { const st = (window as LabWindow).__lab!.store.getState(); return { steps: st.stepsCompleted, verdict: st.verdict!.judged.state }; });
          const picked = engine === 'auto' ? await page.evaluate(() => (window as unknown as { __lab: { store: { getState(): { backendName: string } } } }).__lab.store.getState().backendName) : engine;
          const row = { lesson: n + 1, id: lesson.id, variant: lesson.variants[v].label, steps: s.steps, engine: engine === 'auto' ? `auto (${picked})` : engine, seconds, msPerStep: (1000 * seconds) / s.steps, verdict: s.verdict };
          rows.push(row);
          log(`${row.lesson}. ${row.id} (${row.variant}) on ${engine}: ${row.steps} steps in ${seconds.toFixed(1)} s (${row.msPerStep.toFixed(0)} ms a step), verdict ${row.verdict}`);
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
    await new Promise<void>((ok) => server.httpServer.close(() => ok()));
    rmSync(outDir, { recursive: true, force: true });
  }
  if (args.includes('--json')) { console.log(JSON.stringify({ cores: cpus().length, adapter, rows }, null, 2)); return; }
  console.log(`${cpus().length} cores; ${adapter.trim()}; seconds from Play to the verdict (ms a step)\n`);
  const label = (e: string) => (e === 'cpu' ? 'CPU reference' : e === 'webgpu' ? 'WebGPU' : e);
  const seen = [...new Set(rows.map((r) => r.engine))];
  console.log(`| lesson | variant | steps | ${seen.map(label).join(' | ')} |`);
  console.log(`|---|---|---|${seen.map(() => '---').join('|')}|`);
  const keys = [...new Set(rows.map((r) => `${r.lesson}\u0000${r.variant}`))];
  for (const k of keys) {
    const rs = rows.filter((r) => `${r.lesson}\u0000${r.variant}` === k);
    console.log(`| ${rs[0].lesson}. ${rs[0].id} | ${rs[0].variant} | ${rs[0].steps} | ${seen.map((e) => { const r = rs.find((x) => x.engine === e); return r ? `${r.seconds.toFixed(1)} s (${r.msPerStep.toFixed(0)} ms)` : '–'; }).join(' | ')} |`);
  }
}

main().catch((e) => { process.stderr.write(`lesson-times: ${(e as Error).stack ?? e}\n`); process.exit(1); });

/**
 * npm run first-open [-- --json] [--backend webgpu|cpu] [--lessons ID,ID] [--second-visit] [--root DIR]
 *
 * How long a student waits, on the production build (vite build into a temporary folder, served
 * by vite preview), in a fresh headless Chromium profile at 1280×800, as a new user opens it:
 *   load            navigation start → the page's load event
 *   play_usable     navigation start → the engine is ready (Play and Step enabled: status leaves 'loading')
 *   first_step      navigation start → the first step recorded, Play pressed as soon as it is usable
 *   lesson_switch   a lesson's button pressed → its run loaded, Play usable (each lesson in --lessons, in
 *                   order, the run paused before; default: lesson 1, then lesson 2)
 * --second-visit: the page opened again in the same profile once the service worker has stored
 * it (load and play_usable from its cache). Milliseconds; the store's status changes are
 * timestamped in the page (performance.now()), so polling adds nothing.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { findBrowser } from './find-browser.mjs';
import { LESSONS } from '../src/rl/lessons.ts';

const USAGE = 'usage: npm run first-open -- [--json] [--backend webgpu|cpu] [--lessons ID,ID] [--second-visit] [--root DIR]';
interface Args { json: boolean; backend: 'webgpu' | 'cpu'; lessons: string[]; secondVisit: boolean; root: string }

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { json: false, backend: 'webgpu', lessons: LESSONS.slice(0, 2).map((l) => l.id), secondVisit: false, root: process.cwd() };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    if (f === '--json') a.json = true;
    else if (f === '--second-visit') a.secondVisit = true;
    else if (f === '--backend') {
      const b = argv[++i];
      if (b !== 'webgpu' && b !== 'cpu') fail(`--backend must be webgpu or cpu, got "${b ?? ''}"`);
      a.backend = b;
    } else if (f === '--lessons') {
      a.lessons = (argv[++i] ?? '').split(',').filter(Boolean);
      const bad = a.lessons.filter((id) => !LESSONS.some((l) => l.id === id));
      if (bad.length) fail(`unknown lesson ${bad.join(', ')}; the lessons: ${LESSONS.map((l) => l.id).join(', ')}`);
    } else if (f === '--root') a.root = resolve(argv[++i] ?? fail('--root needs a folder'));
    else fail(`unknown flag ${f}`);
  }
  return a;
}

const log = (m: string) => process.stderr.write(`first-open: ${m}\n`);

type Mark = { t: number; status: string; steps: number; lesson: string | null };

/** Before any page script: timestamp every store change of status or steps once the lab's hooks exist
 * (a string, not a function: tsx's transform would wrap a function's inner names in a helper the page lacks). */
const RECORD_STATUS = `(() => {
  window.__marks = [];
  const hook = () => {
    if (!window.__lab) { setTimeout(hook, 5); return; }
    const s = window.__lab.store;
    const note = () => {
      const { status, stepsCompleted, lessonId } = s.getState();
      const last = window.__marks.at(-1);
      if (!last || last.status !== status || last.steps !== stepsCompleted || last.lesson !== lessonId) window.__marks.push({ t: performance.now(), status, steps: stepsCompleted, lesson: lessonId });
    };
    note();
    s.subscribe(note);
  };
  hook();
})();`;

const transport = (page: Page) => page.getByRole('toolbar', { name: 'Transport' });
const marks = (page: Page) => page.evaluate(() => (window as unknown as { __marks: Mark[] }).__marks);
const usable = (page: Page) => page.waitForFunction(() => {
  const m = (window as unknown as { __marks?: Mark[] }).__marks;
  return !!m?.length && m.at(-1)!.status !== 'loading';
}, null, { timeout: 600_000, polling: 100 });
const loadMs = (page: Page) => page.evaluate(() => Math.round((performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd));

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chromium or Chrome found: install one (e.g. "apt-get install -y chromium") or set CHROMIUM_PATH.');
  const outDir = mkdtempSync(join(tmpdir(), 'rlvr-first-open-'));
  const configFile = join(a.root, 'vite.config.ts');
  const tb = performance.now();
  await build({ root: a.root, configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  log(`built the production bundle in ${((performance.now() - tb) / 1000).toFixed(1)} s`);
  const server = await preview({ root: a.root, configFile, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
  const addr = server.httpServer.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 4173}/${a.backend === 'cpu' ? '?backend=cpu' : ''}`;
  const browser = await chromium.launch({ executablePath, args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: RECORD_STATUS });
    const page = await context.newPage();
    page.on('pageerror', (e) => log(`[page error] ${e.message}`));
    log(`opening ${url} (${a.backend})`);
    await page.goto(url);
    const load = await loadMs(page);
    await usable(page);
    const playUsable = Math.round((await marks(page)).find((m) => m.status !== 'loading')!.t);
    log(`Play usable at ${playUsable} ms; pressing Play`);
    await transport(page).getByRole('button', { name: /Play$/ }).click();
    await page.waitForFunction(() => (window as unknown as { __marks: Mark[] }).__marks.some((m) => m.steps >= 1), null, { timeout: 600_000, polling: 100 });
    const firstStep = Math.round((await marks(page)).find((m) => m.steps >= 1)!.t);
    await transport(page).getByRole('button', { name: /Pause$/ }).click();
    await page.waitForFunction(() => (window as unknown as { __marks: Mark[] }).__marks.at(-1)!.status === 'paused', null, { timeout: 600_000, polling: 100 });
    const lessonSwitch: Record<string, number> = {};
    for (const id of a.lessons) {
      const t0 = await page.evaluate(() => performance.now());
      await page.getByTestId(`lesson-${id}`).click();
      // usable again: the lesson's new run has loaded (a run starts 'loading' and is 'ready' once loaded;
      // a 'ready' before the 'loading' is the previous run's, still unplayed)
      const done = (ms: Mark[], t: number, id: string) => {
        const i = ms.findIndex((x) => x.t >= t && x.lesson === id && x.status === 'loading');
        return i < 0 ? undefined : ms.slice(i).find((x) => x.status === 'ready');
      };
      await page.waitForFunction(({ t, id }) => {
        const ms = (window as unknown as { __marks: Mark[] }).__marks;
        const i = ms.findIndex((x) => x.t >= t && x.lesson === id && x.status === 'loading');
        return i >= 0 && ms.slice(i).some((x) => x.status === 'ready');
      }, { t: t0, id }, { timeout: 600_000, polling: 100 });
      const ms = await marks(page);
      lessonSwitch[id] = Math.round(done(ms, t0, id)!.t - t0);
      const after = ms.filter((x) => x.t >= t0);
      log(`lesson ${id}: ${after.map((x) => `${Math.round(x.t - t0)} ms ${x.status}${x.lesson === id ? '' : ` (lesson ${x.lesson})`}`).join(', ')}`);
      log(`lesson ${id}: Play usable ${lessonSwitch[id]} ms after the click`);
    }
    const report: Record<string, unknown> = {
      build: 'production (vite build, vite preview)', backend: a.backend, viewport: '1280x800',
      load_ms: load, play_usable_ms: playUsable, first_step_ms: firstStep, lesson_switch_ms: lessonSwitch,
    };
    if (a.secondVisit) {
      await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated', null, { timeout: 120_000 });
      const again = await context.newPage();
      await again.goto(url);
      const l2 = await loadMs(again);
      await usable(again);
      report.second_visit = { load_ms: l2, play_usable_ms: Math.round((await marks(again)).find((m) => m.status !== 'loading')!.t), from_service_worker: await again.evaluate(() => !!navigator.serviceWorker.controller) };
    }
    process.stdout.write(a.json ? `${JSON.stringify(report)}\n` : `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    rmSync(outDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`first-open failed: ${(e as Error).message}\n`);
  process.exit(1);
});

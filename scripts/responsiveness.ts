/**
 * npm run responsiveness [-- --json] [--backends cpu,auto,webgpu] [--seconds 20] [--root DIR]
 *
 * Does the page answer while a run plays? The production build (vite build into a temporary
 * folder, served by vite preview) in headless Chromium at 1280×800, once per engine choice
 * (?backend=cpu, the default auto, ?backend=webgpu), each in a fresh profile: Play is pressed as
 * soon as it is usable, then for `seconds` the G slider is moved by keyboard (ArrowRight, then
 * ArrowLeft) every 1.5 s. Long Tasks (main-thread tasks over 50 ms) and Event Timing (the
 * measure behind INP: input delay + processing + the next paint) are recorded in the page.
 * Prints per engine: tasks > 50 ms, the longest, their total (blocked), the slowest interaction,
 * and the steps completed, over the seconds the moves took (longer than `seconds` where the page was too busy to take them on time).
 * --why: what the long frames spent their time on (Long Animation Frames: the scripts by function
 * and source, and style, layout and paint), on a build without minification so the names read.
 */
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { findBrowser } from './find-browser.mjs';

const USAGE = 'usage: npm run responsiveness -- [--json] [--why] [--backends cpu,auto,webgpu] [--seconds N] [--root DIR]';
type Pref = 'cpu' | 'auto' | 'webgpu';
interface Args { json: boolean; why: boolean; backends: Pref[]; seconds: number; root: string }

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Args {
  const a: Args = { json: false, why: false, backends: ['cpu', 'auto', 'webgpu'], seconds: 20, root: process.cwd() };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    if (f === '--json') a.json = true;
    else if (f === '--why') a.why = true;
    else if (f === '--backends') {
      a.backends = (argv[++i] ?? '').split(',').filter(Boolean) as Pref[];
      if (!a.backends.length || a.backends.some((b) => !['cpu', 'auto', 'webgpu'].includes(b))) fail('--backends takes cpu, auto and webgpu, comma-separated');
    } else if (f === '--seconds') {
      a.seconds = Number(argv[++i]);
      if (!(a.seconds >= 1 && a.seconds <= 600)) fail('--seconds must be a number from 1 to 600');
    } else if (f === '--root') a.root = resolve(argv[++i] ?? fail('--root needs a folder'));
    else fail(`unknown flag ${f}`);
  }
  return a;
}

const log = (m: string) => process.stderr.write(`responsiveness: ${m}\n`);

/** Before any page script: collect long tasks and event timings (a string: tsx would wrap a function's inner names). */
const OBSERVE = `(() => {
  window.__long = []; window.__events = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push({ t: e.startTime, d: e.duration }); }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.interactionId) window.__events.push({ t: e.startTime, d: e.duration, name: e.name, wait: e.processingStart - e.startTime, run: e.processingEnd - e.processingStart }); }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  window.__frames = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__frames.push({ t: e.startTime, d: e.duration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0, layout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
      scripts: e.scripts.map((x) => ({ d: x.duration, what: (x.sourceFunctionName || x.invoker || '?') + ' ' + (x.sourceURL || '').split('/').pop() + ':' + x.sourceCharPosition, invoker: x.invoker })) }); }).observe({ type: 'long-animation-frame', buffered: true });
  } catch { /* no Long Animation Frames in this browser */ }
})();`;

interface Row { backend: Pref; seconds: number; tasks_over_50ms: number; longest_ms: number; blocked_s: number; slowest_interaction_ms: number; interactions: number; steps: number; engine: string }

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chromium or Chrome found: install one or set CHROMIUM_PATH.');
  const outDir = mkdtempSync(join(tmpdir(), 'rlvr-responsiveness-'));
  const configFile = join(a.root, 'vite.config.ts');
  await build({ root: a.root, configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, ...(a.why ? { minify: false } : {}) } });
  const server = await preview({ root: a.root, configFile, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
  const addr = server.httpServer.address();
  const origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 4173}/`;
  const browser = await chromium.launch({ executablePath, args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const rows: Row[] = [];
  try {
    for (const backend of a.backends) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: OBSERVE });
      const page = await context.newPage();
      page.on('pageerror', (e) => log(`[page error] ${e.message}`));
      await page.goto(origin + (backend === 'auto' ? '' : `?backend=${backend}`));
      const play = page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: /Play$/ });
      await play.waitFor({ state: 'visible', timeout: 600_000 });
      await page.waitForFunction(() => (window as unknown as { __lab?: { store: { getState(): { status: string } } } }).__lab?.store.getState().status === 'ready', null, { timeout: 600_000, polling: 100 });
      // The controls are found before the clock starts: Playwright finds a control by its role or
      // label with a script in the page that walks the whole DOM (over 100 ms here), which would be
      // counted as the page's own long task.
      const playButton = (await play.elementHandle())!;
      const slider = (await page.getByLabel('Group size G', { exact: true }).elementHandle())!;
      const t0 = await page.evaluate(() => performance.now());
      await playButton.click();
      for (let i = 0; i * 1.5 < a.seconds; i++) {
        await page.waitForTimeout(1500);
        await slider.focus();
        await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
      }
      const r = await page.evaluate(async (t0) => {
        const t1 = performance.now();
        await new Promise((ok) => setTimeout(ok, 300)); // the last entries are delivered
        const w = window as unknown as { __long: { t: number; d: number }[]; __events: { t: number; d: number }[]; __lab: { store: { getState(): { stepsCompleted: number; backendName: string } } } };
        const long = w.__long.filter((x) => x.t >= t0 && x.t < t1);
        const ev = w.__events.filter((x) => x.t >= t0 && x.t < t1);
        const s = w.__lab.store.getState();
        return { n: long.length, longest: Math.max(0, ...long.map((x) => x.d)), blocked: long.reduce((q, x) => q + x.d, 0), slowest: Math.max(0, ...ev.map((x) => x.d)), interactions: ev.length, steps: s.stepsCompleted, engine: s.backendName, elapsed: (t1 - t0) / 1000 };
      }, t0);
      if (a.why) {
        const why = await page.evaluate((t0) => {
          type F = { t: number; d: number; render: number; layout: number; scripts: { d: number; what: string }[] };
          const frames = (window as unknown as { __frames: F[] }).__frames.filter((f) => f.t >= t0 && f.d > 100);
          const by = new Map<string, number>();
          for (const f of frames) for (const x of f.scripts) by.set(x.what, (by.get(x.what) ?? 0) + x.d);
          return { frames: frames.map((f) => ({ d: Math.round(f.d), render: Math.round(f.render), layout: Math.round(f.layout), scripts: f.scripts.filter((x) => x.d > 10).map((x) => `${Math.round(x.d)} ms ${x.what}`) })), top: [...by].sort((p, q) => q[1] - p[1]).slice(0, 12).map(([k, v]) => `${Math.round(v)} ms ${k}`) };
        }, t0);
        log(`${backend}: frames over 100 ms: ${JSON.stringify(why, null, 1)}`);
        const slowest = await page.evaluate((t0) => (window as unknown as { __events: { t: number; d: number; name: string; wait: number; run: number }[] }).__events.filter((e) => e.t >= t0).sort((p, q) => q.d - p.d).slice(0, 3)
          .map((e) => `${Math.round(e.d)} ms ${e.name} at ${((e.t - t0) / 1000).toFixed(1)} s: waited ${Math.round(e.wait)} ms for the thread, handled in ${Math.round(e.run)} ms, painted ${Math.round(e.d - e.wait - e.run)} ms later`), t0);
        log(`${backend}: slowest interactions: ${JSON.stringify(slowest, null, 1)}`);
      }
      rows.push({ backend, seconds: Number(r.elapsed.toFixed(1)), tasks_over_50ms: r.n, longest_ms: Math.round(r.longest), blocked_s: Number((r.blocked / 1000).toFixed(2)), slowest_interaction_ms: Math.round(r.slowest), interactions: r.interactions, steps: r.steps, engine: r.engine });
      log(JSON.stringify(rows.at(-1)));
      await context.close();
    }
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    rmSync(outDir, { recursive: true, force: true });
  }
  if (a.json) { process.stdout.write(`${JSON.stringify({ build: 'production', seconds: a.seconds, rows })}\n`); return; }
  process.stdout.write(`| engine | main-thread tasks > 50 ms | longest | blocked | slowest interaction | steps |\n|---|---|---|---|---|---|\n`);
  for (const r of rows) process.stdout.write(`| ${r.backend} (${r.engine}) | ${r.tasks_over_50ms} | ${r.longest_ms} ms | ${r.blocked_s} s of ${r.seconds} s | ${r.slowest_interaction_ms} ms | ${r.steps} |\n`);
}

main().catch((e) => {
  process.stderr.write(`responsiveness failed: ${(e as Error).message}\n`);
  process.exit(1);
});

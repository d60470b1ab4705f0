/**
 * npm run page-bench [-- --json] [--steps 600] [--warmup 20] [--rate 20] [--history 500]
 *                    [--size 1280x800] [--shot PNG] [--root DIR] [--fixture FILE]
 *
 * Is the page the bottleneck? The production build (vite build into a temporary folder, served
 * by vite preview) in headless Chromium at 1280×800 (--size: another viewport), lab defaults: once the engine is ready, the
 * store is filled with a recorded real run's first `history` steps (scripts/fixtures/
 * page-run.json.gz, made by scripts/record-page-run.ts), then `steps` more of its steps are
 * replayed through the run loop's own recorder (window.__lab.replay: step started, metrics and
 * rollout, evaluation when due, step ended) at `rate` steps per second, as a playing run (status
 * 'running': the cards below the fold wait until they are scrolled to, as in a real run). Chrome's trace gives the
 * renderer main thread's busy time in each step's window (the first `warmup` steps are not
 * counted), split into script (forced layout inside it included), style and layout, paint and
 * compositing, garbage collection and the rest.
 *
 * Prints the milliseconds per step (median, p95, mean), the steps per second the page alone
 * would sustain (1000 / mean), what one redraw of the charts costs (redraw_ms: each store update
 * that brings new steps, its main-thread time less the replay's own step work) and the seconds
 * between redraws (charts_redrawn_every_s), store commits per step, and the history's length
 * during the replay. --root measures another checkout (e.g. a worktree of an older commit).
 */
import { chromium } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { build, preview } from 'vite';
import { findBrowser } from './find-browser.mjs';
import { readRecordedRun, type RecordedRun } from '../src/lab/replay.ts';

const USAGE = 'usage: npm run page-bench -- [--json] [--steps N] [--warmup N] [--rate STEPS_PER_S] [--history N] [--size WxH] [--shot PNG] [--root DIR] [--fixture FILE]';

interface Args { width: number; height: number; json: boolean; steps: number; warmup: number; rate: number; history: number; shot: string | null; root: string; fixture: string; profile: boolean; path: string }

function parseArgs(argv: string[]): Args {
  const a: Args = { width: 1280, height: 800, json: false, steps: 600, warmup: 20, rate: 20, history: 500, shot: null, root: process.cwd(), fixture: resolve(import.meta.dirname, 'fixtures/page-run.json.gz'), profile: false, path: '/' };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    const num = (lo: number, hi: number) => {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < lo || n > hi) fail(`${f} must be a number from ${lo} to ${hi}, got "${argv[i] ?? ''}"`);
      return n;
    };
    if (f === '--json') a.json = true;
    else if (f === '--profile') a.profile = true;
    else if (f === '--path') a.path = argv[++i] ?? fail('--path needs the page\'s path and query, e.g. /?task=add');
    else if (f === '--steps') a.steps = Math.round(num(1, 10_000));
    else if (f === '--warmup') a.warmup = Math.round(num(0, 1000));
    else if (f === '--rate') a.rate = num(0.1, 1000);
    else if (f === '--history') a.history = Math.round(num(0, 100_000));
    else if (f === '--size') {
      const m = /^(\d{3,4})x(\d{3,4})$/.exec(argv[++i] ?? '');
      if (!m) fail(`--size must be WIDTHxHEIGHT in pixels, e.g. 1920x1080, got "${argv[i] ?? ''}"`);
      [a.width, a.height] = [Number(m[1]), Number(m[2])];
    } else if (f === '--shot') a.shot = argv[++i] ?? fail('--shot needs a file name');
    else if (f === '--root') a.root = resolve(argv[++i] ?? fail('--root needs a folder'));
    else if (f === '--fixture') a.fixture = resolve(argv[++i] ?? fail('--fixture needs a file'));
    else fail(`unknown flag ${f}`);
  }
  return a;
}

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

const log = (m: string) => process.stderr.write(`page-bench: ${m}\n`);

const freePort = () => new Promise<number>((ok, no) => {
  const s = createServer();
  s.once('error', no);
  s.listen(0, '127.0.0.1', () => {
    const p = (s.address() as { port: number }).port;
    s.close(() => ok(p));
  });
});

// ---- the trace -----------------------------------------------------------------------------

interface TraceEvent { name: string; cat: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: Record<string, unknown> }

const KIND: [RegExp, 'script' | 'style_layout' | 'paint' | 'gc'][] = [
  [/^(FunctionCall|EvaluateScript|TimerFire|FireAnimationFrame|EventDispatch|RunMicrotasks|v8\.callFunction|V8\.Execute|v8\.run|FireIdleCallback|XHRReadyStateChange|ResizeObserverCallback|IntersectionObserverController::computeIntersections|PerformanceObserver.*|v8\.evaluateModule|ScheduleStyleRecalculation)$/, 'script'],
  [/^(UpdateLayoutTree|RecalculateStyles|Layout|ParseAuthorStyleSheet|InvalidateLayout|UpdateLayerTree|HitTest)$/, 'style_layout'],
  [/^(Paint|PrePaint|Layerize|UpdateLayer|CompositeLayers|Commit|PaintImage|Decode Image|Rasterize|ScrollLayer|PaintSetup|BeginMainThreadFrame|Animation|FrameStartedLoading)$/, 'paint'],
  [/^(MinorGC|MajorGC|V8\.GC.*|BlinkGC\..*|ThreadState::.*GC.*|CppGC.*)$/, 'gc'],
];
const TOP = /^(RunTask|ThreadControllerImpl::RunTask|ThreadPool_RunTask)$/;

/** Time in [lo, hi) covered by the union of `iv` (sorted by start, non-overlapping). */
function covered(iv: [number, number][], lo: number, hi: number): number {
  let t = 0;
  for (const [a, b] of iv) if (b > lo && a < hi) t += Math.min(b, hi) - Math.max(a, lo);
  return t;
}

/** Outermost events of `evs` (an event inside a taken one is skipped). */
function outermostEvents(evs: TraceEvent[]): TraceEvent[] {
  const out: TraceEvent[] = [];
  for (const e of [...evs].sort((x, y) => x.ts - y.ts || (y.dur ?? 0) - (x.dur ?? 0))) {
    const last = out.at(-1);
    if (last && e.ts < last.ts + (last.dur ?? 0)) continue;
    out.push(e);
  }
  return out;
}

/** Outermost intervals of `evs` (an event inside a taken one is skipped). */
function outermost(evs: TraceEvent[]): [number, number][] {
  return outermostEvents(evs).map((e) => [e.ts, e.ts + (e.dur ?? 0)]);
}

/**
 * CPU milliseconds of the tasks in `tasks` that start in [lo, hi): the thread's own clock (tdur),
 * which a loaded machine does not stretch as it stretches the wall clock (a task waiting for a
 * core counts in its wall time only).
 */
function cpuIn(tasks: TraceEvent[], lo: number, hi: number, skip: (e: TraceEvent) => boolean = () => false): number {
  let t = 0;
  for (const e of tasks) if (e.ts >= lo && e.ts < hi && !skip(e)) t += e.tdur ?? e.dur ?? 0;
  return t / 1000;
}

/** How long after the task that lands a redraw its follow-up work is looked for (React's effects, recharts' follow-up update and its frame). */
const REDRAW_WINDOW_US = 400_000;

/**
 * The charts' redraws during the measured steps: each store update that brought new steps (the
 * page marks it `redraw:k` as it lands) starts one. Its cost is the renderer main thread's busy
 * time from the start of the task that landed it until the next redraw (at most 400 ms after that task's end),
 * less the replay's own per-step work in that span (each step's marked interval `replay:i` to
 * `stepend:i`): what one redraw of the visible charts costs, small or large (a threshold on the
 * step windows, as before, would miss every redraw under it). Also the seconds between redraws.
 */
export function redrawsOf(events: TraceEvent[], from: string, to: string) {
  const main = mainThreadOf(events);
  const user = events.filter((e) => e.pid === main.pid && e.tid === main.tid && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b' || e.ph === 'i'));
  const ts = (name: string) => user.find((e) => e.name === name)?.ts;
  const lo = ts(from), hi = ts(to);
  if (lo === undefined || hi === undefined) throw new Error(`no ${from} / ${to} marks in the trace`);
  const topEvents = outermostEvents(main.events.filter((e) => TOP.test(e.name)));
  const top = topEvents.map((e): [number, number] => [e.ts, e.ts + (e.dur ?? 0)]);
  const stepMarks = user.filter((e) => e.name.startsWith('replay:') || e.name.startsWith('stepend:')).map((e) => e.ts).sort((x, y) => x - y);
  const holdsStep = (e: TraceEvent) => stepMarks.some((t) => t >= e.ts && t <= e.ts + (e.dur ?? 0));
  const starts = new Map<string, number>(), ends = new Map<string, number>();
  for (const e of user) {
    if (e.name.startsWith('replay:')) starts.set(e.name.slice(7), e.ts);
    else if (e.name.startsWith('stepend:')) ends.set(e.name.slice(8), e.ts);
  }
  const stepIv = [...starts].flatMap(([i, a]) => (ends.has(i) ? [[a, ends.get(i)!] as [number, number]] : [])).sort((x, y) => x[0] - y[0]);
  const marks = user.filter((e) => e.name.startsWith('redraw:') && e.ts >= lo && e.ts < hi).map((e) => e.ts).sort((a, b) => a - b);
  const task = (t: number) => top.find(([a, b]) => a <= t && t < b) ?? [t, t];
  const spans = marks.map((t, k) => {
    const [a, end] = task(t);
    return [a, Math.min(end + REDRAW_WINDOW_US, k + 1 < marks.length ? task(marks[k + 1])[0] : hi)];
  });
  const costs = spans.map(([a, b]) => (covered(top, a, b) - covered(stepIv, a, b)) / 1000);
  const cpu = spans.map(([a, b]) => cpuIn(topEvents, a, b, holdsStep)); // the tasks that hold a replayed step are the step's
  // of which the task that lands the update (React's render and commit, recharts' follow-up updates): what the chart code decides
  const landing = marks.map((t) => (topEvents.find((e) => e.ts <= t && t < e.ts + (e.dur ?? 0))?.tdur ?? 0) / 1000);
  const gaps = marks.slice(1).map((t, k) => (t - marks[k]) / 1e6);
  return { costs, cpu, landing, gaps, seconds: (hi - lo) / 1e6 };
}

function mainThreadOf(events: TraceEvent[]) {
  const m = events.find((e) => e.name.startsWith('replay:'));
  if (!m) throw new Error('no replay marks in the trace (blink.user_timing)');
  return { pid: m.pid, tid: m.tid, events: events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && e.dur !== undefined) };
}

/** Busy milliseconds of the renderer main thread in each step's window, by kind. */
export function mainThreadPerStep(events: TraceEvent[], markPrefix: string) {
  const marks = events.filter((e) => e.name.startsWith(markPrefix) && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b' || e.ph === 'i'));
  if (!marks.length) throw new Error('no replay marks in the trace (blink.user_timing)');
  const { pid, tid } = marks[0];
  const at = new Map<number, number>();
  for (const m of marks) at.set(Number(m.name.slice(markPrefix.length)), m.ts);
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined);
  const topEvents = outermostEvents(main.filter((e) => TOP.test(e.name)));
  const top = topEvents.map((e): [number, number] => [e.ts, e.ts + (e.dur ?? 0)]);
  const kinds = Object.fromEntries(['script', 'style_layout', 'paint', 'gc'].map((k) => [k, outermost(main.filter((e) => KIND.find(([re]) => re.test(e.name))?.[1] === k))])) as Record<string, [number, number][]>;
  const n = Math.max(...at.keys());
  const rows: { busy: number; cpu: number; script: number; style_layout: number; paint: number; gc: number }[] = [];
  for (let i = 0; i < n; i++) {
    const lo = at.get(i), hi = at.get(i + 1);
    if (lo === undefined || hi === undefined) continue;
    const ms = (iv: [number, number][]) => covered(iv, lo, hi) / 1000;
    rows.push({ busy: ms(top), cpu: cpuIn(topEvents, lo, hi), script: ms(kinds.script), style_layout: ms(kinds.style_layout), paint: ms(kinds.paint), gc: ms(kinds.gc) });
  }
  return rows;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const r2 = (x: number) => Math.round(x * 100) / 100;

interface CpuProfile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[]; samples: number[]; timeDeltas: number[] }

/** --profile (an unminified build): the functions with the most self time, and by where they come from. */
function topFunctions(p: CpuProfile): void {
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const byFn = new Map<string, number>();
  for (const n of p.nodes) {
    const t = self.get(n.id) ?? 0;
    const k = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    byFn.set(k, (byFn.get(k) ?? 0) + t);
  }
  const total = [...byFn.values()].reduce((a, b) => a + b, 0);
  for (const [k, t] of [...byFn].sort((x, y) => y[1] - x[1]).slice(0, 25)) log(`profile self ${(t / 1000).toFixed(0).padStart(6)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`);
  // inclusive: a function's self time plus its callees', counted once per function on a stack
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (id: number) => { const c = byId.get(id)!.callFrame; return `${c.functionName || '(anonymous)'} ${c.url.split('/').pop()}:${c.lineNumber}`; };
  const incl = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) { const k = key(x); if (!seen.has(k)) { seen.add(k); incl.set(k, (incl.get(k) ?? 0) + t); } }
  }
  for (const [k, t] of [...incl].sort((x, y) => y[1] - x[1]).slice(0, 150)) log(`profile incl ${(t / 1000).toFixed(0).padStart(6)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`);
}

// ---- the run ---------------------------------------------------------------------------------

type Lab = { store: { getState(): { status: string; steps: unknown[] }; subscribe(f: () => void): () => void }; replay: { fill(...a: unknown[]): void; step(...a: unknown[]): Promise<void>; pause(): void } };

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const run: RecordedRun = readRecordedRun(gunzipSync(readFileSync(a.fixture)).toString('utf8'));
  if (run.steps.length < a.history + a.steps) fail(`the recording has ${run.steps.length} steps: --history ${a.history} + --steps ${a.steps} is more`);
  if (a.warmup >= a.steps) fail('--warmup must be below --steps');
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chromium or Chrome found: install one (e.g. "apt-get install -y chromium") or set CHROMIUM_PATH.');
  const outDir = mkdtempSync(join(tmpdir(), 'rlvr-page-bench-'));
  const configFile = join(a.root, 'vite.config.ts');
  log(`building the production bundle of ${a.root} into ${outDir}`);
  await build({ root: a.root, configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: !a.profile } });
  const port = await freePort();
  const server = await preview({ root: a.root, configFile, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1' } });
  const browser = await chromium.launch({ executablePath, args: ['--enable-unsafe-webgpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const page = await browser.newPage({ viewport: { width: a.width, height: a.height } });
    page.on('pageerror', (e) => log(`[page error] ${e.message}`));
    await page.goto(`http://127.0.0.1:${port}${a.path}`);
    log('waiting for the engine (self-check, step-0 evaluation)…');
    await page.waitForFunction(() => (window as unknown as { __lab?: Lab }).__lab?.store.getState().status === 'ready', null, { timeout: 600_000, polling: 500 });
    const G = run.settings.numGenerations;
    await page.evaluate(({ run, H, G }) => {
      const w = window as unknown as { __lab: Lab; __benchRun: RecordedRun };
      w.__benchRun = run;
      w.__lab.replay.fill(run.steps.slice(0, H), run.evals.filter((e) => e.step <= H), run.rollouts[0], G);
    }, { run, H: a.history, G });
    await page.waitForTimeout(2000); // the filled page renders once
    log(`replaying ${a.steps} steps at ${a.rate} steps/s over a ${a.history}-step history`);
    const cdp = a.profile ? await page.context().newCDPSession(page) : null;
    if (cdp) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute'] });
    const replay = await page.evaluate(async ({ H, N, interval, warmup }) => {
      const w = window as unknown as { __lab: Lab; __benchRun: RecordedRun };
      const { __lab: lab, __benchRun: rec } = w;
      let commits = 0;
      const lengths: number[] = [];
      let drawnSteps = lab.store.getState().steps, redraws = 0;
      const unsub = lab.store.subscribe(() => {
        commits++;
        const st = lab.store.getState().steps;
        if (st !== drawnSteps) { drawnSteps = st; performance.mark(`redraw:${redraws++}`); } // new steps landed: the charts redraw
      });
      const t0 = performance.now() + 100;
      let late = 0, commitsAtWarm = 0;
      for (let i = 0; i < N; i++) {
        const wait = t0 + i * interval - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        else if (i >= warmup) late++;
        if (i === warmup) commitsAtWarm = commits;
        performance.mark(`replay:${i}`);
        const m = rec.steps[H + i];
        await lab.replay.step(m, rec.rollouts[i % rec.rollouts.length], rec.evals.find((e) => e.step === m.step + 1) ?? null);
        performance.mark(`stepend:${i}`);
        lengths.push(lab.store.getState().steps.length);
      }
      const wait = t0 + N * interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      performance.mark(`replay:${N}`);
      unsub();
      return { late, commits: commits - commitsAtWarm, seconds: (performance.now() - t0) / 1000, lengths };
    }, { H: a.history, N: a.steps, interval: 1000 / a.rate, warmup: a.warmup });
    if (cdp) {
      const profile = (await cdp.send('Profiler.stop')).profile as unknown as CpuProfile;
      if (process.env.PAGE_BENCH_PROFILE) writeFileSync(process.env.PAGE_BENCH_PROFILE, JSON.stringify(profile)); // a .cpuprofile for DevTools
      topFunctions(profile);
    }
    const traceText = (await browser.stopTracing()).toString('utf8');
    if (process.env.PAGE_BENCH_TRACE) writeFileSync(process.env.PAGE_BENCH_TRACE, traceText); // for a look in DevTools' Performance panel
    const trace = JSON.parse(traceText) as { traceEvents: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(trace) ? trace : trace.traceEvents;
    const rows = mainThreadPerStep(events, 'replay:').slice(a.warmup);
    const busy = rows.map((r) => r.busy);
    const per = (k: keyof (typeof rows)[number]) => ({ median: r2(quantile(rows.map((r) => r[k]), 0.5)), mean: r2(mean(rows.map((r) => r[k]))) });
    const counted = a.steps - a.warmup;
    const redraws = redrawsOf(events, `replay:${a.warmup}`, `replay:${a.steps}`);
    const report = {
      build: 'production (vite build, vite preview)',
      root: a.root,
      recording: run.what,
      viewport: `${a.width}x${a.height}`,
      rate_steps_per_s: a.rate,
      history_filled: a.history,
      history_points_during: [Math.min(...replay.lengths), Math.max(...replay.lengths)],
      steps_replayed: a.steps,
      steps_measured: rows.length,
      main_thread_ms_per_step: { median: r2(quantile(busy, 0.5)), p95: r2(quantile(busy, 0.95)), mean: r2(mean(busy)), max: r2(Math.max(...busy)) },
      // the same in the thread's CPU time: what a loaded machine (other processes on the cores) does not inflate
      main_thread_cpu_ms_per_step: per('cpu'),
      script_ms_per_step: per('script'),
      style_layout_ms_per_step: per('style_layout'),
      paint_ms_per_step: per('paint'),
      gc_ms_per_step: per('gc'),
      page_sustains_steps_per_s: r2(1000 / mean(busy)),
      // the charts' redraws (each store update that brought new steps): what one costs in main-thread ms (the replay's own step work excluded)
      redraw_ms: { count: redraws.costs.length, median: r2(quantile(redraws.costs, 0.5)), p95: r2(quantile(redraws.costs, 0.95)), mean: r2(mean(redraws.costs)) },
      redraw_cpu_ms: { median: r2(quantile(redraws.cpu, 0.5)), p95: r2(quantile(redraws.cpu, 0.95)), mean: r2(mean(redraws.cpu)) },
      // of redraw_cpu_ms, the task that lands the update alone (the rest: the next frame's paint, timers, garbage collection)
      redraw_task_cpu_ms: { median: r2(quantile(redraws.landing, 0.5)), mean: r2(mean(redraws.landing)) },
      // how often a student sees the charts move while the run streams (the pacing's price): measured seconds / redraws, and the median gap
      charts_redrawn_every_s: r2(redraws.seconds / Math.max(1, redraws.costs.length)),
      charts_redraw_gap_s: { median: r2(quantile(redraws.gaps, 0.5)), max: r2(Math.max(...redraws.gaps)) },
      // the old measure: step windows over 50 ms of main thread (a redraw above that, or a stall)
      steps_over_50ms: { count: busy.filter((b) => b > 50).length, median_ms: r2(quantile(busy.filter((b) => b > 50), 0.5)) },
      store_commits_per_step: r2(replay.commits / counted),
      late_steps: replay.late,
      replay_seconds: r2(replay.seconds),
    };
    if (a.shot) {
      // the last writes land within the pacing interval (src/lab/frameBatch.ts): shoot the final state
      await page.waitForFunction((n) => (window as unknown as { __lab: { store: { getState(): { stepsCompleted: number; progress: unknown } } } }).__lab.store.getState().stepsCompleted === n, a.history + a.steps, { timeout: 30_000 });
      await page.evaluate(() => (window as unknown as { __lab: Lab }).__lab.replay.pause()); // the cards off screen catch up
      await page.waitForTimeout(1000);
      mkdirSync(dirname(resolve(a.shot)), { recursive: true });
      await page.screenshot({ path: a.shot });
      await page.screenshot({ path: a.shot.replace(/\.png$/, '-full.png'), fullPage: true });
      log(`screenshots: ${a.shot} and its -full.png`);
    }
    process.stdout.write(a.json ? `${JSON.stringify(report)}\n` : `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('page-bench.ts')) main().catch((e) => {
  process.stderr.write(`page-bench failed: ${(e as Error).message}\n`);
  process.exit(1);
});

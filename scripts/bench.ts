/**
 * npm run bench [-- --json] [--config tiny|small] [--reps N] [--sweep] [--no-peer] [--profile]
 *
 * Speed of the WGSL engine on this machine's WebGPU adapter, in headless Chromium (the real
 * engine, the modules the lab loads), against TensorFlow.js on its WebGPU backend in the same
 * browser and the same run. Judge speed by the ratios: absolute times depend on the adapter
 * (SwiftShader, a CPU, on machines without a GPU).
 *
 * For each named config (tiny: T=32 D=64 H=4 L=2 B=64; small: T=64 D=128 H=4 L=4 B=32):
 *   training step (median, min ms; tokens/s; GFLOP/s by the formula in
 *   src/gpu/bench/engineBench.ts; dispatches per step), and ms to sample 64 rows of T tokens;
 * the same for TF.js and the ratios peer/engine; one full GRPO step of the lab's default
 * lesson with its phases and readbacks; attention forward + backward in its two forms (row, tiled)
 * at the tiny and small training shapes; the matmul kernels (register-blocked vs plain vec4);
 * `autotune`: the lab's start-up on the tiny model (32 rollout rows): per kernel family
 * { family, candidates: [{ form, ms }], chosen } (src/gpu/autotune.ts), `autotune_run` its check and budget;
 * with --sweep, step time as D, G (rows per rollout) and T grow, with fitted exponents.
 *
 * --backend dawn runs the same bench modules in Node through Dawn (scripts/dawn.ts), no browser
 * (and no TF.js peer).
 *
 * --json prints one JSON object on stdout; otherwise a readable report. Progress on stderr.
 */
import { chromium, type Page } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { createServer } from 'vite';
import { findBrowser } from './find-browser.mjs';
import { cpuGrpoByWorkers } from './bench-workers.ts';

type Json = Record<string, unknown>;

const USAGE = 'usage: npm run bench -- [--json] [--backend webgpu|dawn] [--config tiny|small] [--reps N] [--sweep] [--no-peer] [--no-profile] [--only matmul|sweep|attention|autotune]';
const NAMES = ['tiny', 'small'] as const;

interface Args { json: boolean; only: string | null; configs: string[]; reps: number | null; sweep: boolean; peer: boolean; profile: boolean; backend: 'webgpu' | 'dawn' }

export function parseBenchArgs(argv: string[]): Args {
  const a: Args = { json: false, only: null, configs: [...NAMES], reps: null, sweep: false, peer: true, profile: true, backend: 'webgpu' };
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i];
    if (f === '--json') a.json = true;
    else if (f === '--sweep') a.sweep = true;
    else if (f === '--no-peer') a.peer = false;
    else if (f === '--only') {
      const v = argv[++i];
      if (v !== 'matmul' && v !== 'sweep' && v !== 'attention' && v !== 'autotune') fail(`--only must be matmul, sweep, attention or autotune, got "${v ?? ''}"`);
      a.only = v;
      if (v === 'sweep') a.sweep = true;
    }
    else if (f === '--profile') a.profile = true;
    else if (f === '--backend') {
      const v = argv[++i];
      if (v !== 'webgpu' && v !== 'dawn') fail(`--backend must be webgpu (headless Chromium) or dawn (Node), got "${v ?? ''}"`);
      a.backend = v;
      if (v === 'dawn') a.peer = false; // TF.js's WebGPU backend runs in the browser only
    }
    else if (f === '--no-profile') a.profile = false;
    else if (f === '--config') {
      const v = argv[++i];
      if (!(NAMES as readonly string[]).includes(v)) fail(`--config must be one of ${NAMES.join(', ')}, got "${v ?? ''}"`);
      a.configs = [v];
    } else if (f === '--reps') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 1000) fail(`--reps must be a whole number ≥ 1, got "${argv[i] ?? ''}"`);
      a.reps = n;
    } else fail(`unknown flag ${f}`);
  }
  return a;
}

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

const log = (m: string) => process.stderr.write(`bench: ${m}\n`);

/** Vite (no HMR, no watching: edits elsewhere cannot reload the page) + headless Chromium on the harness page. */
async function withBenchPage<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  const executablePath = findBrowser();
  if (!executablePath) throw new Error('No Chromium or Chrome found: install one (e.g. "apt-get install -y chromium") or set CHROMIUM_PATH.');
  process.env.RLVR_TEST_SERVER = '1';
  const server = await createServer({
    logLevel: 'error',
    server: { port: 0, host: '127.0.0.1' },
    // its own dependency cache (a test server running at the same time rewrites the shared one),
    // with the bench modules crawled up front so no dependency is discovered mid-run
    cacheDir: 'node_modules/.vite-bench',
    optimizeDeps: { entries: ['e2e/harness.html', 'src/gpu/bench/*.ts'], include: ['@tensorflow/tfjs', '@tensorflow/tfjs-backend-webgpu'] },
  });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : 5173;
  // --enable-unsafe-webgpu: WebGPU on Linux/headless (SwiftShader without a GPU); Vulkan for a real GPU on Linux.
  const extra = (process.env.BENCH_CHROMIUM_ARGS ?? '').split(' ').filter(Boolean);
  const browser = await chromium.launch({
    executablePath,
    args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extra],
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
    page.on('console', (m) => m.type() === 'error' && !m.text().includes('404') && process.stderr.write(`[page] ${m.text()}\n`));
    const open = async () => {
      await page.goto(`http://127.0.0.1:${port}/e2e/harness.html`);
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
      // load both bench modules once, so a dependency re-optimisation happens before any timing
      return page.evaluate(async () => {
        try {
          // every module the bench will run, loaded now: an edit made elsewhere while the bench
          // runs can then never mix old and new versions of the engine in one page
          for (const m of ['/src/gpu/bench/engineBench.ts', '/src/gpu/bench/tfjsPeer.ts', '/src/rl/trainer.ts', '/src/rl/lessons.ts', '/src/rl/settings.ts', '/src/gpu/policyLoss.ts']) await import(m);
          return true;
        } catch {
          return false;
        }
      });
    };
    if (!(await open()) && !(await open())) throw new Error('the bench modules do not load in the page (see the page errors above)');
    return await fn(page);
  } finally {
    await browser.close();
    await server.close();
  }
}

/** Runs `fn(...args)` of a bench module where the engine runs: in the page, or in this process (Dawn). */
type Caller = (path: string, fn: string, args: unknown[]) => Promise<unknown>;

async function withCaller<T>(backend: Args['backend'], fn: (run: Caller) => Promise<T>): Promise<T> {
  if (backend === 'webgpu') {
    return withBenchPage((page) => fn((path, name, args) => page.evaluate(async ({ path, name, args }) => {
      const m = (await import(path)) as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return m[name](...args);
    }, { path, name, args })));
  }
  log(`dawn: ${await (await import('./dawn.ts')).installDawn()}`);
  return fn(async (path, name, args) => {
    const m = (await import(`..${path}`)) as Record<string, (...a: unknown[]) => Promise<unknown>>;
    return m[name](...args);
  });
}

/**
 * Call `fn(...args)` of a bench module. Each result is also logged on stderr
 * (`bench: result fn …`), so a long run that fails late still leaves what it measured.
 */
async function call<T>(run: Caller, module: 'engine' | 'peer', fn: string, ...args: unknown[]): Promise<T> {
  const path = module === 'engine' ? '/src/gpu/bench/engineBench.ts' : '/src/gpu/bench/tfjsPeer.ts';
  const r = (await run(path, fn, args)) as T;
  if (fn !== 'benchConfigs') process.stderr.write(`bench: result ${fn} ${JSON.stringify(r, (k, v) => (k === 'profile' ? undefined : v))}\n`);
  return r;
}

/** Run one section; a failure is recorded in the output ({ error }) and the bench goes on. */
async function section<T>(what: string, f: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await f();
  } catch (e) {
    log(`${what} failed: ${(e as Error).message.split('\n')[0]}`);
    return { error: (e as Error).message.split('\n')[0] };
  }
}

/**
 * The autotune as the lab's start-up runs it (the self-check, then each family's forms timed within
 * its budget: 2 s on a CPU adapter, compiling included, so SwiftShader may reach none), and the
 * same with every form timed whatever it takes (the table of this adapter's forms).
 */
async function autotuneTables(run: Caller, tiny: Json): Promise<{ autotune: Json; autotune_run: Json | null; autotune_every_form: Json }> {
  log('autotune (the self-check, then each family\'s forms timed: the lab\'s start-up)');
  const tuned = await section('autotune', () => call<Json & { autotune: Json[] }>(run, 'engine', 'benchAutotune', tiny, 32));
  log('autotune with every form timed (no budget)');
  const every = await section('autotune, every form', () => call<Json & { autotune: Json[] }>(run, 'engine', 'benchAutotune', tiny, 32, 600_000));
  return {
    autotune: 'error' in tuned ? tuned : roundAll(tuned.autotune),
    autotune_run: 'error' in tuned ? null : roundAll({ ...tuned, autotune: undefined }),
    autotune_every_form: 'error' in every ? every : roundAll({ ...every }),
  };
}

/** Least-squares slope of log(y) on log(x): the exponent k of y ∝ x^k. */
export function exponent(xs: number[], ys: number[]): number {
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0, den = 0;
  for (let i = 0; i < lx.length; i++) { num += (lx[i] - mx) * (ly[i] - my); den += (lx[i] - mx) ** 2; }
  return num / den;
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main() {
  const args = parseBenchArgs(process.argv.slice(2));
  const started = Date.now();
  if (args.backend === 'dawn') (await import('./dawn.ts')).withDawnEnv(); // restarts once where Vulkan needs LD_LIBRARY_PATH
  const out = await withCaller(args.backend, async (run) => {
    const adapter = await call<Json & { swiftshader: boolean }>(run, 'engine', 'adapterInfo');
    log(`adapter ${adapter.vendor} ${adapter.architecture} (${adapter.swiftshader ? 'SwiftShader: a CPU, few repetitions' : 'GPU'})`);
    // SwiftShader is a CPU at ~0.5 GFLOP/s: a `small` step takes seconds, so repeat little there
    const reps = args.reps ?? (adapter.swiftshader ? 2 : 20);
    const configs: Record<string, Json> = {};
    const peer: Json = { backend: null, configs: {} as Record<string, Json> };
    const defs = await call<Record<string, { model: Json; batch: number }>>(run, 'engine', 'benchConfigs');
    for (const name of args.only ? [] : args.configs) {
      const { model, batch } = defs[name];
      const T = model.seqLen as number;
      log(`${name}: engine training step ×${reps}`);
      // on SwiftShader a profile costs several steps: only the first config gets one there
      const profile = args.profile && (!adapter.swiftshader || name === args.configs[0]);
      const st = await call<Json & { step_ms_median: number; step_ms_min: number; profile: Json | null }>(run, 'engine', 'benchTrainStep', model, batch, T, reps, { profile });
      log(`${name}: engine sample 64 rows ×${reps}`);
      const sm = await call<Json & { sample_ms_median: number; sample_ms_min: number }>(run, 'engine', 'benchSample', model, 64, reps);
      configs[name] = {
        model, batch, T,
        step_ms_median: r2(st.step_ms_median), step_ms_min: r2(st.step_ms_min),
        tokens_per_s: Math.round(st.tokens_per_s as number), gflops: r3(st.gflops as number), flops_per_step: st.flops_per_step,
        dispatches_per_step: st.dispatches_per_step, readbacks_per_step: st.readbacks_per_step,
        sample_ms: r2(sm.sample_ms_median), sample_ms_min: r2(sm.sample_ms_min), sample_rows: sm.rows, sample_new_tokens: sm.newTokens,
        sample_submits: sm.submits, sample_readbacks: sm.readbacks,
        step_ms_all: (st.step_ms as number[]).map(r2), sample_ms_all: (sm.sample_ms as number[]).map(r2),
        profile: st.profile,
      };
      if (!args.peer) continue;
      // the TF.js peer right after the engine on the same config, so both see the same machine
      // (SwiftShader shares the CPU with whatever else runs)
      const res = await section(`${name} peer`, async () => {
        // TF.js on SwiftShader runs at ~0.1 GFLOP/s and recomputes the whole prefix per token:
        // there it trains fewer steps and samples fewer rows, and the engine is measured on the
        // same rows for the sampling ratio
        const peerReps = adapter.swiftshader ? (name === 'tiny' ? 2 : 1) : reps;
        const peerRows = adapter.swiftshader ? (name === 'tiny' ? 16 : 2) : 64;
        log(`${name}: TF.js training step ×${peerReps}`);
        const pt = await call<Json & { step_ms_median: number; step_ms_min: number; backend: string }>(run, 'peer', 'peerTrainStep', model, batch, T, peerReps);
        log(`${name}: TF.js token-by-token sample ${peerRows} rows ×1`);
        const ps = await call<Json & { sample_ms_median: number; sample_ms_min: number }>(run, 'peer', 'peerSample', model, peerRows, 1);
        const smSame = peerRows === 64 ? { sample_ms_median: sm.sample_ms_median } : await call<Json & { sample_ms_median: number }>(run, 'engine', 'benchSample', model, peerRows, reps);
        peer.backend = pt.backend;
        const flops = st.flops_per_step as number;
        (peer.configs as Record<string, Json>)[name] = {
          step_ms_median: r2(pt.step_ms_median), step_ms_min: r2(pt.step_ms_min),
          tokens_per_s: Math.round((batch * T) / (pt.step_ms_median / 1000)), gflops: r3(flops / (pt.step_ms_median / 1000) / 1e9),
          sample_ms: r2(ps.sample_ms_median), sample_rows: peerRows, engine_sample_ms_same_rows: r2(smSame.sample_ms_median),
          step_reps: peerReps, loss_first: r3(pt.loss0 as number), loss_last: r3(pt.loss1 as number),
          ratio_step: r2(pt.step_ms_median / st.step_ms_median),
          // fastest against fastest: the least disturbed by other work on a shared machine
          ratio_step_min: r2(pt.step_ms_min / st.step_ms_min),
          ratio_sample: r2(ps.sample_ms_median / smSame.sample_ms_median),
        };
      });
      if ('error' in (res ?? {})) (peer.configs as Record<string, Json>)[name] = res as Json;
    }
    const tiny = defs.tiny.model;
    let grpo: Json | null = null;
    if (!args.only) {
      log(`GRPO step (default lesson) ×${reps}`);
      grpo = await section('GRPO step', () => call<Json>(run, 'engine', 'benchGrpoStep', tiny, reps));
      log('GRPO step traffic at µ = 1, 2, 4');
      const traffic = await section('GRPO traffic', () => call<Json[]>(run, 'engine', 'benchGrpoTraffic', tiny));
      if (grpo) grpo = { ...grpo, by_mu: traffic };
    }
    if (args.only === 'autotune') return { backend: args.backend, adapter, ...await autotuneTables(run, tiny), seconds: Math.round((Date.now() - started) / 1000) };
    log('attention kernels (row and tiled forms)');
    const attShape = (n: string): [number, number, number, number] => { const { model: m, batch } = defs[n]; return [batch, m.seqLen as number, m.dModel as number, m.nHeads as number]; };
    const attention = await section('attention', () => call<Json>(run, 'engine', 'benchAttention', NAMES.map(attShape), 3, adapter.swiftshader ? 2 : 20));
    if (args.only === 'attention') return { backend: args.backend, adapter, attention: roundAll(attention), seconds: Math.round((Date.now() - started) / 1000) };
    log('matmul kernels');
    const mm = adapter.swiftshader ? [256, 256, 256] : [1024, 1024, 1024];
    const matmul = await section('matmul', () => call<Json>(run, 'engine', 'benchMatmul', mm[0], mm[1], mm[2], 3, adapter.swiftshader ? 2 : 20));
    log('row-reduction kernels');
    const reductions = await section('reductions', () => call<Json>(run, 'engine', 'benchReductions', 2048, 128, 51, 3, adapter.swiftshader ? 2 : 20));
    const { autotune, autotune_run: autotuneRun, autotune_every_form: autotuneEvery } = await autotuneTables(run, tiny);
    let scaling: Json | null = null;
    if (args.sweep) scaling = await section('sweep', () => sweep(run, adapter.swiftshader));
    const targets = { step_tiny: 5, step_small: 3, sample: 20 };
    return {
      backend: args.backend, adapter, reps, configs, grpo_step: grpo && roundAll(grpo), peer, attention: roundAll(attention), matmul: roundAll(matmul), reductions: roundAll(reductions), autotune, autotune_run: autotuneRun, autotune_every_form: autotuneEvery, scaling,
      targets, seconds: Math.round((Date.now() - started) / 1000),
      formulas: {
        gflops: 'trainingFlops / step time; trainingFlops = 3 · (2·B·T·(12·L·D² + D·V) + 4·L·B·T²·D)',
        ratio: 'TF.js ms / engine ms (higher: engine faster)',
        matmul_gflops: '2·M·K·N / kernel time (fastest of the repetitions)',
      },
    };
  });
  log('CPU GRPO step by workers (Node worker threads)');
  const cpu = await section('CPU GRPO step', () => cpuGrpoByWorkers(Math.max(3, Math.min(args.reps ?? 5, 10))));
  const all = { ...out, cpu_grpo_step: cpu };
  if (args.json) process.stdout.write(`${JSON.stringify(all)}\n`);
  else printReport(all);
}

function roundAll(x: unknown): Json {
  return JSON.parse(JSON.stringify(x, (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v)));
}

/** Step time as D, G (rollout rows) and T grow, each alone from a micro base; exponents by log-log fit. */
async function sweep(run: Caller, swift: boolean): Promise<Json> {
  const V = 51;
  const reps = swift ? 2 : 10;
  const base = { vocabSize: V, seqLen: 32, dModel: 64, nHeads: 4, nLayers: 2 };
  const B = swift ? 16 : 64;
  const Ds = [32, 64, 128];
  const Ts = [16, 32, 64];
  const Gs = [16, 32, 64];
  const rows: Json[] = [];
  const dMs: number[] = [];
  for (const D of Ds) {
    log(`sweep D=${D}`);
    const r = await call<{ step_ms_median: number }>(run, 'engine', 'benchTrainStep', { ...base, dModel: D }, B, base.seqLen, reps);
    dMs.push(r.step_ms_median);
    rows.push({ vary: 'D', D, T: base.seqLen, B, step_ms: r2(r.step_ms_median) });
  }
  const tMs: number[] = [];
  for (const T of Ts) {
    log(`sweep T=${T}`);
    const r = await call<{ step_ms_median: number }>(run, 'engine', 'benchTrainStep', { ...base, seqLen: T }, B, T, reps);
    tMs.push(r.step_ms_median);
    rows.push({ vary: 'T', D: base.dModel, T, B, step_ms: r2(r.step_ms_median) });
  }
  const gMs: number[] = [];
  for (const G of Gs) {
    log(`sweep G=${G} (rollout rows)`);
    const r = await call<{ sample_ms_median: number }>(run, 'engine', 'benchSample', base, G, reps);
    gMs.push(r.sample_ms_median);
    rows.push({ vary: 'G', D: base.dModel, T: base.seqLen, G, sample_ms: r2(r.sample_ms_median) });
  }
  return {
    rows,
    exponents: { D: r2(exponent(Ds, dMs)), T: r2(exponent(Ts, tMs)), G: r2(exponent(Gs, gMs)) },
    note: 'step time ∝ x^k fitted on log-log; FLOPs grow as D² (linear layers) and T·(1 + T/(3D)) per row; a dispatch-bound step grows slower than the FLOPs',
  };
}

export function printReport(o: Json): void {
  const a = o.adapter as Json;
  const p = (s = '') => process.stdout.write(`${s}\n`);
  p(`adapter: ${a.vendor} ${a.architecture} ${a.description ?? ''}`);
  const att = o.attention as { rows?: Json[]; engineForm?: string; error?: string } | undefined;
  if (att) p(`attention forward + backward (engine form here: ${att.engineForm ?? att.error}):`);
  if (att?.rows) console.table(att.rows);
  if (!o.configs) return; // --only attention
  p(`repetitions: ${o.reps}  (${o.seconds} s in all)`);
  p('');
  const peer = o.peer as { backend: string | null; configs: Record<string, Json> };
  const cf = o.configs as Record<string, Json>;
  const table: Record<string, Json> = {};
  for (const [name, c] of Object.entries(cf)) {
    const q = peer.configs[name];
    table[name] = {
      'step ms (med)': c.step_ms_median, 'step ms (min)': c.step_ms_min, 'tokens/s': c.tokens_per_s, 'GFLOP/s': c.gflops,
      dispatches: c.dispatches_per_step, 'sample ms': c.sample_ms,
      ...(q ? { 'TF.js step ms': q.step_ms_median, 'TF.js sample ms': q.sample_ms, 'rows (ratio)': q.sample_rows, '× step': q.ratio_step, '× sample': q.ratio_sample } : {}),
    };
  }
  console.table(table);
  const g = o.grpo_step as Json | null;
  if (g) p(`GRPO step (lesson ${g.lesson}, ${g.prompts} prompts × G=${g.G}): ${g.ms_median} ms = rollout ${g.rollout_ms} + verify ${g.verify_ms} + update ${g.update_ms} + other ${g.other_ms}; readbacks ${g.readbacks}`);
  if (g && Array.isArray(g.by_mu)) console.table(g.by_mu);
  const m = o.matmul as { M: number; K: number; N: number; rows: Json[]; speedup: number; error?: string };
  if (m.error) p(`matmul: ${m.error}`);
  else p(`matmul ${m.M}×${m.K}×${m.N}: register-blocked (${(m as Json).engineForm}, the engine's form here) / plain vec4 = ${m.speedup}×`);
  if (!m.error) console.table(m.rows);
  const red = o.reductions as { rows?: Json[]; engineForm?: string; error?: string };
  p(`row reductions (engine form here: ${red.engineForm ?? red.error}):`);
  if (red.rows) console.table(red.rows);
  for (const [name, c] of Object.entries(cf)) {
    const prof = c.profile as { source: string; families: Json[]; phases: Json[] } | null;
    if (!prof) continue;
    p(`profile of one ${name} step (${prof.source}):`);
    console.table(prof.phases.map((r) => ({ phase: r.name, ms: r2(r.ms as number), share: `${Math.round((r.share as number) * 100)}%` })));
    console.table(prof.families.map((r) => ({ family: r.name, ms: r2(r.ms as number), share: `${Math.round((r.share as number) * 100)}%`, dispatches: r.dispatches })));
  }
  const tuned = o.autotune as { family: string; candidates: { form: string; ms: number | null }[]; chosen: string }[] | { error: string } | undefined;
  if (Array.isArray(tuned)) console.table(tuned.map((f) => ({ family: f.family, chosen: f.chosen, ...Object.fromEntries(f.candidates.map((c) => [`${c.form} ms`, c.ms ?? 'not reached'])) })));
  const s = o.scaling as { rows: Json[]; exponents: Json } | null;
  if (s?.rows) {
    console.table(s.rows);
    p(`scaling exponents (time ∝ x^k): ${JSON.stringify(s.exponents)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    process.stderr.write(`bench failed: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}

/**
 * npm run record-tour [-- --out FILE]
 *
 * Re-records src/store/tour.recorded.json, the five lab states the class tour's unit tests read
 * (src/store/tour.test.ts, src/store/verdictWindow.test.ts, src/ui/stepThroughPhases.test.ts),
 * from the real lab: the dev server (scripts/browser.ts, on a free port) in headless Chromium at
 * 1280×800, a fresh profile for each state, the page driven as a user drives it. Every state runs
 * on the CPU reference (backend=cpu) with seed 1, on 2 background workers (the page is told the
 * machine has 2 cores: the reference's sums depend on its number of shards, so another count
 * changes the last bits of the figures); the script stops if the workers did not start.
 *
 *   start           /?backend=cpu&seed=1&task=add&numGenerations=4&promptsPerStep=4&evalEvery=5
 *                   as it opens: no lesson, 0 steps, the step-0 evaluation; every other setting the
 *                   lab's default (src/rl/settings.ts)
 *   step            the same page, "Step through one update" ticked, "Start: sample a rollout",
 *                   "Next phase" to the advantages, "Compare objectives on this batch", "Next phase"
 *                   to the update (applied): the step-through at its last phase, every phase computed
 *   mixed-groups    /?backend=cpu&seed=1, the Lessons bar's lesson 1 button (its first variant,
 *                   G = 2: the lesson's own settings over the defaults), then "Step" 8 times:
 *                   8 steps, evaluations at steps 0 and 5
 *   scratchpad      the same with lesson 6 (last digit of the sum, thinking pays), "Step" 10 times:
 *                   evaluations at 0 and 10
 *   reward-hacking  the same with lesson 4 (the weak verifier), "Step" 15 times: evaluations at 0 and 10
 *
 * Each state is the store's Pick<LabState, …> that the tour reads (TourInput, src/store/tour.ts),
 * written as one line of JSON with its keys sorted at every level. The trainer's wall-clock
 * timings (rollout_ms, verify_ms, update_ms) are written as 0: they differ from run to run and
 * nothing the tour says reads them. Every other figure is the run's own, and two recordings are
 * the same file byte for byte. About 30 s on a 2-core machine.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { settled } from '../e2e/fixtures.ts';
import { PHASES, type LabState } from '../src/store/labStore.ts';
import type { TourInput } from '../src/store/tour.ts';
import { NO_WORKER_SENTENCE } from '../src/lab/engine.ts';
import { withBrowser } from './browser.ts';

const USAGE = 'usage: npm run record-tour -- [--out FILE]';
const BASE = '/?backend=cpu&seed=1';
const STEP_THROUGH = `${BASE}&task=add&numGenerations=4&promptsPerStep=4&evalEvery=5`;
/** The lessons recorded after a few steps: the Lessons bar's button, then "Step" this many times. */
const LESSON_STEPS = { 'mixed-groups': 8, scratchpad: 10, 'reward-hacking': 15 } as const;
/** What the tour reads: TourInput's picked keys. */
const KEYS = ['settings', 'lessonId', 'lessonVariant', 'steps', 'evals', 'signals', 'stepMode', 'inspector'] as const satisfies readonly (keyof TourInput)[];
const TIMINGS = new Set(['rollout_ms', 'verify_ms', 'update_ms']);
/**
 * The CPU reference's workers: one per core the browser reports (src/lab/engine.ts cpuWorkerCount),
 * and a run is the same for a given number of shards only (src/model/reference/parallel.ts sums
 * their gradients in shard order). Every machine reports this many cores to the page.
 */
const CPU_WORKERS = 2;

const log = (m: string) => process.stderr.write(`record-tour: ${m}\n`);

/** The picked keys of the store's state, as plain data. */
async function pick(page: Page): Promise<TourInput> {
  return page.evaluate((keys) => {
    const s = (window as unknown as { __lab: { store: { getState(): Record<string, unknown> } } }).__lab.store.getState();
    return JSON.parse(JSON.stringify(Object.fromEntries(keys.map((k) => [k, s[k]]))));
  }, [...KEYS]);
}

/** Keys sorted at every level; the run's timings zeroed (they are the machine's, not the run's). */
function stable(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(stable);
  if (x === null || typeof x !== 'object') return x;
  return Object.fromEntries(Object.keys(x).sort().map((k) => [k, TIMINGS.has(k) ? 0 : stable((x as Record<string, unknown>)[k])]));
}

async function open(page: Page, origin: string, path: string): Promise<void> {
  page.on('pageerror', (e) => log(`[page error] ${e.message}`));
  await page.goto(origin + path);
  await settled(page, (s) => s.backendName !== '' && s.stepsCompleted === 0, undefined, 600_000);
  await onWorkers(page);
}

/** The run is on the CPU reference's workers, not on the page's thread (where the workers did not start: its sums differ in the last bits). */
async function onWorkers(page: Page): Promise<void> {
  const s = await page.evaluate(() => { const s = (window as unknown as { __lab: { store: { getState(): LabState } } }).__lab.store.getState(); return { name: s.backendName, notices: s.engineNotices }; });
  if (s.name !== 'cpu' || s.notices.includes(NO_WORKER_SENTENCE)) throw new Error(`not the CPU reference on ${CPU_WORKERS} workers: ${s.name}; ${s.notices.join(' ')}`);
}

/** "Next phase" until the step-through shows phase `phase` with it computed. */
async function nextPhaseTo(page: Page, phase: (typeof PHASES)[number]): Promise<void> {
  const want = PHASES.indexOf(phase);
  const next = page.getByRole('button', { name: /^(Start: sample a rollout|Next phase) →$/ });
  for (let n = 0; n < PHASES.length; n++) {
    const ins = await page.evaluate(() => (window as unknown as { __lab: { store: { getState(): LabState } } }).__lab.store.getState().inspector);
    if (ins && ins.phase === want) return;
    await next.click();
    await settled(page, (s, k) => s.inspector !== null && s.inspector.phase >= k, ins ? ins.phase + 1 : 0, 600_000);
  }
  throw new Error(`the step-through did not reach its ${phase} phase`);
}

async function recordStart(page: Page, origin: string): Promise<{ start: TourInput; step: TourInput }> {
  await open(page, origin, STEP_THROUGH);
  const start = await pick(page);
  await page.getByLabel('Step through one update').check();
  await settled(page, (s) => s.stepMode);
  await nextPhaseTo(page, 'advantages');
  await page.getByRole('button', { name: 'Compare objectives on this batch' }).click();
  await settled(page, (s) => !!s.inspector?.comparison, undefined, 600_000);
  await nextPhaseTo(page, 'update');
  await settled(page, (s, n) => s.inspector!.computed === n && s.stepsCompleted === 1, PHASES.length, 600_000);
  await onWorkers(page);
  return { start, step: await pick(page) };
}

async function recordLesson(page: Page, origin: string, lesson: keyof typeof LESSON_STEPS): Promise<TourInput> {
  await open(page, origin, BASE);
  await page.getByTestId(`lesson-${lesson}`).click();
  await settled(page, (s, id) => s.lessonId === id && s.stepsCompleted === 0, lesson, 600_000);
  await onWorkers(page);
  const step = page.getByRole('toolbar', { name: 'Transport' }).getByRole('button', { name: 'Step ▸' });
  for (let n = 1; n <= LESSON_STEPS[lesson]; n++) {
    await step.click();
    await settled(page, (s, k) => s.stepsCompleted === k, n, 600_000);
  }
  await onWorkers(page);
  return pick(page);
}

async function main() {
  const argv = process.argv.slice(2);
  let out = resolve(import.meta.dirname, '../src/store/tour.recorded.json');
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out' && argv[i + 1]) out = resolve(argv[++i]);
    else { process.stderr.write(`unknown flag ${argv[i]}\n${USAGE}\n`); process.exit(2); }
  }
  const t0 = Date.now();
  const states = await withBrowser(async (browser, origin) => {
    const fresh = async <T>(fn: (page: Page) => Promise<T>): Promise<T> => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addInitScript({ content: `Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${CPU_WORKERS} });` });
      try { return await fn(await context.newPage()); } finally { await context.close(); }
    };
    const { start, step } = await fresh((page) => recordStart(page, origin));
    log(`start, step (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    const lessons: Record<string, TourInput> = {};
    for (const id of Object.keys(LESSON_STEPS) as (keyof typeof LESSON_STEPS)[]) {
      lessons[id] = await fresh((page) => recordLesson(page, origin, id));
      log(`${id} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    return { start, step, ...lessons };
  });
  writeFileSync(out, `${JSON.stringify(stable(states))}\n`);
  log(`wrote ${out} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

main().catch((e) => {
  process.stderr.write(`record-tour failed: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});

/**
 * npm run train -- --task ID --steps N --seed S [--backend cpu|webgpu|dawn] [--from CKPT] [--out CKPT]
 *                  [--<setting> VALUE …]   (every setting of src/rl/settings.ts, by its key or TRL name)
 * npm run train -- --task-file spec.json [--cold-start [--cold-start-target P] [--cold-start-steps N]] …
 *                  a custom task (docs/custom-tasks.md); --cold-start (any task) fine-tunes a fresh policy
 *                  on the task's reference answers to held-out sampled pass@1 ≥ P (COLD_START_TARGET), then GRPO
 *
 * JSONL on stdout ("step", "eval", and a final "summary" line); progress on stderr.
 * cpu runs the reference in Node; webgpu runs the WebGPU engine in headless Chromium.
 * Unknown flags and bad values: one sentence, exit 2.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { defaultSettings, epsilonHighFollows, sequenceClipNotice, settingFromFlag, type Settings } from '../src/rl/settings.ts';
import { decodeCheckpoint, encodeCheckpoint, CheckpointError } from '../src/model/checkpoint.ts';
import { CONFIGS, type ModelConfig } from '../src/model/config.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { getLesson, LESSONS, lessonSettings, type Lesson } from '../src/rl/lessons.ts';
import { lessonRun } from '../src/rl/lessonContract.ts';
import { rewardModeNotice } from '../src/rl/processReward.ts';
import { COLD_START_MAX_STEPS, COLD_START_TARGET } from '../src/rl/coldStartSpec.ts';
import { registerTask } from '../src/tasks/registry.ts';
import { parseSpecText, type Spec } from '../src/tasks/spec/index.ts';
import { fitResponseLength } from '../src/rl/responseLength.ts';
import { taskFromSpec } from '../src/tasks/spec/task.ts';
import { HELDOUT_SIZE } from '../src/rl/evaluation.ts';

const USAGE = 'usage: npm run train -- --task ID --steps N --seed S [--backend cpu|webgpu|dawn] [--from CKPT] [--out CKPT] [--eval-size N] [--no-pass-at-k] [--<setting> VALUE ...]\n       npm run train -- --task-file spec.json [--cold-start [--cold-start-target P] [--cold-start-steps N]] [--steps N ...]\n       npm run train -- --lesson ID [--variant N] [--seed S] [--steps N] [--null] [--<setting> VALUE ...]\n       npm run train -- --list-lessons';

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}


export interface CliArgs { settings: Settings; steps: number; nullRun?: boolean; backend: 'cpu' | 'webgpu' | 'dawn'; from?: string; out?: string; evalSize: number; passAtK: boolean; lesson?: { lesson: Lesson; variant: number }; listLessons?: boolean; notices: string[]; taskFile?: { path: string; spec: Spec; responseTokens: number }; coldStart?: { target: number; maxSteps: number } }

/** --lesson ID [--variant N]: the lesson's settings (base task and difficulty, knobs, variant) under every other flag. */
function lessonOf(argv: string[]): { lesson: Lesson; variant: number } | undefined {
  const at = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
  const id = at('lesson');
  const variantText = at('variant');
  if (id === undefined) {
    if (variantText !== undefined) fail('--variant needs --lesson ID');
    return undefined;
  }
  const lesson = getLesson(id);
  if (!lesson) fail(`unknown lesson "${id.slice(0, 40)}": the lessons are ${LESSONS.map((l) => l.id).join(', ')}`);
  const variant = variantText === undefined ? 0 : Number(variantText);
  if (!Number.isInteger(variant) || variant < 0 || variant >= lesson.variants.length) fail(`lesson ${id} has variants 0 to ${lesson.variants.length - 1}, got --variant ${String(variantText).slice(0, 40)}`);
  return { lesson, variant };
}

/** --task-file PATH: the spec, through the one-way decoder (a refusal is one sentence, exit 2). */
function readTaskFile(path: string): { path: string; spec: Spec; responseTokens: number } {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    fail(`cannot read the task file ${path.slice(0, 80)}: no such readable file`);
  }
  const r = parseSpecText(text);
  if (!r.ok) fail(`task file ${path.slice(0, 80)} refused: ${r.error}`);
  return { path, spec: r.spec, responseTokens: r.stats.maxResponseTokens };
}

export function parseArgs(argv: string[]): CliArgs {
  const lesson = lessonOf(argv);
  const settings = (lesson ? lessonSettings(lesson.lesson, defaultSettings(), lesson.variant) : defaultSettings()) as unknown as Record<string, unknown>;
  const a: CliArgs = { settings: settings as unknown as Settings, steps: lesson ? lesson.lesson.variants[lesson.variant].claim.steps : 50, backend: 'cpu', evalSize: HELDOUT_SIZE, passAtK: true, lesson, notices: [] };
  const given = new Set<string>();
  let coldStartTarget: number | undefined;
  let coldStartSteps: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!flag.startsWith('--')) fail(`unexpected argument "${flag}": flags look like --name value`);
    const name = flag.slice(2);
    if (name === 'no-pass-at-k') { a.passAtK = false; continue; }
    if (name === 'list-lessons') { a.listLessons = true; continue; }
    if (name === 'null') { a.nullRun = true; continue; }
    if (name === 'cold-start') { a.coldStart = { target: a.coldStart?.target ?? COLD_START_TARGET, maxSteps: a.coldStart?.maxSteps ?? COLD_START_MAX_STEPS }; continue; }
    if (name === 'lesson' || name === 'variant') { i++; continue; } // read above
    const value = argv[++i];
    if (value === undefined) fail(`flag --${name} needs a value`);
    if (name === 'steps' || name === 'eval-size') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < (name === 'steps' ? 0 : 1) || n > 100000) fail(`--${name} must be a whole number${name === 'steps' ? ' ≥ 0' : ' ≥ 1'}, got "${value}"`);
      if (name === 'steps') a.steps = n; else a.evalSize = n;
    } else if (name === 'backend') {
      if (value !== 'cpu' && value !== 'webgpu' && value !== 'dawn') fail(`--backend must be cpu, webgpu (in headless Chromium) or dawn (in Node), got "${value}"`);
      a.backend = value;
    } else if (name === 'task-file') a.taskFile = readTaskFile(value);
    else if (name === 'cold-start-target' || name === 'cold-start-steps') {
      const n = Number(value);
      const okValue = name === 'cold-start-target' ? n > 0 && n <= 1 : Number.isInteger(n) && n >= 1 && n <= 100000;
      if (value.trim() === '' || !okValue) fail(`--${name} must be ${name === 'cold-start-target' ? 'a pass rate in (0, 1]' : 'a whole number of steps ≥ 1'}, got "${value.slice(0, 40)}"`);
      given.add(name);
      if (name === 'cold-start-target') coldStartTarget = n; else coldStartSteps = n;
    } else if (name === 'from') a.from = value;
    else if (name === 'out') a.out = value;
    else {
      const r = settingFromFlag(name, value);
      if (!r.ok) fail(r.error);
      settings[r.key] = r.value;
      given.add(r.key);
    }
  }
  if ((given.has('cold-start-target') || given.has('cold-start-steps')) && !a.coldStart) fail('--cold-start-target and --cold-start-steps need --cold-start');
  if (a.coldStart) {
    if (a.from) fail('--cold-start fine-tunes a fresh policy, so it cannot start --from a checkpoint');
    a.coldStart = { target: coldStartTarget ?? a.coldStart.target, maxSteps: coldStartSteps ?? a.coldStart.maxSteps };
  }
  if (a.taskFile) {
    if (given.has('task') || lesson) fail('--task-file names the task: drop --task and --lesson');
    const task = registerTask(taskFromSpec(a.taskFile.spec));
    settings.task = task.id;
    // the longest reference response (its thinking form when it has one) and its EOS fit the sampling length (the page's rule too)
    if (!given.has('maxCompletionLength')) settings.maxCompletionLength = fitResponseLength(Number(settings.maxCompletionLength), a.taskFile.responseTokens);
  }
  const eps = epsilonHighFollows(settings as { epsilon: unknown; epsilonHigh: unknown }, (k) => given.has(k));
  if (eps) a.notices.push(eps);
  const seq = sequenceClipNotice(settings as { importanceSamplingLevel: unknown; epsilon: unknown; epsilonHigh: unknown }, (k) => given.has(k));
  if (seq) a.notices.push(seq);
  // --null: the same run with η = 0 — the same rollouts, no update (a lesson's verdict must then fail)
  if (a.nullRun) {
    settings.learningRate = 0;
    a.notices.push('null run: learning rate η = 0, the rollouts are sampled and graded but the weights never change');
  }
  // process reward on a task without checkable steps: said, and run with outcome reward (as the lab does)
  const processNotice = rewardModeNotice(a.settings);
  if (processNotice) {
    a.notices.push(processNotice);
    settings.rewardMode = 'outcome';
  }
  return a;
}

function loadStart(a: CliArgs): { config: ModelConfig; weights: Float32Array | null; metadata: Record<string, unknown>; source: string } {
  const path = a.from ?? (a.coldStart ? undefined : baseCheckpointPath(a.settings.task, a.settings.difficulty, a.settings.watchTask));
  if (path && existsSync(path)) {
    try {
      const c = decodeCheckpoint(new Uint8Array(readFileSync(path)));
      return { config: c.config, weights: c.weights, metadata: c.metadata, source: path };
    } catch (e) {
      if (e instanceof CheckpointError) fail(`cannot load ${path}: ${e.message}`);
      throw e;
    }
  }
  if (a.from) fail(`checkpoint ${a.from} does not exist`);
  const why = a.coldStart ? 'then the cold start' : a.taskFile ? 'a custom task has no base: add --cold-start' : 'no base checkpoint for this task; run npm run pretrain';
  return { config: { vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, weights: null, metadata: {}, source: `fresh init (${why})` };
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (a.backend === 'dawn') (await import('./dawn.ts')).withDawnEnv(); // restarts once where Vulkan needs LD_LIBRARY_PATH
  if (a.listLessons) {
    for (const l of LESSONS) process.stdout.write(`${JSON.stringify({ id: l.id, title: l.title, variants: l.variants.map((v) => v.label), steps: Math.max(...l.variants.map((v) => v.claim.steps)) })}\n`);
    return;
  }
  const lesson = a.lesson && lessonRun(a.lesson.lesson.id, a.lesson.variant);
  const start = loadStart(a);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  for (const n of a.notices) log(`notice: ${n}`);
  log(`train: task ${a.settings.task}, ${a.steps} steps, seed ${a.settings.seed}, backend ${a.backend}, from ${start.source}`);
  // a custom task's run says which file it came from, and how its cold start went, in its summary line
  const extra: Record<string, unknown> = a.taskFile ? { task_file: a.taskFile.path } : {};
  const emit = (r: Record<string, unknown>) => {
    if (r.type === 'cold_start') extra.cold_start = { steps: r.steps, pass_at_1: r.pass_at_1, target: r.target, reached: r.reached };
    process.stdout.write(`${JSON.stringify(r.type === 'summary' ? { ...r, ...extra } : r)}\n`);
  };
  let finalWeights: Float32Array;
  if (a.backend === 'cpu' || a.backend === 'dawn') {
    const { createBackend } = await import('../src/model/engines.ts');
    const { runTraining } = await import('../src/rl/run.ts');
    if (a.backend === 'dawn') log(`dawn: ${await (await import('./dawn.ts')).installDawn()}`); // the WGSL engine in Node
    const be = await createBackend(a.backend === 'cpu' ? 'cpu' : 'webgpu', start.config, { seed: a.settings.seed, weights: start.weights });
    if (a.coldStart) {
      const { coldStartForRun } = await import('../src/rl/coldStartSpec.ts');
      const { getTask } = await import('../src/tasks/registry.ts');
      const r = await coldStartForRun(getTask(a.settings.task), be, a.settings, { ...a.coldStart, evalSize: a.evalSize, emit, progress: log });
      if (!r.reached) {
        be.dispose();
        process.exit(1);
      }
    }
    await runTraining(be, a.settings, { steps: a.steps, emit, progress: log, evalSize: a.evalSize, evalPassAtK: a.passAtK, lesson });
    finalWeights = await be.getWeights();
    be.dispose();
  } else {
    const { withBrowserPage } = await import('./browser.ts');
    finalWeights = await withBrowserPage(async (page) => {
      await page.exposeFunction('__emit', (line: string) => emit(JSON.parse(line)));
      await page.exposeFunction('__log', (line: string) => log(line));
      // The page function stays a one-liner: the run itself is a module (src/rl/cliRun.ts) the page imports.
      const weights = await page.evaluate(
        (args) => import('/src/rl/cliRun.ts' as string).then((m: typeof import('../src/rl/cliRun.ts')) => m.runWebGPUTraining(args)),
        { settings: a.settings, steps: a.steps, config: start.config, weights: start.weights ? Array.from(start.weights) : null, evalSize: a.evalSize, passAtK: a.passAtK, lesson: lesson && { id: lesson.id, variant: lesson.variant }, taskSpec: a.taskFile?.spec, coldStart: a.coldStart },
      );
      return new Float32Array(weights as number[]);
    });
  }
  if (a.out) {
    writeFileSync(a.out, encodeCheckpoint({ config: start.config, weights: finalWeights, metadata: { ...start.metadata, trainedBy: 'grpo', steps: a.steps, settings: a.settings, ...(a.taskFile ? { taskSpec: a.taskFile.spec, coldStart: extra.cold_start ?? null } : {}) } }));
    log(`wrote ${a.out}`);
  }
}

main().catch((e) => {
  process.stderr.write(`train failed: ${(e as Error).message}\n`);
  process.exit(1);
});

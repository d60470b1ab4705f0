/**
 * npm run train -- --task ID --steps N --seed S [--backend cpu|webgpu|dawn] [--from CKPT] [--out CKPT]
 *                  [--<setting> VALUE …]   (every setting of src/rl/settings.ts, by its key or TRL name)
 *
 * JSONL on stdout ("step", "eval", and a final "summary" line); progress on stderr.
 * cpu runs the reference in Node; webgpu runs the WebGPU engine in headless Chromium.
 * Unknown flags and bad values: one sentence, exit 2.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { SETTINGS, SETTINGS_BY_KEY, defaultSettings, parseSetting, type Settings } from '../src/rl/settings.ts';
import { decodeCheckpoint, encodeCheckpoint, CheckpointError } from '../src/model/checkpoint.ts';
import { CONFIGS, type ModelConfig } from '../src/model/config.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { getLesson, LESSONS, lessonSettings, type Lesson } from '../src/rl/lessons.ts';
import { rewardModeNotice } from '../src/rl/processReward.ts';

const USAGE = 'usage: npm run train -- --task ID --steps N --seed S [--backend cpu|webgpu|dawn] [--from CKPT] [--out CKPT] [--eval-size N] [--no-pass-at-k] [--<setting> VALUE ...]\n       npm run train -- --lesson ID [--variant N] [--seed S] [--steps N] [--null] [--<setting> VALUE ...]\n       npm run train -- --list-lessons';

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

const TRL_TO_KEY: Record<string, string> = {};
for (const s of SETTINGS) if ('trl' in s && s.trl && /^[a-z_]+$/.test(s.trl)) TRL_TO_KEY[s.trl] = s.key;

export interface CliArgs { settings: Settings; steps: number; nullRun?: boolean; backend: 'cpu' | 'webgpu' | 'dawn'; from?: string; out?: string; evalSize: number; passAtK: boolean; lesson?: { lesson: Lesson; variant: number }; listLessons?: boolean; notices: string[] }

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

export function parseArgs(argv: string[]): CliArgs {
  const lesson = lessonOf(argv);
  const settings = (lesson ? lessonSettings(lesson.lesson, defaultSettings(), lesson.variant) : defaultSettings()) as unknown as Record<string, unknown>;
  const a: CliArgs = { settings: settings as unknown as Settings, steps: lesson ? lesson.lesson.variants[lesson.variant].claim.steps : 50, backend: 'cpu', evalSize: 32, passAtK: true, lesson, notices: [] };
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!flag.startsWith('--')) fail(`unexpected argument "${flag}": flags look like --name value`);
    const name = flag.slice(2);
    if (name === 'no-pass-at-k') { a.passAtK = false; continue; }
    if (name === 'list-lessons') { a.listLessons = true; continue; }
    if (name === 'null') { a.nullRun = true; continue; }
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
    } else if (name === 'from') a.from = value;
    else if (name === 'out') a.out = value;
    else {
      const key = SETTINGS_BY_KEY[name] ? name : TRL_TO_KEY[name];
      if (!key) fail(`unknown flag --${name}`);
      const r = parseSetting(SETTINGS_BY_KEY[key], value);
      if (!r.ok) fail(r.error);
      settings[key] = r.value;
      given.add(key);
    }
  }
  // TRL: epsilon_high defaults to epsilon when unset, so `--epsilon 0.3` alone clips to [0.7, 1.3]
  if (given.has('epsilon') && !given.has('epsilonHigh')) {
    settings.epsilonHigh = settings.epsilon;
    a.notices.push(`--epsilon ${String(settings.epsilon)} without --epsilon_high: ε_high = ε = ${String(settings.epsilon)}, as TRL sets it (clip range [${(1 - Number(settings.epsilon)).toFixed(2)}, ${(1 + Number(settings.epsilon)).toFixed(2)}])`);
  }
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
  const path = a.from ?? baseCheckpointPath(a.settings.task, a.settings.difficulty);
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
  return { config: { vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, weights: null, metadata: {}, source: 'fresh init (no base checkpoint for this task; run npm run pretrain)' };
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (a.backend === 'dawn') (await import('./dawn.ts')).withDawnEnv(); // restarts once where Vulkan needs LD_LIBRARY_PATH
  if (a.listLessons) {
    for (const l of LESSONS) process.stdout.write(`${JSON.stringify({ id: l.id, title: l.title, variants: l.variants.map((v) => v.label), steps: Math.max(...l.variants.map((v) => v.claim.steps)) })}\n`);
    return;
  }
  const lesson = a.lesson && { id: a.lesson.lesson.id, variant: a.lesson.variant, claim: a.lesson.lesson.variants[a.lesson.variant].claim };
  const start = loadStart(a);
  const log = (m: string) => process.stderr.write(`${m}\n`);
  for (const n of a.notices) log(`notice: ${n}`);
  log(`train: task ${a.settings.task}, ${a.steps} steps, seed ${a.settings.seed}, backend ${a.backend}, from ${start.source}`);
  const emit = (r: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(r)}\n`);
  let finalWeights: Float32Array;
  if (a.backend === 'cpu' || a.backend === 'dawn') {
    const { createBackend } = await import('../src/model/engines.ts');
    const { runTraining } = await import('../src/rl/run.ts');
    if (a.backend === 'dawn') log(`dawn: ${await (await import('./dawn.ts')).installDawn()}`); // the WGSL engine in Node
    const be = await createBackend(a.backend === 'cpu' ? 'cpu' : 'webgpu', start.config, { seed: a.settings.seed, weights: start.weights });
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
        { settings: a.settings, steps: a.steps, config: start.config, weights: start.weights ? Array.from(start.weights) : null, evalSize: a.evalSize, passAtK: a.passAtK, lesson: lesson && { id: lesson.id, variant: lesson.variant } },
      );
      return new Float32Array(weights as number[]);
    });
  }
  if (a.out) {
    writeFileSync(a.out, encodeCheckpoint({ config: start.config, weights: finalWeights, metadata: { ...start.metadata, trainedBy: 'grpo', steps: a.steps, settings: a.settings } }));
    log(`wrote ${a.out}`);
  }
}

main().catch((e) => {
  process.stderr.write(`train failed: ${(e as Error).message}\n`);
  process.exit(1);
});

/**
 * npm run export -- --out DIR [--from CKPT] [--task ID | --task-file spec.json] [--steps N]
 *                   [--train-size N] [--heldout-size N] [--parity N] [--<setting> VALUE …]
 *
 * Writes the run as a TRL project (src/export/trlProject.ts) into DIR: the policy as a Hugging
 * Face GPT-2 folder, the tokenizer, the prompts, reward.py, train_grpo.py and its launch configs.
 * Settings flags are those of `npm run train` (every key of src/rl/settings.ts, or its TRL name;
 * --epsilon alone also sets ε_high, as TRL does). Weights: --from CKPT (a run saved by
 * `npm run train -- --out CKPT` brings its own settings and task spec; flags override them), else
 * the task's shipped base checkpoint at this difficulty, else a fresh initialisation (said on stderr).
 * Unknown flags and bad values: one sentence, exit 2.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CheckpointError, decodeCheckpoint } from '../src/model/checkpoint.ts';
import { CONFIGS, paramLayout, type ModelConfig } from '../src/model/config.ts';
import { initWeights } from '../src/model/init.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { rewardModeNotice } from '../src/rl/processReward.ts';
import { epsilonHighFollows, sequenceClipNotice, settingFromFlag, settingsFromRecord, type Settings } from '../src/rl/settings.ts';
import { parseSpecText, type Spec } from '../src/tasks/spec/index.ts';
import { registerSpec } from '../src/tasks/spec/task.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { exportTrlProject } from '../src/export/trlProject.ts';

const USAGE = 'usage: npm run export -- --out DIR [--from CKPT] [--task ID | --task-file spec.json] [--steps N] [--train-size N] [--heldout-size N] [--parity N] [--<setting> VALUE ...]';

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}


export interface ExportArgs {
  out: string; from?: string; taskFile?: { path: string; spec: Spec }; steps: number; trainSize: number; heldoutSize: number; parity: number; notices: string[];
  /** Settings given as flags (key → value), applied over the defaults or over a checkpoint's own settings. */
  overrides: Record<string, string | number | boolean>;
}

const COUNTS: Record<string, { key: 'steps' | 'trainSize' | 'heldoutSize' | 'parity'; min: number }> = {
  steps: { key: 'steps', min: 1 }, 'train-size': { key: 'trainSize', min: 1 }, 'heldout-size': { key: 'heldoutSize', min: 1 }, parity: { key: 'parity', min: 0 },
};

export function parseExportArgs(argv: string[]): ExportArgs {
  const a: Partial<ExportArgs> & { notices: string[]; overrides: ExportArgs['overrides'] } = { steps: 200, trainSize: 2000, heldoutSize: 200, parity: 16, notices: [], overrides: {} };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!flag.startsWith('--')) fail(`unexpected argument "${flag.slice(0, 40)}": flags look like --name value`);
    const name = flag.slice(2);
    const value = argv[++i];
    if (value === undefined) fail(`flag --${name} needs a value`);
    if (name === 'out') a.out = value;
    else if (name === 'from') a.from = value;
    else if (name === 'task-file') {
      let text = '';
      try { text = readFileSync(value, 'utf8'); } catch { fail(`cannot read the task file ${value.slice(0, 80)}: no such readable file`); }
      const r = parseSpecText(text);
      if (!r.ok) fail(`task file ${value.slice(0, 80)} refused: ${r.error}`);
      a.taskFile = { path: value, spec: r.spec };
    } else if (COUNTS[name]) {
      const n = Number(value);
      if (value.trim() === '' || !Number.isInteger(n) || n < COUNTS[name].min || n > 1_000_000) fail(`--${name} must be a whole number ≥ ${COUNTS[name].min}, got "${value.slice(0, 40)}"`);
      a[COUNTS[name].key] = n;
    } else {
      const r = settingFromFlag(name, value);
      if (!r.ok) fail(r.error);
      a.overrides[r.key] = r.value;
    }
  }
  if (!a.out) fail('--out DIR is required');
  if (a.taskFile && 'task' in a.overrides) fail('--task-file names the task: drop --task');
  return a as ExportArgs;
}

/**
 * The run's settings: a checkpoint's own (a run saved by npm run train, read through the settings
 * table's validation) or the defaults, then the flags; a task spec registers its task. TRL's rule
 * that epsilon alone sets epsilon_high holds, and process reward needs a task with steps.
 */
export function exportSettings(a: ExportArgs, saved: unknown, spec: Spec | undefined, notices: string[]): Settings {
  const record = typeof saved === 'object' && saved !== null ? Object.entries(saved as Record<string, unknown>).map(([k, v]) => [k, String(v)] as [string, string]) : [];
  const settings = { ...settingsFromRecord(record).settings, ...a.overrides } as unknown as Record<string, unknown>;
  if (spec) settings.task = registerSpec(spec).id;
  const eps = epsilonHighFollows(settings as { epsilon: unknown; epsilonHigh: unknown }, (k) => k in a.overrides);
  if (eps) notices.push(eps);
  const seq = sequenceClipNotice(settings as { importanceSamplingLevel: unknown; epsilon: unknown; epsilonHigh: unknown }, (k) => k in a.overrides);
  if (seq) notices.push(seq);
  const processNotice = rewardModeNotice(settings as unknown as Settings);
  if (processNotice) {
    notices.push(processNotice);
    settings.rewardMode = 'outcome';
  }
  return settings as unknown as Settings;
}

function readCheckpoint(path: string): { config: ModelConfig; weights: Float32Array; metadata: Record<string, unknown> } {
  try {
    return decodeCheckpoint(new Uint8Array(readFileSync(path)));
  } catch (e) {
    if (e instanceof CheckpointError) fail(`cannot load ${path}: ${e.message}`);
    throw e;
  }
}

/** Weights and settings: --from CKPT (with the run's own settings and task spec when it saved them), else the task's shipped base, else a fresh init. */
function loadRun(a: ExportArgs, notices: string[]): { settings: Settings; spec?: Spec; config: ModelConfig; weights: Float32Array; source: string } {
  if (a.from) {
    if (!existsSync(a.from)) fail(`checkpoint ${a.from.slice(0, 80)} does not exist`);
    const c = readCheckpoint(a.from);
    let spec = a.taskFile?.spec;
    if (!spec && c.metadata.taskSpec !== undefined && !('task' in a.overrides)) {
      const r = parseSpecText(JSON.stringify(c.metadata.taskSpec));
      if (!r.ok) fail(`checkpoint ${a.from.slice(0, 80)}: its task spec is refused: ${r.error}`);
      spec = r.spec;
    }
    return { settings: exportSettings(a, c.metadata.settings, spec, notices), spec, config: c.config, weights: c.weights, source: a.from };
  }
  const settings = exportSettings(a, undefined, a.taskFile?.spec, notices);
  const path = a.taskFile ? undefined : baseCheckpointPath(settings.task, settings.difficulty);
  if (path && existsSync(path)) {
    const c = readCheckpoint(path);
    return { settings, spec: a.taskFile?.spec, config: c.config, weights: c.weights, source: path };
  }
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  return { settings, spec: a.taskFile?.spec, config, weights: initWeights(paramLayout(config), settings.seed), source: `a fresh initialisation (seed ${settings.seed}; no base checkpoint for this task and difficulty)` };
}

function main() {
  const a = parseExportArgs(process.argv.slice(2));
  const w = loadRun(a, a.notices);
  for (const n of a.notices) process.stderr.write(`notice: ${n}\n`);
  const files = exportTrlProject({ settings: w.settings, config: w.config, weights: w.weights, source: w.source, steps: a.steps, trainSize: a.trainSize, heldoutSize: a.heldoutSize, paritySequences: a.parity, taskSpec: w.spec });
  for (const f of files) {
    const p = join(a.out, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.bytes ?? f.text ?? '');
  }
  process.stderr.write(`export: task ${w.settings.task}, weights from ${w.source}\n`);
  process.stdout.write(`${JSON.stringify({ out: a.out, task: w.settings.task, source: w.source, files: files.map((f) => f.path) })}\n`);
}

if (process.argv[1] && /export\.ts$/.test(process.argv[1])) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`export failed: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

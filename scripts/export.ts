/**
 * npm run export -- --out DIR [--from CKPT] [--task ID | --task-file spec.json] [--steps N]
 *                   [--train-size N] [--heldout-size N] [--parity N] [--<setting> VALUE …]
 *
 * Writes the run as a TRL project (src/export/trlProject.ts) into DIR: the policy as a Hugging
 * Face GPT-2 folder, the tokenizer, the prompts, reward.py, train_grpo.py and its launch configs.
 * Settings flags are those of `npm run train` (every key of src/rl/settings.ts, or its TRL name;
 * --epsilon alone also sets ε_high, as TRL does). Weights: --from CKPT, else the task's shipped
 * base checkpoint at this difficulty, else a fresh initialisation (said on stderr).
 * Unknown flags and bad values: one sentence, exit 2.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CheckpointError, decodeCheckpoint } from '../src/model/checkpoint.ts';
import { CONFIGS, paramLayout, type ModelConfig } from '../src/model/config.ts';
import { initWeights } from '../src/model/init.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { rewardModeNotice } from '../src/rl/processReward.ts';
import { SETTINGS, SETTINGS_BY_KEY, defaultSettings, parseSetting, type Settings } from '../src/rl/settings.ts';
import { parseSpecText, type Spec } from '../src/tasks/spec/index.ts';
import { registerSpec } from '../src/tasks/spec/task.ts';
import { VOCAB_SIZE } from '../src/tasks/tokenizer.ts';
import { exportTrlProject } from '../src/export/trlProject.ts';

const USAGE = 'usage: npm run export -- --out DIR [--from CKPT] [--task ID | --task-file spec.json] [--steps N] [--train-size N] [--heldout-size N] [--parity N] [--<setting> VALUE ...]';

function fail(msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`);
  process.exit(2);
}

const TRL_TO_KEY: Record<string, string> = {};
for (const s of SETTINGS) if ('trl' in s && s.trl && /^[a-z_]+$/.test(s.trl)) TRL_TO_KEY[s.trl] = s.key;

export interface ExportArgs { out: string; from?: string; taskFile?: { path: string; spec: Spec }; settings: Settings; steps: number; trainSize: number; heldoutSize: number; parity: number; notices: string[] }

const COUNTS: Record<string, { key: 'steps' | 'trainSize' | 'heldoutSize' | 'parity'; min: number }> = {
  steps: { key: 'steps', min: 1 }, 'train-size': { key: 'trainSize', min: 1 }, 'heldout-size': { key: 'heldoutSize', min: 1 }, parity: { key: 'parity', min: 0 },
};

export function parseExportArgs(argv: string[]): ExportArgs {
  const settings = defaultSettings() as unknown as Record<string, unknown>;
  const a: Partial<ExportArgs> & { notices: string[] } = { steps: 200, trainSize: 2000, heldoutSize: 200, parity: 16, notices: [] };
  const given = new Set<string>();
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
      const key = SETTINGS_BY_KEY[name] ? name : TRL_TO_KEY[name];
      if (!key) fail(`unknown flag --${name.slice(0, 40)}`);
      const r = parseSetting(SETTINGS_BY_KEY[key], value);
      if (!r.ok) fail(r.error);
      settings[key] = r.value;
      given.add(key);
    }
  }
  if (!a.out) fail('--out DIR is required');
  if (a.taskFile) {
    if (given.has('task')) fail('--task-file names the task: drop --task');
    settings.task = registerSpec(a.taskFile.spec).id;
  }
  // TRL: epsilon_high defaults to epsilon when unset (as npm run train does)
  if (given.has('epsilon') && !given.has('epsilonHigh')) {
    settings.epsilonHigh = settings.epsilon;
    a.notices.push(`--epsilon ${String(settings.epsilon)} without --epsilon_high: ε_high = ε, as TRL sets it`);
  }
  const processNotice = rewardModeNotice(settings as unknown as Settings);
  if (processNotice) {
    a.notices.push(processNotice);
    settings.rewardMode = 'outcome';
  }
  return { ...a, settings: settings as unknown as Settings } as ExportArgs;
}

function loadWeights(a: ExportArgs): { config: ModelConfig; weights: Float32Array; source: string } {
  const path = a.from ?? (a.taskFile ? undefined : baseCheckpointPath(a.settings.task, a.settings.difficulty));
  if (a.from && !existsSync(a.from)) fail(`checkpoint ${a.from.slice(0, 80)} does not exist`);
  if (path && existsSync(path)) {
    try {
      const c = decodeCheckpoint(new Uint8Array(readFileSync(path)));
      return { config: c.config, weights: c.weights, source: path };
    } catch (e) {
      if (e instanceof CheckpointError) fail(`cannot load ${path}: ${e.message}`);
      throw e;
    }
  }
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  return { config, weights: initWeights(paramLayout(config), a.settings.seed), source: `a fresh initialisation (seed ${a.settings.seed}; no base checkpoint for this task and difficulty)` };
}

function main() {
  const a = parseExportArgs(process.argv.slice(2));
  for (const n of a.notices) process.stderr.write(`notice: ${n}\n`);
  const w = loadWeights(a);
  const files = exportTrlProject({ settings: a.settings, config: w.config, weights: w.weights, source: w.source, steps: a.steps, trainSize: a.trainSize, heldoutSize: a.heldoutSize, paritySequences: a.parity, taskSpec: a.taskFile?.spec });
  for (const f of files) {
    const p = join(a.out, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.bytes ?? f.text ?? '');
  }
  process.stderr.write(`export: task ${a.settings.task}, weights from ${w.source}\n`);
  process.stdout.write(`${JSON.stringify({ out: a.out, task: a.settings.task, source: w.source, files: files.map((f) => f.path) })}\n`);
}

if (process.argv[1] && /export\.ts$/.test(process.argv[1])) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`export failed: ${(e as Error).message}\n`);
    process.exit(1);
  }
}

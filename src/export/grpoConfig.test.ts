/**
 * Every keyword the export (train_grpo.py) and the runs panel's snippet pass to GRPOConfig is a
 * field of TRL's GRPOConfig or transformers' TrainingArguments (trlFields.ts, with the versions it
 * was read from). train_grpo.py then runs end to end under python3 against stand-ins for torch,
 * datasets, transformers and TRL (not installable here) whose GRPOConfig is a dataclass with exactly
 * those fields: the settings arrive, the prompts get <bos> (or a chat template), and the reward
 * function pays the reference answers, as TRL would call it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { SETTINGS, defaultSettings, type Settings } from '../rl/settings.ts';
import { grpoConfigSnippet } from '../store/exports.ts';
import { grpoConfigMapping } from './grpoConfig.ts';
import { GRPO_CONFIG_FIELDS, TRAINING_ARGUMENTS_FIELDS, isGrpoConfigField } from './trlFields.ts';
import { exportTrlProject } from './trlProject.ts';

const tmp = mkdtempSync(join(tmpdir(), 'trl-train-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const VARIANTS: Partial<Settings>[] = [
  {},
  { advantage: 'dr_grpo', lossType: 'dr_grpo', scaleRewards: 'group' },
  { importanceSamplingLevel: 'sequence', lossType: 'dapo', entropyCoef: 0.01, beta: 0.04 },
  { algorithm: 'rloo', klMode: 'reward', beta: 0.1, maxGradNorm: 0 },
  { task: 'chain', rewardMode: 'process', overlongPenalty: true, maskTruncated: true, dynamicSampling: true, trainPool: 64 },
];

/** The keywords of the CONFIG = dict(...) block, config.update(...) and config["…"] = in train_grpo.py. */
function trainScriptKeywords(py: string): string[] {
  const block = py.match(/^CONFIG = dict\(\n([\s\S]*?)^\)$/m)![1];
  const update = py.match(/config\.update\(\n([\s\S]*?)\n {4}\)/)![1];
  const keys = [...block.matchAll(/^ {4}([a-z_0-9]+)=/gm), ...update.matchAll(/^ {8}([a-z_0-9]+)=/gm), ...py.matchAll(/config\["([a-z_0-9]+)"\] =/g)].map((m) => m[1]);
  return [...new Set(keys)];
}

describe('GRPOConfig keywords', () => {
  it('every keyword of train_grpo.py and of the snippet is a GRPOConfig or TrainingArguments field', () => {
    expect(GRPO_CONFIG_FIELDS.length).toBe(79);
    expect(TRAINING_ARGUMENTS_FIELDS.length).toBe(109);
    const base = decodeCheckpoint(new Uint8Array(readFileSync('public/checkpoints/add-d2.ckpt')));
    const seen = new Set<string>();
    for (const v of VARIANTS) {
      const s = { ...defaultSettings(), task: 'add', ...v } as Settings;
      const py = exportTrlProject({ settings: s, config: base.config, weights: base.weights, trainSize: 8, heldoutSize: 8, paritySequences: 0 }).find((f) => f.path === 'train_grpo.py')!.text!;
      const keys = trainScriptKeywords(py);
      expect(keys.length).toBeGreaterThan(35);
      expect(keys.filter((k) => !isGrpoConfigField(k))).toEqual([]);
      const snippet = grpoConfigSnippet(s).match(/^config = GRPOConfig\(\n([\s\S]*?)^\)$/m)![1];
      const snippetKeys = [...snippet.matchAll(/^ {4}([a-z_0-9]+)=/gm)].map((m) => m[1]);
      expect(snippetKeys.filter((k) => !isGrpoConfigField(k))).toEqual([]);
      for (const k of [...keys, ...snippetKeys]) seen.add(k);
    }
    for (const k of ['num_generations', 'scale_rewards', 'warmup_steps', 'entropy_coef', 'epsilon_high', 'max_steps', 'eval_steps', 'log_completions']) expect(seen.has(k), k).toBe(true);
    console.log(`${seen.size} distinct GRPOConfig keywords over ${VARIANTS.length} settings variants, all fields of TRL's GRPOConfig (${GRPO_CONFIG_FIELDS.length}) or TrainingArguments (${TRAINING_ARGUMENTS_FIELDS.length})`);
  });

  it('can fail: a keyword TRL does not have is caught', () => {
    const py = `CONFIG = dict(\n    num_generations=8,\n    max_prompt_length=64,\n)\n    config.update(\n        output_dir="x",\n    )\n`;
    expect(trainScriptKeywords(py).filter((k) => !isGrpoConfigField(k))).toEqual(['max_prompt_length']);
  });

  it('every lab setting is mapped or listed with where it went', () => {
    const m = grpoConfigMapping(defaultSettings());
    expect(m.mapped.length + m.unmapped.length).toBe(SETTINGS.length);
    for (const spec of SETTINGS) expect(m.mapped.includes(spec.key) || m.unmapped.some((u) => u.startsWith(`${spec.label}: `)), spec.key).toBe(true);
    expect(m.unmapped.join('\n')).toContain('Training pool: 0 — the dataset');
    expect(m.args.find((a) => a.key === 'scale_rewards')!.value).toBe('"group"');
    expect(grpoConfigMapping({ ...defaultSettings(), advantage: 'dr_grpo' }).args.find((a) => a.key === 'scale_rewards')!.value).toBe('"none"');
  });
});

/** Stand-ins for the Python packages train_grpo.py imports; GRPOConfig is a dataclass of exactly the listed fields. */
function stubs(dir: string): void {
  const fields = [...new Set([...GRPO_CONFIG_FIELDS, ...TRAINING_ARGUMENTS_FIELDS])];
  const files: Record<string, string> = {
    'torch/__init__.py': 'float32 = "float32"\nclass cuda:\n    @staticmethod\n    def is_available():\n        return False\n',
    'datasets/__init__.py': `import json
class Rows(list):
    def map(self, fn, remove_columns=()):
        return Rows([{**{k: v for k, v in r.items() if k not in remove_columns}, **fn(r)} for r in self])
class Splits(dict):
    def map(self, fn, remove_columns=()):
        return Splits({k: v.map(fn, remove_columns) for k, v in self.items()})
def load_dataset(kind, data_files):
    return Splits({k: Rows(json.loads(l) for l in open(p) if l.strip()) for k, p in data_files.items()})
`,
    'transformers/__init__.py': `import json, os
class AutoTokenizer:
    @staticmethod
    def from_pretrained(path, **kw):
        t = AutoTokenizer()
        cfg = os.path.join(str(path), "tokenizer_config.json")
        t.bos_token = json.load(open(cfg))["bos_token"] if os.path.exists(cfg) else "<|bos|>"
        t.chat_template = None if os.path.exists(cfg) else "{{ messages }}"
        return t
class GPT2LMHeadModel:
    def forward(self, input_ids=None, attention_mask=None, position_ids=None, past_key_values=None):
        return position_ids
    @classmethod
    def from_pretrained(cls, path, **kw):
        return cls()
`,
    // an older TRL on demand: TRL_STUB_WITHOUT="a,b" drops fields, TRL_STUB_BOOL_SCALE=1 makes scale_rewards a bool (default True)
    'trl/__init__.py': `import dataclasses, json, os, sys
__version__ = os.environ.get("TRL_STUB_VERSION", "1.10.0.dev0")
_without = set(filter(None, os.environ.get("TRL_STUB_WITHOUT", "").split(",")))
_bool_scale = os.environ.get("TRL_STUB_BOOL_SCALE") == "1"
GRPOConfig = dataclasses.make_dataclass("GRPOConfig", [(f, object, dataclasses.field(default=True if (f == "scale_rewards" and _bool_scale) else None)) for f in ${JSON.stringify(fields)} if f not in _without])
class GRPOTrainer:
    def __init__(self, model, reward_funcs, args, train_dataset, eval_dataset, processing_class):
        self.a = dict(model=model, reward_funcs=reward_funcs, args=args, train=train_dataset, eval=eval_dataset)
    def train(self):
        rows = self.a["train"][:16]
        chat = not isinstance(rows[0]["prompt"], str)
        completions = [[{"role": "assistant", "content": r["answer"]}] if chat else r["answer"] for r in rows]
        rewards = self.a["reward_funcs"](prompts=[r["prompt"] for r in rows], completions=completions, completion_ids=[[5] * len(r["answer"]) for r in rows],
                                         answer=[r["answer"] for r in rows], task_prompt=[r["task_prompt"] for r in rows])
        args = {k: v for k, v in dataclasses.asdict(self.a["args"]).items() if v is not None}
        print("RESULT " + json.dumps({"args": args, "rewards": rewards, "prompt": rows[0]["prompt"], "model_is_path": isinstance(self.a["model"], str)}))
    def save_model(self, d):
        pass
    def save_state(self):
        pass
`,
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

describe('train_grpo.py under python3 with stand-in packages', () => {
  const base = decodeCheckpoint(new Uint8Array(readFileSync('public/checkpoints/add-d2.ckpt')));
  const s: Settings = { ...defaultSettings(), task: 'add', numIterations: 2, warmupSteps: 5 };
  const dir = join(tmp, 'project');
  for (const f of exportTrlProject({ settings: s, config: base.config, weights: base.weights, trainSize: 40, heldoutSize: 10, paritySequences: 0, steps: 30 })) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.bytes ?? f.text ?? '');
  }
  stubs(join(tmp, 'stubs'));
  const run = (...args: string[]) => {
    const out = execFileSync('python3', [join(dir, 'train_grpo.py'), ...args], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: join(tmp, 'stubs') } });
    return { out, result: JSON.parse(out.split('\n').find((l) => l.startsWith('RESULT '))!.slice(7)) };
  };
  /** train_grpo.py of a project exported with `over`, under an older TRL (the stub's env): its exit status, output and the args GRPOConfig got. */
  const older = (over: Partial<Settings>, trl: Record<string, string>) => {
    const d = join(tmp, `older-${JSON.stringify(over).replace(/[^a-z0-9]/gi, '')}`);
    for (const f of exportTrlProject({ settings: { ...s, ...over }, config: base.config, weights: base.weights, trainSize: 16, heldoutSize: 4, paritySequences: 0, steps: 2 })) {
      mkdirSync(dirname(join(d, f.path)), { recursive: true });
      writeFileSync(join(d, f.path), f.bytes ?? f.text ?? '');
    }
    const r = spawnSync('python3', [join(d, 'train_grpo.py')], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: join(tmp, 'stubs'), TRL_STUB_VERSION: '0.15.2', ...trl } });
    const line = r.stdout.split('\n').find((l) => l.startsWith('RESULT '));
    return { status: r.status, out: r.stdout, err: r.stderr.trim(), args: line ? JSON.parse(line.slice(7)).args : null };
  };

  it('the lab policy: the lab\'s settings arrive, <bos> prompts, reference answers paid 1.0, nothing dropped', () => {
    const { out, result } = run();
    expect(out).not.toMatch(/no field/);
    expect(result.args).toMatchObject({ num_generations: 8, per_device_train_batch_size: 256, num_iterations: 2, max_steps: 60, warmup_steps: 10, eval_steps: 20, learning_rate: s.learningRate, scale_rewards: 'group', epsilon_high: 0.2, bf16: false, log_completions: true });
    expect(result.prompt).toMatch(/^<bos>[0-9]+\+[0-9]+=$/);
    expect(result.model_is_path).toBe(false);
    expect(result.rewards).toEqual(Array(16).fill(1));
  });

  it('an older TRL: a missing keyword that changes nothing is dropped and named; one the run needs stops the script with one sentence', () => {
    // TRL < 0.16: no scale_rewards field. The lab's "group" is what TRL did without it: runs (it raised KeyError before)
    const group = older({}, { TRL_STUB_WITHOUT: 'scale_rewards,importance_sampling_level,entropy_coef' });
    expect(group.status, group.err).toBe(0);
    expect(group.out).toMatch(/no field scale_rewards; dropped/);
    expect(group.args).not.toHaveProperty('scale_rewards');
    // …but "none" (Dr. GRPO), a dapo loss or GSPO cannot run there
    for (const [over, without, field] of [
      [{ advantage: 'dr_grpo' }, 'scale_rewards', 'scale_rewards'],
      [{ lossType: 'dapo' }, 'loss_type', 'loss_type'],
      [{ importanceSamplingLevel: 'sequence' }, 'importance_sampling_level', 'importance_sampling_level'],
    ] as [Partial<Settings>, string, string][]) {
      const r = older(over, { TRL_STUB_WITHOUT: without });
      expect(r.status, field).toBe(1);
      expect(r.args).toBeNull();
      expect(r.err).toMatch(new RegExp(`^train_grpo\\.py: the installed TRL \\(trl 0\\.15\\.2\\) has no GRPOConfig field ${field}, which the lab's run needs \\(${field}=.+\\); upgrade it \\(pip install -U trl\\) or export the run without it\\.$`));
    }
  });

  it('an older TRL whose scale_rewards is a bool: group → True, none → False, batch stops with one sentence (it silently became group scaling)', () => {
    const env = { TRL_STUB_BOOL_SCALE: '1' };
    expect(older({}, env).args.scale_rewards).toBe(true);
    expect(older({ scaleRewards: 'none' }, env).args.scale_rewards).toBe(false);
    const batch = older({ scaleRewards: 'batch' }, env);
    expect(batch.status).toBe(1);
    expect(batch.args).toBeNull();
    expect(batch.err).toMatch(/^train_grpo\.py: the installed TRL \(trl 0\.15\.2\) takes scale_rewards as True\/False \(the group's std or none\), but the lab's run divides by the batch's std \(scale_rewards='batch'\); upgrade it/);
    expect(batch.err.split('\n')).toHaveLength(1);
  });

  it('--model (a chat model): conversational prompts with the task\'s rules, learning rate 1e-6, the same reward', () => {
    const { result } = run('--model', 'Qwen/Qwen2.5-0.5B-Instruct', '--steps', '3');
    expect(result.model_is_path).toBe(true);
    expect(result.args.learning_rate).toBe(1e-6);
    expect(result.args.max_steps).toBe(6);
    expect(result.prompt[0].role).toBe('system');
    expect(result.prompt[0].content).toMatch(/Reply with the answer only/);
    expect(result.rewards).toEqual(Array(16).fill(1));
  });
});

/**
 * Export a run as a TRL project: a pure function from the lab's run (settings, model
 * configuration, weights) to a list of files, which the page zips for download (zip.ts) and the
 * CLI writes to a folder (npm run export). No DOM, no React, no file system.
 *
 *   README.md                 the two commands, what to expect, what differs from the lab
 *   config.json, generation_config.json, model.safetensors     the policy as a Hugging Face GPT-2
 *   tokenizer.json, tokenizer_config.json, special_tokens_map.json   the lab's character tokenizer
 *   data/train.jsonl, data/heldout.jsonl                        {"prompt", "answer"}, the lab's split
 *   reward.py                 the lab's verifier as a TRL reward function
 *   train_grpo.py, ds_zero2.json, accelerate_zero2.yaml, requirements.txt
 *   check_export.py, parity/lab_logprobs.json                  the log-prob parity check
 *   lab_run.json (+ task_spec.json for a custom task)
 */
import type { ModelConfig } from '../model/config.ts';
import { paramLayout } from '../model/config.ts';
import { ReferenceModel } from '../model/reference/model.ts';
import { Rng } from '../model/rng.ts';
import { heldoutPrompts } from '../rl/evaluation.ts';
import { innerEpochs } from '../rl/lossSpec.ts';
import { effectiveRewardMode } from '../rl/processReward.ts';
import { taskDifficulty, trainingPool } from '../rl/rollout.ts';
import type { Settings } from '../rl/settings.ts';
import { getTask } from '../tasks/registry.ts';
import { compileSpec } from '../tasks/spec/spec.ts';
import { samplePrompts } from '../tasks/split.ts';
import { BOS, EOS, encode, encodePrompt } from '../tasks/tokenizer.ts';
import type { Task } from '../tasks/types.ts';
import { CHECK_PY } from './checkPy.ts';
import { grpoConfigMapping } from './grpoConfig.ts';
import { generationConfig, gpt2Config, gpt2Tensors } from './hfModel.ts';
import { specialTokensMap, tokenizerConfig, tokenizerJson } from './hfTokenizer.ts';
import { readmeMd } from './readmeMd.ts';
import { rewardPy } from './rewardPy.ts';
import { writeSafetensors } from './safetensors.ts';
import { ACCELERATE_ZERO2_YAML, REQUIREMENTS_TXT, dsZero2Json, trainGrpoPy } from './trainPy.ts';

export interface ExportFile {
  /** Relative path with "/" separators. */
  path: string;
  /** Text files (UTF-8) … */
  text?: string;
  /** … or binary ones. */
  bytes?: Uint8Array;
}

export interface TrlExportInput {
  settings: Settings;
  config: ModelConfig;
  /** The policy's flat weight buffer (the offset table's layout). */
  weights: Float32Array;
  /** Where the weights came from, in words ("public/checkpoints/add-d2.ckpt", "run 3 at step 120"). */
  source?: string;
  /** Training prompts in data/train.jsonl (default 2000). */
  trainSize?: number;
  /** Held-out prompts in data/heldout.jsonl (default 200). */
  heldoutSize?: number;
  /** Lab steps train_grpo.py runs by default (default 200). */
  steps?: number;
  /** Held-out sequences whose lab log-probs go into parity/lab_logprobs.json (default 16; 0: no parity files). */
  paritySequences?: number;
  /** A custom task's spec (the task must be registered, e.g. by registerSpec): written as task_spec.json. */
  taskSpec?: unknown;
}

export const DEFAULT_TRAIN_SIZE = 2000;
export const DEFAULT_HELDOUT_SIZE = 200;
export const DEFAULT_EXPORT_STEPS = 200;

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/**
 * A custom task's expected scratchpad steps for a prompt (what process reward compares with), read
 * off its reference response "s1,s2,…|answer"; null for built-in tasks (reward.py derives theirs
 * from the prompt) and for tasks without steps.
 */
export function customSteps(task: Task, prompt: string): string[] | null {
  if (!task.id.startsWith('spec:') || !task.processReward) return null;
  const think = task.referenceResponse(prompt, { think: true });
  return think.slice(0, think.length - task.solve(prompt).length - 1).split(',');
}

type Row = { prompt: string; answer: string; steps?: string[] };
const row = (task: Task, prompt: string, answer = task.solve(prompt)): Row => {
  const steps = customSteps(task, prompt);
  return steps ? { prompt, answer, steps } : { prompt, answer };
};

/**
 * The training and held-out prompts with their reference answers (and a custom task's scratchpad
 * steps), from the lab's disjoint split.
 * With a training pool (trainPool > 0) the training file is that pool, the run's very prompts.
 */
export function exportPrompts(task: Task, difficulty: number, seed: number, trainSize: number, heldoutSize: number, trainPool = 0): { train: Row[]; heldout: Row[] } {
  const train = trainPool > 0
    ? trainingPool(task, difficulty, seed, trainPool).map((prompt) => row(task, prompt))
    : samplePrompts(task, new Rng((seed ^ 0x7a11e) >>> 0), difficulty, 'train', trainSize).map((i) => row(task, i.prompt, i.answer));
  // the lab's own held-out set (evaluation.ts) is the first evalSize of these
  const heldout = heldoutPrompts(task, difficulty, heldoutSize, seed).map((prompt) => row(task, prompt));
  return { train, heldout };
}

/** The lab's per-token log-probs (CPU reference, τ = 1) of <bos> prompt answer <eos>: logprobs[t] = log p(ids[t+1] | ids[0..t]). */
export function labLogprobs(config: ModelConfig, weights: Float32Array, pairs: { prompt: string; answer: string }[]): { prompt: string; response: string; ids: number[]; logprobs: number[] }[] {
  const model = new ReferenceModel(config, 'f32', weights);
  return pairs.flatMap(({ prompt, answer }) => {
    const ids = [...encodePrompt(prompt), ...encode(answer), EOS];
    if (ids.length > config.seqLen) return [];
    const n = ids.length;
    model.forward(Int32Array.from(ids), 1, n);
    const targets = Int32Array.from([...ids.slice(1), BOS]);
    const { logprobs } = model.logsoftmax(targets, null, 1);
    return [{ prompt, response: answer, ids, logprobs: Array.from(logprobs.subarray(0, n - 1)) }];
  });
}

/** The whole project as files. Throws when the task's prompts do not fit the model's positions. */
export function exportTrlProject(input: TrlExportInput): ExportFile[] {
  const s = input.settings;
  const task = getTask(s.task);
  const difficulty = taskDifficulty(s);
  const trainSize = input.trainSize ?? DEFAULT_TRAIN_SIZE;
  const heldoutSize = input.heldoutSize ?? DEFAULT_HELDOUT_SIZE;
  const steps = input.steps ?? DEFAULT_EXPORT_STEPS;
  const mu = innerEpochs(s);
  const { train, heldout } = exportPrompts(task, difficulty, s.seed, trainSize, heldoutSize, s.trainPool);
  const longestPrompt = Math.max(...[...train, ...heldout].map((r) => encodePrompt(r.prompt).length));
  const room = input.config.seqLen - longestPrompt;
  if (room < 1) throw new Error(`the task's longest prompt takes ${longestPrompt} of the model's ${input.config.seqLen} positions: no room for an answer`);
  const maxCompletion = Math.min(s.maxCompletionLength, room);
  const mapping = grpoConfigMapping(s, { maxCompletionLength: maxCompletion });
  const spec = input.taskSpec === undefined ? null : compileSpec(input.taskSpec);
  if (task.id.startsWith('spec:') && !spec) throw new Error(`task ${task.id} is a custom task: pass its spec (taskSpec) so reward.py grades its answers as the lab does`);
  const process = effectiveRewardMode(s) === 'process';

  const files: ExportFile[] = [
    { path: 'config.json', text: json(gpt2Config(input.config)) },
    { path: 'generation_config.json', text: json(generationConfig()) },
    { path: 'model.safetensors', bytes: writeSafetensors(gpt2Tensors(input.config, input.weights), { format: 'pt', source: 'rlvr-lab' }) },
    { path: 'tokenizer.json', text: json(tokenizerJson()) },
    { path: 'tokenizer_config.json', text: json(tokenizerConfig(input.config.seqLen)) },
    { path: 'special_tokens_map.json', text: json(specialTokensMap()) },
    { path: 'data/train.jsonl', text: jsonl(train) },
    { path: 'data/heldout.jsonl', text: jsonl(heldout) },
    {
      path: 'reward.py',
      text: rewardPy({
        task: task.id,
        formatReward: s.formatReward,
        specKind: spec?.answerKind,
        spec: spec?.spec ?? null,
        processWeight: process ? s.processWeight : null,
        // the lab's rule: each prompt's own limit (rollout.ts maxNewTokens), not one for the longest prompt
        overlong: s.overlongPenalty ? { limit: s.maxCompletionLength, positions: input.config.seqLen, buffer: s.overlongBuffer } : null,
      }),
    },
    {
      path: 'train_grpo.py',
      text: trainGrpoPy({ task: task.id, mapping, steps, mu, evalEvery: s.evalEvery, instructions: `Task: ${task.title}. ${task.answerSpec} Reply with the answer only.` }),
    },
    { path: 'ds_zero2.json', text: json(dsZero2Json()) },
    { path: 'accelerate_zero2.yaml', text: ACCELERATE_ZERO2_YAML },
    { path: 'requirements.txt', text: REQUIREMENTS_TXT },
  ];
  const nParity = input.paritySequences ?? 16;
  if (nParity > 0) {
    files.push({ path: 'check_export.py', text: CHECK_PY });
    files.push({ path: 'parity/lab_logprobs.json', text: json({ temperature: 1, source: 'rlvr-lab CPU reference (f32)', sequences: labLogprobs(input.config, input.weights, heldout.slice(0, nParity)) }) });
  }
  files.push({ path: 'lab_run.json', text: json({ exportedBy: 'rlvr-lab TRL export', task: task.id, difficulty, source: input.source ?? null, config: input.config, settings: s }) });
  if (input.taskSpec !== undefined) files.push({ path: 'task_spec.json', text: json(input.taskSpec) });
  const layout = paramLayout(input.config);
  const { dModel: D, nLayers: L, nHeads: H, seqLen: T, vocabSize: V } = input.config;
  files.unshift({
    path: 'README.md',
    text: readmeMd({
      task: task.id, title: task.title, difficulty, source: input.source ?? 'the lab', params: layout.numParams,
      shape: `D = ${D}, L = ${L}, H = ${H}, T = ${T}, V = ${V}`, trainSize: train.length, heldoutSize, steps, mu, mapping,
      maxCompletionCapped: maxCompletion < s.maxCompletionLength ? { lab: s.maxCompletionLength, exported: maxCompletion } : null,
      files: ['README.md', ...files.map((f) => f.path)],
    }),
  });
  return files;
}

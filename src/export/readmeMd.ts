/** README.md of an exported project: the two commands, what to expect, what differs from the lab. */
import type { GrpoMapping } from './grpoConfig.ts';
import { LAUNCH_MULTI_NODE, LAUNCH_SINGLE_NODE } from './trainPy.ts';
import { TRL_VERSION } from './trlFields.ts';

export interface ReadmeOptions {
  task: string;
  title: string;
  difficulty: number;
  source: string;
  params: number;
  shape: string;
  trainSize: number;
  heldoutSize: number;
  steps: number;
  mu: number;
  mapping: GrpoMapping;
  maxCompletionCapped: { lab: number; exported: number } | null;
  files: string[];
}

export function readmeMd(o: ReadmeOptions): string {
  return `# ${o.title}: an rlvr-lab run as a TRL project

The lab's task **${o.task}** (difficulty ${o.difficulty}), its policy (${o.source}; a GPT-2 of
${o.params.toLocaleString('en-US')} parameters, ${o.shape}) and its settings, ready for Hugging Face TRL's
\`GRPOTrainer\` on a GPU — or on several.

## Run it

\`\`\`
pip install -r requirements.txt
python train_grpo.py
\`\`\`

That trains the lab's own policy for ${o.steps} lab steps (${o.steps * o.mu} TRL optimizer steps: each lab step
is one batch of rollouts and µ = ${o.mu} updates on it) and writes \`grpo-output/\`: checkpoints,
\`trainer_state.json\` (its \`log_history\` holds \`reward\`, \`reward_std\`, \`frac_reward_zero_std\`,
\`completions/mean_length\`, \`entropy\`, \`clip_ratio/*\` and the held-out \`eval_*\` keys) and the
completion logs \`completions/completions_NNNNN.parquet\`: what the lab's run import reads to draw
this run beside a browser run.

**What to expect.** The same curves as in the lab, in the same units: \`reward\` starts near the policy's
pass rate (a shipped base sits at the capability boundary, where groups mix passes and failures) and
rises while \`frac_reward_zero_std\` falls and then climbs again as groups become all-correct. The model
is tiny, so a CPU works too; generation, not the update, takes most of each step.

**A real model.** \`python train_grpo.py --model Qwen/Qwen2.5-0.5B-Instruct\` trains it on the same
prompts with the same reward: a chat model gets the task's rules as a system message, and its
completions must follow the lab's response rules (answer only, the lab's characters) to be paid. Its
learning rate defaults to 1e-6 (\`--learning_rate\` to change); \`--use_vllm\` generates with vLLM.

**Several GPUs and nodes** (DeepSpeed ZeRO-2: \`ds_zero2.json\`, \`accelerate_zero2.yaml\`; \`pip install deepspeed\`):

\`\`\`
${LAUNCH_SINGLE_NODE}
${LAUNCH_MULTI_NODE}
\`\`\`

The lab's P·G answers per step are split over the processes.

## Check the export

\`\`\`
python check_export.py                        # the weights, by GPT-2's names, give the lab's log-probabilities (plain Python)
python check_export.py --engine torch         # the same in PyTorch
python check_export.py --engine transformers  # GPT2LMHeadModel.from_pretrained and AutoTokenizer on this folder
python reward.py --check data/heldout.jsonl   # re-derives every answer from its prompt: the file agrees, each paid 1.0
\`\`\`

## Files

${o.files.map((f) => `- \`${f}\`${FILE_NOTES[f] ? ` — ${FILE_NOTES[f]}` : ''}`).join('\n')}

## What differs from the lab

${o.mapping.differences.map((d) => `- ${d[0].toUpperCase()}${d.slice(1)}.`).join('\n')}
- **Positions.** TRL left-pads a batch of prompts; the lab's model has learned absolute positions and
  reads every prompt from position 0. \`train_grpo.py\` makes GPT-2 count positions from the attention
  mask, as \`generate()\` already does, so the policy sees what it saw in the lab.
- **<bos>.** The lab starts every sequence with \`<bos>\`; \`train_grpo.py\` writes it in front of each
  prompt (TRL tokenizes prompts without adding special tokens). The data files hold the bare prompts.
- **Held-out evaluation.** The lab measures greedy accuracy; TRL's \`eval_reward\` is the mean reward of
  sampled answers (at τ) on \`data/heldout.jsonl\` — the same prompts as the lab's held-out set.
- **Prompts.** Without a training pool the lab draws fresh training prompts every step; here
  ${o.trainSize.toLocaleString('en-US')} are drawn once from the same training split (held-out: ${o.heldoutSize}), and TRL shuffles them.
${o.maxCompletionCapped ? `- **Answer length.** max_completion_length is ${o.maxCompletionCapped.exported}, not the lab's ${o.maxCompletionCapped.lab}: the longest prompt plus the answer must fit the model's positions (the lab stops one token later).\n` : ''}
Lab settings without a GRPOConfig field, and where they went:

${o.mapping.unmapped.map((u) => `- ${u}`).join('\n')}

GRPOConfig's keywords were read from TRL ${TRL_VERSION}; with an older TRL, \`train_grpo.py\` drops any
keyword its GRPOConfig lacks and says so.
`;
}

const FILE_NOTES: Record<string, string> = {
  'config.json': 'GPT2LMHeadModel: gelu_new, LayerNorm eps 1e-5, untied LM head (tie_word_embeddings false), no dropout',
  'model.safetensors': 'the lab\'s weights under GPT-2\'s names (Conv1D weights [in, out]; lm_head.weight [V, D])',
  'generation_config.json': '<bos> 1, <eos> 2, <pad> 0; sampling from the full softmax',
  'tokenizer.json': 'the lab\'s character tokenizer: WordLevel, one token per character, the lab\'s ids',
  'tokenizer_config.json': 'PreTrainedTokenizerFast, left padding',
  'special_tokens_map.json': '<bos>, <eos>, <pad>',
  'data/train.jsonl': '{"prompt", "answer"} from the lab\'s training split',
  'data/heldout.jsonl': '{"prompt", "answer"} from the held-out split (disjoint by the lab\'s hash); its first lines are the lab\'s held-out set',
  'reward.py': 'the lab\'s verifier as a TRL reward function (standard library only)',
  'train_grpo.py': 'GRPOTrainer with the lab\'s settings as GRPOConfig',
  'ds_zero2.json': 'DeepSpeed ZeRO-2',
  'accelerate_zero2.yaml': 'accelerate with DeepSpeed, for several GPUs or nodes',
  'requirements.txt': 'TRL and its stack',
  'check_export.py': 'compares this folder\'s log-probabilities with the lab\'s',
  'parity/lab_logprobs.json': 'the lab\'s log-probabilities on held-out prompts with their reference answers',
  'lab_run.json': 'the lab\'s settings and model configuration, as exported',
  'task_spec.json': 'the custom task\'s spec, as the lab reads it',
};

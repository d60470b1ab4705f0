/**
 * The lab's settings as TRL's GRPOConfig: ONE mapping, rendered by the runs panel's snippet
 * (src/store/exports.ts) and by the exported project's train_grpo.py. Every keyword is a field
 * of TRL's GRPOConfig or of transformers' TrainingArguments (trlFields.ts; grpoConfig.test.ts
 * checks it). Settings without a field are listed with where they went instead, so nothing is
 * silently dropped, and the places where TRL's same-named setting acts differently are said.
 *
 * Steps: a lab step is one rollout of P prompts × G answers and µ AdamW updates on it (the inner
 * epochs). TRL counts optimizer steps (global_step): with per_device_train_batch_size = P·G on one
 * process, gradient_accumulation_steps = 1 and num_iterations = µ, each generated batch is reused
 * for µ optimizer steps — the lab's step — so step counts (max_steps, warmup_steps, eval_steps)
 * are the lab's times µ.
 */
import { ADAMW_CONSTANTS } from '../model/backend.ts';
import { clipRange, innerEpochs } from '../rl/lossSpec.ts';
import { SETTINGS, type Settings } from '../rl/settings.ts';

export interface ConfigArg {
  key: string;
  /** A Python literal. */
  value: string;
  comment?: string;
}

export interface GrpoMapping {
  args: ConfigArg[];
  /** One line per lab setting without a GRPOConfig field: "label: value — where it went". */
  unmapped: string[];
  /** Where TRL's behaviour differs from the lab's at these settings, one sentence each. */
  differences: string[];
  /** The setting keys that became keywords. */
  mapped: string[];
}

export const py = (v: unknown): string => (typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'string' ? JSON.stringify(v) : v === null || v === undefined ? 'None' : String(v));

/** Where each unmapped setting went in an exported project. */
const ELSEWHERE: Record<string, string> = {
  task: 'the dataset (data/train.jsonl, data/heldout.jsonl) and reward.py',
  difficulty: 'the dataset: prompts drawn at this difficulty',
  trainPool: 'the dataset: data/train.jsonl is the pool (0: drawn from the whole training split)',
  algorithm: 'GRPOTrainer runs the clipped objective',
  advantage: 'scale_rewards (grpo: the group std; dr_grpo: none)',
  klEstimator: 'TRL\'s KL penalty is k3',
  klMode: 'TRL puts β·KL in the loss',
  measureKl: 'TRL logs kl only when beta ≠ 0',
  dynamicSampling: 'no GRPOTrainer field (DAPO\'s dynamic sampling)',
  maxResample: 'no GRPOTrainer field',
  overlongPenalty: 'reward.py (OVERLONG), from completion_ids, at each prompt\'s own limit as in the lab',
  overlongBuffer: 'reward.py (OVERLONG)',
  rewardMode: 'reward.py (PROCESS_WEIGHT)',
  processWeight: 'reward.py (PROCESS_WEIGHT)',
  weakVerifier: 'not exported: reward.py grades strictly',
  formatReward: 'reward.py (FORMAT_REWARD)',
  evalEvery: 'eval_steps in train_grpo.py (held-out rewards, sampled, not greedy accuracy)',
};

/** The settings as GRPOConfig keywords. `maxCompletionLength` overrides the setting (the export caps it to the model's positions). */
export function grpoConfigMapping(s: Settings, o: { maxCompletionLength?: number } = {}): GrpoMapping {
  const mu = innerEpochs(s);
  const clip = clipRange(s);
  const sequence = s.importanceSamplingLevel === 'sequence';
  const drGrpo = s.advantage === 'dr_grpo' || s.scaleRewards === 'none';
  const maxLen = o.maxCompletionLength ?? s.maxCompletionLength;
  const args: ConfigArg[] = [
    { key: 'num_generations', value: py(s.numGenerations), comment: 'G' },
    { key: 'per_device_train_batch_size', value: py(s.promptsPerStep * s.numGenerations), comment: `P·G = ${s.promptsPerStep}·${s.numGenerations} answers per step (on N processes: divide by N)` },
    { key: 'gradient_accumulation_steps', value: '1' },
    { key: 'temperature', value: py(s.temperature), comment: 'τ, for sampling and in the objective, as in the lab' },
    { key: 'top_p', value: '1.0', comment: 'the lab samples the full softmax' },
    { key: 'top_k', value: '0' },
    { key: 'max_completion_length', value: py(maxLen), comment: maxLen === s.maxCompletionLength ? 'EOS included' : `the lab's ${s.maxCompletionLength}, capped so prompt + answer fit the model's positions` },
    { key: 'learning_rate', value: py(s.learningRate) },
    { key: 'lr_scheduler_type', value: py('constant_with_warmup'), comment: 'the lab: linear warm-up, then constant' },
    { key: 'warmup_steps', value: py(s.warmupSteps * mu), comment: `the lab's ${s.warmupSteps} steps × µ = ${mu} optimizer steps each (a TrainingArguments field)` },
    { key: 'adam_beta1', value: py(ADAMW_CONSTANTS.beta1) },
    { key: 'adam_beta2', value: py(ADAMW_CONSTANTS.beta2) },
    { key: 'adam_epsilon', value: py(ADAMW_CONSTANTS.eps) },
    { key: 'weight_decay', value: py(ADAMW_CONSTANTS.weightDecay) },
    { key: 'max_grad_norm', value: py(s.maxGradNorm), comment: s.maxGradNorm === 0 ? 'off, as in the lab' : undefined },
    { key: 'beta', value: py(s.klMode === 'loss' ? s.beta : 0), comment: s.klMode === 'loss' ? 'β·KL (k3) in the loss' : 'the lab puts KL in the reward (klMode reward); TRL cannot' },
    // one clip pair at both ratio levels, in the lab as in TRL (the sequence ratio clips at [1 − ε, 1 + ε_high] too)
    { key: 'epsilon', value: py(clip.epsilon), comment: sequence ? 'clips the sequence ratio (GSPO\'s paper: 3e-4)' : undefined },
    { key: 'epsilon_high', value: py(clip.epsilonHigh), comment: 'written out: TRL would copy epsilon into it' },
    { key: 'num_iterations', value: py(mu), comment: 'µ inner epochs on each generated batch' },
    { key: 'loss_type', value: py(s.algorithm === 'rloo' ? 'dr_grpo' : s.lossType) },
    // the lab's dr_grpo advantage is r − mean with no std at all: TRL's scale_rewards "none" (False in older TRL)
    { key: 'scale_rewards', value: py(drGrpo ? 'none' : s.scaleRewards), comment: drGrpo ? 'Dr. GRPO: r − mean, no std' : undefined },
    { key: 'importance_sampling_level', value: py(s.importanceSamplingLevel) },
    { key: 'mask_truncated_completions', value: py(s.maskTruncated) },
    { key: 'entropy_coef', value: py(s.entropyCoef), comment: 'loss − c_H·H (a GRPOConfig field in TRL 1.10)' },
    { key: 'seed', value: py(s.seed) },
  ];
  const mapped = new Set(['numGenerations', 'promptsPerStep', 'temperature', 'maxCompletionLength', 'learningRate', 'warmupSteps', 'maxGradNorm', 'beta', 'epsilon', 'epsilonHigh', 'numIterations', 'lossType', 'scaleRewards', 'importanceSamplingLevel', 'maskTruncated', 'entropyCoef', 'seed']);
  const v = s as unknown as Record<string, unknown>;
  const unmapped = SETTINGS.filter((spec) => !mapped.has(spec.key)).map((spec) => `${spec.label}: ${py(v[spec.key])} — ${ELSEWHERE[spec.key] ?? 'no GRPOConfig field'}`);
  const differences = [
    `the lab's warm-up multiplies η by (step + 1)/N from its first step; TRL's constant_with_warmup starts at 0`,
    ...(s.advantage === 'leave_one_out' || s.advantage === 'reinforce' ? [`advantage "${s.advantage}" is the lab's; TRL's GRPOTrainer computes group advantages only`] : []),
    ...(s.algorithm === 'rloo' ? ['algorithm "rloo" (REINFORCE with the leave-one-out baseline, no clip) is TRL\'s RLOOTrainer (RLOOConfig), not GRPOTrainer: this config runs the clipped objective'] : []),
    ...(s.algorithm === 'rft' ? ['algorithm "rft" (cross-entropy on verified answers) is supervised fine-tuning (TRL\'s SFTTrainer on the filtered samples), not GRPOTrainer'] : []),
    ...(s.klEstimator === 'k1' && s.beta > 0 ? ['the lab\'s KL estimator is k1 here; TRL\'s penalty is k3'] : []),
    ...(s.dynamicSampling ? ['dynamic sampling (DAPO) is on in the lab; GRPOTrainer keeps every group (frac_reward_zero_std logs the share that teach nothing)'] : []),
  ];
  return { args, unmapped, differences, mapped: SETTINGS.filter((spec) => mapped.has(spec.key)).map((spec) => spec.key) };
}

/** `    key=value,  # comment` lines. */
export function renderArgs(args: ConfigArg[], indent = '    '): string[] {
  return args.map((a) => `${indent}${a.key}=${a.value},${a.comment ? `  # ${a.comment}` : ''}`);
}

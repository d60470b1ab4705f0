/**
 * The Backend interface: everything the trainer, the CLIs and the tests ask of a model.
 *
 * Two implementations: the CPU reference (src/model/reference/, plain loops, the oracle and the
 * no-WebGPU fallback) and the WebGPU engine (src/gpu/). Switching is one setting. All methods
 * are async so the GPU can keep work queued; the reference resolves immediately.
 *
 * Sequence convention (llm.c): a batch is B rows of T positions. Position t reads
 * inputs[b,t] and predicts targets[b,t]; mask[b,t] says whether that prediction is part of
 * the loss (1 on response tokens, 0 on the prompt and on padding).
 */
import type { ModelConfig, ParamLayout } from './config.ts';

export interface TokenBatch {
  B: number;
  T: number;
  /** [B*T] input token ids, PAD after each row's end. */
  inputs: Int32Array;
  /** [B*T] the token each position should predict (targets[b,t] = inputs[b,t+1] for packed rows). */
  targets: Int32Array;
  /** [B*T] 1 where the position's prediction is scored, else 0. */
  mask: Float32Array;
}

export interface PerTokenOutputs {
  /** [B*T] log π(targets[b,t] | inputs[b,≤t]) at the given temperature (0 where mask is 0). */
  logprobs: Float32Array;
  /** [B*T] entropy of the whole next-token distribution at each position, nats (0 where mask is 0). */
  entropy: Float32Array;
}

export interface AdamWSettings {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Clip the global gradient L2 norm to this value before the step; 0 turns clipping off. */
  gradClip: number;
}

/**
 * The AdamW hyperparameters the lab never varies: β1, β2, ε, and no weight decay. Every
 * trainer, cold start and tool builds its settings from these (adamwSettings), so they are
 * written once.
 */
export const ADAMW_CONSTANTS = { beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 } as const satisfies Omit<AdamWSettings, 'lr' | 'gradClip'>;

/** AdamW settings with the lab's constants (ADAMW_CONSTANTS) and this learning rate and global-norm clip (0: off). */
export function adamwSettings(lr: number, gradClip: number): AdamWSettings {
  return { lr, ...ADAMW_CONSTANTS, gradClip };
}

export const DEFAULT_ADAMW: AdamWSettings = adamwSettings(1e-3, 1.0);

/** Optimizer state, for checkpoints and device-loss recovery. */
export interface OptimizerState {
  /** AdamW step count t (bias correction uses it). */
  step: number;
  m: Float32Array;
  v: Float32Array;
}

/**
 * The clipped policy objective's settings, with TRL's names. The objective itself is
 * `policyObjective` in src/model/objective.ts and shaders/policy_loss.wgsl.
 */
export interface PolicyLossSettings {
  /** ε: lower clip range, ratio ≥ 1 − ε. */
  epsilon: number;
  /** ε_high: upper clip range, ratio ≤ 1 + ε_high (clip-higher, DAPO). */
  epsilonHigh: number;
  /** β: weight of the KL penalty to the frozen reference policy (0 turns it off). */
  beta: number;
  /** KL estimator per token: k1 = log π/π_ref, k3 = π_ref/π − log(π_ref/π) − 1. */
  klEstimator: 'k1' | 'k3';
  /** Aggregation of per-token losses: grpo (per-response mean, then mean), dapo (token mean), dr_grpo (sum / maxCompletionLength). */
  lossType: 'grpo' | 'dapo' | 'dr_grpo';
  /** token: per-token ratio; sequence: GSPO's length-normalised sequence ratio, clipped as one unit. */
  importanceSamplingLevel: 'token' | 'sequence';
  /**
   * Evaluate π_ref and report the KL metric even when β = 0 (the KL then enters no gradient).
   * Costs one more forward inside the same submit; the lab turns it on so KL drift is visible.
   */
  measureKl?: boolean;
  /** Weight of an entropy bonus (subtracted from the loss); 0 turns it off. */
  entropyCoef: number;
  /** The constant denominator of dr_grpo: the rollout's max response length. */
  maxCompletionLength: number;
  /** Logits are divided by this before the softmax, as at sampling time (TRL does the same). */
  temperature: number;
}

export type LossSpec =
  /** Mean cross-entropy over masked positions: L = −Σ mask·log p / Σ mask. */
  | { kind: 'ce' }
  /** The clipped policy objective. advantages: [B], one per response; oldLogprobs: [B*T] log π_old, or null for on-policy (π_old = π_θ detached). */
  | ({ kind: 'policy'; advantages: Float32Array; oldLogprobs: Float32Array | null } & PolicyLossSettings)
  /** Any per-token loss given by its gradient: dL/dlogp[b,t] and optionally dL/dH[b,t]. */
  | { kind: 'pertoken'; gradLogprob: Float32Array; gradEntropy?: Float32Array };

export interface TrainStepResult {
  /** The loss value before the update. */
  loss: number;
  /** Global gradient L2 norm before clipping. */
  gradNorm: number;
  /** False if any loss, gradient or updated weight was NaN/Inf (the step is then not applied). */
  finite: boolean;
  /** Objective metrics by name (policy loss: clip_ratio/low_mean, clip_ratio/high_mean, clip_ratio/region_mean, kl, ratio_min/mean/max, entropy). */
  metrics: Record<string, number>;
  /**
   * Per answer row, Σ_t log π_θ(o_t) − log π_old(o_t) at the start of the second inner epoch: how
   * far the first epoch's update moved each answer, as the engine itself computed it (the policy
   * loss's own ratios). Present when epochs ≥ 2 with π_old given; rides in the step's one readback.
   */
  answerLogRatio?: Float32Array;
  /**
   * With `epochs` > 1: each epoch's result, up to and including the first that was not finite
   * (loss, gradNorm and metrics above are the last one's; finite is all of them).
   */
  epochs?: TrainStepResult[];
}

export interface SampleRequest {
  /** P prompts as token ids, each starting with BOS. */
  prompts: number[][];
  /** G: responses per prompt (TRL num_generations). */
  numGenerations: number;
  /** Softmax temperature; 0 means greedy (argmax, ties to the lowest id). */
  temperature: number;
  /** Stop after this many response tokens if no EOS came. */
  maxNewTokens: number;
  /** Seed and stream (e.g. the training step): the draw for (seed, stream, sample, position) is fixed. */
  seed: number;
  stream: number;
}

export interface SampleResult {
  /** P*G responses, prompt-major: response g of prompt p is at index p*G + g. Includes the final EOS when there is one. */
  tokens: Int32Array[];
  /** Per response token: log π_old(token) at the sampling temperature (greedy: temperature 1). */
  logprobs: Float32Array[];
  /** True where the response ended with EOS; false where it was truncated at maxNewTokens. */
  finished: boolean[];
}

export interface Backend {
  readonly name: 'cpu' | 'webgpu';
  readonly config: ModelConfig;
  readonly layout: ParamLayout;
  getWeights(): Promise<Float32Array>;
  setWeights(weights: Float32Array): Promise<void>;
  getOptimizerState(): Promise<OptimizerState>;
  setOptimizerState(state: OptimizerState): Promise<void>;
  /** Copy the current weights into the frozen reference policy π_ref (used by the KL term). */
  snapshotReference(): Promise<void>;
  /** Per-token log-probs and entropies; `reference` evaluates π_ref instead of π_θ. */
  logprobs(batch: TokenBatch, opts?: { temperature?: number; reference?: boolean }): Promise<PerTokenOutputs>;
  /** One update: forward, loss, backward, global-norm clip, AdamW. On WebGPU: one submit, one readback. */
  trainStep(batch: TokenBatch, loss: LossSpec, opt: AdamWSettings, o?: { epochs?: number }): Promise<TrainStepResult>;
  /**
   * This batch's loss gradient at the current weights (forward, loss, backward; unclipped), with
   * nothing changed: no optimizer step, π_ref as it was. The step-through's "this batch's gradient
   * alone"; never in the training loop. On WebGPU: one submit, one readback of every gradient.
   */
  gradient(batch: TokenBatch, loss: LossSpec): Promise<{ loss: number; grads: Float32Array }>;
  /** Batched sampling: G responses per prompt, stopping at EOS. On WebGPU: one submit, one readback. */
  sample(req: SampleRequest): Promise<SampleResult>;
  dispose(): void;
}

/**
 * The counterfactual update: one sampled batch, from the same weights, under the four objectives
 * the chapter compares. Only the objective changes; ε, ε_high, β, the KL estimator, µ and the
 * learning rate are the run's.
 *
 *   GRPO      L = −1/B Σ_i 1/|o_i| Σ_t min(ρ_{i,t} Â_i, clip(ρ_{i,t}, 1−ε, 1+ε_high) Â_i)   Â_i = (r_i − r̄)/(σ + ε_A)
 *   Dr. GRPO  L = −1/(B·L_max) Σ_i Σ_t min(ρ_{i,t} Â_i, clip(…) Â_i)                        Â_i = r_i − r̄
 *   DAPO      L = −1/(Σ_i |o_i|) Σ_i Σ_t min(ρ_{i,t} Â_i, clip(…) Â_i)                      Â_i = (r_i − r̄)/(σ + ε_A)
 *   GSPO      L = −1/B Σ_i min(s_i Â_i, clip(s_i, 1−ε, 1+ε_high) Â_i),  s_i = exp(1/|o_i| Σ_t log ρ_{i,t})
 *
 * (each + β·KL when β > 0, as the run sets it). What differs: the normaliser (the per-token
 * weight w_{i,t}), the std division of the advantage, the ratio's level (token or sequence).
 * The clip bounds are ε / ε_high (DAPO's clip-higher is ε_high > ε), the run's at the run's own
 * ratio level; an objective at the other level gets them as the page's ratio-level control would
 * set them (objectiveSettings: GSPO's preset 3e-4 / 4e-4 for a token-level run, the token defaults
 * for a run at GSPO's preset). Each answer's push (the surrogate's) and the KL leash's pull are kept apart.
 *
 * For each objective: the advantages from the batch's rewards, the objective's terms at the
 * start of the update (policyObjective, the CPU mirror of shaders/policy_loss.wgsl, on the
 * engine's own log-probs), then the update itself on the engine (µ train steps, exactly as the
 * trainer runs them) and log π after it; then the weights and AdamW state are put back, so the
 * run continues from the state it had, with its own objective. The update of the objective the
 * run is set to is the one the run then applies (a test checks that they agree).
 */
import type { AdamWSettings, Backend, TokenBatch } from '../model/backend.ts';
import { policyObjective } from '../model/objective.ts';
import { groupAdvantages } from './advantages.ts';
import type { Rollout } from './rollout.ts';
import { withSetting, type Settings } from './settings.ts';
import { policyLossOf } from './lossSpec.ts';

export type ObjectiveId = 'grpo' | 'dr_grpo' | 'dapo' | 'gspo';
type ObjectiveKnobs = Pick<Settings, 'advantage' | 'scaleRewards' | 'lossType' | 'importanceSamplingLevel'>;

export interface ObjectiveVariant {
  id: ObjectiveId;
  label: string;
  /** The settings that make the run's objective this one. */
  knobs: ObjectiveKnobs;
}

export const OBJECTIVES: readonly ObjectiveVariant[] = [
  { id: 'grpo', label: 'GRPO', knobs: { advantage: 'grpo', scaleRewards: 'group', lossType: 'grpo', importanceSamplingLevel: 'token' } },
  { id: 'dr_grpo', label: 'Dr. GRPO', knobs: { advantage: 'dr_grpo', scaleRewards: 'group', lossType: 'dr_grpo', importanceSamplingLevel: 'token' } },
  { id: 'dapo', label: 'DAPO (token-mean)', knobs: { advantage: 'grpo', scaleRewards: 'group', lossType: 'dapo', importanceSamplingLevel: 'token' } },
  { id: 'gspo', label: 'GSPO (sequence ratio)', knobs: { advantage: 'grpo', scaleRewards: 'group', lossType: 'grpo', importanceSamplingLevel: 'sequence' } },
];

/** The run's settings under one of the four objectives: its knobs, with the clip range the page's ratio-level control would give (withSetting). */
export function objectiveSettings(s: Settings, o: ObjectiveVariant): Settings {
  const { importanceSamplingLevel, ...knobs } = o.knobs;
  return withSetting({ ...s, algorithm: 'grpo', ...knobs }, 'importanceSamplingLevel', importanceSamplingLevel);
}

/** The objective the settings describe, if it is one of the four (Dr. GRPO's advantage ignores scale_rewards). */
export function objectiveOf(s: Settings): ObjectiveId | null {
  if (s.algorithm !== 'grpo') return null;
  const same = (k: ObjectiveKnobs) => k.advantage === s.advantage && k.lossType === s.lossType && k.importanceSamplingLevel === s.importanceSamplingLevel && (k.advantage === 'dr_grpo' || k.scaleRewards === s.scaleRewards);
  return OBJECTIVES.find((o) => same(o.knobs))?.id ?? null;
}

/** One answer under one objective. */
export interface AnswerUnder {
  advantage: number;
  /** Its tokens in the loss (|o_i|, after masking). */
  length: number;
  /** The aggregation weight w_{i,t} of each of its tokens (the same for every token of an answer in all four). */
  weight: number;
  /** −Σ_t dL/d log π(o_t) of the objective's surrogate alone (no KL leash, no entropy bonus) at the start of the update: the total push on the answer (positive: made more likely). */
  push: number;
  /** −Σ_t β·∂KL/∂log π(o_t): the KL leash's pull on the answer at the start of the update (0 when β = 0 or the KL is in the reward), apart from the push. */
  pull: number;
  /** Σ_t log π_θ(o_t) after the update minus before it. */
  deltaLogp: number;
}

export interface ObjectiveOutcome {
  id: ObjectiveId;
  label: string;
  knobs: ObjectiveKnobs;
  /** [group][answer] */
  answers: AnswerUnder[][];
  /** The objective's value at the start of the update. */
  loss: number;
  /** Whether every inner epoch's update was finite. */
  finite: boolean;
}

export interface ObjectiveComparison {
  objectives: ObjectiveOutcome[];
  /** The objective the run is set to (its update is the one applied next), or null if none of the four. */
  runObjective: ObjectiveId | null;
  /** B, the answers in the batch (the weights' scale). */
  answers: number;
  /** Engine calls the comparison made (each one submit on WebGPU): per objective the update (its µ epochs in one call) and one log-prob pass. */
  engineCalls: number;
}

const rowSum = (x: ArrayLike<number>, b: number, T: number) => {
  let s = 0;
  for (let t = 0; t < T; t++) s += x[b * T + t];
  return s;
};

/**
 * The batch's update under each of the four objectives, from the engine's current state, which
 * is restored after each. `s`: the step's settings; `adamw`: the step's optimizer settings
 * (warm-up included).
 */
export async function compareObjectives(backend: Backend, rollout: Rollout, batch: TokenBatch, s: Settings, adamw: AdamWSettings): Promise<ObjectiveComparison> {
  const { B, T, mask } = batch;
  const saved = { weights: await backend.getWeights(), optimizer: await backend.getOptimizerState() };
  const before = await backend.logprobs(batch, { temperature: s.temperature });
  const needRef = s.klMode === 'loss' && s.beta !== 0;
  const ref = needRef ? await backend.logprobs(batch, { temperature: s.temperature, reference: true }) : null;
  const G = s.numGenerations;
  const rewards = rollout.groups.flatMap((g) => g.rewards);
  // each answer's tokens in the batch: they follow its prompt (the row's positions start − 1 … predict them)
  const spans = rollout.groups.map((g) => g.tokens.map((t) => ({ start: g.promptTokens.length - 1, n: t.length })));
  const objectives: ObjectiveOutcome[] = [];
  let engineCalls = ref ? 2 : 1;
  for (const o of OBJECTIVES) {
    const os = objectiveSettings(s, o);
    const A = groupAdvantages(rewards, G, os.advantage, os.scaleRewards);
    const spec = { ...policyLossOf(rollout, batch, os), advantages: Float32Array.from(A) };
    const inputs = { B, T, logprobs: before.logprobs, entropy: before.entropy, mask, oldLogprobs: spec.oldLogprobs, refLogprobs: ref?.logprobs ?? null, advantages: spec.advantages };
    const out = policyObjective(inputs, spec, { terms: true });
    // the objective's own push: its surrogate alone, without the KL leash's β·∂KL or an entropy bonus (the same for all four)
    const surrogate = spec.beta !== 0 || spec.entropyCoef !== 0 ? policyObjective(inputs, { ...spec, beta: 0, entropyCoef: 0 }) : out;
    // the KL leash's pull, apart: the surrogate plus β·KL, minus the surrogate (the objective is a sum of its terms)
    const leashed = spec.beta !== 0 ? policyObjective(inputs, { ...spec, entropyCoef: 0 }) : surrogate;
    const { finite } = await backend.trainStep(batch, spec, adamw, { epochs: os.numIterations }); // µ epochs, one submit
    engineCalls++;
    const after = await backend.logprobs(batch, { temperature: s.temperature });
    engineCalls++;
    await backend.setWeights(saved.weights);
    await backend.setOptimizerState(saved.optimizer);
    let b = 0;
    const answers = spans.map((g) => g.map(({ start, n }) => {
      const row = b++;
      let weight = 0;
      for (let t = 0; t < T && weight === 0; t++) weight = out.terms!.weight[row * T + t];
      const logp = (x: ArrayLike<number>) => { let v = 0; for (let j = 0; j < n; j++) v += x[row * T + start + j]; return v; };
      return { advantage: spec.advantages[row], length: rowSum(mask, row, T), weight, push: -rowSum(surrogate.gradLogprob, row, T), pull: rowSum(surrogate.gradLogprob, row, T) - rowSum(leashed.gradLogprob, row, T), deltaLogp: logp(after.logprobs) - logp(before.logprobs) };
    }));
    objectives.push({ id: o.id, label: o.label, knobs: o.knobs, answers, loss: out.loss, finite });
  }
  return { objectives, runObjective: objectiveOf(s), answers: B, engineCalls };
}

/** Within one group: the total and per-token push on its longest and shortest wrong answer (null without two wrong answers of different lengths). */
export function wrongPush(answers: AnswerUnder[], correct: boolean[]): { long: AnswerUnder; short: AnswerUnder } | null {
  const wrong = answers.filter((_, i) => !correct[i] && answers[i].length > 0);
  if (wrong.length < 2) return null;
  const long = wrong.reduce((a, x) => (x.length > a.length ? x : a));
  const short = wrong.reduce((a, x) => (x.length < a.length ? x : a));
  return long.length > short.length ? { long, short } : null;
}

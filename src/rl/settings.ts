/**
 * THE settings table: every knob of a run, declared once.
 *
 * The lab's controls, the URL (shareable runs), validation of URL values, imported settings
 * and the train CLI's flags all come from this one table, like TensorFlow Playground's
 * state.ts. Each entry names the parameter in words and symbol, its TRL name where TRL has
 * one (so students can carry it to real runs), the formula it enters, and its valid range.
 */
import { TASKS, WEAK_VERIFIERS, customTasks } from '../tasks/registry.ts';
import { REWARD_MODES, rewardModeNotice } from './processReward.ts';

interface Base {
  /** Key in the URL and the CLI flag (--key). */
  key: string;
  /** Label in words and symbol, e.g. "Group size G". */
  label: string;
  /** TRL's GRPOConfig name, where there is one. */
  trl?: string;
  /** Where it enters the math, for the tooltip. */
  help: string;
  /** Grouping for the controls panel. */
  group: 'task' | 'rollout' | 'objective' | 'optimizer' | 'dapo' | 'run';
}
export interface NumberSetting extends Base {
  kind: 'number' | 'int'; min: number; max: number; step: number; default: number; log?: boolean;
  /** What the value 0 means where it is not a quantity (shown beside the control at 0). */
  zero?: string;
}
export interface EnumSetting extends Base { kind: 'enum'; options: readonly string[]; default: string; /** Old names still read (URLs and settings files saved before a rename): old → new. */ aliases?: Readonly<Record<string, string>> }
export interface BoolSetting extends Base { kind: 'bool'; default: boolean }
export type SettingSpec = NumberSetting | EnumSetting | BoolSetting;

export const SETTINGS = [
  { key: 'task', label: 'Task', group: 'task', kind: 'enum', get options(): readonly string[] { return [...TASKS, ...customTasks()].map((t) => t.id); }, default: 'reverse', help: 'Which verifiable problem the policy learns; the verifier re-derives the answer from the prompt text. A custom task (spec:<name>, README "Your own task") is one once its spec is registered: by the New task editor, a link\'s taskSpec or a settings file.' },
  { key: 'trainPool', label: 'Training pool', group: 'task', kind: 'int', min: 0, max: 2000, step: 1, default: 0, zero: 'all: the whole training split', help: 'How many distinct training prompts every step draws from (0: the whole training split, fresh prompts every step). A small pool can be memorised: training reward climbs while held-out accuracy does not.' },
  { key: 'watchTask', label: 'Watch another task', group: 'task', kind: 'enum', options: ['none', ...TASKS.map((t) => t.id)], default: 'none', help: 'Also evaluate held-out pass@1 on this task at every evaluation (it is never trained on): what the policy forgets of it. A run watching reverse while training add starts from the base that learned both.' },
  { key: 'difficulty', label: 'Difficulty', group: 'task', kind: 'int', min: 1, max: 4, step: 1, default: 2, help: 'Size of the instances (digits, letters). Tasks clamp it to their own levels.' },
  { key: 'numGenerations', label: 'Group size G', trl: 'num_generations', group: 'rollout', kind: 'int', min: 2, max: 32, step: 1, default: 8, help: 'Answers sampled per prompt. A group teaches only if it is mixed: P(mixed) = 1 − p^G − (1 − p)^G.' },
  { key: 'promptsPerStep', label: 'Prompts per step P', trl: 'per_device_train_batch_size / num_generations', group: 'rollout', kind: 'int', min: 1, max: 64, step: 1, default: 32, help: 'Prompts drawn per update; the batch has P·G answers. Fewer prompts make each step cheaper and noisier.' },
  { key: 'temperature', label: 'Sampling temperature τ', trl: 'temperature', group: 'rollout', kind: 'number', min: 0.1, max: 2, step: 0.05, default: 1, help: 'π(o_t) ∝ exp(z_t / τ). Higher τ explores more; the objective uses the same τ.' },
  { key: 'maxCompletionLength', label: 'Max response length', trl: 'max_completion_length', group: 'rollout', kind: 'int', min: 1, max: 20, step: 1, default: 8, help: 'Tokens a response may use (EOS included) before it is truncated. Also the constant divisor of dr_grpo.' },
  { key: 'algorithm', label: 'Algorithm', group: 'objective', kind: 'enum', options: ['grpo', 'rloo', 'rft'], default: 'grpo', help: 'grpo: the clipped policy objective with group advantages; rloo: the chapter\'s RLOO — REINFORCE on each answer\'s summed log-probability, L = −1/B Σ_i A_i Σ_t log π(o_i,t), with the leave-one-out baseline A_i = r_i − mean of the other G − 1 (no ratio, no clip, one update per batch); rft: rejection-sampling fine-tuning — cross-entropy on the verified answers only (the cheaper baseline).' },
  { key: 'advantage', label: 'Advantage estimator', group: 'objective', kind: 'enum', options: ['grpo', 'dr_grpo', 'leave_one_out', 'reinforce'], aliases: { rloo: 'leave_one_out' }, default: 'grpo', help: 'grpo: (r − mean)/(std + ε); dr_grpo: r − mean; leave_one_out: the leave-one-out advantage r − mean of the other G − 1, inside this clipped objective (the chapter\'s RLOO is the algorithm rloo); reinforce: r − batch mean.' },
  { key: 'scaleRewards', label: 'Reward scaling', trl: 'scale_rewards', group: 'objective', kind: 'enum', options: ['group', 'batch', 'none'], default: 'group', help: 'Which std grpo divides by: the group\'s, the batch\'s, or none.' },
  { key: 'epsilon', label: 'Clip range ε', trl: 'epsilon', group: 'objective', kind: 'number', min: 0, max: 1, step: 0.01, default: 0.2, help: '−min(rA, clip(r, 1 − ε, 1 + ε_high)·A) with r the token ratio ρ, or the sequence ratio s at the sequence level, as TRL\'s epsilon does at both: the ratio may fall to 1 − ε before the gradient stops. Choosing the sequence ratio level (GSPO) here sets GSPO\'s 3e-4 / 4e-4.' },
  { key: 'epsilonHigh', label: 'Upper clip ε_high', trl: 'epsilon_high', group: 'objective', kind: 'number', min: 0, max: 1, step: 0.01, default: 0.2, help: 'Upper side of the clip, 1 + ε_high (DAPO\'s clip-higher uses 0.28 to keep exploring; GSPO 4e-4 on its sequence ratio).' },
  { key: 'beta', label: 'KL coefficient β', trl: 'beta', group: 'objective', kind: 'number', min: 0, max: 1, step: 0.005, default: 0, help: 'Loss + β·KL(π_θ ‖ π_ref): a leash to the frozen base model.' },
  { key: 'klEstimator', label: 'KL estimator', group: 'objective', kind: 'enum', options: ['k3', 'k1'], default: 'k3', help: 'Per token, d = log π_ref − log π_θ: k1 = −d, k3 = e^d − d − 1 (what GRPO uses).' },
  { key: 'klMode', label: 'KL placement', group: 'objective', kind: 'enum', options: ['loss', 'reward'], default: 'loss', help: 'loss: + β·KL in the objective (GRPO); reward: r − β·Σ_t k1 before the advantages (PPO-style).' },
  { key: 'lossType', label: 'Loss aggregation', trl: 'loss_type', group: 'objective', kind: 'enum', options: ['grpo', 'dapo', 'dr_grpo'], default: 'grpo', help: 'grpo: mean over each answer\'s tokens, then over answers; dapo: mean over all tokens; dr_grpo: sum / (B · max length).' },
  { key: 'importanceSamplingLevel', label: 'Ratio level', trl: 'importance_sampling_level', group: 'objective', kind: 'enum', options: ['token', 'sequence'], default: 'token', help: 'token: ρ per token; sequence (GSPO): s = exp(mean_t log ρ_t), clipped as one unit at [1 − ε, 1 + ε_high], as in TRL. Choosing sequence here sets GSPO\'s ε = 3e-4, ε_high = 4e-4 (back to token from them: 0.2).' },
  { key: 'measureKl', label: 'Measure KL at β = 0', group: 'objective', kind: 'bool', default: true, help: 'Evaluate π_ref every update so the KL chart shows drift even without a leash (one more forward in the same GPU submit; no gradient).' },
  { key: 'entropyCoef', label: 'Entropy bonus c_H', group: 'objective', kind: 'number', min: 0, max: 0.2, step: 0.005, default: 0, help: 'Loss − c_H · H: rewards keeping the next-token distribution wide.' },
  { key: 'numIterations', label: 'Inner epochs µ', trl: 'num_iterations', group: 'optimizer', kind: 'int', min: 1, max: 8, step: 1, default: 2, help: 'Updates per batch with π_old fixed; µ > 1 makes ratios move away from 1 and the clip matter.' },
  { key: 'learningRate', label: 'Learning rate η', trl: 'learning_rate', group: 'optimizer', kind: 'number', min: 1e-5, max: 1e-2, step: 1e-5, default: 7e-4, log: true, help: 'AdamW step size.' },
  { key: 'warmupSteps', label: 'Warm-up steps', trl: 'warmup_steps', group: 'optimizer', kind: 'int', min: 0, max: 100, step: 1, default: 10, help: 'The learning rate ramps linearly from η/N to η over the first N steps: fresh AdamW moments make every first step move each weight by about η, whatever its gradient.' },
  { key: 'maxGradNorm', label: 'Gradient clip', trl: 'max_grad_norm', group: 'optimizer', kind: 'number', min: 0, max: 10, step: 0.1, default: 1, zero: 'off: no gradient clipping', help: 'The global gradient norm is scaled down to at most this (0: off).' },
  { key: 'dynamicSampling', label: 'Dynamic sampling', group: 'dapo', kind: 'bool', default: false, help: 'DAPO: drop groups whose rewards are all equal (they teach nothing) and sample new prompts until the batch is full.' },
  { key: 'maxResample', label: 'Dynamic sampling cap', group: 'dapo', kind: 'int', min: 2, max: 8, step: 1, default: 3, help: 'At most this many rollouts per step when dynamic sampling refills the batch (the last one fills it whatever it holds, so at least 2).' },
  { key: 'overlongPenalty', label: 'Overlong soft penalty', group: 'dapo', kind: 'bool', default: false, help: 'DAPO: reward − (L − (L_max − L_cache)) / L_cache for answers in the last L_cache tokens before the limit.' },
  { key: 'overlongBuffer', label: 'Overlong buffer L_cache', group: 'dapo', kind: 'int', min: 1, max: 10, step: 1, default: 3, help: 'Length of the soft-penalty zone below the max length.' },
  { key: 'maskTruncated', label: 'Mask truncated answers', trl: 'mask_truncated_completions', group: 'dapo', kind: 'bool', default: false, help: 'Answers cut off by the length limit are left out of the loss.' },
  { key: 'rewardMode', label: 'Reward', group: 'task', kind: 'enum', options: REWARD_MODES, default: 'outcome', help: 'outcome: score the final answer; process: also credit the share of correct scratchpad steps, weighted by w (only tasks with checkable steps: chain, digitsum, modsum).' },
  { key: 'processWeight', label: 'Process weight w', group: 'task', kind: 'number', min: 0, max: 1, step: 0.05, default: 0.5, help: 'Process reward: an answer with a scratchpad gets r = (1 − w)·r_outcome + w·(share of its steps that are right); a direct answer keeps r_outcome. w = 0 is outcome reward.' },
  { key: 'weakVerifier', label: 'Verifier', group: 'task', kind: 'enum', options: ['strict', ...WEAK_VERIFIERS.map((w) => w.id)], default: 'strict', help: 'strict grades exactly; a weak verifier has exploitable gaps (the reward-hacking lesson). Accuracy is always measured strictly.' },
  { key: 'formatReward', label: 'Format reward', group: 'task', kind: 'number', min: 0, max: 0.5, step: 0.05, default: 0.1, help: 'Reward of a well-formed but wrong answer (TinyZero: 0.1); a correct one gets 1, an unparseable one 0.' },
  { key: 'evalEvery', label: 'Evaluate every', group: 'run', kind: 'int', min: 1, max: 200, step: 1, default: 10, help: 'Held-out greedy accuracy and pass@k every N steps.' },
  { key: 'seed', label: 'Seed', group: 'run', kind: 'int', min: 0, max: 2147483647, step: 1, default: 1, help: 'Seeds prompts and sampling: the same seed on the same backend gives the same run.' },
] as const satisfies readonly SettingSpec[];

type Entry = (typeof SETTINGS)[number];
/** A setting's value type: enum settings take exactly their options (the task list is open: string). */
type ValueOf<E> = E extends { kind: 'bool' } ? boolean : E extends { kind: 'enum'; options: readonly (infer O)[] } ? O : number;
/** A full set of run settings, keyed by the table. */
export type Settings = { [E in Entry as E['key']]: ValueOf<E> };
export type SettingKey = keyof Settings;

/** Specs by key. A null-prototype object: "constructor" or "toString" are not settings. */
export const SETTINGS_BY_KEY: Record<string, SettingSpec> = Object.assign(Object.create(null) as Record<string, SettingSpec>, Object.fromEntries(SETTINGS.map((s) => [s.key, s])));

export function defaultSettings(): Settings {
  return Object.fromEntries(SETTINGS.map((s) => [s.key, s.default])) as unknown as Settings;
}

/** Parse one value against its spec. Returns the value or a sentence saying what is wrong. */
export function parseSetting(spec: SettingSpec, raw: string): { ok: true; value: number | string | boolean } | { ok: false; error: string } {
  if (spec.kind === 'bool') {
    if (raw === 'true' || raw === '1') return { ok: true, value: true };
    if (raw === 'false' || raw === '0') return { ok: true, value: false };
    return { ok: false, error: `${spec.key} must be true or false, got "${raw.slice(0, 40)}"` };
  }
  if (spec.kind === 'enum') {
    if ((spec.options as readonly string[]).includes(raw)) return { ok: true, value: raw };
    const renamed = spec.aliases && Object.hasOwn(spec.aliases, raw) ? spec.aliases[raw] : undefined;
    if (renamed) return { ok: true, value: renamed };
    return { ok: false, error: `${spec.key} must be one of ${spec.options.join(', ')}, got "${raw.slice(0, 40)}"` };
  }
  const x = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(x)) return { ok: false, error: `${spec.key} must be a number, got "${raw.slice(0, 40)}"` };
  if (spec.kind === 'int' && !Number.isInteger(x)) return { ok: false, error: `${spec.key} must be a whole number, got ${raw.slice(0, 40)}` };
  if (x < spec.min || x > spec.max) return { ok: false, error: `${spec.key} must be between ${spec.min} and ${spec.max}, got ${x}` };
  return { ok: true, value: x };
}

/** Setting keys by TRL name (`--num_generations`), for the command-line tools. */
const KEY_BY_TRL: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>,
  Object.fromEntries(SETTINGS.flatMap((s) => ('trl' in s && s.trl && /^[a-z_]+$/.test(s.trl) ? [[s.trl, s.key]] : []))));

/** A command-line flag as a setting: named by its key or its TRL name, its value parsed by the table. */
export function settingFromFlag(name: string, raw: string): { ok: true; key: SettingKey; value: number | string | boolean } | { ok: false; error: string } {
  const key = SETTINGS_BY_KEY[name] ? name : KEY_BY_TRL[name];
  if (!key) return { ok: false, error: `unknown flag --${name.slice(0, 40)}` };
  const r = parseSetting(SETTINGS_BY_KEY[key], raw);
  return r.ok ? { ok: true, key: key as SettingKey, value: r.value } : r;
}

/**
 * TRL's rule for flags: epsilon_high defaults to epsilon when unset, so `--epsilon 0.3` alone
 * clips to [0.7, 1.3]. Applies it to `settings` and returns the notice (null when it did not apply).
 */
export function epsilonHighFollows(settings: { epsilon: unknown; epsilonHigh: unknown }, given: (key: SettingKey) => boolean): string | null {
  if (!given('epsilon') || given('epsilonHigh')) return null;
  const e = Number(settings.epsilon);
  settings.epsilonHigh = settings.epsilon;
  return `--epsilon ${e} without --epsilon_high: ε_high = ε = ${e}, as TRL sets it (clip range [${(1 - e).toFixed(2)}, ${(1 + e).toFixed(2)}])`;
}

/**
 * A flag naming the sequence ratio level without ε: the clip is the ε in effect, as in TRL (0.2 by
 * default), not GSPO's 3e-4 — said once, so a GSPO run from the command line is not a surprise.
 */
export function sequenceClipNotice(settings: { importanceSamplingLevel: unknown; epsilon: unknown; epsilonHigh: unknown }, given: (key: SettingKey) => boolean): string | null {
  if (settings.importanceSamplingLevel !== 'sequence' || !given('importanceSamplingLevel') || given('epsilon')) return null;
  return `--importance_sampling_level sequence without --epsilon: the sequence ratio clips at [1 − ${Number(settings.epsilon)}, 1 + ${Number(settings.epsilonHigh)}], as TRL's does; GSPO's paper uses --epsilon 3e-4 --epsilon_high 4e-4`;
}

/**
 * The page's GSPO preset: choosing the sequence ratio level in the page sets GSPO's clip range
 * (its paper's and TRL's docs' ε = 3e-4, ε_high = 4e-4: a geometric mean of token ratios moves far
 * less than one of them); going back to token ratios from it restores the table's ε / ε_high.
 * ε / ε_high are the clip at both levels, as TRL's epsilon is: a TRL name given (a flag, a file)
 * is never replaced by the preset, which only the page's control applies.
 */
export const GSPO_CLIP = Object.freeze({ epsilon: 3e-4, epsilonHigh: 4e-4 });

/** `s` with one setting changed as the page's control changes it (the GSPO preset on the ratio level). */
export function withSetting<K extends SettingKey>(s: Settings, key: K, value: Settings[K]): Settings {
  const next = { ...s, [key]: value };
  if (key !== 'importanceSamplingLevel' || value === s.importanceSamplingLevel) return next;
  if (value === 'sequence') return { ...next, ...GSPO_CLIP };
  const atPreset = s.epsilon === GSPO_CLIP.epsilon && s.epsilonHigh === GSPO_CLIP.epsilonHigh;
  return atPreset ? { ...next, epsilon: SETTINGS_BY_KEY.epsilon.default as number, epsilonHigh: SETTINGS_BY_KEY.epsilonHigh.default as number } : next;
}

/**
 * Keys of settings since folded into others, as old links, settings files, saved runs and
 * checkpoints still hold them. The lab once clipped the sequence ratio with its own pair
 * (gspoEpsilon / gspoEpsilonHigh) and ignored ε there; a record at the sequence level that names
 * them clipped with them, so they are read as ε / ε_high; at the token level they did nothing.
 */
export const RETIRED_KEYS: Readonly<Record<string, 'epsilon' | 'epsilonHigh'>> = Object.freeze(Object.assign(Object.create(null) as Record<string, 'epsilon' | 'epsilonHigh'>, { gspoEpsilon: 'epsilon', gspoEpsilonHigh: 'epsilonHigh' }));
export const isRetiredKey = (key: string): boolean => Object.prototype.hasOwnProperty.call(RETIRED_KEYS, key);

/** Clamp a number into its spec's range (and to an integer for int settings). */
function clampTo(spec: NumberSetting, x: number): number {
  const c = Math.min(spec.max, Math.max(spec.min, x));
  return spec.kind === 'int' ? Math.round(c) : c;
}

/**
 * Settings from untrusted key/value pairs (a URL's query, an imported file). Never throws:
 * unknown keys are ignored, out-of-range numbers are clamped, wrong types fall back to the
 * default — and every such change is named in `notices`, so the page can show it.
 */
export function settingsFromRecord(record: Iterable<[string, string]>, base: Settings = defaultSettings()): { settings: Settings; notices: string[]; applied: string[] } {
  const out = { ...base } as Record<string, number | string | boolean>;
  const notices: string[] = [];
  const applied: string[] = [];
  const retired: [string, string][] = [];
  for (const [key, raw] of record) {
    if (isRetiredKey(key)) {
      retired.push([key, String(raw)]);
      continue;
    }
    const spec = SETTINGS_BY_KEY[key];
    if (!spec) {
      notices.push(`ignored unknown setting "${key.slice(0, 40)}"`);
      continue;
    }
    const r = parseSetting(spec, String(raw));
    if (r.ok) {
      out[key] = r.value;
      applied.push(key);
    } else if ((spec.kind === 'number' || spec.kind === 'int') && Number.isFinite(Number(raw)) && String(raw).trim() !== '') {
      const c = clampTo(spec, Number(raw));
      out[key] = c;
      applied.push(key);
      notices.push(`${r.error}; using ${c}`);
    } else {
      notices.push(`${r.error}; using the default ${String(out[key])}`);
    }
  }
  for (const [key, raw] of retired) {
    const target = RETIRED_KEYS[key];
    const r = parseSetting(SETTINGS_BY_KEY[target], raw);
    if (out.importanceSamplingLevel !== 'sequence') notices.push(`ignored ${key} (a retired key: GSPO's former own clip, unused at the token level)`);
    else if (!r.ok) notices.push(`ignored ${key}: ${r.error}`);
    else {
      out[target] = r.value;
      applied.push(target);
      notices.push(`${key} ${raw} read as ${target}: at the sequence ratio level the clip range is ε / ε_high, as TRL's epsilon`);
    }
  }
  const processNotice = rewardModeNotice(out as unknown as Settings);
  if (processNotice) {
    notices.push(processNotice);
    out.rewardMode = 'outcome';
  }
  return { settings: out as unknown as Settings, notices, applied };
}

/** The settings that differ from the defaults, as key/value strings (for a short URL). */
export function settingsToRecord(s: Settings, all = false): [string, string][] {
  const d = defaultSettings() as unknown as Record<string, unknown>;
  const v = s as unknown as Record<string, unknown>;
  return SETTINGS.filter((spec) => all || v[spec.key] !== d[spec.key]).map((spec) => [spec.key, String(v[spec.key])]);
}

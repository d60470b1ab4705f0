/**
 * TRL's log keys, from 0.14 to today, mapped to one canonical form (TRL 1.x's names).
 * Sources (see e2e/fixtures/trl/README.md): huggingface/trl trl/trainer/grpo_trainer.py (the
 * `_metrics` names of 0.14–1.10), transformers' Trainer (log_history, `eval_` prefix, the summary
 * entry), transformers' WandbCallback `rewrite_logs` (`train/…`, `eval/…` in exported W&B
 * histories), and Unsloth's patched GRPOTrainer (unsloth/models/rl_replacements.py: its
 * compute_loss logs `completion_length` and `kl` itself, beside TRL's own keys).
 *
 *   completion_length            → completions/mean_length     (TRL 0.14–0.16; Unsloth at every version)
 *   rewards/<func>               → rewards/<func>/mean         (TRL 0.14–0.16)
 *   clip_ratio                   → clip_ratio/region_mean      (TRL 0.16–0.17, one clip share)
 *   train/<key>, eval/<key>      → <key>, eval_<key>           (W&B history export)
 *   train/global_step, _step     → step
 */

/** Keys the lab reads: the charts and the doctor (canonical, training side; `eval_` + these on the held-out side). */
/** A completion log the lab reads: at most this many bytes (trlImport picks files by it, trlParquet refuses past it). */
export const MAX_PARQUET_BYTES = 16 << 20;

export const USED_KEYS = new Set([
  'reward', 'reward_std', 'frac_reward_zero_std', 'completions/mean_length', 'completions/clipped_ratio', 'entropy', 'kl',
  'clip_ratio/low_mean', 'clip_ratio/high_mean', 'clip_ratio/region_mean', 'num_tokens', 'loss', 'policy_loss',
]);

/** Keys TRL or the Trainer write that the lab knows but does not draw. */
export const KNOWN_KEYS = new Set([
  'step', 'epoch', 'grad_norm', 'learning_rate', 'num_input_tokens_seen', 'step_time', 'entropy_coef',
  'completions/min_length', 'completions/max_length', 'completions/mean_terminated_length', 'completions/min_terminated_length', 'completions/max_terminated_length',
  'clip_ratio/low_min', 'clip_ratio/high_max',
  'runtime', 'samples_per_second', 'steps_per_second', // eval_runtime, eval_samples_per_second, eval_steps_per_second
]);

/** Keys of the Trainer's end-of-training summary entry (not a step's metrics). */
export const SUMMARY_KEYS = new Set(['train_runtime', 'train_samples_per_second', 'train_steps_per_second', 'total_flos', 'train_loss']);

/** Per reward function: `rewards/<func>/mean` (used) and `rewards/<func>/std` (known). */
const REWARD_KEY = /^rewards\/([^/]{1,120})\/(mean|std)$/;
const OLD_REWARD_KEY = /^rewards\/([^/]{1,120})$/;

/** Where a raw key goes. */
export type KeyRole =
  | { role: 'step' }
  | { role: 'train' | 'eval'; key: string; renamedFrom?: string; rewardFunc?: string }
  | { role: 'summary'; key: string };

/** A training-side key in canonical form, and the old name it had (if any). */
function canonicalTrain(k: string): { key: string; renamedFrom?: string; rewardFunc?: string } {
  if (k === 'completion_length') return { key: 'completions/mean_length', renamedFrom: k };
  if (k === 'clip_ratio') return { key: 'clip_ratio/region_mean', renamedFrom: k };
  const r = REWARD_KEY.exec(k);
  if (r) return { key: k, rewardFunc: r[1] };
  const old = OLD_REWARD_KEY.exec(k);
  if (old) return { key: `rewards/${old[1]}/mean`, renamedFrom: k, rewardFunc: old[1] };
  return { key: k };
}

/** The role and canonical name of a raw log key. */
export function keyRole(raw: string): KeyRole {
  if (raw === 'step' || raw === 'train/global_step' || raw === '_step') return { role: 'step' };
  if (SUMMARY_KEYS.has(raw)) return { role: 'summary', key: raw };
  if (raw.startsWith('train/')) {
    const c = canonicalTrain(raw.slice(6));
    return { role: 'train', ...c, renamedFrom: raw };
  }
  if (raw.startsWith('eval/') || raw.startsWith('eval_')) {
    const inner = raw.slice(5);
    const c = canonicalTrain(inner);
    return { role: 'eval', ...c, ...(c.renamedFrom || raw.startsWith('eval/') ? { renamedFrom: raw } : {}) };
  }
  return { role: 'train', ...canonicalTrain(raw) };
}

/** Whether the lab knows a canonical key (read, or known and not drawn). */
export function keyStatus(key: string): 'used' | 'known' | 'unknown' {
  if (USED_KEYS.has(key)) return 'used';
  const r = REWARD_KEY.exec(key);
  if (r) return r[2] === 'mean' ? 'used' : 'known';
  return KNOWN_KEYS.has(key) ? 'known' : 'unknown';
}

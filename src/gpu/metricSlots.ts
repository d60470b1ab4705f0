/**
 * The step's metrics buffer: 16 floats that trainStep's kernels write and its one readback
 * returns. This table is the ONE place that says which slot holds what. TypeScript reads the
 * slots by it (epochResult, src/gpu/lossPasses.ts), and the WGSL addresses them by the
 * constants generated from it: `const M_LOSS: u32 = 0u;` …, appended by metricSlotsWgsl() to
 * every shader that declares a `metrics` binding (src/gpu/kernels.ts). A shader never indexes
 * `metrics[` with a number (src/gpu/metricSlots.test.ts checks this, the constants it uses, and
 * the policy slots' order).
 *
 *   slot  constant          written by                          read by
 *   0     M_LOSS            loss_reduce | policy_loss_reduce    grad_norm_finalize | adamw_clip_step (finite?), TS
 *   1     M_GRAD_NORM       grad_norm_finalize | adamw_clip_step TS
 *   2     M_FINITE          grad_norm_finalize | adamw_clip_step adamw_step (skip), TS
 *   3     M_CLIP_SCALE      grad_norm_finalize | adamw_clip_step adamw_step (g · scale)
 *   4     M_ENTROPY_SUM     loss_reduce | policy_loss_reduce    TS (mean entropy = 4 / 5)
 *   5     M_MASK_SUM        loss_reduce | policy_loss_reduce    TS
 *   6..14 the policy metrics, POLICY_METRIC_NAMES in order: policy_loss_reduce only
 *   15    M_KL_EXACT        kl_exact_reduce (when π_ref is evaluated)
 */

/** One slot: its index, its WGSL constant, and (for objective metrics) the metric's name in TrainStepResult.metrics. */
export interface MetricSlot {
  readonly slot: number;
  readonly wgsl: `M_${string}`;
  /** Name in TrainStepResult.metrics, where the slot is reported under its own name. */
  readonly metric?: string;
  /** True for the policy objective's metrics (policy_loss_reduce writes them, in slot order). */
  readonly policy?: boolean;
}

export const METRIC_SLOTS = {
  LOSS: { slot: 0, wgsl: 'M_LOSS' },
  GRAD_NORM: { slot: 1, wgsl: 'M_GRAD_NORM' },
  FINITE: { slot: 2, wgsl: 'M_FINITE' },
  CLIP_SCALE: { slot: 3, wgsl: 'M_CLIP_SCALE' },
  ENTROPY_SUM: { slot: 4, wgsl: 'M_ENTROPY_SUM' },
  MASK_SUM: { slot: 5, wgsl: 'M_MASK_SUM' },
  CLIP_LOW: { slot: 6, wgsl: 'M_CLIP_LOW', metric: 'clip_ratio/low_mean', policy: true },
  CLIP_HIGH: { slot: 7, wgsl: 'M_CLIP_HIGH', metric: 'clip_ratio/high_mean', policy: true },
  CLIP_REGION: { slot: 8, wgsl: 'M_CLIP_REGION', metric: 'clip_ratio/region_mean', policy: true },
  KL: { slot: 9, wgsl: 'M_KL', metric: 'kl', policy: true },
  RATIO_MIN: { slot: 10, wgsl: 'M_RATIO_MIN', metric: 'ratio_min', policy: true },
  RATIO_MEAN: { slot: 11, wgsl: 'M_RATIO_MEAN', metric: 'ratio_mean', policy: true },
  RATIO_MAX: { slot: 12, wgsl: 'M_RATIO_MAX', metric: 'ratio_max', policy: true },
  ENTROPY: { slot: 13, wgsl: 'M_ENTROPY', metric: 'entropy', policy: true },
  POLICY_LOSS: { slot: 14, wgsl: 'M_POLICY_LOSS', metric: 'policy_loss', policy: true },
  KL_EXACT: { slot: 15, wgsl: 'M_KL_EXACT', metric: 'kl_exact' },
} as const satisfies Record<string, MetricSlot>;

export type MetricSlotName = keyof typeof METRIC_SLOTS;

/** Slot index by name: M.LOSS = 0, …, M.KL_EXACT = 15. */
export const M = Object.fromEntries(Object.entries(METRIC_SLOTS).map(([k, s]) => [k, s.slot])) as { readonly [K in MetricSlotName]: (typeof METRIC_SLOTS)[K]['slot'] };

/** Floats in the metrics buffer (its allocation and trainStep's readback). */
export const METRIC_FLOATS = 16;

const SLOTS: readonly MetricSlot[] = Object.values(METRIC_SLOTS);

/** The policy objective's metric slots, in slot order (policy_loss_reduce writes them). */
export const POLICY_METRIC_SLOTS: readonly MetricSlot[] = SLOTS.filter((s) => s.policy).sort((a, b) => a.slot - b.slot);

/** Names of the policy objective's metrics in slot order; the same names as policyObjective's (src/model/objective.ts). */
export const POLICY_METRIC_NAMES = POLICY_METRIC_SLOTS.map((s) => s.metric!) as readonly string[];

/** The WGSL constants of the table, one `const M_…: u32 = Nu;` per slot. */
export function metricSlotsWgsl(): string {
  const lines = SLOTS.map((s) => `const ${s.wgsl}: u32 = ${s.slot}u;`);
  return `// metric slots, generated from src/gpu/metricSlots.ts\n${lines.join('\n')}\nconst METRIC_FLOATS: u32 = ${METRIC_FLOATS}u;\n`;
}

/** Whether a shader declares the metrics buffer (and so gets the slot constants). */
export function declaresMetrics(code: string): boolean {
  return /var<storage[^>]*>\s*metrics\s*:/.test(code);
}

/**
 * The shader source as compiled: the constants are APPENDED (WGSL module-scope declarations may
 * come in any order), so line numbers in compiler messages still match the file.
 */
export function withMetricSlots(code: string): string {
  return declaresMetrics(code) ? `${code}\n${metricSlotsWgsl()}` : code;
}

/**
 * The GRPO run doctor: the lab's stop signals (stopSignals.ts, unchanged) run on a run trained
 * elsewhere — TRL's log_history, read one way by src/persist/trlImport.ts into the canonical form
 * below — step by step, so that the first logged step where each signal fires is known.
 *
 * The canonical form names every metric by TRL 1.x's key (`completions/mean_length`,
 * `rewards/<func>/mean`, …): the decoder maps older names onto these (`completion_length`,
 * `rewards/<func>`). The adapter turns it into the lab's StepMetrics/EvalMetrics:
 *   reward, reward_std, entropy, kl, clip_ratio/*            the same names
 *   frac_mixed = 1 − frac_reward_zero_std                    the mixed-group fraction, valid for pass/fail rewards
 *   accuracy = rewards/<f>/mean of the pass/fail reward       (a reward function named like accuracy/correct), else `reward`,
 *                                                             and only while every value is in [0, 1] (a game score is not an accuracy)
 *   mean_length = completions/mean_length, clipped_ratio = completions/clipped_ratio
 *   held-out accuracy = eval_rewards/<f>/mean of that function, else eval_reward (in [0, 1] too)
 * Numbers TRL did not log stay NaN (a gap on a chart, never a 0 that looks measured).
 * Pure: no DOM, no store.
 */
import type { EvalMetrics, StepMetrics } from './metrics.ts';
import { DEFAULT_STOP_OPTIONS, detectStopSignals, type StopSignal, type StopSignalOptions } from './stopSignals.ts';
import { signed } from './format.ts';

/** One logged step: its canonical keys and values (NaN where TRL wrote null, NaN or Infinity). */
export interface TrlEntry {
  step: number;
  values: Record<string, number>;
}

/** One completion of a completion log (`completions/completions_NNNNN.parquet`). */
export interface TrlCompletion {
  prompt: string;
  completion: string;
  /** One value per reward function column (NaN where the function gave None). */
  rewards: Record<string, number>;
  advantage: number;
}

/** One completion log: the G completions of each prompt, grouped by the prompt's text (TRL repeats it G times). */
export interface TrlCompletionStep {
  step: number;
  file: string;
  groups: { prompt: string; answers: TrlCompletion[] }[];
  /** Reward columns (one per reward function, named after it). */
  rewardColumns: string[];
  /** Other columns the log carried (extra dataset fields). */
  extraColumns: string[];
}

/** An outside run in the lab's one canonical form. */
export interface TrlRun {
  /** The file (or folder) it came from, as shown. */
  name: string;
  /** Files read, and their roles. */
  sources: { file: string; kind: 'trainer_state' | 'jsonl' | 'log_history' | 'completions' }[];
  /** Training log entries (train metrics only), in step order, one per step. */
  train: TrlEntry[];
  /** Evaluation entries, `eval_` stripped from the keys, in step order. */
  evals: TrlEntry[];
  /** Reward functions named by the log (`rewards/<func>/mean`) or by the completion logs' columns. */
  rewardFuncs: string[];
  completions: TrlCompletionStep[];
  keys: {
    /** Keys the lab reads (charts, doctor), canonical names. */
    used: string[];
    /** Keys the lab knows (TRL's and the Trainer's) but does not draw. */
    known: string[];
    /** Old or wrapper names mapped to canonical ones: "completion_length → completions/mean_length". */
    renamed: string[];
    /** Keys the lab does not know: listed, not used. */
    unknown: string[];
  };
  /** The end-of-training summary entry (train_runtime, …), if any. */
  summary: Record<string, number>;
  /** Sentences about what was read, thinned or skipped. */
  notices: string[];
}

/** The shapes detectStopSignals reads, and which TRL keys stood in for accuracy and held-out. */
export interface LabHistories {
  steps: StepMetrics[];
  evals: EvalMetrics[];
  /** The key read as accuracy (a pass/fail reward's mean) — or `reward` when no reward function looks like one; null when its values leave [0, 1]. */
  accuracyKey: string | null;
  /** Why no key is read as accuracy (or held-out accuracy): the one that would be leaves [0, 1]. */
  accuracyNote: string | null;
  /** The key read as held-out accuracy, or null without evaluations (or when its values leave [0, 1]). */
  heldoutKey: string | null;
}

/** Names of pass/fail rewards, strongest first (a format reward named "match_format_exactly" is not accuracy). */
const PASS_FAIL = [/accura|correct/i, /answer|solv|verif|pass/i, /exact|match/i];
const FORMAT = /format|length|xml|style|think/i;

/** The reward function read as pass/fail accuracy: the first named like one (format rewards aside), or the only one. */
export function accuracyFunc(run: Pick<TrlRun, 'rewardFuncs'>): string | null {
  for (const re of PASS_FAIL) {
    const f = run.rewardFuncs.find((x) => re.test(x) && !FORMAT.test(x));
    if (f) return f;
  }
  return run.rewardFuncs.length === 1 ? run.rewardFuncs[0] : null;
}

const NUMERIC_KEYS: (keyof StepMetrics)[] = [
  'reward', 'reward_std', 'frac_reward_zero_std', 'frac_all_pass', 'frac_all_fail', 'frac_mixed', 'mixed_predicted', 'mixed_predicted_per_prompt',
  'accuracy', 'entropy', 'kl', 'kl_exact', 'clip_ratio/low_mean', 'clip_ratio/high_mean', 'clip_ratio/region_mean', 'ratio_min', 'ratio_mean', 'ratio_max',
  'grad_norm', 'policy_loss', 'mean_length', 'length_correct_mean', 'length_correct_min', 'length_correct_max', 'length_incorrect_mean', 'length_incorrect_min',
  'length_incorrect_max', 'clipped_ratio', 'process_reward', 'wrong_dlogp_long_per_token', 'wrong_dlogp_short_per_token', 'wrong_pairs', 'wrong_pairs_long_moved_less',
  'think_fraction', 'accuracy_think', 'accuracy_direct', 'tokens_generated', 'num_tokens', 'prompts_drawn', 'rollout_ms', 'verify_ms', 'update_ms',
];

/** A StepMetrics with every number NaN: what the lab cannot know about an outside run stays unknown. */
function blankStep(step: number): StepMetrics {
  const m = Object.fromEntries(NUMERIC_KEYS.map((k) => [k, NaN])) as unknown as StepMetrics;
  m.step = step;
  m.finite = true;
  return m;
}

const val = (e: TrlEntry | undefined, k: string) => (e && Object.prototype.hasOwnProperty.call(e.values, k) ? e.values[k] : NaN);

/** All-pass / all-fail shares of a completion log's groups under a 0/1 reward column, or null when the column is not pass/fail. */
export function passFailShares(c: TrlCompletionStep, func: string): { allPass: number; allFail: number } | null {
  if (!c.groups.length || !c.rewardColumns.includes(func)) return null;
  let pass = 0, fail = 0;
  for (const g of c.groups) {
    const r = g.answers.map((a) => a.rewards[func]);
    if (!r.every((x) => x === 0 || x === 1)) return null;
    if (r.every((x) => x === 1)) pass++;
    else if (r.every((x) => x === 0)) fail++;
  }
  return { allPass: pass / c.groups.length, allFail: fail / c.groups.length };
}

/** A number as the doctor's sentences print it (3 significant digits, a true minus). */
const num = (x: number) => String(Number(x.toPrecision(3))).replace('-', '−');

/** The range of a key's finite values, or null when it has none. */
function range(entries: readonly TrlEntry[], k: string): [number, number] | null {
  let lo = Infinity, hi = -Infinity;
  for (const e of entries) {
    const x = val(e, k);
    if (Number.isFinite(x)) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
  }
  return lo <= hi ? [lo, hi] : null;
}
/** Only a reward in [0, 1] is an accuracy (a pass rate): a score outside it is not read as one. */
const isRate = (r: [number, number] | null) => !r || (r[0] >= 0 && r[1] <= 1);

/** The run in the shapes the stop signals and the charts read. */
export function labHistories(run: Pick<TrlRun, 'train' | 'evals' | 'rewardFuncs' | 'completions'>): LabHistories {
  const acc = accuracyFunc(run);
  const candidate = acc ? `rewards/${acc}/mean` : 'reward';
  const span = range(run.train, candidate);
  const accuracyKey = isRate(span) ? candidate : null;
  let accuracyNote = accuracyKey ? null : `\`${candidate}\` runs from ${num(span![0])} to ${num(span![1])}: only a reward in [0, 1] is read as an accuracy, so no accuracy is read (the signals that need one are not checked)`;
  const logged = new Map(run.completions.map((c) => [c.step, c]));
  const steps = run.train.map((e) => {
    const m = blankStep(e.step);
    const v = (k: string) => val(e, k);
    m.reward = v('reward');
    m.reward_std = v('reward_std');
    m.frac_reward_zero_std = v('frac_reward_zero_std');
    m.frac_mixed = 1 - m.frac_reward_zero_std;
    m.accuracy = accuracyKey ? v(accuracyKey) : NaN;
    m.entropy = v('entropy');
    m.kl = v('kl');
    m['clip_ratio/low_mean'] = v('clip_ratio/low_mean');
    m['clip_ratio/high_mean'] = v('clip_ratio/high_mean');
    m['clip_ratio/region_mean'] = v('clip_ratio/region_mean');
    m.grad_norm = v('grad_norm');
    m.policy_loss = Number.isFinite(v('policy_loss')) ? v('policy_loss') : v('loss');
    m.mean_length = v('completions/mean_length');
    m.clipped_ratio = v('completions/clipped_ratio');
    m.num_tokens = v('num_tokens');
    const c = acc ? logged.get(e.step) : undefined;
    const shares = c && acc ? passFailShares(c, acc) : null;
    if (shares) {
      m.frac_all_pass = shares.allPass;
      m.frac_all_fail = shares.allFail;
    }
    return m;
  });
  let heldoutKey = run.evals.length ? (acc && run.evals.some((e) => Number.isFinite(val(e, `rewards/${acc}/mean`))) ? `eval_rewards/${acc}/mean` : 'eval_reward') : null;
  const inner = heldoutKey?.replace(/^eval_/, '') ?? '';
  const heldSpan = heldoutKey ? range(run.evals, inner) : null;
  if (heldoutKey && !isRate(heldSpan)) {
    const why = `\`${heldoutKey}\` runs from ${num(heldSpan![0])} to ${num(heldSpan![1])}: not a held-out accuracy in [0, 1], so it is not read as one`;
    accuracyNote = accuracyNote ? `${accuracyNote}; ${why}` : why;
    heldoutKey = null;
  }
  const evals: EvalMetrics[] = heldoutKey === null ? [] : run.evals
    .filter((e) => Number.isFinite(val(e, inner)))
    .map((e) => ({ step: e.step, heldout_accuracy: val(e, inner), pass_at_k: {}, by_difficulty: {}, mean_length: val(e, 'completions/mean_length'), samples: [] }));
  return { steps, evals, accuracyKey, accuracyNote: accuracyNote && `${accuracyNote}.`, heldoutKey: evals.length ? heldoutKey : null };
}

export type SignalId = StopSignal['id'];

/** The doctor's names for the signals (the chapter's words). */
export const SIGNAL_LABELS: Record<SignalId, string> = {
  'reward-without-heldout': 'training reward rises without held-out improvement',
  'mixed-groups-vanishing': 'mixed groups disappear',
  'entropy-collapse': 'entropy collapses',
  'length-without-accuracy': 'length grows without accuracy',
  'heldout-falling': 'held-out accuracy falls',
};

/** Where one stop signal fires on the run. */
export interface DoctorFinding {
  id: SignalId;
  label: string;
  chart: StopSignal['chart'];
  /** The first logged step at which it fires for at least `minSpan` logged steps in a row (the signal looks at the run up to that step). */
  firstStep: number;
  /** The last step checked at which it fires, and the stretches of checked steps where it does (each at least `minSpan` logged steps long). */
  lastStep: number;
  spans: [number, number][];
  /** It still fires at the run's last step. */
  atEnd: boolean;
  /** Why, in TRL's names, with the numbers at the first firing. */
  message: string;
  evidence: Record<string, number>;
}

export interface Diagnosis {
  findings: DoctorFinding[];
  /** Logged steps between two checks (1: every logged step). */
  checkedEvery: number;
  checks: number;
  window: number;
  /** The thresholds used (importedOptions unless given). */
  options: StopSignalOptions;
  /** A signal counts where it fires for at least this many logged steps in a row (one step is not a trend). */
  minSpan: number;
  accuracyKey: string | null;
  /** Why no accuracy (or held-out accuracy) is read, when none is. */
  accuracyNote: string | null;
  heldoutKey: string | null;
  /** Why nothing could fire (no training log, or too few logged steps for the windows); null when the run was checked. */
  notChecked: string | null;
}

/** Checks at most this many prefixes (each costs O(steps)): longer runs are checked every k-th logged step. */
export const MAX_CHECKS = 1500;

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

/** The signal's sentence in TRL's names (the lab's own sentences name the lab's measures). */
function message(sig: StopSignal, h: LabHistories, w: number): string {
  const e = sig.evidence;
  const acc = h.accuracyKey === 'reward' ? '`reward` (no reward function looks like pass/fail accuracy)' : `\`${h.accuracyKey}\``;
  switch (sig.id) {
    case 'reward-without-heldout':
      return `Training \`reward\` rose by ${f2(e.reward_end - e.reward_start)} (mean of the first vs the last ${w} logged steps) while held-out \`${h.heldoutKey}\` moved ${signed(e.heldout_end - e.heldout_start)} (first vs last evaluation): is the verifier being gamed, or the training prompts memorised?`;
    case 'length-without-accuracy':
      return `\`completions/mean_length\` grew by ${(e.length_end - e.length_start).toFixed(1)} tokens while ${acc} changed ${signed(e.accuracy_end - e.accuracy_start)}: length is not paying for itself (length bias?).`;
    case 'mixed-groups-vanishing': {
      const logged = h.steps.filter((m) => m.step <= sig.step && Number.isFinite(m.frac_all_pass)).at(-1);
      const split = logged ? ` In the completion log of step ${logged.step}, ${(logged.frac_all_pass * 100).toFixed(0)}% of groups are all-pass and ${(logged.frac_all_fail * 100).toFixed(0)}% all-fail: ${logged.frac_all_pass >= logged.frac_all_fail ? 'the prompts are mastered (harder ones would teach).' : 'the prompts are too hard for the model (easier ones, or a larger G).'}` : '';
      return `Only ${(e.mixed_end * 100).toFixed(0)}% of groups are mixed over the last ${w} logged steps (1 − \`frac_reward_zero_std\`, valid for pass/fail rewards): most groups give zero advantage, so GRPO's signal is nearly gone.${split}`;
    }
    case 'entropy-collapse':
      return `\`entropy\` fell from ${e.entropy_start.toFixed(3)} to ${e.entropy_end.toFixed(3)} nats per token: the policy has nearly stopped exploring (β > 0, a narrower ε, or an entropy bonus — TRL's \`entropy_coef\`).`;
    case 'heldout-falling':
      return `Held-out \`${h.heldoutKey}\` fell from ${f2(e.heldout_start)} to ${f2(e.heldout_last_two)} (last two evaluations): the updates are making the policy worse.`;
  }
}

const finite = (e: Record<string, number>) => Object.fromEntries(Object.entries(e).filter(([, v]) => Number.isFinite(v)));

/**
 * The lab's thresholds, but with the length rise relative to the run's answers: the lab's 1.5
 * tokens suits its answers of a few tokens; an outside run's answers of hundreds of tokens must
 * grow by a tenth of their starting length (the mean of the first window) to count.
 */
export function importedOptions(h: Pick<LabHistories, 'steps'>, base: StopSignalOptions = DEFAULT_STOP_OPTIONS): StopSignalOptions {
  const first = h.steps.map((s) => s.mean_length).filter(Number.isFinite).slice(0, base.window);
  const start = first.length ? first.reduce((a, b) => a + b, 0) / first.length : 0;
  return { ...base, lengthRise: Math.max(base.lengthRise, 0.1 * start) };
}

/** A signal fires for at least this share of the window in a row to count (window 10: 5 logged steps). */
export const minSpan = (o: StopSignalOptions) => Math.max(2, Math.ceil(o.window / 2));

/** Why the signals could not fire on this run, or null. */
function notChecked(h: LabHistories, o: StopSignalOptions): string | null {
  const n = h.steps.length;
  if (!n) return 'Nothing was checked: the stop signals read the logged metrics of a training log (trainer_state.json or a log JSONL), and this import has none (completion logs alone do not carry them).';
  if (n < 2 * o.window && h.evals.length < 3) return `Nothing could fire: the stop signals compare the first and the last ${o.window} logged steps, and the log has ${n} logged step${n === 1 ? '' : 's'} (at least ${2 * o.window} are needed).`;
  return null;
}

/**
 * Run the stop signals on every prefix of the run (every `checkedEvery`-th logged step when it
 * is long), each seeing the logged steps and the evaluations up to that step. A signal that fires
 * for fewer than minSpan logged steps in a row is a blip, not a trend: it is not a finding.
 */
export function diagnose(run: Pick<TrlRun, 'train' | 'evals' | 'rewardFuncs' | 'completions'>, options?: StopSignalOptions): Diagnosis {
  const h = labHistories(run);
  const o = options ?? importedOptions(h);
  const n = h.steps.length;
  const every = Math.max(1, Math.ceil(n / MAX_CHECKS));
  const least = minSpan(o);
  /** Each signal's stretches of consecutive checks where it fires: logged-step indices, and the signal at the stretch's start. */
  const runs = new Map<SignalId, { from: number; to: number; sig: StopSignal }[]>();
  const checked: number[] = [];
  for (let i = 0; i < n; i += every) checked.push(i);
  if (n && checked[checked.length - 1] !== n - 1) checked.push(n - 1); // the last step is always checked
  let evalsSeen = 0, prev = -1;
  for (const i of checked) {
    const step = h.steps[i].step;
    while (evalsSeen < h.evals.length && h.evals[evalsSeen].step <= step) evalsSeen++;
    for (const sig of detectStopSignals(h.steps.slice(0, i + 1), h.evals.slice(0, evalsSeen), o)) {
      const list = runs.get(sig.id) ?? [];
      const last = list.at(-1);
      if (last && last.to === prev) last.to = i; // fired at the previous check too: the same stretch
      else list.push({ from: i, to: i, sig });
      runs.set(sig.id, list);
    }
    prev = i;
  }
  const end = n - 1;
  const findings: DoctorFinding[] = [];
  for (const [id, list] of runs) {
    // a stretch's length in logged steps: a check stands for the `every` logged steps up to the next one (the last check for itself)
    const kept = list.filter((r) => (r.to === end ? end + 1 : r.to + every) - r.from >= least);
    if (!kept.length) continue;
    const first = kept[0].sig;
    const stepOf = (i: number) => h.steps[i].step;
    findings.push({
      id, label: SIGNAL_LABELS[id], chart: first.chart, firstStep: stepOf(kept[0].from), lastStep: stepOf(kept.at(-1)!.to),
      spans: kept.map((r) => [stepOf(r.from), stepOf(r.to)]), atEnd: kept.at(-1)!.to === end, message: message(first, h, o.window), evidence: finite(first.evidence),
    });
  }
  findings.sort((a, b) => a.firstStep - b.firstStep);
  return { findings, checkedEvery: every, checks: checked.length, window: o.window, options: o, minSpan: least, accuracyKey: h.accuracyKey, accuracyNote: h.accuracyNote, heldoutKey: h.heldoutKey, notChecked: notChecked(h, o) };
}

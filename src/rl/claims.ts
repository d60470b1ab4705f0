/**
 * A lesson is an experiment: a claim about one number, judged once at a fixed step with its
 * uncertainty. Each lesson variant says what its run must show, in words, and as one number (the
 * claim number) on one side of a threshold. At the verdict step (Claim.steps; every variant of a
 * lesson shares it: contract.ts) the run is judged once:
 *
 *   holds    the number's 90 % interval lies wholly on the claim's side of the threshold
 *   fails    wholly on the other side (or the policy never moved, or a lesson that promises no
 *            wreck wrecked held-out accuracy)
 *   unclear  the interval straddles the threshold: more steps, or the class pool, would settle it
 *
 * The interval is a bootstrap over the run's own evidence (interval.ts): the held-out prompts of
 * the contract's two evaluations, resampled in pairs (the same prompts and draws at step 0 and at
 * the verdict step), and the steps of a trend, resampled within each window (early, middle, late).
 * Views read the verdict judged at the step and never judge a longer run: judge() reads only the
 * run's first `steps` steps and the evaluations up to them.
 *
 * Windows: "early" is the mean of the first quarter of the steps to the verdict (at least 3),
 * "late" the mean of the last quarter; the verdict's number says its window (VerdictNumber.window).
 */
import type { EvalMetrics, StepMetrics } from './metrics.ts';
import { heldoutMeasure } from './stopSignals.ts';
import { blockIndices, bootstrap, LEVEL, pairedDiff, stepBlockLength, verdictFrom } from './interval.ts';
import { passAtK } from '../tasks/metrics.ts';
import { fmt2, signed } from './format.ts';

/** What a claim is judged on: the run's recorded steps and evaluations. */
export interface RunRecord {
  steps: readonly StepMetrics[];
  evals: readonly (Pick<EvalMetrics, 'step' | 'heldout_accuracy'> & Partial<Pick<EvalMetrics, 'pass_at_k' | 'mean_length' | 'watch' | 'contract' | 'per_prompt'>>)[];
}

/** A claim's number: what the claim says, as one number against one threshold. */
export interface ClaimNumber {
  /** The number in a few words ("held-out pass@1 (sampled), end − start"). */
  what: string;
  of(evidence: Record<string, number>): number;
  threshold: number;
  /** Where the claim puts its number: above the threshold (strictly), or at or below it. */
  side: 'above' | 'below';
}

/** The claim number as judged: its value, 90 % interval, threshold and the window it reads. */
export interface VerdictNumber {
  what: string;
  value: number;
  lo: number;
  hi: number;
  threshold: number;
  side: 'above' | 'below';
  /** The steps and evaluations the number reads, in words ("steps 1–7 → 24–30; held-out: 256 prompts at step 0 and 30"). */
  window: string;
}

export type VerdictState = 'holds' | 'fails' | 'unclear';

export interface ClaimVerdict {
  /** pending: the run has not reached the verdict step. */
  state: VerdictState | 'pending';
  /** "At step 30: …", with the run's own numbers. */
  sentence: string;
  /** The numbers the verdict rests on, by name (two decimals, as printed). */
  evidence: Record<string, number>;
  /** The same numbers unrounded, as the sentence computed with them (the card's contrast reads these). */
  measured: Record<string, number>;
  /** The claim number with its interval (pending: the value so far, no interval). */
  number: VerdictNumber;
  /** The verdict step. */
  step: number;
  /** When it has not shown: what to try. */
  hint?: string;
  /** Unclear: what would settle it. */
  settle?: string;
}

export interface Claim {
  /** The claim in words (no figures from other runs). */
  text: string;
  /** Its number against its threshold: the verdict is this number's interval against the threshold. */
  number: ClaimNumber;
  /** Whether a number lies on the claim's side of its threshold (a run's point estimate). */
  holdsOn(evidence: Record<string, number>): boolean;
  /** The verdict step: the verdict is pending before it and judged on the run truncated at it. */
  steps: number;
  /** How often it shows, when the effect is noisy by nature (said on the card). */
  frequency?: string;
  /** Its text says held-out accuracy may fall: the one wreck rule (heldoutWreck) does not fail it. */
  promisesWreck: boolean;
  /** The verdict on a run at its verdict step; `steps` overrides it (the null test judges short runs). */
  judge(run: RunRecord, o?: { steps?: number; reps?: number }): ClaimVerdict;
  /** The claim's numbers on a run (no interval): what its verdict quotes, read on the run up to its verdict step (a lesson's contrast reads these, resampled). */
  evidence(run: RunRecord): Record<string, number>;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const finite = (xs: number[]) => xs.filter(Number.isFinite);
/** Steps in each of the early and late windows of a run of n steps: a quarter, at least 3 (all of them below 3). */
export const windowSize = (n: number) => Math.min(n, Math.max(3, Math.floor(n / 4)));
/** Mean of f over the first (or last) window of steps, skipping non-finite values. */
export const early = (run: RunRecord, f: (m: StepMetrics) => number) => mean(finite(run.steps.slice(0, windowSize(run.steps.length)).map(f)));
export const late = (run: RunRecord, f: (m: StepMetrics) => number) => mean(finite(run.steps.slice(-windowSize(run.steps.length)).map(f)));
export const overall = (run: RunRecord, f: (m: StepMetrics) => number) => mean(finite(run.steps.map(f)));
const r2 = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(2)) : x);

/** The evaluations a contract read in full (at step 0 and at the verdict step), when the run has both. */
export const contractEvals = (run: RunRecord) => {
  const c = run.evals.filter((e) => e.contract && e.per_prompt);
  return c.length >= 2 ? { start: c[0], end: c[c.length - 1] } : null;
};

/**
 * Held-out accuracy at the start and at the end: pass@1 of the sampled answers where the
 * evaluations have it (G samples per prompt, the precise estimate), else greedy accuracy. With a
 * contract (a lesson run), its two full evaluations: step 0 and the verdict step, 256 prompts. A
 * run without one: the first evaluation against the mean of the last two after it.
 */
export function heldout(run: RunRecord): { start: number; end: number; sampled: boolean } | null {
  const c = contractEvals(run);
  if (c) {
    const { sampled, of: acc } = heldoutMeasure([c.start, c.end]);
    return { start: acc(c.start), end: acc(c.end), sampled };
  }
  if (run.evals.length < 2) return null;
  const { sampled, of: acc } = heldoutMeasure(run.evals); // the stop signal's rule too
  const start = acc(run.evals[0]);
  const end = mean(run.evals.slice(Math.max(1, run.evals.length - 2)).map(acc));
  return { start, end, sampled };
}

/** Held-out accuracy (greedy) at the start and at the end, read as heldout() reads pass@1. */
export function heldoutGreedy(run: RunRecord): { start: number; end: number } {
  const c = contractEvals(run);
  if (c) return { start: c.start.heldout_accuracy, end: c.end.heldout_accuracy };
  const acc = run.evals.map((e) => e.heldout_accuracy);
  return acc.length >= 2
    ? { start: acc[0], end: mean(acc.slice(Math.max(1, acc.length - 2))) }
    : { start: NaN, end: NaN };
}

/** Below this largest KL to π_ref over the run, the policy did not move (a null run: exactly 0). */
export const MOVED_KL = 1e-6;
/**
 * The one wreck rule, for the verdict and for `npm run lessons`' table alike: a run wrecked the
 * model when its held-out accuracy (greedy, the contract's 256 prompts, paired prompt by prompt
 * from step 0 to the verdict step) fell by more than this with the whole 90 % interval of
 * end − start below −HELDOUT_WRECK. A claim that does not promise a wreck (its `promisesWreck`)
 * fails on a wrecked run: a lesson about X must not silently destroy the model.
 */
export const HELDOUT_WRECK = 0.1;

/** Held-out accuracy (greedy) at step 0 and at the verdict step with the 90 % interval of the change, and whether that is a wreck (null: the run has no contract evaluations). */
export function heldoutWreck(run: RunRecord, reps = 1000): { start: number; end: number; lo: number; hi: number; wrecked: boolean } | null {
  const c = contractEvals(run);
  if (!c) return null;
  const d = pairedDiff(c.start.per_prompt!.greedy, c.end.per_prompt!.greedy, { reps });
  return { start: c.start.heldout_accuracy, end: c.end.heldout_accuracy, lo: d.lo, hi: d.hi, wrecked: isWreck(d.hi) };
}
/** The rule on the interval's upper end of held-out accuracy's change (greedy, end − start). */
export const isWreck = (hi: number) => hi < -HELDOUT_WRECK;

/**
 * The run up to its verdict step: its first `steps` steps and the evaluations up to and including
 * the one after them. A step is numbered by the updates before it (steps 0–39 of a 40-step run) and
 * an evaluation by the updates before it too, so the verdict-step evaluation of a 40-step verdict
 * is at 40: the run truncated at 40 steps keeps it, exactly the run the verdict was judged on when
 * it stopped there.
 */
export function truncateRun(run: RunRecord, steps: number): RunRecord {
  if (run.steps.length <= steps) return run;
  const after = (run.steps[steps - 1]?.step ?? -1) + 1;
  return { steps: run.steps.slice(0, steps), evals: run.evals.filter((e) => e.step <= after) };
}

/** Per evaluation, each prompt's pass@k for each k (computed once: a verdict resamples the prompts a thousand times). */
const passTables = new WeakMap<object, Record<string, Float64Array>>();
function passTable(e: RunRecord['evals'][number]): Record<string, Float64Array> {
  let t = passTables.get(e);
  if (!t) {
    const p = e.per_prompt!;
    t = Object.fromEntries(Object.keys(e.pass_at_k ?? {}).map((k) => [k, Float64Array.from(p.correct, (c) => passAtK(p.G, c, Number(k)))]));
    passTables.set(e, t);
  }
  return t;
}

/** An evaluation recomputed on resampled prompts (its per-prompt results at `idx`). */
function resampledEval<E extends RunRecord['evals'][number]>(e: E, idx: Int32Array): E {
  const p = e.per_prompt!;
  const at = (xs: ArrayLike<number>) => { let s = 0; for (let j = 0; j < idx.length; j++) s += xs[idx[j]]; return s / idx.length; };
  const pass: Record<string, number> = {};
  for (const [k, table] of Object.entries(passTable(e))) pass[k] = at(table);
  return {
    ...e,
    heldout_accuracy: at(p.greedy),
    pass_at_k: pass,
    ...(e.watch && p.watch_correct ? { watch: { ...e.watch, pass1: at(p.watch_correct) / p.G } } : {}),
  };
}

/**
 * One bootstrap resample of a run: its steps drawn with replacement within each window (the
 * early and late windows, and the steps between) in blocks of neighbouring steps (interval.ts'
 * blockIndices, circular within the window, stepBlockLength long: one step, i.i.d., in windows under
 * 8 steps, where blocks only narrow the interval), its contract evaluations' prompts drawn with
 * replacement, the same prompts at both ends (paired).
 */
export function resampleRun(run: RunRecord, draw: (n: number) => Int32Array, prompts?: Int32Array): RunRecord {
  const n = run.steps.length, w = windowSize(n);
  const strata = n >= 2 * w ? [[0, w], [w, n - w], [n - w, n]] : [[0, n]];
  const steps: StepMetrics[] = [];
  for (const [a, b] of strata) if (b > a) for (const i of blockIndices(draw, b - a, stepBlockLength(b - a))) steps.push(run.steps[a + i]);
  const sized = run.evals.find((e) => e.per_prompt);
  if (!sized) return { steps, evals: run.evals };
  // `prompts`: the indices another run drew (a contrast pairs two runs on the same held-out prompts)
  const idx = prompts && prompts.length === sized.per_prompt!.greedy.length ? prompts : draw(sized.per_prompt!.greedy.length);
  return { steps, evals: run.evals.map((e) => (e.per_prompt && e.per_prompt.greedy.length === idx.length ? resampledEval(e, idx) : e)) };
}

/** The window a verdict's number reads, in words. */
function windowWords(run: RunRecord): string {
  // numbered as the charts draw them: a step at the number of updates before it (its answers were
  // sampled from that policy), so a 40-step run's steps are 0–39 and its held-out points 0 and 40
  const n = run.steps.length, w = windowSize(n);
  const at = (i: number) => run.steps[i].step;
  const steps = n ? `early = mean of steps ${at(0)}–${at(w - 1)}, late = mean of steps ${at(n - w)}–${at(n - 1)}` : 'no steps yet';
  const c = contractEvals(run);
  const held = c ? `; held-out: ${c.end.per_prompt!.greedy.length} prompts, the same prompts and draws at step ${c.start.step} and step ${c.end.step}` : '';
  return steps + held;
}

/**
 * A claim from its parts: `measure` turns the run into named numbers, `number` says which one the
 * claim is about and where its threshold is, `sentence` says them. Unless `promisesWreck`, the verdict
 * also fails on a wrecked run (heldoutWreck) (a lesson about X must not
 * silently destroy the model); any claim fails on a run whose policy never moved (a claim about
 * what training does needs training).
 */
export function claim(o: {
  text: string;
  steps: number;
  number: ClaimNumber;
  frequency?: string;
  /** The claim's text says held-out accuracy may fall (the failure the lesson exists to show): the wreck rule does not apply. */
  promisesWreck?: boolean;
  measure: (run: RunRecord) => Record<string, number>;
  sentence: (e: Record<string, number>) => string;
  hint: string;
}): Claim {
  /** The claim's numbers on a run: its own measure and the run-level readings every verdict quotes. */
  const evidenceOf = (run: RunRecord) => {
    const e = o.measure(run);
    const h = heldout(run);
    Object.assign(e, { accuracy_start: early(run, (m) => m.accuracy), accuracy_end: late(run, (m) => m.accuracy) });
    if (h) Object.assign(e, h.sampled ? { heldout_pass1_start: h.start, heldout_pass1_end: h.end } : { heldout_start: h.start, heldout_end: h.end });
    return e;
  };
  const onSide = (x: number) => (o.number.side === 'above' ? x > o.number.threshold : x <= o.number.threshold);
  return {
    text: o.text,
    steps: o.steps,
    number: o.number,
    frequency: o.frequency,
    promisesWreck: o.promisesWreck ?? false,
    holdsOn: (e) => onSide(o.number.of(e)),
    evidence: (run) => evidenceOf(truncateRun(run, o.steps)),
    judge(full, opts = {}) {
      const needed = opts.steps ?? o.steps;
      const run = truncateRun(full, needed);
      const n = run.steps.length;
      const e = evidenceOf(run);
      const klMeasured = run.steps.some((m) => Number.isFinite(m.kl_exact));
      const kl = Math.max(0, ...run.steps.map((m) => (Number.isFinite(m.kl_exact) ? m.kl_exact : 0)));
      e.kl_max = kl;
      const evidence = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, r2(v)]));
      const value = o.number.of(e);
      const base = { what: o.number.what, value, threshold: o.number.threshold, side: o.number.side, window: windowWords(run) };
      const at = (lo: number, hi: number): VerdictNumber => ({ ...base, lo, hi });
      // before its step: pending, quoting the run's numbers only once every one of them exists
      if (n < needed) {
        const said = Object.values(e).every((v) => Number.isFinite(v)) ? ` So far: ${o.sentence(e)} in ${n} step${n === 1 ? '' : 's'}.` : '';
        return { state: 'pending', sentence: `Pending — the verdict comes at step ${needed} (now ${n}).${said}`, evidence, measured: e, number: at(NaN, NaN), step: needed };
      }
      const iv = bootstrap((draw) => o.number.of(evidenceOf(resampleRun(run, draw))), value, { reps: opts.reps ?? 1000 });
      const number = at(iv.lo, iv.hi);
      const said = `At step ${needed}: ${o.sentence(e)}`;
      const reading = `The claim's number, ${o.number.what}: ${signedOrPlain(value, o.number)} (${Math.round(LEVEL * 100)} % interval ${signedOrPlain(iv.lo, o.number)} to ${signedOrPlain(iv.hi, o.number)}; the claim puts it ${thresholdWords(o.number)})`;
      // a claim about what training does needs training: a policy that never left π_ref (η = 0, a
      // null run) shows nothing, whatever its numbers say (measured whenever the KL is: β > 0 or measureKl)
      if (klMeasured && !(kl > MOVED_KL)) return { state: 'fails', sentence: `${said}, but the policy never moved from π_ref (KL ${kl.toExponential(0)}): nothing was learned ✗`, evidence, measured: e, number, step: needed, hint: 'The learning rate η may be 0, or every group was all-pass or all-fail: check η and the groups chart.' };
      const w = o.promisesWreck ? null : heldoutWreck(run, opts.reps ?? 1000);
      if (w?.wrecked) return { state: 'fails', sentence: `${said}, but held-out accuracy (greedy) fell ${fmt2(w.start)} → ${fmt2(w.end)} (by ${fmt2(-w.hi)} to ${fmt2(-w.lo)}, 90 % interval): the run wrecked the model ✗`, evidence, measured: e, number, step: needed, hint: 'Lower the learning rate η or raise the prompts per step P, then reset.' };
      const state = verdictFrom([iv.lo, iv.hi], o.number.threshold, o.number.side);
      const mark = state === 'holds' ? 'holds ✓' : state === 'fails' ? 'fails ✗' : 'unclear: the interval straddles the threshold';
      const settle = state === 'unclear' ? 'One run cannot tell at this size: pool the class\'s runs (Class results), where many seeds narrow the interval.' : undefined;
      return { state, sentence: `${said}. ${reading} — ${mark}.`, evidence, measured: e, number, step: needed, ...(state === 'fails' ? { hint: o.hint } : {}), ...(settle ? { settle } : {}) };
    },
  };
}

/** The threshold in words: "above 0.03", "at or below 0". */
export const thresholdWords = (c: Pick<ClaimNumber, 'side' | 'threshold'>) => `${c.side === 'above' ? 'above' : 'at or below'} ${String(+c.threshold.toFixed(3)).replace('-', '−')}`; // the typographic minus, as every number beside it
/** A claim number as the card prints it: signed where its threshold is a change (0 or below), else plain. */
const signedOrPlain = (x: number, c: Pick<ClaimNumber, 'threshold'>) => (c.threshold <= 0.2 ? signed(x) : fmt2(x));

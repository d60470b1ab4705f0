/**
 * A lesson is a claim with a check. Each lesson variant says what its run must show, in words
 * and as a predicate over the run's own metrics; the lab evaluates it live (the lesson card
 * shows the verdict with this run's numbers), `npm run train -- --lesson ID` prints it, and the
 * multi-seed test runs it on several seeds. No figure from another run appears in a claim.
 *
 * Windows: "early" is the mean of the first 3 recorded steps, "late" the mean of the last 3.
 */
import type { EvalMetrics, StepMetrics } from './metrics.ts';
import { heldoutMeasure } from './stopSignals.ts';

/** What a claim is judged on: the run's recorded steps and evaluations. */
export interface RunRecord {
  steps: readonly StepMetrics[];
  evals: readonly (Pick<EvalMetrics, 'step' | 'heldout_accuracy'> & { pass_at_k?: Record<string, number>; mean_length?: number; watch?: EvalMetrics['watch'] })[];
}

export interface ClaimVerdict {
  /** pending: too few steps yet to judge. */
  state: 'holds' | 'fails' | 'pending';
  /** "In this run: …", with the run's own numbers. */
  sentence: string;
  /** The numbers the verdict rests on, by name (two decimals, as printed). */
  evidence: Record<string, number>;
  /** The same numbers unrounded, as the sentence computed with them (the card's contrast reads these). */
  measured: Record<string, number>;
  /** When it has not shown: what to try. */
  hint?: string;
}

export interface Claim {
  /** The claim in words (no figures from other runs). */
  text: string;
  /** A control (see claim()): its evidence alone holds for a run that learned nothing. */
  control: boolean;
  /** The claim's own predicate on its evidence, without the run-level checks (pending, wrecked, moved). */
  holdsOn(evidence: Record<string, number>): boolean;
  /** Steps within which the effect shows; the verdict is pending before. */
  steps: number;
  /** How often it shows, when the effect is noisy by nature (said on the card). */
  frequency?: string;
  /** The verdict on a run; `steps` overrides the steps it needs (the null test judges short runs). */
  judge(run: RunRecord, o?: { steps?: number }): ClaimVerdict;
}

const WINDOW = 3;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const finite = (xs: number[]) => xs.filter(Number.isFinite);
/** Mean of f over the first (or last) WINDOW steps, skipping non-finite values. */
export const early = (run: RunRecord, f: (m: StepMetrics) => number) => mean(finite(run.steps.slice(0, WINDOW).map(f)));
export const late = (run: RunRecord, f: (m: StepMetrics) => number) => mean(finite(run.steps.slice(-WINDOW).map(f)));
export const overall = (run: RunRecord, f: (m: StepMetrics) => number) => mean(finite(run.steps.map(f)));
const r2 = (x: number) => (Number.isFinite(x) ? Number(x.toFixed(2)) : x);
/** Two decimals for a verdict's sentence ('–' when not measured). */
export const fmt2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f2 = fmt2;

/**
 * Held-out accuracy at the first evaluation and at the end (the mean of the last two after the
 * first): pass@1 of the sampled answers where the evaluation has it (G samples per prompt, the
 * precise estimate), else greedy accuracy (one answer per prompt: a base at the capability
 * boundary flips many greedy answers on small weight changes, so it is the noisy one).
 */
export function heldout(run: RunRecord): { start: number; end: number; sampled: boolean } | null {
  if (run.evals.length < 2) return null;
  const { sampled, of: acc } = heldoutMeasure(run.evals); // the stop signal's rule too
  const start = acc(run.evals[0]);
  const end = mean(run.evals.slice(Math.max(1, run.evals.length - 2)).map(acc));
  return { start, end, sampled };
}

/**
 * Most lessons must not wreck the model. Two readings of it: the sampled accuracy of the
 * rollouts (P·G answers a step, so the first and last three steps are a precise estimate) may
 * not fall by more than SAMPLED_MARGIN; held-out accuracy on 24–32 prompts may not fall by more
 * than HELDOUT_MARGIN (about two standard errors of a difference at that size: pass@1 from G
 * samples a prompt, or greedy answers).
 */
export const SAMPLED_MARGIN = 0.1;
/** Below this largest KL to π_ref over the run, the policy did not move (a null run: exactly 0). */
export const MOVED_KL = 1e-6;
export const HELDOUT_MARGIN = { sampled: 0.15, greedy: 0.25 };
/**
 * `npm run lessons`' rule across seeds (scripts/lessons-table.ts): a variant whose text does not
 * promise a wreck (Lesson variant's promisesWreck) may not end any seed's run with held-out
 * accuracy (greedy, the summary's last evaluation) more than this below its first evaluation.
 */
export const UNPROMISED_WRECK = 0.15;

/**
 * A claim from its parts: `measure` turns the run into named numbers, `holds` judges them,
 * `sentence` says them. Unless `mayWreck`, the verdict also fails when held-out accuracy falls
 * by more than WRECK_MARGIN (a lesson about X must not silently destroy the model).
 */
export function claim(o: {
  text: string;
  steps: number;
  frequency?: string;
  mayWreck?: boolean;
  /**
   * A control: its evidence is what happens when the effect is absent, which a run that learned
   * nothing also shows. It is judged like any claim and, like any claim, only on a run whose
   * policy moved (KL to π_ref > 0); `control` marks it so the null test knows its evidence alone
   * cannot fail under η = 0.
   */
  control?: boolean;
  measure: (run: RunRecord) => Record<string, number>;
  holds: (e: Record<string, number>) => boolean;
  sentence: (e: Record<string, number>) => string;
  hint: string;
}): Claim {
  return {
    text: o.text,
    steps: o.steps,
    frequency: o.frequency,
    control: o.control ?? false,
    holdsOn: (e) => o.holds(e),
    judge(run, opts = {}) {
      const n = run.steps.length;
      const needed = opts.steps ?? o.steps;
      const e = o.measure(run);
      const h = heldout(run);
      const acc = { start: early(run, (m) => m.accuracy), end: late(run, (m) => m.accuracy) };
      // how far π_θ got from π_ref: the exact KL where π_ref was evaluated (β > 0 or measureKl), else nothing to say
      const klMeasured = run.steps.some((m) => Number.isFinite(m.kl_exact));
      const kl = Math.max(0, ...run.steps.map((m) => (Number.isFinite(m.kl_exact) ? m.kl_exact : 0)));
      Object.assign(e, { accuracy_start: acc.start, accuracy_end: acc.end, kl_max: kl });
      if (h) Object.assign(e, h.sampled ? { heldout_pass1_start: h.start, heldout_pass1_end: h.end } : { heldout_start: h.start, heldout_end: h.end });
      const evidence = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, r2(v)]));
      // before its steps: pending, quoting the run's numbers only once every one of them exists
      if (n < needed) {
        const said = Object.values(e).every((v) => Number.isFinite(v)) ? ` So far: ${o.sentence(e)} in ${n} step${n === 1 ? '' : 's'}.` : '';
        return { state: 'pending', sentence: `Pending — the verdict comes at step ${needed} (now ${n}).${said}`, evidence, measured: e };
      }
      const said = `In this run: ${o.sentence(e)} in ${n} step${n === 1 ? '' : 's'}`;
      // a claim about what training does needs training: a policy that never left π_ref (η = 0, a
      // null run) shows nothing, whatever its numbers say (measured whenever the KL is: β > 0 or measureKl)
      if (klMeasured && !(kl > MOVED_KL)) return { state: 'fails', sentence: `${said}, but the policy never moved from π_ref (KL ${kl.toExponential(0)}): nothing was learned ✗`, evidence, measured: e, hint: 'The learning rate η may be 0, or every group was all-pass or all-fail: check η and the groups chart.' };
      const hint = 'Lower the learning rate η or raise the prompts per step P, then reset.';
      if (!o.mayWreck && acc.end < acc.start - SAMPLED_MARGIN) return { state: 'fails', sentence: `${said}, but the sampled accuracy fell ${f2(acc.start)} → ${f2(acc.end)} ✗`, evidence, measured: e, hint };
      if (!o.mayWreck && h !== null && h.end < h.start - HELDOUT_MARGIN[h.sampled ? 'sampled' : 'greedy']) return { state: 'fails', sentence: `${said}, but held-out ${h.sampled ? 'pass@1 (sampled)' : 'accuracy (greedy)'} fell ${f2(h.start)} → ${f2(h.end)} ✗`, evidence, measured: e, hint };
      const ok = o.holds(e);
      return { state: ok ? 'holds' : 'fails', sentence: `${said} ${ok ? '✓' : '✗ (not shown yet)'}`, evidence, measured: e, hint: ok ? undefined : o.hint };
    },
  };
}


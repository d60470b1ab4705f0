/**
 * A lesson is a claim with a check. Each lesson variant says what its run must show, in words
 * and as a predicate over the run's own metrics; the lab evaluates it live (the lesson card
 * shows the verdict with this run's numbers), `npm run train -- --lesson ID` prints it, and the
 * multi-seed test runs it on several seeds. No figure from another run appears in a claim.
 *
 * Windows: "early" is the mean of the first 3 recorded steps, "late" the mean of the last 3.
 */
import type { EvalMetrics, StepMetrics } from './metrics.ts';

/** What a claim is judged on: the run's recorded steps and evaluations. */
export interface RunRecord {
  steps: readonly StepMetrics[];
  evals: readonly (Pick<EvalMetrics, 'step' | 'heldout_accuracy'> & { pass_at_k?: Record<string, number>; mean_length?: number })[];
}

export interface ClaimVerdict {
  /** pending: too few steps yet to judge. */
  state: 'holds' | 'fails' | 'pending';
  /** "In this run: …", with the run's own numbers. */
  sentence: string;
  /** The numbers the verdict rests on, by name. */
  evidence: Record<string, number>;
  /** When it has not shown: what to try. */
  hint?: string;
}

export interface Claim {
  /** The claim in words (no figures from other runs). */
  text: string;
  /** Steps within which the effect shows; the verdict is pending before. */
  steps: number;
  /** How often it shows, when the effect is noisy by nature (said on the card). */
  frequency?: string;
  judge(run: RunRecord): ClaimVerdict;
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
  const sampled = run.evals.every((e) => Number.isFinite(e.pass_at_k?.['1']));
  const acc = (e: RunRecord['evals'][number]) => (sampled ? e.pass_at_k!['1'] : e.heldout_accuracy);
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
export const HELDOUT_MARGIN = { sampled: 0.15, greedy: 0.25 };

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
  measure: (run: RunRecord) => Record<string, number>;
  holds: (e: Record<string, number>) => boolean;
  sentence: (e: Record<string, number>) => string;
  hint: string;
}): Claim {
  return {
    text: o.text,
    steps: o.steps,
    frequency: o.frequency,
    judge(run) {
      const n = run.steps.length;
      const e = o.measure(run);
      const h = heldout(run);
      const acc = { start: early(run, (m) => m.accuracy), end: late(run, (m) => m.accuracy) };
      Object.assign(e, { accuracy_start: acc.start, accuracy_end: acc.end });
      if (h) Object.assign(e, h.sampled ? { heldout_pass1_start: h.start, heldout_pass1_end: h.end } : { heldout_start: h.start, heldout_end: h.end });
      const evidence = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, r2(v)]));
      const said = `In this run: ${o.sentence(e)} in ${n} step${n === 1 ? '' : 's'}`;
      if (n < o.steps) return { state: 'pending', sentence: `${said} — the verdict comes at step ${o.steps}.`, evidence };
      const hint = 'Lower the learning rate η or raise the prompts per step P, then reset.';
      if (!o.mayWreck && acc.end < acc.start - SAMPLED_MARGIN) return { state: 'fails', sentence: `${said}, but the sampled accuracy fell ${f2(acc.start)} → ${f2(acc.end)} ✗`, evidence, hint };
      if (!o.mayWreck && h !== null && h.end < h.start - HELDOUT_MARGIN[h.sampled ? 'sampled' : 'greedy']) return { state: 'fails', sentence: `${said}, but held-out ${h.sampled ? 'pass@1' : 'accuracy'} fell ${f2(h.start)} → ${f2(h.end)} ✗`, evidence, hint };
      const ok = o.holds(e);
      return { state: ok ? 'holds' : 'fails', sentence: `${said} ${ok ? '✓' : '✗ (not shown yet)'}`, evidence, hint: ok ? undefined : o.hint };
    },
  };
}


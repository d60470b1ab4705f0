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
  evals: readonly Pick<EvalMetrics, 'step' | 'heldout_accuracy'>[];
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
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');

/** Held-out greedy accuracy at the first evaluation and the mean of the last two (as the stop signal reads it). */
export function heldout(run: RunRecord): { start: number; end: number } | null {
  if (run.evals.length < 2) return null;
  const start = run.evals[0].heldout_accuracy;
  const end = mean(run.evals.slice(-2).map((e) => e.heldout_accuracy));
  return { start, end };
}

/** Most lessons must not wreck the model: held-out accuracy may not fall by more than this. */
export const WRECK_MARGIN = 0.1;

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
      if (h) Object.assign(e, { heldout_start: h.start, heldout_end: h.end });
      const evidence = Object.fromEntries(Object.entries(e).map(([k, v]) => [k, r2(v)]));
      const said = `In this run: ${o.sentence(e)} in ${n} step${n === 1 ? '' : 's'}`;
      if (n < o.steps) return { state: 'pending', sentence: `${said} — the verdict comes at step ${o.steps}.`, evidence };
      const wrecked = !o.mayWreck && h !== null && h.end < h.start - WRECK_MARGIN;
      if (wrecked) return { state: 'fails', sentence: `${said}, but held-out accuracy fell ${f2(h.start)} → ${f2(h.end)} ✗`, evidence, hint: 'Lower the learning rate η or raise the prompts per step P, then reset.' };
      const ok = o.holds(e);
      return { state: ok ? 'holds' : 'fails', sentence: `${said} ${ok ? '✓' : '✗ (not shown yet)'}`, evidence, hint: ok ? undefined : o.hint };
    },
  };
}

export { f2 as fmt2 };

/**
 * GRPO, RFT and best-of-N at matched tokens (lesson 5's chart and verdict), from a run's own
 * records only. The unit is the generated tokens it takes to serve a workload of Q held-out
 * questions:
 *
 *   a trained policy (GRPO or RFT) after the evaluation at step k:
 *     x = T_k + Q·L̄_k    T_k: tokens its rollouts generated up to step k (num_tokens), paid once;
 *                        L̄_k: tokens per sampled answer at that evaluation (one answer a question)
 *     y = held-out pass@1 (sampled at τ, from the evaluation's G samples per prompt)
 *   best-of-N on the base (the step-0 evaluation), N = 1, 2, 4, … ≤ G:
 *     x = Q·N·L̄_0         N answers a question, every time, no training
 *     y = pass@N          (an exact verifier picks a correct answer when there is one)
 *
 * At step 0 the trained curve starts where best-of-1 is (T_0 = 0). Pure: the chart
 * (src/ui/Charts.tsx), lesson 5's claim (lessons.ts) and the tests read it.
 */
import { contractEvals, heldout, type RunRecord } from './claims.ts';
import type { EvalMetrics, StepMetrics } from './metrics.ts';

/** The parts of an evaluation this needs (a saved or archived run may lack the optional ones). */
export type EvalPoint = Pick<EvalMetrics, 'step'> & { pass_at_k?: Record<string, number>; mean_length?: number };

export interface TrainedPoint { step: number; training_tokens: number; answer_tokens: number; tokens: number; pass: number }
export interface BestOfNPoint { n: number; answer_tokens: number; tokens: number; pass: number }

/** Training tokens spent before the evaluation at `evalStep`: the num_tokens of the last recorded step before it (0 at step 0). */
export function trainingTokensAt(steps: readonly Pick<StepMetrics, 'step' | 'num_tokens'>[], evalStep: number): number {
  let t = 0;
  for (const m of steps) if (m.step < evalStep && m.num_tokens > t) t = m.num_tokens;
  return t;
}

const usable = (e: EvalPoint) => Number.isFinite(e.pass_at_k?.['1']) && Number.isFinite(e.mean_length) && (e.mean_length ?? 0) > 0;

/** One point per evaluation that has pass@1 and the answers' length: x = T + Q·L̄, y = pass@1. */
export function trainedPoints(steps: readonly Pick<StepMetrics, 'step' | 'num_tokens'>[], evals: readonly EvalPoint[], questions: number): TrainedPoint[] {
  return evals.filter(usable).map((e) => {
    const training_tokens = trainingTokensAt(steps, e.step);
    const answer_tokens = e.mean_length!;
    return { step: e.step, training_tokens, answer_tokens, tokens: training_tokens + questions * answer_tokens, pass: e.pass_at_k!['1'] };
  });
}

/** The run's evaluation of the base policy (step 0) with pass@k and the answers' length, or null. */
export function baseEvaluation<E extends EvalPoint>(evals: readonly E[]): E | null {
  const e = evals.find((x) => x.step === 0);
  return e && usable(e) ? e : null;
}

/** Best-of-N on the base for every N the step-0 evaluation measured (null when the run has no such evaluation). */
export function bestOfNPoints(evals: readonly EvalPoint[], questions: number): BestOfNPoint[] | null {
  const base = baseEvaluation(evals);
  if (!base) return null;
  const L = base.mean_length!;
  return Object.entries(base.pass_at_k!).map(([k, pass]) => ({ n: Number(k), pass })).filter((p) => Number.isFinite(p.pass)).sort((a, b) => a.n - b.n)
    .map(({ n, pass }) => ({ n, answer_tokens: n * L, tokens: questions * n * L, pass }));
}

/**
 * Samples per question best-of-N needs on the base to reach pass rate `target`: between two
 * measured N, linear in N (a random mix of best-of-N₁ and best-of-N₂ scores and costs in
 * between, so this N is achievable). 1 when best-of-1 already reaches it; NaN when even the
 * largest measured N does not.
 */
export function samplesToMatch(passAtK: Record<string, number>, target: number): number {
  const pts = Object.entries(passAtK).map(([k, p]) => ({ n: Number(k), p })).filter((x) => Number.isFinite(x.p)).sort((a, b) => a.n - b.n);
  if (!pts.length || !Number.isFinite(target)) return NaN;
  if (target <= pts[0].p) return pts[0].n;
  for (let i = 1; i < pts.length; i++) {
    const a = pts[i - 1], b = pts[i];
    if (target <= b.p) return a.n + ((target - a.p) / (b.p - a.p)) * (b.n - a.n);
  }
  return NaN;
}

/**
 * Questions after which training has paid for itself against best-of-n on the base at the same
 * pass rate: T + Q·L = Q·n·L₀ ⇒ Q = T / (n·L₀ − L). Infinity when best-of-n costs no more per question.
 */
export function breakEvenQuestions(trainingTokens: number, n: number, baseAnswerTokens: number, trainedAnswerTokens: number): number {
  const saved = n * baseAnswerTokens - trainedAnswerTokens;
  return saved > 0 ? trainingTokens / saved : Infinity;
}

/**
 * The run's comparison at equal tokens (lesson 5's verdict and the chart's note): T training
 * tokens (num_tokens of the last step), the trained held-out pass@1 (the end of claims.ts's
 * heldout: the mean of the last two evaluations, sampled), best-of-N on the base (step 0), the
 * N at which best-of-N matches it, the answers' lengths and the break-even workload. NaN where
 * the run lacks a number (no step-0 evaluation, no evaluation after training, no pass@k).
 */
export function matchedTokensSummary(run: RunRecord): Record<'training_tokens' | 'pass1_base' | 'pass1_trained' | 'G' | 'passG_base' | 'samples_to_match' | 'answer_tokens_base' | 'answer_tokens_trained' | 'break_even_questions', number> {
  const c = contractEvals(run), h = heldout(run);
  const base = c ? c.start : baseEvaluation(run.evals);
  // the trained side from one set of evaluations: pass@1 and L̄ from the same ones (the contract's
  // evaluation at the verdict step, else the last two after the first, as heldout() takes them),
  // T the tokens generated up to the last of them
  const trained = c ? [c.end] : run.evals.length >= 2 ? run.evals.slice(Math.max(1, run.evals.length - 2)) : [];
  const a = h?.sampled ? h.end : NaN;
  const lastEval = trained.at(-1);
  const T = lastEval ? (run.steps.filter((m) => m.step < lastEval.step).at(-1)?.num_tokens ?? 0) : (run.steps.at(-1)?.num_tokens ?? 0);
  const n = base ? samplesToMatch(base.pass_at_k!, a) : NaN;
  const G = base ? Math.max(...Object.keys(base.pass_at_k!).map(Number)) : NaN;
  const lengths = trained.map((e) => e.mean_length ?? NaN);
  const L0 = base?.mean_length ?? NaN, L = lengths.length ? lengths.reduce((x, y) => x + y, 0) / lengths.length : NaN;
  const pass1Base = base?.pass_at_k!['1'] ?? NaN;
  // training pays for itself only if it beat the base: otherwise best-of-1 on the base is as good, for free
  const q = a > pass1Base ? breakEvenQuestions(T, n, L0, L) : NaN;
  return { training_tokens: T, pass1_base: pass1Base, pass1_trained: a, G, passG_base: base?.pass_at_k![String(G)] ?? NaN, samples_to_match: n, answer_tokens_base: L0, answer_tokens_trained: L, break_even_questions: Number.isNaN(n) || Number.isNaN(L) ? NaN : q };
}

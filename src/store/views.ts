/** View derivations: engine-side records turned into the plain data the page shows. */
import { EOS, VOCAB } from '../tasks/tokenizer.ts';
import type { Rollout } from '../rl/trainer.ts';
import type { Settings } from '../rl/settings.ts';
import type { EvalMetrics } from '../rl/metrics.ts';
import type { LabState, RolloutView, SavedRun } from './labStore.ts';
import { overlayName, type RunOrigin } from './overlays.ts';
import { HELDOUT_SIZE } from '../rl/evaluation.ts';

/** Held-out prompts per evaluation of the page's runs (greedy accuracy and pass@k; the session's trainer). */
export const EVAL_SIZE = HELDOUT_SIZE; // the page's held-out size is the CLI's and the lessons table's

/** The two held-out figures, named the same everywhere the page shows them (legends, tooltips, status and engine lines, runs panel). */
export const HELDOUT_GREEDY = 'held-out accuracy (greedy)';
export const HELDOUT_PASS1 = 'held-out pass@1 (sampled)';

/**
 * The starting weights' held-out figures, from the run's own step-0 evaluation (the same
 * number the status line shows before the first step and the chart draws at step 0), or null
 * before it exists. `size`: held-out prompts per evaluation, where the evaluation does not list
 * its prompts (a lesson's step-0 evaluation does: it reads the lesson's whole held-out set).
 */
export function stepZeroSentence(evals: readonly Pick<EvalMetrics, 'step' | 'heldout_accuracy' | 'pass_at_k' | 'per_prompt'>[], size = EVAL_SIZE): string | null {
  const e = evals[0];
  if (!e || e.step !== 0) return null;
  const p1 = e.pass_at_k['1'];
  // a lesson's step 0 reads its contract's whole held-out set (rl/contract.ts), with each prompt's result
  const n = e.per_prompt?.greedy.length ?? size;
  return `At step 0, on this run's ${n} held-out prompts: ${HELDOUT_GREEDY} ${e.heldout_accuracy.toFixed(2)}${p1 === undefined ? '' : `, ${HELDOUT_PASS1} ${p1.toFixed(2)}`}.`;
}

/** A finished run's held-out figures, first evaluation → last, each named for what it measures (the runs panel). */
export function runFigures(evals: readonly Pick<EvalMetrics, 'heldout_accuracy' | 'pass_at_k'>[]): string {
  if (!evals.length) return 'no evaluation';
  const a = evals[0], b = evals[evals.length - 1];
  const span = (x: number | undefined, y: number | undefined) => (x === undefined || y === undefined ? null : evals.length > 1 ? `${x.toFixed(2)} → ${y.toFixed(2)}` : x.toFixed(2));
  const p1 = span(a.pass_at_k['1'], b.pass_at_k['1']);
  return `${HELDOUT_GREEDY} ${span(a.heldout_accuracy, b.heldout_accuracy)}${p1 ? `, ${HELDOUT_PASS1} ${p1}` : ''}`;
}

/** A rollout as the charts and the step-through show it: text, verdicts, rewards, advantages, token texts. */
export function rolloutView(r: Rollout, G: number): RolloutView {
  return {
    step: r.step,
    G,
    groups: r.groups.map((g) => ({
      prompt: g.prompt,
      answers: g.responses.map((text, i) => ({
        text,
        reason: g.verdicts[i].reason,
        correct: g.correct[i],
        formatOk: g.verdicts[i].formatOk,
        reward: g.rewards[i],
        advantage: g.advantages[i] ?? NaN,
        finished: g.finished[i],
        tokens: Array.from(g.tokens[i], (t) => (t === EOS ? '⏎' : VOCAB[t])),
      })),
    })),
  };
}

/**
 * Why a group teaches, or not: 'spread' — its rewards differ, so some A ≠ 0; 'baseline' — its
 * rewards are equal but a baseline from outside the group (REINFORCE's batch mean) still gives
 * A ≠ 0; 'none' — A = 0 for every answer (GRPO, Dr. GRPO, RLOO: all rewards equal).
 */
export function groupTeaches(g: { answers: { reward: number; advantage: number }[] }): 'spread' | 'baseline' | 'none' {
  if (g.answers.some((a) => a.reward !== g.answers[0].reward)) return 'spread';
  return g.answers.some((a) => Number.isFinite(a.advantage) && a.advantage !== 0) ? 'baseline' : 'none';
}

/** A finished run as the recent-runs list keeps it (overlays.ts says where it can be overlaid). */
export function archivedRun(s: LabState, rs: Settings, origin: RunOrigin, id: number): SavedRun {
  return {
    id,
    label: `Run ${id}: ${rs.task}, G=${rs.numGenerations}, β=${rs.beta}, ε=${rs.epsilon}, seed ${origin.seed}, ${s.steps.at(-1)!.step + 1} step${s.steps.at(-1)!.step === 0 ? '' : 's'}`,
    name: overlayName(origin, id),
    origin,
    pinned: false,
    settings: { ...rs },
    steps: s.steps, // already bounded (history.ts)
    evals: s.evals.map((e) => ({ step: e.step, heldout_accuracy: e.heldout_accuracy, pass_at_k: e.pass_at_k, mean_length: e.mean_length, ...(e.watch ? { watch: e.watch } : {}) })), // pass@1 and answer length: the matched-tokens chart; the watched task: lesson 11's contrast
    verdict: s.verdict?.judged ?? null, // judged once, at its step: the contrast and the class code read it, never a re-judged longer run
    contrast: s.verdict?.contrast ?? null, // judged with it: the runs list's share code carries it, as the card's did
  };
}

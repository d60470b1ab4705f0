/** View derivations: engine-side records turned into the plain data the page shows. */
import { EOS, VOCAB } from '../tasks/tokenizer.ts';
import type { Rollout } from '../rl/trainer.ts';
import type { Settings } from '../rl/settings.ts';
import type { LabState, RolloutView, SavedRun } from './labStore.ts';

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

/** A finished run as the recent-runs list keeps it (every chart can overlay it). */
/**
 * Why a group teaches, or not: 'spread' — its rewards differ, so some A ≠ 0; 'baseline' — its
 * rewards are equal but a baseline from outside the group (REINFORCE's batch mean) still gives
 * A ≠ 0; 'none' — A = 0 for every answer (GRPO, Dr. GRPO, RLOO: all rewards equal).
 */
export function groupTeaches(g: { answers: { reward: number; advantage: number }[] }): 'spread' | 'baseline' | 'none' {
  if (g.answers.some((a) => a.reward !== g.answers[0].reward)) return 'spread';
  return g.answers.some((a) => Number.isFinite(a.advantage) && a.advantage !== 0) ? 'baseline' : 'none';
}

export function archivedRun(s: LabState, rs: Settings, lesson: { id: string | null; variant: number }, id: number): SavedRun {
  const tag = lesson.id ? ` (${lesson.id} #${lesson.variant + 1})` : '';
  return {
    id,
    label: `Run ${id}: ${rs.task}, G=${rs.numGenerations}, β=${rs.beta}, ε=${rs.epsilon}${tag}, ${s.steps.at(-1)!.step + 1} steps`,
    settings: { ...rs },
    steps: s.steps, // already bounded (history.ts)
    evals: s.evals.map((e) => ({ step: e.step, heldout_accuracy: e.heldout_accuracy, pass_at_k: e.pass_at_k, mean_length: e.mean_length })), // pass@1 and answer length: the matched-tokens chart
  };
}

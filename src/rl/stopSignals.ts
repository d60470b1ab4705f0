/**
 * Stop signals: the chapter's "stop and investigate" list, as detectors over a run's history.
 * Each returns an event with its evidence (the numbers that triggered it), or null.
 *
 *   reward-without-heldout   training reward rises while held-out accuracy (pass@1 where measured) stays flat
 *                            (overfitting the training pool, or hacking a weak verifier)
 *   length-without-accuracy  responses grow longer while accuracy does not improve
 *   mixed-groups-vanishing   almost no group mixes passes and failures: GRPO's signal is gone
 *                            (all pass: the task is mastered; all fail: too hard)
 *   entropy-collapse         the policy's entropy fell to a small fraction of where it started:
 *                            it stopped exploring
 *   heldout-falling          held-out accuracy (the last two evaluations) fell well below where
 *                            the run started: the updates are making the policy worse
 */
import type { EvalMetrics, StepMetrics } from './trainer.ts';
import { signed } from './format.ts';

export interface StopSignal {
  id: 'reward-without-heldout' | 'length-without-accuracy' | 'mixed-groups-vanishing' | 'entropy-collapse' | 'heldout-falling';
  /** The chart it belongs on. */
  chart: 'reward' | 'length' | 'groups' | 'entropy';
  step: number;
  message: string;
  /** The numbers behind it, in words, each with the window it averages (what the chart card shows under the message). */
  readout: string;
  evidence: Record<string, number>;
}

export interface StopSignalOptions {
  /** Steps compared at each end of the window. */
  window: number;
  rewardRise: number;
  heldoutFlat: number;
  lengthRise: number;
  mixedFloor: number;
  entropyFraction: number;
  /** Drop of held-out accuracy (start vs the mean of the last two evaluations) that counts as falling. */
  heldoutDrop: number;
}

export const DEFAULT_STOP_OPTIONS: StopSignalOptions = { window: 10, rewardRise: 0.1, heldoutFlat: 0.02, lengthRise: 1.5, mixedFloor: 0.1, entropyFraction: 0.25, heldoutDrop: 0.15 };

const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const f2 = (x: number) => x.toFixed(2);

/** Mean of a metric over the first and the last `w` finite values. */
function ends(steps: StepMetrics[], key: keyof StepMetrics, w: number): [number, number] | null {
  const xs = steps.map((s) => s[key] as number).filter((x) => Number.isFinite(x));
  if (xs.length < 2 * w) return null;
  return [avg(xs.slice(0, w)), avg(xs.slice(-w))];
}

/**
 * The held-out measure the reward-without-heldout signal reads (and the class tour quotes): held-out
 * pass@1 (sampled: G answers a prompt) where every evaluation has it, else greedy accuracy (one
 * answer a prompt, the noisier).
 */
export function heldoutMeasure<E extends Pick<EvalMetrics, 'heldout_accuracy'> & { pass_at_k?: Record<string, number> }>(evals: readonly E[]): { what: string; sampled: boolean; of: (e: E) => number } {
  const sampled = evals.length > 0 && evals.every((e) => Number.isFinite(e.pass_at_k?.['1']));
  return sampled ? { what: 'held-out pass@1 (sampled)', sampled, of: (e) => e.pass_at_k!['1'] } : { what: 'held-out accuracy (greedy)', sampled, of: (e) => e.heldout_accuracy };
}

export function detectStopSignals(steps: StepMetrics[], evals: EvalMetrics[], o: StopSignalOptions = DEFAULT_STOP_OPTIONS): StopSignal[] {
  const out: StopSignal[] = [];
  const last = steps.at(-1);
  if (!last) return out;
  const w = o.window;
  const reward = ends(steps, 'reward', w);
  if (reward && evals.length >= 2) {
    const { what, of: acc } = heldoutMeasure(evals);
    const h0 = acc(evals[0]), h1 = acc(evals.at(-1)!);
    if (reward[1] - reward[0] >= o.rewardRise && h1 - h0 <= o.heldoutFlat) {
      out.push({ id: 'reward-without-heldout', chart: 'reward', step: last.step, message: `Training reward rose by ${(reward[1] - reward[0]).toFixed(2)} while ${what} moved ${signed(h1 - h0)}: is the verifier being gamed, or the training pool memorised?`, readout: `Training reward: ${f2(reward[0])} (mean of the first ${w} steps) → ${f2(reward[1])} (mean of the last ${w}); ${what}: ${f2(h0)} at the first evaluation → ${f2(h1)} at the last.`, evidence: { reward_start: reward[0], reward_end: reward[1], heldout_start: h0, heldout_end: h1 } });
    }
  }
  if (evals.length >= 3) {
    // two evaluations, so one noisy held-out batch does not raise it
    const h0 = evals[0].heldout_accuracy, h1 = avg(evals.slice(-2).map((e) => e.heldout_accuracy));
    if (h0 - h1 >= o.heldoutDrop) {
      out.push({ id: 'heldout-falling', chart: 'reward', step: last.step, message: `Held-out accuracy (greedy) fell from ${h0.toFixed(2)} to ${h1.toFixed(2)} (last two evaluations): the updates are making the policy worse. Small batches (few prompts per step), a high η, or several inner epochs µ without a KL leash make noisy or overshooting steps: try more prompts per step, a lower η, or β > 0.`, readout: `Held-out accuracy (greedy): ${f2(h0)} at the first evaluation → ${f2(h1)} (mean of the last two).`, evidence: { heldout_start: h0, heldout_last_two: h1 } });
    }
  }
  const len = ends(steps, 'mean_length', w);
  const acc = ends(steps, 'accuracy', w);
  if (len && acc && len[1] - len[0] >= o.lengthRise && acc[1] - acc[0] <= 0.02) {
    out.push({ id: 'length-without-accuracy', chart: 'length', step: last.step, message: `Answers grew by ${(len[1] - len[0]).toFixed(1)} tokens while accuracy changed ${(acc[1] - acc[0]).toFixed(2)}: length is not paying for itself (length bias?).`, readout: `Answer length: ${len[0].toFixed(1)} → ${len[1].toFixed(1)} tokens; training accuracy: ${f2(acc[0])} → ${f2(acc[1])} (means of the first and the last ${w} steps).`, evidence: { length_start: len[0], length_end: len[1], accuracy_start: acc[0], accuracy_end: acc[1] } });
  }
  const mixed = ends(steps, 'frac_mixed', w);
  if (mixed && mixed[1] < o.mixedFloor) {
    const pass = avg(steps.slice(-w).map((s) => s.frac_all_pass));
    const fail = avg(steps.slice(-w).map((s) => s.frac_all_fail));
    out.push({ id: 'mixed-groups-vanishing', chart: 'groups', step: last.step, message: `Only ${(mixed[1] * 100).toFixed(0)}% of groups are mixed over the last ${w} steps (${(pass * 100).toFixed(0)}% all-pass, ${(fail * 100).toFixed(0)}% all-fail): most groups give zero advantage. ${pass > fail ? 'Raise the difficulty.' : 'The task is too hard for this model: lower the difficulty or raise G.'}`, readout: `Mixed groups: ${f2(mixed[0])} (mean of the first ${w} steps) → ${f2(mixed[1])} (mean of the last ${w}).`, evidence: { mixed_start: mixed[0], mixed_end: mixed[1], all_pass: pass, all_fail: fail } });
  }
  const ent = ends(steps, 'entropy', w);
  if (ent && ent[0] > 0 && ent[1] < o.entropyFraction * ent[0]) {
    out.push({ id: 'entropy-collapse', chart: 'entropy', step: last.step, message: `Entropy fell from ${ent[0].toFixed(3)} to ${ent[1].toFixed(3)} nats: the policy has nearly stopped exploring (try β > 0, a narrower ε, or an entropy bonus).`, readout: `Entropy: ${ent[0].toFixed(3)} → ${ent[1].toFixed(3)} nats (means of the first and the last ${w} steps).`, evidence: { entropy_start: ent[0], entropy_end: ent[1] } });
  }
  return out;
}

/**
 * The step-through's words on the applied update: what this batch's gradient alone did, and why
 * AdamW's step differs, each with this step's own numbers. At a run's first update AdamW's
 * momentum holds this batch alone (no earlier batches yet): then only its per-weight rescaling
 * turns it away from the gradient.
 */
import { ADAMW_CONSTANTS } from '../model/backend.ts';
import type { PushCounts, StepGeometry } from '../rl/inspection.ts';

const BETA1 = ADAMW_CONSTANTS.beta1;

/** AdamW's momentum at this update, after "AdamW's step, …". */
export function momentumWords(first: boolean): string {
  return first ? 'the run\'s first, whose momentum holds this batch alone' : `whose momentum is ${Math.round(BETA1 * 100)} % earlier batches`;
}

/** The tour's sentence on why what one batch teaches adds up over many steps. */
export function adamSentence(first: boolean): string {
  return first
    ? "It is the run's first update, so AdamW's momentum holds this batch alone; its per-weight rescaling turns its step away from the gradient. What one batch teaches adds up over many steps."
    : "AdamW's momentum carries the earlier batches, so what one batch teaches adds up over many steps.";
}

/** The two sentences under the update's headline, saying which did better here. */
export function updateWhy(c: PushCounts, geo: StepGeometry | null | undefined, first: boolean): string {
  const alone = c.gradientAlone!;
  const better = alone.up > c.applied.up ? 'fewer of them than the gradient alone' : alone.up < c.applied.up ? `more of them this time${first ? '' : ': the earlier batches pointed the same way'}` : 'as many';
  const why = first
    ? 'this is the run\'s first update, so no earlier batch is in its momentum, but it rescales every weight by that weight\'s own gradient size (at a first step, nearly a step along the gradient\'s signs alone)'
    : `${Math.round(BETA1 * 100)} % of its momentum is earlier batches (β₁ = ${BETA1}) and it rescales every weight by its own running gradient size`;
  return `This batch's gradient alone — a plain step along it that moves the policy as far as AdamW's step did${geo ? ` (mean |Δ log π| ${geo.shiftApplied.toFixed(3)} a token)` : ''}, then undone — made ${alone.up} of the ${c.positive} answers with A > 0 more likely; not all of them, because every answer moves the same shared weights, and answers share tokens: a right answer often begins like the wrong ones of its group, whose push-down pulls those tokens down too. ` +
    `AdamW's step points elsewhere${geo ? ` (cosine ${geo.cosine.toFixed(2)} with this batch's gradient; 1 would be the same direction)` : ''}: ${why}, so it made ${better} — what a batch teaches adds up over many steps, not in one.`;
}

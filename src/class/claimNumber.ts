/**
 * Each lesson variant's claim as one number against one threshold: the number a class pools
 * (the strip plot draws one point per seed against the threshold's line). It is the number the
 * claim's text is about, and it is a necessary part of the claim's own predicate: a run whose
 * claim holds has its number on the claim's side of the threshold (claimNumber.test.ts checks
 * it against every variant's `holdsOn`, so a claim edited without this table fails there). A
 * number on the claim's side does not make the claim hold (the rest of its predicate, and the
 * run-level checks, still decide), so the pooled view counts verdicts (✓) from the codes, not
 * from these numbers. Engine-free: read from a verdict's evidence.
 */
import { POOL_GAP } from '../rl/lessonClaims.ts';

export interface ClaimNumber {
  /** The number in a few words ("held-out pass@1 (sampled), end − start"). */
  what: string;
  of(evidence: Record<string, number>): number;
  threshold: number;
  /** Where the claim puts its number: above the threshold (strictly), or at or below it. */
  side: 'above' | 'below';
}

const diff = (end: string, start: string) => (e: Record<string, number>) => e[end] - e[start];
const key = (k: string) => (e: Record<string, number>) => e[k];
const above = (what: string, of: ClaimNumber['of'], threshold: number): ClaimNumber => ({ what, of, threshold, side: 'above' });
const below = (what: string, of: ClaimNumber['of'], threshold: number): ClaimNumber => ({ what, of, threshold, side: 'below' });

const HELDOUT_GAIN = 'held-out pass@1 (sampled), end − start';
const THINK_RISE = 'thinking share, late − early';

/** Per lesson id, per variant (the lessons table's order). */
const TABLE: Record<string, ClaimNumber[]> = {
  'mixed-groups': [
    below('held-out accuracy (greedy), end − start', diff('heldout_greedy_end', 'heldout_greedy_start'), 0),
    above(HELDOUT_GAIN, diff('heldout_pass1_end', 'heldout_pass1_start'), 0.03),
    above(HELDOUT_GAIN, diff('heldout_pass1_end', 'heldout_pass1_start'), 0.03),
  ],
  'length-bias': [
    below('long/short Δ log π per token of wrong answers', key('long_over_short'), 0.5),
    above('long/short Δ log π per token of wrong answers', key('long_over_short'), 1 / 3),
  ],
  'entropy-collapse': [
    above('entropy fall (nats), early − late', diff('entropy_early', 'entropy_late'), 0.1),
    below('entropy fall (nats), early − late', diff('entropy_early', 'entropy_late'), 0.1),
  ],
  'reward-hacking': [
    above('reward − strict accuracy, late − early', diff('gap_late', 'gap_early'), 0.03),
    above('strict accuracy, end − start', diff('accuracy_end', 'accuracy_start'), 0.05),
  ],
  'grpo-vs-best-of-n': [
    above('held-out pass@1: trained − base', diff('pass1_trained', 'pass1_base'), 0.05),
    above('held-out pass@1: trained − base', diff('pass1_trained', 'pass1_base'), 0.05),
  ],
  scratchpad: [
    above(THINK_RISE, diff('think_late', 'think_early'), 0.15),
    below(THINK_RISE, diff('think_late', 'think_early'), 0.05),
  ],
  'kl-estimators': [
    below('mean relative error to the exact KL', key('relative_error'), 1 / 3),
    below('mean relative error to the exact KL', key('relative_error'), 1 / 3),
  ],
  'process-reward': [
    below(THINK_RISE, diff('think_late', 'think_early'), -0.15),
    above(THINK_RISE, diff('think_late', 'think_early'), 0.15),
  ],
  'dynamic-sampling': [
    above('mixed share of the groups', key('frac_mixed'), 0.9),
    below('mixed share of the groups', key('frac_mixed'), 0.9),
  ],
  'small-pool': [
    above('training reward\'s rise − held-out pass@1\'s rise', key('gap'), POOL_GAP),
    below('training reward\'s rise − held-out pass@1\'s rise', key('gap'), POOL_GAP), // the whole split: the two move together
  ],
  forgetting: [
    below('reverse\'s held-out pass@1, end − start (never trained on)', diff('watch_end', 'watch_start'), -0.02),
    above(HELDOUT_GAIN + ' (add)', diff('heldout_pass1_end', 'heldout_pass1_start'), 0.02),
  ],
};

/** The claim's number for a lesson's variant, or null where the table has none. */
export function claimNumber(lessonId: string, variant: number): ClaimNumber | null {
  return TABLE[lessonId]?.[variant] ?? null;
}

/** Whether a number sits on its claim's side of the threshold. */
export const onClaimSide = (c: ClaimNumber, x: number) => (c.side === 'above' ? x > c.threshold : x <= c.threshold);

/** The lesson ids the table covers (its test checks every lesson and variant is here). */
export const CLAIM_NUMBER_LESSONS = Object.keys(TABLE);

/** The threshold in words: "above 0.03", "at or below 0". */
export const thresholdText = (c: ClaimNumber) => `${c.side === 'above' ? 'above' : 'at or below'} ${+c.threshold.toFixed(3)}`;

/** For a lesson in the table, its variants' count matches the lessons table's (the test checks). */
export const tableVariants = (lessonId: string) => TABLE[lessonId]?.length ?? 0;

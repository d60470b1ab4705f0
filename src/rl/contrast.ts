/**
 * A lesson's contrast: the comparison its question asks the class to predict ("in the run “G = 8”
 * the mixed share will be higher · about the same · lower than in the run “G = 2”"), judged as a
 * claim of its own. One number per run, taken from the run's own claim evidence; the contrast is
 * the paired difference asked − against on one seed, with its 90 % interval:
 *
 *   paired over the same held-out prompts and draws where the number is a held-out reading (every
 *   lesson run reads the contract's fixed prompts: the two runs are resampled with the same prompt
 *   indices), and over each run's own steps otherwise (each run's windows resampled on their own).
 *
 * One rule reads the interval as an outcome, for one seed (the lesson card, `npm run lessons`) and
 * for a class (the pool's interval across students) alike (`outcomeFrom`):
 *
 *   higher          the whole interval lies above +margin
 *   lower           the whole interval lies below −margin
 *   about the same  the whole interval lies within ±margin
 *   unclear         it straddles ±margin: more runs (the class pool) would settle it
 *
 * The margin is the lesson's smallest difference worth the name, in the number's own units (stated
 * with each lesson, lessons.ts). Where the lesson expects an order (`rank`), the contrast's verdict
 * holds when the outcome is the expected one, fails when it is another, and is unclear when the
 * interval cannot tell; a prediction is right when it names the outcome. Engine layer: pure.
 */
import type { Claim, RunRecord } from './claims.ts';
import { resampleRun, truncateRun } from './claims.ts';
import { bootstrap, LEVEL } from './interval.ts';
import { fmt2, signed } from './format.ts';

/** The three answers a question offers, in its order: 0 higher, 1 about the same, 2 lower. */
export const OUTCOMES = ['higher', 'about the same', 'lower'] as const;
export type Outcome = 0 | 1 | 2;

export interface LessonContrast {
  /** The number, in words ("mixed share of the groups"). */
  what: string;
  /** The number from a run's claim evidence (every variant's claim measures what it needs). */
  of(evidence: Record<string, number>): number;
  /** Per variant, its rank: of two variants, the one of higher rank should give the higher number (equal ranks: no expectation). */
  rank: readonly number[];
  /**
   * The smallest difference asked − against that counts as one, in the number's units: an interval
   * wholly within ±margin reads "about the same". Stated with the lesson from what the number can
   * resolve, before the fresh seeds judged it (docs/lesson-protocol.md).
   */
  margin: number;
}

/** The outcome an interval of asked − against shows against ±margin (null: unclear). The card's and the class pool's one rule. */
export function outcomeFrom(lo: number, hi: number, margin: number): Outcome | null {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return null;
  if (lo > margin) return 0;
  if (hi < -margin) return 2;
  if (lo >= -margin && hi <= margin) return 1;
  return null;
}

/** What the lesson expects of asked against against (null: no expected order between them). */
export function expectedOutcome(c: LessonContrast, asked: number, against: number): Outcome | null {
  const ra = c.rank[asked], rb = c.rank[against];
  return ra === undefined || rb === undefined || ra === rb ? null : ra > rb ? 0 : 2;
}

export type ContrastState = 'holds' | 'fails' | 'unclear' | 'open';

/** The contrast's verdict from its outcome: holds / fails / unclear against the expected outcome; open where the lesson expects no order. */
export function contrastState(outcome: Outcome | null, expected: Outcome | null): ContrastState {
  if (expected === null) return 'open';
  return outcome === null ? 'unclear' : outcome === expected ? 'holds' : 'fails';
}

/** A contrast judged on one seed, or pooled across a class. */
export interface ContrastVerdict {
  /** The variants compared: the question's (asked) against the lesson's first (against). */
  asked: number;
  against: number;
  /** The number in each run. */
  askedValue: number;
  againstValue: number;
  /** asked − against, with its 90 % interval. */
  value: number;
  lo: number;
  hi: number;
  margin: number;
  outcome: Outcome | null;
  expected: Outcome | null;
  state: ContrastState;
  /** The verdict step both runs were judged at. */
  step: number;
  /** Whether the interval was paired over the same held-out prompts (else over each run's steps). */
  paired: boolean;
}

/**
 * The contrast on one seed: both runs read up to the verdict step (`steps`), their claim evidence
 * resampled `reps` times — the same held-out prompt indices in both, each run's steps on their own.
 */
export function judgeContrast(c: LessonContrast, asked: { variant: number; claim: Claim; run: RunRecord }, against: { variant: number; claim: Claim; run: RunRecord }, steps: number, o: { reps?: number } = {}): ContrastVerdict {
  const a = truncateRun(asked.run, steps), b = truncateRun(against.run, steps);
  const number = (ra: RunRecord, rb: RunRecord) => c.of(asked.claim.evidence(ra)) - c.of(against.claim.evidence(rb));
  const askedValue = c.of(asked.claim.evidence(a)), againstValue = c.of(against.claim.evidence(b));
  const value = askedValue - againstValue;
  const sizeOf = (r: RunRecord) => r.evals.find((e) => e.per_prompt)?.per_prompt?.greedy.length ?? 0;
  const paired = sizeOf(a) > 0 && sizeOf(a) === sizeOf(b);
  const iv = bootstrap((draw) => {
    const prompts = paired ? draw(sizeOf(a)) : undefined;
    return number(resampleRun(a, draw, prompts), resampleRun(b, draw, prompts));
  }, value, { reps: o.reps ?? 1000 });
  const expected = expectedOutcome(c, asked.variant, against.variant);
  const outcome = outcomeFrom(iv.lo, iv.hi, c.margin);
  return { asked: asked.variant, against: against.variant, askedValue, againstValue, value, lo: iv.lo, hi: iv.hi, margin: c.margin, outcome, expected, state: contrastState(outcome, expected), step: steps, paired };
}

/** "within ±0.05" in the number's units (a margin of 0: "above or below 0"). */
const marginWords = (m: number) => (m > 0 ? `a difference beyond ±${fmt2(m)} counts, within it is about the same` : 'any difference from 0 counts');

/**
 * The contrast's sentence, as the card and the presenter show it: "At step 40, mixed share of the
 * groups: 0.62 in “G = 8”, 0.24 in “G = 2”: difference +0.38 (90 % interval +0.33 to +0.43, on the
 * same held-out prompts; a difference beyond ±0.05 counts) — higher, as the lesson claims ✓."
 */
export function contrastSentence(c: Pick<LessonContrast, 'what'>, v: ContrastVerdict, names: readonly string[], who = 'on this seed'): string {
  const iv = Number.isFinite(v.lo) ? `${Math.round(LEVEL * 100)} % interval ${signed(v.lo)} to ${signed(v.hi)}` : 'no interval';
  const head = who === 'on this seed'
    ? `At step ${v.step}, ${c.what}: ${fmt2(v.askedValue)} in “${names[v.asked]}”, ${fmt2(v.againstValue)} in “${names[v.against]}”: difference ${signed(v.value)} (${iv}${v.paired ? ', on the same held-out prompts' : ''}; ${marginWords(v.margin)})`
    : `${c.what}, “${names[v.asked]}” − “${names[v.against]}” ${who}: mean difference ${signed(v.value)} (${iv}; ${marginWords(v.margin)})`;
  const shown = v.outcome === null ? 'unclear: the interval reaches across the margin' : OUTCOMES[v.outcome];
  const mark = v.state === 'holds' ? ', as the lesson claims ✓' : v.state === 'fails' ? `, not ${OUTCOMES[v.expected!]} as the lesson claims ✗` : v.state === 'unclear' ? ` (the lesson claims ${OUTCOMES[v.expected!]})` : ' (the lesson claims no order)';
  return `${head} — ${shown}${mark}.`;
}

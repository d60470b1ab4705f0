/**
 * A lesson's contrast: the comparison it is about, read across two of its variants run on the
 * same seed ("run both variants on the same seed and compare"). One number per run, taken from
 * the run's own claim evidence, and which variant the lesson expects to give the higher one.
 *
 * The lesson card reads it between the live run and a finished sibling run of the page (the same
 * lesson, another variant, comparable: same seed and base, overlays.ts); `npm run lessons` reads
 * it per seed, and the class pool as paired differences on shared seeds. Engine layer: no React.
 */
import { fmt2 } from './format.ts';

export interface LessonContrast {
  /** The number, in words ("mixed share of the groups"). */
  what: string;
  /** The number from a run's claim evidence (every variant's claim measures what it needs). */
  of(evidence: Record<string, number>): number;
  /** Per variant, its rank: of two variants, the one of higher rank should give the higher number (equal ranks: no expectation). */
  rank: readonly number[];
}

export interface ContrastRun {
  variant: number;
  evidence: Record<string, number>;
}

export interface ContrastReading {
  here: number;
  there: number;
  /** Whether the comparison came out as the lesson expects; null: no expectation between these two variants, or a number missing. */
  asExpected: boolean | null;
  /** The variant the lesson expects higher (null: none). */
  expectedHigher: number | null;
}

/** The contrast between the live run (`here`) and a sibling (`there`) of another variant. */
export function readContrast(c: LessonContrast, here: ContrastRun, there: ContrastRun): ContrastReading {
  const a = c.of(here.evidence), b = c.of(there.evidence);
  const ra = c.rank[here.variant], rb = c.rank[there.variant];
  const expectedHigher = ra === undefined || rb === undefined || ra === rb ? null : ra > rb ? here.variant : there.variant;
  const asExpected = expectedHigher === null || !Number.isFinite(a) || !Number.isFinite(b) ? null : expectedHigher === here.variant ? a > b : b > a;
  return { here: a, there: b, asExpected, expectedHigher };
}

/**
 * The card's sentence: "mixed share of the groups: 0.82 in this run, 0.41 in 1 · G = 2 (run 3, 30
 * steps, same seed): higher under G = 8, as the lesson expects ✓". `names`: each variant's short name;
 * `pendingUntil`: the step both runs must reach before it is judged (the numbers are said, no ✓ or ✗).
 */
export function contrastSentence(c: LessonContrast, r: ContrastReading, there: { name: string; runId: number; steps: number }, names: readonly string[], pendingUntil: number | null = null): string {
  const head = `${c.what}: ${fmt2(r.here)} in this run, ${fmt2(r.there)} in ${there.name} (run ${there.runId}, ${there.steps} step${there.steps === 1 ? '' : 's'}, same seed)`;
  if (pendingUntil !== null) return `${head} — compared once both runs reach step ${pendingUntil}, their verdicts' step.`;
  if (r.expectedHigher === null || r.asExpected === null) return `${head}.`;
  const higher = names[r.expectedHigher];
  return r.asExpected
    ? `${head}: higher under ${higher}, as the lesson expects ✓`
    : `${head}: not higher under ${higher} on this seed ✗ (one seed; the class pool compares many)`;
}

/** `npm run lessons`: per seed, the highest-rank variant's number minus the lowest-rank one's (NaN where a run is missing; equal ranks: the first two variants). */
export function contrastBySeed(c: LessonContrast, runs: readonly (ContrastRun & { seed: number })[], seeds: readonly number[]): { top: number; bottom: number; diffs: number[] } {
  const ranked = c.rank.map((r, v) => ({ r, v }));
  const top = ranked.reduce((a, b) => (b.r > a.r ? b : a)).v;
  const low = ranked.reduce((a, b) => (b.r < a.r ? b : a)).v;
  const bottom = low === top ? (top === 0 ? 1 : 0) : low; // no expected order: the first two variants
  const at = (seed: number, v: number) => { const r = runs.find((x) => x.seed === seed && x.variant === v); return r ? c.of(r.evidence) : NaN; };
  return { top, bottom, diffs: seeds.map((s) => at(s, top) - at(s, bottom)) };
}

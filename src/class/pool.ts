/**
 * A class's results, pooled: the codes found in a paste (code.ts), duplicates dropped (the same
 * lesson, variant and seed: the first one counts), grouped by lesson and variant — runs, how many
 * held ✓, each run's claim number by seed against its threshold — with the lesson's contrast on
 * every seed where both of its question's variants were run from the same starting weights, and
 * the class's predictions against those outcomes. Engine-free and pure: the panel renders it.
 *
 * The class is the sample (issue 40): per variant the class's mean claim number with its 90 %
 * Student-t interval across students (rl/interval.ts meanInterval: a percentile bootstrap of five
 * numbers covers the mean far less often than it says), the class verdict from that interval by the
 * lessons' own rule (verdictFrom) — from MIN_CLASS_RUNS runs on; below that "too few runs to judge".
 * The contrast the class predicted is judged the same way: per seed the paired difference asked −
 * against (a code that carries its own judged contrast, else the two codes of a seed whose runs are
 * comparable by the one rule the card uses, store/overlays.ts comparable), across seeds its mean with
 * its t interval, read as higher / about the same / lower / unclear against the lesson's margin by
 * the card's rule (rl/contrast.ts outcomeFrom), and the predictions are scored against that class
 * outcome. Every pooled code was judged at its variant's verdict step (the decoder refuses any other
 * by name), so no two steps are mixed.
 *
 * What the class understood (issue 49, understanding.ts): per lesson, from the codes' explain
 * choices and concept answers, how many explained right, the wrong reason chosen most, the concept
 * question's shares right before and after, and the class's normalized gain ⟨g⟩ with its 90 %
 * interval (`understanding`; its lines: understanding.ts explainLine, conceptLine).
 */
import { LESSONS, type Lesson } from '../rl/lessons.ts';
import { iqm, meanInterval, MIN_CLASS_RUNS, verdictFrom, type Estimate } from '../rl/interval.ts';
import { contrastState, outcomeFrom, type ContrastState, type Outcome } from '../rl/contrast.ts';
import { signed } from '../rl/format.ts';
import { codeOrigin, comparable } from '../store/overlays.ts';
import { claimNumber, thresholdText, type ClaimNumber } from './claimNumber.ts';
import { findCodes, type ResultCode } from './code.ts';
import { CHOICES, lessonQuestion, type Choice, type Question } from './question.ts';
import { lessonUnderstanding, type Understanding } from './understanding.ts';

/** The pooled class as CSV (csv.ts: a byte-order mark, named columns, a class row per variant and per contrast). */
export { poolCsv } from './csv.ts';
/** What the class understood: its type, and the class view's lines for it. */
export { conceptLine, explainLine, type Understanding } from './understanding.ts';

export interface Refusal {
  /** One sentence: which code, and why. */
  sentence: string;
}

export interface VariantPool {
  variant: number;
  name: string;
  runs: ResultCode[];
  /** The runs whose own verdict held, failed, or was unclear. */
  held: number;
  failed: number;
  unclear: number;
  claim: ClaimNumber | null;
  /** The verdict step every run here was judged at. */
  step: number;
  /** The class's mean claim number with its 90 % t interval across students (runs with a number; no interval below MIN_CLASS_RUNS). */
  mean: Estimate;
  /** The interquartile mean of the same numbers. */
  iqm: number;
  /** The class verdict from the interval (null: the variant has no claim number, or too few runs to judge). */
  verdict: 'holds' | 'fails' | 'unclear' | null;
  /** Runs with a number, and whether that is too few to judge (below MIN_CLASS_RUNS). */
  n: number;
  tooFew: boolean;
}

/** The contrast across the class: the mean paired difference with its interval, its outcome against the margin, its verdict. */
export interface ClassContrast extends Estimate {
  n: number;
  margin: number;
  /** Below MIN_CLASS_RUNS seeds: no interval, no outcome. */
  tooFew: boolean;
  outcome: Outcome | null;
  expected: Outcome | null;
  state: ContrastState;
}

export interface LessonPool {
  lessonId: string;
  number: number;
  title: string;
  variants: VariantPool[];
  question: Question | null;
  /**
   * Seeds with the contrast: asked − against (`diff`), from a code that carries its own judged
   * contrast (`outcome`: that seed's verdict, null where unclear) or from the two comparable codes
   * of the seed (`outcome` undefined: two numbers, no interval of their own).
   */
  pairs: { seed: number; diff: number; outcome?: Choice | null }[];
  /** The class's contrast across those seeds (null: no seed has it). */
  contrast: ClassContrast | null;
  /** Predictions, one per seed (the first code of the seed that carries one), by choice. */
  predicted: [number, number, number];
  predictions: number;
  /** The explain choices and concept answers pooled by student (null: the lesson has no such questions). */
  understanding: Understanding | null;
}

export interface ClassPool {
  lessons: LessonPool[];
  refused: Refusal[];
  /** Codes dropped as repeats of an earlier one (same lesson, variant and seed). */
  duplicates: number;
  accepted: number;
  cut: { chars: boolean; codes: boolean };
}

const keyOf = (r: ResultCode) => `${r.lessonId}\u0000${r.variant}\u0000${r.seed}`;

/** Pool everything a paste holds. */
export function poolPaste(text: string): ClassPool {
  const { found, cut } = findCodes(text);
  const refused: Refusal[] = [];
  const kept = new Map<string, ResultCode>();
  let duplicates = 0;
  found.forEach((f, i) => {
    if (!f.decoded.ok) {
      refused.push({ sentence: `Code ${i + 1} (line ${f.line}, ${f.text}) was refused: ${f.decoded.why}.` });
      return;
    }
    const k = keyOf(f.decoded.result);
    if (kept.has(k)) duplicates++;
    else kept.set(k, f.decoded.result);
  });
  return { lessons: poolResults([...kept.values()]), refused, duplicates, accepted: kept.size, cut };
}

/** Group results (already distinct by lesson, variant and seed) by lesson, in the lessons' order. */
export function poolResults(results: readonly ResultCode[]): LessonPool[] {
  const byLesson = new Map<string, ResultCode[]>();
  for (const r of results) {
    const list = byLesson.get(r.lessonId);
    if (list) list.push(r);
    else byLesson.set(r.lessonId, [r]);
  }
  const out: LessonPool[] = [];
  LESSONS.forEach((lesson, li) => {
    const runs = byLesson.get(lesson.id);
    if (!runs) return;
    const variants: VariantPool[] = lesson.variants.map((v, vi) => {
      const mine = runs.filter((r) => r.variant === vi).sort((a, b) => a.seed - b.seed);
      const cn = claimNumber(lesson.id, vi);
      const xs = mine.map((r) => r.claim).filter(Number.isFinite);
      const tooFew = xs.length < MIN_CLASS_RUNS;
      const mean = tooFew ? { value: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN, lo: NaN, hi: NaN } : meanInterval(xs);
      return {
        variant: vi, name: v.short ?? v.label, runs: mine, held: mine.filter((r) => r.verdict === 'holds').length, failed: mine.filter((r) => r.verdict === 'fails').length, unclear: mine.filter((r) => r.verdict === 'unclear').length, claim: cn, step: v.claim.steps,
        mean, iqm: iqm(xs), verdict: cn && !tooFew ? verdictFrom([mean.lo, mean.hi], cn.threshold, cn.side) : null, n: xs.length, tooFew,
      };
    }).filter((v) => v.runs.length > 0);
    const question = lessonQuestion(lesson);
    const pairs = question ? contrastPairs(lesson, question, runs) : [];
    const contrast = question && lesson.contrast && pairs.length ? classContrast(pairs.map((x) => x.diff), lesson.contrast.margin, question.expected) : null;
    const bySeed = new Map<number, Choice>();
    for (const r of runs) if (r.prediction !== null && !bySeed.has(r.seed)) bySeed.set(r.seed, r.prediction);
    const predicted: [number, number, number] = [0, 0, 0];
    for (const p of bySeed.values()) predicted[p]++;
    out.push({ lessonId: lesson.id, number: li + 1, title: lesson.title, variants, question, pairs, contrast, predicted, predictions: bySeed.size, understanding: lessonUnderstanding(lesson.id, runs) });
  });
  return out;
}

/**
 * Per seed, the contrast asked − against: a code's own judged contrast (the student ran both
 * variants and the card judged them), else the two codes of the seed whose runs are comparable by
 * the card's one rule (store/overlays.ts comparable: same seed, the same starting weights, or each
 * variant from the lesson's shipped base where its variants are different tasks, as in lesson 6).
 */
export function contrastPairs(lesson: Lesson, q: Pick<Question, 'asked' | 'against'>, runs: readonly ResultCode[]): LessonPool['pairs'] {
  const origin = (r: ResultCode) => codeOrigin(lesson, r.variant, r.seed, r.weights, r.shippedBase === true);
  const out = new Map<number, LessonPool['pairs'][number]>();
  for (const r of runs) if ((r.variant === q.asked || r.variant === q.against) && r.pairedContrast && Number.isFinite(r.pairedContrast.value) && !out.has(r.seed)) out.set(r.seed, { seed: r.seed, diff: r.pairedContrast.value, outcome: r.pairedContrast.outcome });
  const against = new Map<number, ResultCode[]>(); // by seed: a class of any size pairs in one pass
  for (const r of runs) if (r.variant === q.against) against.set(r.seed, [...(against.get(r.seed) ?? []), r]);
  for (const a of runs.filter((r) => r.variant === q.asked)) {
    if (out.has(a.seed)) continue;
    const b = against.get(a.seed)?.find((x) => comparable(origin(x), origin(a)));
    if (b && Number.isFinite(a.contrast) && Number.isFinite(b.contrast)) out.set(a.seed, { seed: a.seed, diff: a.contrast - b.contrast });
  }
  return [...out.values()].sort((x, y) => x.seed - y.seed);
}

/** The class's contrast: the mean of the seeds' differences, its t interval, its outcome against ±margin (too few below MIN_CLASS_RUNS). */
export function classContrast(diffs: readonly number[], margin: number, expected: Outcome | null): ClassContrast {
  const n = diffs.length, tooFew = n < MIN_CLASS_RUNS;
  const e = tooFew ? { value: n ? diffs.reduce((a, b) => a + b, 0) / n : NaN, lo: NaN, hi: NaN } : meanInterval(diffs);
  const outcome = tooFew ? null : outcomeFrom(e.lo, e.hi, margin);
  return { ...e, n, margin, tooFew, outcome, expected, state: tooFew ? (expected === null ? 'open' : 'unclear') : contrastState(outcome, expected) };
}

/** "18 of 25 predicted lower; the class's runs showed higher: 7 of 25 predicted it" (null: nothing to say). */
export function predictionLine(p: LessonPool): string | null {
  if (!p.question) return null;
  const parts: string[] = [];
  if (p.predictions) {
    const top = ([0, 1, 2] as Choice[]).sort((a, b) => p.predicted[b] - p.predicted[a])[0];
    const rest = ([0, 1, 2] as Choice[]).filter((c) => c !== top && p.predicted[c] > 0).map((c) => `${p.predicted[c]} ${CHOICES[c]}`);
    parts.push(`${p.predicted[top]} of ${p.predictions} predicted ${CHOICES[top]}${rest.length ? ` (${rest.join(', ')})` : ''}`);
  } else parts.push('no predictions in these codes');
  const c = p.contrast;
  if (!c) parts.push('no seed has both variants yet');
  else if (c.tooFew) parts.push(`the class's runs cannot tell yet (${c.n} seed${c.n === 1 ? '' : 's'} with both variants: too few runs to judge, it takes ${MIN_CLASS_RUNS})`);
  else if (c.outcome === null) parts.push(`the class's runs cannot tell (${c.n} seeds: the interval reaches across the margin)`);
  else parts.push(`the class's runs showed ${CHOICES[c.outcome]} (${c.n} seeds)${p.predictions ? `: ${p.predicted[c.outcome]} of ${p.predictions} predicted it` : ''}`);
  return `${parts.join('; ')}.`;
}

const interval = (e: Estimate) => (Number.isFinite(e.lo) && Number.isFinite(e.hi) ? `90 % interval ${signed(e.lo)} to ${signed(e.hi)}` : `no interval: too few runs to judge, it takes ${MIN_CLASS_RUNS}`);

/**
 * "Class (4 students, judged at step 50): mean +0.05 (90 % interval +0.02 to +0.08), interquartile
 * mean +0.05; threshold above 0.03: the class verdict holds." (null: the variant has no claim number).
 */
export function classVerdictLine(v: VariantPool): string | null {
  if (!v.claim) return null;
  const n = v.runs.filter((r) => Number.isFinite(r.claim)).length;
  const verdict = v.tooFew ? 'too few runs to judge' : `the class verdict ${v.verdict === 'unclear' ? 'is unclear (more students would settle it)' : v.verdict}`;
  return `Class (${n} student${n === 1 ? '' : 's'}, each judged at step ${v.step}): ${v.claim.what}, mean ${signed(v.mean.value)} (${interval(v.mean)}), interquartile mean ${signed(v.iqm)}; threshold ${thresholdText(v.claim)}: ${verdict}.`;
}

/**
 * The projector's one line for a variant: "G = 8: 9 runs (6 held ✓, 3 unclear); class mean +0.07
 * (90 % interval +0.05 to +0.09), threshold above 0.03: holds." The same numbers as classVerdictLine.
 */
export function classVariantLine(v: VariantPool): string {
  const counts = [v.held ? `${v.held} held ✓` : '', v.failed ? `${v.failed} failed ✗` : '', v.unclear ? `${v.unclear} unclear` : ''].filter(Boolean).join(', ');
  const head = `${v.name}: ${v.runs.length} run${v.runs.length === 1 ? '' : 's'} (${counts})`;
  if (!v.claim) return `${head}.`;
  const verdict = v.tooFew ? 'too few runs to judge' : v.verdict === 'unclear' ? 'unclear' : v.verdict;
  return `${head}; class mean ${signed(v.mean.value)} (${interval(v.mean)}), threshold ${thresholdText(v.claim)}: ${verdict}.`;
}

/**
 * "Paired on 12 seeds: G = 8 − G = 2, mean +0.41 (90 % interval +0.30 to +0.52; a difference beyond
 * ±0.05 counts): higher, as the lesson claims ✓." (null: no seed has both).
 */
export function contrastIntervalLine(l: LessonPool, asked: string, against: string): string | null {
  const c = l.contrast;
  if (!c) return null;
  const head = `Paired on ${c.n} seed${c.n === 1 ? '' : 's'}: ${asked} − ${against}, mean ${signed(c.value)} (${interval(c)}; a difference beyond ±${String(c.margin)} counts)`;
  if (c.tooFew) return `${head}: too few runs to judge.`;
  const shown = c.outcome === null ? 'unclear (more seeds would settle it)' : CHOICES[c.outcome];
  const mark = c.state === 'holds' ? ', as the lesson claims ✓' : c.state === 'fails' ? `, not ${CHOICES[c.expected!]} as the lesson claims ✗` : c.state === 'open' ? ' (the lesson claims no order)' : ` (the lesson claims ${CHOICES[c.expected!]})`;
  return `${head}: ${shown}${mark}.`;
}

/**
 * A class's results, pooled: the codes found in a paste (code.ts), duplicates dropped (the same
 * lesson, variant and seed: the first one counts), grouped by lesson and variant — runs, how many
 * held ✓, each run's claim number by seed against its threshold — with the lesson's contrast on
 * every seed where both of its question's variants were run from the same starting weights, and
 * the class's predictions against those outcomes. Engine-free and pure: the panel renders it.
 *
 * The class is the sample (issue 40): per variant the class's mean claim number with its 90 %
 * bootstrap interval across students (and the interquartile mean), the class verdict from that
 * interval by the lessons' own rule (rl/interval.ts verdictFrom), and the contrast as the mean of
 * paired differences on shared seeds, with its interval. Every pooled code was judged at its
 * variant's verdict step (the decoder refuses any other by name), so no two steps are mixed.
 */
import { LESSONS } from '../rl/lessons.ts';
import { bootstrapMean, iqm, pairedDiff, verdictFrom, type Estimate } from '../rl/interval.ts';
import { signed } from '../rl/format.ts';
import { claimNumber, thresholdText, type ClaimNumber } from './claimNumber.ts';
import { findCodes, type ResultCode } from './code.ts';
import { CHOICES, lessonQuestion, outcomeOf, type Choice, type Question } from './question.ts';

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
  /** The class's mean claim number with its 90 % bootstrap interval across students (runs with a number). */
  mean: Estimate;
  /** The interquartile mean of the same numbers. */
  iqm: number;
  /** The class verdict from the interval (null: the variant has no claim number). */
  verdict: 'holds' | 'fails' | 'unclear' | null;
}

export interface LessonPool {
  lessonId: string;
  number: number;
  title: string;
  variants: VariantPool[];
  question: Question | null;
  /** Seeds where both of the question's variants were run from the same weights: asked − against, and the outcome. */
  pairs: { seed: number; asked: number; against: number; outcome: Choice | null }[];
  /** The mean of asked − against over the pairs with both numbers, with its 90 % bootstrap interval (null: no pair). */
  contrast: (Estimate & { n: number }) | null;
  /** Predictions, one per seed (the first code of the seed that carries one), by choice. */
  predicted: [number, number, number];
  predictions: number;
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
      const mean = bootstrapMean(xs);
      return {
        variant: vi, name: v.short ?? v.label, runs: mine, held: mine.filter((r) => r.verdict === 'holds').length, failed: mine.filter((r) => r.verdict === 'fails').length, unclear: mine.filter((r) => r.verdict === 'unclear').length, claim: cn, step: v.claim.steps,
        mean, iqm: iqm(xs), verdict: cn ? verdictFrom([mean.lo, mean.hi], cn.threshold, cn.side) : null,
      };
    }).filter((v) => v.runs.length > 0);
    const question = lessonQuestion(lesson);
    const pairs: LessonPool['pairs'] = [];
    if (question) {
      const against = new Map(runs.filter((r) => r.variant === question.against).map((r) => [r.seed, r]));
      for (const a of runs.filter((r) => r.variant === question.asked).sort((x, y) => x.seed - y.seed)) {
        const b = against.get(a.seed);
        if (b && b.weights === a.weights) pairs.push({ seed: a.seed, asked: a.contrast, against: b.contrast, outcome: outcomeOf(a.contrast, b.contrast) });
      }
    }
    const both = pairs.filter((x) => Number.isFinite(x.asked) && Number.isFinite(x.against));
    const contrast = both.length ? { ...pairedDiff(both.map((x) => x.against), both.map((x) => x.asked)), n: both.length } : null;
    const bySeed = new Map<number, Choice>();
    for (const r of runs) if (r.prediction !== null && !bySeed.has(r.seed)) bySeed.set(r.seed, r.prediction);
    const predicted: [number, number, number] = [0, 0, 0];
    for (const p of bySeed.values()) predicted[p]++;
    out.push({ lessonId: lesson.id, number: li + 1, title: lesson.title, variants, question, pairs, contrast, predicted, predictions: bySeed.size });
  });
  return out;
}

/** "18 of 25 predicted lower; 24 of 25 seeds with both variants came out higher" (null: nothing to say). */
export function predictionLine(p: LessonPool): string | null {
  if (!p.question) return null;
  const parts: string[] = [];
  if (p.predictions) {
    const top = ([0, 1, 2] as Choice[]).sort((a, b) => p.predicted[b] - p.predicted[a])[0];
    const rest = ([0, 1, 2] as Choice[]).filter((c) => c !== top && p.predicted[c] > 0).map((c) => `${p.predicted[c]} ${CHOICES[c]}`);
    parts.push(`${p.predicted[top]} of ${p.predictions} predicted ${CHOICES[top]}${rest.length ? ` (${rest.join(', ')})` : ''}`);
  } else parts.push('no predictions in these codes');
  const judged = p.pairs.filter((x) => x.outcome !== null);
  if (judged.length) {
    const counts = [0, 0, 0];
    for (const x of judged) counts[x.outcome!]++;
    const top = [0, 1, 2].sort((a, b) => counts[b] - counts[a])[0];
    parts.push(`${counts[top]} of ${judged.length} seed${judged.length === 1 ? '' : 's'} with both variants came out ${CHOICES[top]}`);
  } else parts.push('no seed has both variants yet');
  return `${parts.join('; ')}.`;
}

const interval = (e: Estimate) => (Number.isFinite(e.lo) && Number.isFinite(e.hi) ? `90 % interval ${signed(e.lo)} to ${signed(e.hi)}` : 'no interval yet: it takes two students');

/**
 * "Class (4 students, judged at step 50): mean +0.05 (90 % interval +0.02 to +0.08), interquartile
 * mean +0.05; threshold above 0.03: the class verdict holds." (null: the variant has no claim number).
 */
export function classVerdictLine(v: VariantPool): string | null {
  if (!v.claim) return null;
  const n = v.runs.filter((r) => Number.isFinite(r.claim)).length;
  return `Class (${n} student${n === 1 ? '' : 's'}, each judged at step ${v.step}): ${v.claim.what}, mean ${signed(v.mean.value)} (${interval(v.mean)}), interquartile mean ${signed(v.iqm)}; threshold ${thresholdText(v.claim)}: the class verdict ${v.verdict === 'unclear' ? 'is unclear (more students would settle it)' : v.verdict}.`;
}

/** "Paired on 12 shared seeds: G = 8 − G = 2, mean +0.41 (90 % interval +0.30 to +0.52)." (null: no shared seed). */
export function contrastIntervalLine(l: LessonPool, asked: string, against: string): string | null {
  return l.contrast ? `Paired on ${l.contrast.n} shared seed${l.contrast.n === 1 ? '' : 's'}: ${asked} − ${against}, mean ${signed(l.contrast.value)} (${interval(l.contrast)}).` : null;
}

const csvCell = (v: string | number | boolean | null) => {
  const s = v === null ? '' : typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  // a cell a spreadsheet would read as a formula starts with a quote; every cell is quoted when it needs to be
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v !== 'number' ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The pooled runs as CSV: one row per run. */
export function poolCsv(lessons: readonly LessonPool[]): string {
  const rows: (string | number | boolean | null)[][] = [['lesson', 'lesson_id', 'variant', 'variant_name', 'seed', 'weights', 'steps', 'verdict', 'claim_number', 'claim_what', 'threshold', 'contrast', 'prediction']];
  for (const l of lessons) {
    for (const v of l.variants) {
      for (const r of v.runs) rows.push([l.number, l.lessonId, v.variant, v.name, r.seed, r.weights, r.steps, r.verdict, r.claim, v.claim?.what ?? null, v.claim ? thresholdText(v.claim) : null, r.contrast, r.prediction === null ? null : CHOICES[r.prediction]]);
    }
  }
  return rows.map((r) => r.map(csvCell).join(',')).join('\n') + '\n';
}

/**
 * The class results as CSV: the file the teacher downloads from the Class results panel and the
 * presenter view ("CSV"). One table a spreadsheet opens as it is:
 *
 *   - UTF-8 with a byte-order mark, so a spreadsheet on Windows reads "−", "≤", "β" as written
 *     instead of guessing a code page;
 *   - one row per pooled run (`row` = "run"), then per variant a summary row ("class mean,
 *     variant": the class's mean claim number with its 90 % Student-t interval across students and
 *     the class verdict), and per lesson with a question a summary row for its contrast ("class
 *     mean, contrast": the mean paired difference asked − against over the seeds that ran both, its
 *     90 % interval, the class outcome against the lesson's margin and the predictions). Below
 *     MIN_CLASS_RUNS runs (seeds, for a contrast) a summary row has its mean but no interval, and its
 *     verdict says "too few runs to judge" — the pool's own rule (pool.ts);
 *   - named columns that say what they measure: `claim_measure` and `contrast_measure` name the
 *     number in words on every row (a lesson's claim and contrast differ by lesson), with its step;
 *   - what the class understood (issue 49, understanding.ts): on a run's row its student's explain
 *     choice (the reason in words, and 1 or 0 for right) and concept answers before and after (1
 *     right, 0 wrong, empty not answered); per lesson a row "class, explain and concept" that counts
 *     students (one per seed, so a student with two runs counts once): how many explained right of
 *     how many answered, the wrong reason chosen most, how many were right before and after of how
 *     many answered, and the normalized gain ⟨g⟩ with its 90 % interval over the students who
 *     answered both (none below MIN_CLASS_RUNS of them).
 *
 * Pure: the UI only downloads the string.
 */
import { MIN_CLASS_RUNS } from '../rl/interval.ts';
import { getLesson } from '../rl/lessons.ts';
import { thresholdText } from './claimNumber.ts';
import type { ClassContrast, LessonPool, VariantPool } from './pool.ts';
import { CHOICES } from './question.ts';
import { lessonReasons } from './concepts.ts';

/** UTF-8's byte-order mark: the first character of the file. */
export const BOM = '\uFEFF';

/** The columns, in order (the header row). */
export const CSV_COLUMNS = [
  'row', // "run", "class mean, variant" or "class mean, contrast"
  'lesson',
  'lesson_id',
  'variant', // the variant's number (0 is the lesson's first); a contrast row: "asked − against"
  'variant_name',
  'seed',
  'starting_weights',
  'verdict_step', // the step every number of the row was judged at
  'verdict', // a run's own verdict; a summary row's class verdict (a contrast: its outcome against the lesson's claim)
  'n_in_mean', // a summary row: the runs (a contrast: the seeds with both variants) its mean is over
  'claim_measure',
  'claim_threshold',
  'claim_number', // a run's claim number; a variant row: the class mean of its runs' numbers
  'claim_90pct_low',
  'claim_90pct_high',
  'contrast_measure',
  'contrast_number', // a run's own contrast number; a contrast row: the class mean of the paired differences
  'contrast_90pct_low',
  'contrast_90pct_high',
  'contrast_margin', // a difference beyond ± this counts; within it is "about the same"
  'prediction', // a run's: what its student predicted; a contrast row: the class's predictions, counted
  'explain_choice', // a run's: the reason its student chose for "Why?", in words
  'explain_right', // a run's: 1 right, 0 wrong; the class row: students who chose the right reason
  'explain_answered', // the class row: students who chose a reason
  'most_chosen_wrong_reason', // the class row: the wrong reason chosen by the most students (ties joined by " | "), what to discuss next
  'concept_before_right', // a run's: 1 right, 0 wrong, empty not answered; the class row: students right before the lesson
  'concept_before_answered', // the class row: students who answered before
  'concept_after_right', // as before, after the explain step
  'concept_after_answered',
  'normalized_gain', // the class row: ⟨g⟩ = (after − before) / (1 − before) over the students who answered both
  'gain_90pct_low',
  'gain_90pct_high',
  'n_in_gain', // the students who answered both
] as const;

type Cell = string | number | null;
type Row = Record<(typeof CSV_COLUMNS)[number], Cell>;

const cell = (v: Cell) => {
  const s = v === null ? '' : typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  // a text cell a spreadsheet would read as a formula starts with a quote; every cell is quoted when it needs to be
  const safe = typeof v === 'string' && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A class figure as its share code carries a number: 4 significant digits. */
const round4 = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(4)) : null);

const empty = (): Row => Object.fromEntries(CSV_COLUMNS.map((c) => [c, null])) as Row;

function runRows(l: LessonPool, v: VariantPool, contrastWhat: string | null): Row[] {
  return v.runs.map((r) => ({
    ...empty(), row: 'run', lesson: l.number, lesson_id: l.lessonId, variant: v.variant, variant_name: v.name, seed: r.seed, starting_weights: r.weights,
    verdict_step: r.steps, verdict: r.verdict, claim_measure: v.claim?.what ?? null, claim_threshold: v.claim ? thresholdText(v.claim) : null, claim_number: r.claim,
    contrast_measure: contrastWhat ? `${contrastWhat}, this run, at step ${r.steps}` : null, contrast_number: contrastWhat ? r.contrast : null,
    prediction: r.prediction === null ? null : CHOICES[r.prediction], ...answerCells(l.lessonId, r),
  }));
}

const bit = (x: boolean | null | undefined) => (x === true ? 1 : x === false ? 0 : null);

/** A run's explain choice and concept answers (empty where its code carries none). */
function answerCells(lessonId: string, r: LessonPool['variants'][number]['runs'][number]): Partial<Row> {
  const e = typeof r.explain === 'number' ? lessonReasons(lessonId)[r.explain] : undefined;
  return {
    explain_choice: e ? e.text : null, explain_right: e ? (e.right ? 1 : 0) : null,
    concept_before_right: bit(r.concept?.pre), concept_after_right: bit(r.concept?.post),
  };
}

/** The lesson's class row for its explain and concept questions (null: the lesson has none, or no code answered them). */
function understandingRow(l: LessonPool): Row | null {
  const u = l.understanding;
  if (!u || (!u.explain.answered && !u.concept.pre.answered && !u.concept.post.answered)) return null;
  const g = u.concept.gain;
  return {
    ...empty(), row: 'class, explain and concept', lesson: l.number, lesson_id: l.lessonId,
    explain_right: u.explain.right, explain_answered: u.explain.answered,
    most_chosen_wrong_reason: u.explain.mostWrong.length ? u.explain.mostWrong.map((i) => u.concepts.explain.reasons[i].text).join(' | ') : null,
    concept_before_right: u.concept.pre.right, concept_before_answered: u.concept.pre.answered,
    concept_after_right: u.concept.post.right, concept_after_answered: u.concept.post.answered,
    normalized_gain: round4(g.value), gain_90pct_low: round4(g.lo), gain_90pct_high: round4(g.hi), n_in_gain: g.n,
  };
}

function variantRow(l: LessonPool, v: VariantPool): Row {
  return {
    ...empty(), row: 'class mean, variant', lesson: l.number, lesson_id: l.lessonId, variant: v.variant, variant_name: v.name, verdict_step: v.step,
    verdict: !v.claim ? null : v.tooFew ? `too few runs to judge (it takes ${MIN_CLASS_RUNS})` : v.verdict, n_in_mean: v.n,
    claim_measure: v.claim?.what ?? null, claim_threshold: v.claim ? thresholdText(v.claim) : null,
    claim_number: v.claim ? round4(v.mean.value) : null, claim_90pct_low: v.claim ? round4(v.mean.lo) : null, claim_90pct_high: v.claim ? round4(v.mean.hi) : null,
  };
}

/** The class's contrast in words: its outcome, and the lesson's claim beside it. */
function contrastVerdict(c: ClassContrast | null): string {
  if (!c) return 'no seed has both variants yet';
  if (c.tooFew) return `too few runs to judge (${c.n} seed${c.n === 1 ? '' : 's'} with both variants; it takes ${MIN_CLASS_RUNS})`;
  const shown = c.outcome === null ? 'unclear' : CHOICES[c.outcome];
  const claims = c.expected === null ? 'the lesson claims no order' : `the lesson claims ${CHOICES[c.expected]}`;
  return c.state === 'holds' ? `${shown}, as the lesson claims` : `${shown} (${claims})`;
}

function contrastRow(l: LessonPool): Row | null {
  const lesson = getLesson(l.lessonId);
  if (!l.question || !lesson?.contrast) return null;
  const { asked, against } = l.question;
  const name = (i: number) => lesson.variants[i].short ?? lesson.variants[i].label;
  const step = lesson.variants[asked].claim.steps;
  const c = l.contrast;
  const counts = [0, 1, 2].filter((i) => l.predicted[i] > 0).map((i) => `${l.predicted[i]} ${CHOICES[i]}`);
  return {
    ...empty(), row: 'class mean, contrast', lesson: l.number, lesson_id: l.lessonId, variant: `${asked} − ${against}`, variant_name: `${name(asked)} − ${name(against)}`,
    verdict_step: step, verdict: contrastVerdict(c), n_in_mean: c?.n ?? 0,
    contrast_measure: `${lesson.contrast.what}: ${name(asked)} − ${name(against)} on the same seed, at step ${step}`,
    contrast_number: c ? round4(c.value) : null, contrast_90pct_low: c ? round4(c.lo) : null, contrast_90pct_high: c ? round4(c.hi) : null,
    contrast_margin: lesson.contrast.margin, prediction: counts.length ? `predicted: ${counts.join(', ')}` : null,
  };
}

/** The pooled class as CSV: a byte-order mark, the header, each variant's runs and its class row, each lesson's contrast row and its explain and concept row. */
export function poolCsv(lessons: readonly LessonPool[]): string {
  const rows: Row[] = [];
  for (const l of lessons) {
    const what = getLesson(l.lessonId)?.contrast?.what ?? null;
    for (const v of l.variants) rows.push(...runRows(l, v, what), variantRow(l, v));
    const c = contrastRow(l);
    if (c) rows.push(c);
    const u = understandingRow(l);
    if (u) rows.push(u);
  }
  const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((k) => cell(r[k])).join(','))];
  return BOM + lines.join('\n') + '\n';
}

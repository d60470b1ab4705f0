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
 *     number in words on every row (a lesson's claim and contrast differ by lesson), with its step.
 *
 * Pure: the UI only downloads the string.
 */
import { MIN_CLASS_RUNS } from '../rl/interval.ts';
import { getLesson } from '../rl/lessons.ts';
import { thresholdText } from './claimNumber.ts';
import type { ClassContrast, LessonPool, VariantPool } from './pool.ts';
import { CHOICES } from './question.ts';

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
    prediction: r.prediction === null ? null : CHOICES[r.prediction],
  }));
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

/** The pooled class as CSV: a byte-order mark, the header, each variant's runs and its class row, each lesson's contrast row. */
export function poolCsv(lessons: readonly LessonPool[]): string {
  const rows: Row[] = [];
  for (const l of lessons) {
    const what = getLesson(l.lessonId)?.contrast?.what ?? null;
    for (const v of l.variants) rows.push(...runRows(l, v, what), variantRow(l, v));
    const c = contrastRow(l);
    if (c) rows.push(c);
  }
  const lines = [CSV_COLUMNS.join(','), ...rows.map((r) => CSV_COLUMNS.map((k) => cell(r[k])).join(','))];
  return BOM + lines.join('\n') + '\n';
}

/**
 * The class CSV (csv.ts): a byte-order mark (a spreadsheet on Windows reads "−" as written), named
 * columns that say what they measure, one row per run, and per variant and per lesson's contrast a
 * summary row with the class mean and its 90 % interval — none below MIN_CLASS_RUNS runs.
 */
import { describe, expect, it } from 'vitest';
import { MIN_CLASS_RUNS } from '../rl/interval.ts';
import { getLesson } from '../rl/lessons.ts';
import { encodeResult } from './code.ts';
import { BOM, CSV_COLUMNS, poolCsv } from './csv.ts';
import { poolPaste } from './pool.ts';
import { lessonConcepts } from './concepts.ts';
import { classOf25, sample } from './testSample.ts';

/** The CSV's rows as records by column name (RFC 4180 quoting), after its byte-order mark. */
function parse(csv: string): { header: string[]; rows: Record<string, string>[] } {
  expect(csv.startsWith(BOM)).toBe(true);
  const lines: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = BOM.length; i < csv.length; i++) {
    const ch = csv[i];
    if (quoted) {
      if (ch === '"' && csv[i + 1] === '"') { field += '"'; i++; } else if (ch === '"') quoted = false; else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') { row.push(field); field = ''; } else if (ch === '\n') { row.push(field); lines.push(row); row = []; field = ''; } else field += ch;
  }
  const [header, ...rest] = lines;
  return { header, rows: rest.map((r) => { expect(r).toHaveLength(header.length); return Object.fromEntries(header.map((h, i) => [h, r[i]])); }) };
}

// lesson 1: G = 8 claims a held-out gain above 0.03, G = 2 a fall (at or below −0.05); the contrast is the mixed share, G = 8 − G = 2
const g8 = (xs: number[]) => xs.map((x, i) => encodeResult(sample({ seed: 20 + i, variant: 1, claim: x, held: x > 0.03, contrast: 0.8 + i / 100, prediction: i < 4 ? 0 : 2 })));
const g2 = (xs: number[]) => xs.map((x, i) => encodeResult(sample({ seed: 20 + i, variant: 0, claim: x, held: x <= -0.05, contrast: 0.4 + i / 200, prediction: null })));
const STEP = getLesson('mixed-groups')!.variants[0].claim.steps;

describe('class CSV', () => {
  it('starts with a UTF-8 byte-order mark and names each column for what it measures', () => {
    const csv = poolCsv(poolPaste(encodeResult(sample())).lessons);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(new TextEncoder().encode(csv).subarray(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf])); // what the downloaded file begins with
    const { header } = parse(csv);
    expect(header).toEqual([...CSV_COLUMNS]);
    expect(header).not.toContain('contrast'); // the bare name said nothing of what it measures
    for (const c of ['row', 'verdict_step', 'claim_measure', 'claim_number', 'claim_90pct_low', 'claim_90pct_high', 'contrast_measure', 'contrast_number', 'contrast_90pct_low', 'contrast_90pct_high', 'contrast_margin', 'n_in_mean']) expect(header).toContain(c);
  });

  it('one row per run, each number named in words with its step', () => {
    const rows = parse(poolCsv(poolPaste(encodeResult(sample({ seed: 11, variant: 0, contrast: 0.41, claim: -0.05, prediction: 2 }))).lessons)).rows;
    const run = rows.find((r) => r.row === 'run')!;
    expect(run).toMatchObject({
      lesson: '1', lesson_id: 'mixed-groups', variant: '0', variant_name: 'G = 2', seed: '11', starting_weights: '0123456789abcdef', verdict_step: String(STEP), verdict: 'holds',
      claim_measure: 'held-out accuracy (greedy), end − start', claim_threshold: 'at or below −0.05', claim_number: '-0.05', claim_90pct_low: '', claim_90pct_high: '',
      contrast_measure: `mixed share of the groups, this run, at step ${STEP}`, contrast_number: '0.41', prediction: 'lower',
    });
  });

  it('a summary row per variant and per lesson\'s contrast: the class mean with its 90 % interval, as the pool judges it', () => {
    const text = [...g8([0.08, 0.1, 0.09, 0.12, 0.07, 0.11]), ...g2([-0.1, -0.05, -0.08, -0.12, -0.06, -0.09])].join('\n');
    const pool = poolPaste(text).lessons;
    const [v2, v8] = pool[0].variants;
    const rows = parse(poolCsv(pool)).rows;
    expect(rows.map((r) => r.row)).toEqual([...Array(6).fill('run'), 'class mean, variant', ...Array(6).fill('run'), 'class mean, variant', 'class mean, contrast']);
    const [s2, s8] = rows.filter((r) => r.row === 'class mean, variant');
    expect(s8).toMatchObject({ variant_name: 'G = 8', verdict_step: String(STEP), verdict: 'holds', n_in_mean: '6', claim_measure: 'held-out pass@1 (sampled), end − start', claim_threshold: 'above 0.03', seed: '', contrast_number: '' });
    for (const [s, v] of [[s2, v2], [s8, v8]] as const) {
      expect(Number(s.claim_number)).toBeCloseTo(v.mean.value, 3);
      expect(Number(s.claim_90pct_low)).toBeCloseTo(v.mean.lo, 3);
      expect(Number(s.claim_90pct_high)).toBeCloseTo(v.mean.hi, 3);
      expect(Number(s.claim_90pct_low)).toBeLessThan(Number(s.claim_number));
      expect(Number(s.claim_90pct_high)).toBeGreaterThan(Number(s.claim_number));
    }
    const c = rows.find((r) => r.row === 'class mean, contrast')!;
    const cp = pool[0].contrast!;
    expect(c).toMatchObject({
      lesson_id: 'mixed-groups', variant: '1 − 0', variant_name: 'G = 8 − G = 2', verdict_step: String(STEP), verdict: 'higher, as the lesson claims', n_in_mean: '6',
      contrast_measure: `mixed share of the groups: G = 8 − G = 2 on the same seed, at step ${STEP}`, contrast_margin: '0.05', claim_number: '', prediction: 'predicted: 4 higher, 2 lower',
    });
    expect(Number(c.contrast_number)).toBeCloseTo(cp.value, 3);
    expect(Number(c.contrast_90pct_low)).toBeCloseTo(cp.lo, 3);
    expect(Number(c.contrast_90pct_high)).toBeCloseTo(cp.hi, 3);
  });

  it(`below ${MIN_CLASS_RUNS} runs a summary row has the mean but no interval: too few runs to judge`, () => {
    const rows = parse(poolCsv(poolPaste([...g8([0.08, 0.1, 0.09]), ...g2([-0.1, -0.05, -0.08])].join('\n')).lessons)).rows;
    const s8 = rows.find((r) => r.row === 'class mean, variant' && r.variant_name === 'G = 8')!;
    expect(Number(s8.claim_number)).toBeCloseTo(0.09, 6);
    expect([s8.claim_90pct_low, s8.claim_90pct_high, s8.n_in_mean]).toEqual(['', '', '3']);
    expect(s8.verdict).toBe(`too few runs to judge (it takes ${MIN_CLASS_RUNS})`);
    const c = rows.find((r) => r.row === 'class mean, contrast')!;
    expect([c.contrast_90pct_low, c.contrast_90pct_high, c.n_in_mean]).toEqual(['', '', '3']);
    expect(c.verdict).toBe(`too few runs to judge (3 seeds with both variants; it takes ${MIN_CLASS_RUNS})`);
  });

  it('a lesson whose question has no seed with both variants still has its contrast row, saying so', () => {
    const rows = parse(poolCsv(poolPaste(encodeResult(sample({ variant: 1 }))).lessons)).rows;
    expect(rows.find((r) => r.row === 'class mean, contrast')).toMatchObject({ verdict: 'no seed has both variants yet', n_in_mean: '0', contrast_number: '' });
  });

  it('a number is a number, and no cell starts a formula', () => {
    const csv = poolCsv(poolPaste(encodeResult(sample({ claim: -0.5, held: false }))).lessons);
    expect(csv).toContain(',-0.5,');
    expect(parse(csv).rows.flatMap((r) => Object.values(r)).filter((v) => /^[=+@]/.test(v) || /^-\D/.test(v))).toEqual([]);
  });

  it('what the class understood: a run\'s explain choice and concept answers, and per lesson a class row counting students, with ⟨g⟩ and its interval', () => {
    const text = [...classOf25(), sample({ seed: 999, variant: 1 })].map((r) => encodeResult(r)).join('\n'); // the last: an old code, no answers
    const pool = poolPaste(text).lessons;
    const u = pool[0].understanding!;
    const reasons = lessonConcepts('mixed-groups')!.explain.reasons;
    const { header, rows } = parse(poolCsv(pool));
    expect(header.slice(-12)).toEqual(['explain_choice', 'explain_right', 'explain_answered', 'most_chosen_wrong_reason', 'concept_before_right', 'concept_before_answered', 'concept_after_right', 'concept_after_answered', 'normalized_gain', 'gain_90pct_low', 'gain_90pct_high', 'n_in_gain']);
    const runs = rows.filter((r) => r.row === 'run');
    expect(runs.find((r) => r.seed === '100')).toMatchObject({ explain_choice: reasons[1].text, explain_right: '1', concept_before_right: '0', concept_after_right: '0', explain_answered: '', normalized_gain: '' });
    expect(runs.find((r) => r.seed === '101')).toMatchObject({ explain_right: '1', concept_before_right: '0', concept_after_right: '1' });
    expect(runs.find((r) => r.seed === '999')).toMatchObject({ explain_choice: '', explain_right: '', concept_before_right: '', concept_after_right: '' });
    const c = rows.filter((r) => r.row === 'class, explain and concept');
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({
      lesson: '1', lesson_id: 'mixed-groups', explain_right: '14', explain_answered: '25', most_chosen_wrong_reason: reasons[0].text,
      concept_before_right: '6', concept_before_answered: '25', concept_after_right: '19', concept_after_answered: '25', n_in_gain: '25', seed: '', claim_number: '',
    });
    expect(Number(c[0].normalized_gain)).toBeCloseTo(13 / 19, 3);
    expect(Number(c[0].gain_90pct_low)).toBeCloseTo(u.concept.gain.lo, 3);
    expect(Number(c[0].gain_90pct_high)).toBeCloseTo(u.concept.gain.hi, 3);
    // a lesson whose codes answered nothing has no such row
    expect(parse(poolCsv(poolPaste(encodeResult(sample())).lessons)).rows.map((r) => r.row)).not.toContain('class, explain and concept');
  });
});

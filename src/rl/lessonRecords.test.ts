// The lessons' pre-registered records (records/<lesson>.json, written by `npm run lessons -- --seeds
// 1001,…,1010 --record`): every lesson has one for its contract as it is now, so a lesson whose
// settings, claim or verdict step changed fails here until it is judged again on fresh seeds.
import { describe, expect, it } from 'vitest';
import { LESSONS, getLesson } from './lessons.ts';
import { contractHash } from './lessonContract.ts';
import { LESSON_RECORDS, lessonRecord, recordSentence, spreadSentence, type LessonRecord } from './lessonRecords.ts';

describe('lesson records', () => {
  it('every lesson has a record of its contract as it is now, on ten fresh seeds, by the engine\'s real name', () => {
    for (const l of LESSONS) {
      const r = LESSON_RECORDS.lessons.find((x) => x.lesson === l.id);
      expect(r, `${l.id}: no record (npm run lessons -- --seeds 1001,…,1010 --record)`).toBeDefined();
      expect(r!.hash, `${l.id}: recorded for another contract — its settings, claims or verdict step changed since; record it again on fresh seeds`).toBe(contractHash(l));
      expect(lessonRecord(l)).toBe(r);
      expect(r!.seeds.length).toBeGreaterThanOrEqual(10);
      expect(r!.seeds.every((s) => s >= 1000), `${l.id}: recorded on seeds that chose its claims`).toBe(true);
      expect(r!.engine).toMatch(/CPU reference|Dawn|Chromium/);
      expect(r!.variants.map((v) => v.steps)).toEqual(l.variants.map((v) => v.claim.steps));
      for (const v of r!.variants) {
        expect(v.holds + v.fails + v.unclear, `${l.id} ${v.label}`).toBe(r!.seeds.length);
        expect(v.runs.map((x) => x.seed)).toEqual(r!.seeds);
      }
    }
  });

  it('a lesson changed since its record has none, and the card says so where fresh seeds disagree with a claim', () => {
    const l = getLesson('mixed-groups')!;
    expect(lessonRecord({ ...l, settings: { ...l.settings, learningRate: 1e-3 } })).toBeNull();
    const rec: LessonRecord = {
      lesson: l.id, hash: contractHash(l), engine: 'CPU reference (Node)', seeds: [1001, 1002, 1003],
      variants: l.variants.map((v, i) => ({ label: v.short ?? v.label, steps: v.claim.steps, holds: i === 1 ? 0 : 3, fails: i === 1 ? 2 : 0, unclear: i === 1 ? 1 : 0, median_width: 0.05, runs: [] })),
    };
    const s = recordSentence(l, rec)!;
    expect(s).toMatch(/^Recorded once on 3 fresh seeds \(1001–1003; CPU reference, run outside the browser\), at step 40: G = 2: holds on 3, fails on 0, unclear on 0; G = 8: holds on 0, fails on 2, unclear on 1;/);
    expect(s).toMatch(/the claim of G = 8 failed more often than it held: the record disagrees with the claim, and the claim was not re-tuned to it\.$/);
  });

  it('after one run\'s verdict the card says how far the seeds spread beyond one run\'s interval, from the record', () => {
    const l = getLesson('mixed-groups')!;
    const runs = (values: number[], half: number) => values.map((value, i) => ({ seed: 1001 + i, verdict: 'holds', value, lo: value - half, hi: value + half }));
    const rec = (values: number[], half: number): LessonRecord => ({ lesson: l.id, hash: contractHash(l), engine: 'CPU reference (Node)', seeds: values.map((_, i) => 1001 + i), variants: [{ label: 'G = 2', steps: 40, holds: 5, fails: 0, unclear: 0, median_width: 2 * half, runs: runs(values, half) }] });
    // sd 0.158 across seeds against a standard error of 0.1645 / 1.6449 = 0.1 per run: 1.6 times
    expect(spreadSentence(l, 0, rec([0.1, 0.3, 0.5, 0.2, 0.4], 0.1645))).toBe('One run\'s interval speaks of its own prompts and steps, not of every seed: across the 5 fresh seeds of the record, this variant\'s number spread 1.6 times as far as one run\'s interval implies. The class pool, across seeds, is the test.');
    expect(spreadSentence(l, 0, rec([0.1, 0.3, 0.5, 0.2, 0.4], 0.3))).toContain('spread about as far as one run');
    expect(spreadSentence(l, 0, null)).toBeNull();
    expect(spreadSentence(l, 1, rec([0.1, 0.2, 0.3], 0.1))).toBeNull(); // no such variant in the record
  });
});

// What the class predicts is what gets judged: a lesson's contrast as a claim of its own — the
// paired difference asked − against on one seed with its 90 % interval, read as higher / about the
// same / lower / unclear against the lesson's margin, by one rule for a seed and for a class.
import { describe, expect, it } from 'vitest';
import { contrastSentence, contrastState, judgeContrast, outcomeFrom, type LessonContrast } from './contrast.ts';
import { getLesson } from './lessons.ts';
import type { RunRecord } from './claims.ts';
import type { StepMetrics } from './metrics.ts';
import { Rng } from '../model/rng.ts';
import { contractEval } from './testing/contractEval.ts';

const steps = (n: number, f: (i: number) => Partial<StepMetrics>) => Array.from({ length: n }, (_, i) => ({ step: i, accuracy: 0.3, kl: 0.05, kl_exact: 0.05, ...f(i) }) as StepMetrics);

describe('outcomeFrom: one rule for a seed and for a class', () => {
  it('higher above +margin, lower below −margin, about the same within ±margin, unclear across it', () => {
    expect(outcomeFrom(0.06, 0.2, 0.05)).toBe(0);
    expect(outcomeFrom(-0.2, -0.06, 0.05)).toBe(2);
    expect(outcomeFrom(-0.04, 0.05, 0.05)).toBe(1);
    expect(outcomeFrom(0.01, 0.2, 0.05)).toBeNull(); // above 0 but reaching into ±margin: not settled
    expect(outcomeFrom(-0.1, 0.1, 0.05)).toBeNull();
    expect(outcomeFrom(NaN, 0.1, 0.05)).toBeNull();
    expect(contrastState(0, 0)).toBe('holds');
    expect(contrastState(1, 0)).toBe('fails');
    expect(contrastState(null, 0)).toBe('unclear');
    expect(contrastState(2, null)).toBe('open');
  });
});

describe('judgeContrast on one seed', () => {
  const lesson = getLesson('mixed-groups')!;
  const c = lesson.contrast!;
  const N = lesson.variants[1].claim.steps;
  const g8 = lesson.variants[1].claim, g2 = lesson.variants[0].claim;
  const rng = new Rng(7);
  const mixedRun = (share: number, noise: number): RunRecord => ({ steps: steps(N, () => ({ frac_mixed: share + noise * (rng.next() - 0.5), mixed_predicted: 0.5 })), evals: [contractEval(0, 256, 0.45, 0.3, 1), contractEval(N, 256, 0.45, 0.3, 2)] });

  it('a clear difference in the steps holds; the numbers are each run\'s own', () => {
    const v = judgeContrast(c, { variant: 1, claim: g8, run: mixedRun(0.7, 0.1) }, { variant: 0, claim: g2, run: mixedRun(0.3, 0.1) }, N);
    expect(v.value).toBeCloseTo(v.askedValue - v.againstValue, 12);
    expect(v.value).toBeGreaterThan(0.3);
    expect(v.lo).toBeGreaterThan(c.margin);
    expect([v.outcome, v.expected, v.state]).toEqual([0, 0, 'holds']);
    expect(contrastSentence(c, v, ['G = 2', 'G = 8', 'G = 16'])).toMatch(/^At step 40, mixed share of the groups: 0\.\d\d in “G = 8”, 0\.\d\d in “G = 2”: difference \+0\.\d\d \(90 % interval \+0\.\d\d to \+0\.\d\d, on the same held-out prompts; a difference beyond ±0\.05 counts, within it is about the same\) — higher, as the lesson claims ✓\.$/);
  });

  it('what a 10 % rule called "higher" on two noisy numbers is unclear when its interval reaches across the margin', () => {
    // 0.44 against 0.38: 14 % apart (the old rule: higher), in steps that wander ±0.3
    const v = judgeContrast(c, { variant: 1, claim: g8, run: mixedRun(0.44, 0.6) }, { variant: 0, claim: g2, run: mixedRun(0.38, 0.6) }, N);
    expect(v.lo).toBeLessThan(c.margin);
    expect(v.outcome).toBeNull();
    expect(v.state).toBe('unclear');
  });

  it('held-out readings are paired over the same prompts: their shared difficulty cancels', () => {
    // two runs read on the same 256 prompts whose difficulty varies a lot; asked gains 0.06 on each prompt's odds
    const G = 8, P = 256;
    const base = Array.from({ length: P }, () => rng.next());
    const evalOf = (step: number, shift: number, seed: number) => {
      const r = new Rng(seed);
      const correct = base.map((p) => { let k = 0; for (let i = 0; i < G; i++) if (r.next() < Math.min(1, p + shift)) k++; return k; });
      return { step, heldout_accuracy: 0.5, pass_at_k: { 1: correct.reduce((a, b) => a + b, 0) / (P * G) }, contract: true as const, per_prompt: { greedy: base.map((p) => (p > 0.5 ? 1 : 0)), correct, G } };
    };
    const l9 = getLesson('dynamic-sampling')!;
    const gainContrast: LessonContrast = { what: 'held-out gain', of: (e) => e.heldout_pass1_end - e.heldout_pass1_start, rank: [0, 1], margin: 0.01 };
    const run = (shift: number, seed: number): RunRecord => ({ steps: steps(30, () => ({ frac_mixed: 0.5, prompts_drawn: 16, tokens_generated: 1000 })), evals: [evalOf(0, 0, 100), evalOf(30, shift, seed)] });
    const asked = { variant: 1, claim: l9.variants[1].claim, run: run(0.06, 3) }, against = { variant: 0, claim: l9.variants[0].claim, run: run(0, 4) };
    const paired = judgeContrast(gainContrast, asked, against, 30);
    expect(paired.paired).toBe(true);
    // the same two runs, resampled on independent prompts (their evaluations unpaired): a wider interval
    const unpairedRun = (r: RunRecord): RunRecord => ({ ...r, evals: r.evals.map((e) => ({ ...e, per_prompt: { ...e.per_prompt!, greedy: [...e.per_prompt!.greedy, 0] , correct: [...e.per_prompt!.correct, 0] } })) });
    const unpaired = judgeContrast(gainContrast, asked, { ...against, run: unpairedRun(against.run) }, 30);
    expect(unpaired.paired).toBe(false);
    expect(paired.hi - paired.lo).toBeLessThan(0.8 * (unpaired.hi - unpaired.lo));
    expect(paired.outcome).toBe(0);
  });
});

// The lesson card's contrast line (store/lessonContrast.ts, rl/contrast.ts): the live run beside a
// finished sibling variant of the same lesson on the same seed, judged on each run's own numbers.
import { describe, expect, it } from 'vitest';
import { contrastBySeed, contrastSentence, readContrast } from '../rl/contrast.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { defaultSettings } from '../rl/settings.ts';
import type { SavedRun } from './labStore.ts';
import { lessonContrast } from './lessonContrast.ts';
import { overlayName, runOrigin, type RunOrigin } from './overlays.ts';

const lesson = getLesson('mixed-groups')!;
const c = lesson.contrast!;
const steps = (n: number, fracMixed: number) => Array.from({ length: n }, (_, i) => ({ step: i, frac_mixed: fracMixed, mixed_predicted: 0.5, accuracy: 0.3, kl: 0.01, kl_exact: 0.01 }) as unknown as StepMetrics);
const origin = (variant: number, seed = 3): RunOrigin => runOrigin({ ...lessonSettings(lesson, defaultSettings(), variant), seed }, { id: lesson.id, variant }, null);
const run = (id: number, variant: number, fracMixed: number, seed = 3): SavedRun => {
  const o = origin(variant, seed);
  return { id, label: `Run ${id}`, name: overlayName(o, id), origin: o, pinned: false, settings: lessonSettings(lesson, defaultSettings(), variant), steps: steps(40, fracMixed), evals: [] };
};

describe('a lesson contrast', () => {
  it('expects the variant of higher rank to give the higher number, and says when it did not', () => {
    expect(readContrast(c, { variant: 1, evidence: { frac_mixed: 0.8 } }, { variant: 0, evidence: { frac_mixed: 0.4 } })).toEqual({ here: 0.8, there: 0.4, asExpected: true, expectedHigher: 1 });
    expect(readContrast(c, { variant: 0, evidence: { frac_mixed: 0.8 } }, { variant: 1, evidence: { frac_mixed: 0.4 } }).asExpected).toBe(false);
    expect(readContrast(c, { variant: 0, evidence: { frac_mixed: NaN } }, { variant: 1, evidence: { frac_mixed: 0.4 } }).asExpected).toBeNull();
    expect(readContrast({ ...c, rank: [0, 0, 0] }, { variant: 0, evidence: { frac_mixed: 0.8 } }, { variant: 1, evidence: { frac_mixed: 0.4 } }).expectedHigher).toBeNull();
  });

  it('the sentence names both numbers, the sibling run and the verdict', () => {
    const names = lesson.variants.map((v) => v.short ?? v.label);
    const r = readContrast(c, { variant: 1, evidence: { frac_mixed: 0.8 } }, { variant: 0, evidence: { frac_mixed: 0.4 } });
    expect(contrastSentence(c, r, { name: '1 · G = 2', runId: 3, steps: 20 }, names)).toBe('mixed share of the groups: 0.80 in this run, 0.40 in 1 · G = 2 (run 3, 20 steps, same seed): higher under G = 8, as the lesson expects ✓');
    const wrong = readContrast(c, { variant: 0, evidence: { frac_mixed: 0.8 } }, { variant: 1, evidence: { frac_mixed: 0.4 } });
    expect(contrastSentence(c, wrong, { name: '1 · G = 8', runId: 4, steps: 1 }, names)).toContain('(run 4, 1 step, same seed): not higher under G = 8 on this seed ✗');
  });

  it('per seed for npm run lessons: the top rank minus the bottom rank', () => {
    const rs = [{ seed: 2, variant: 0, evidence: { frac_mixed: 0.3 } }, { seed: 2, variant: 2, evidence: { frac_mixed: 0.9 } }, { seed: 3, variant: 0, evidence: { frac_mixed: 0.5 } }];
    const r = contrastBySeed(c, rs, [2, 3]);
    expect(r.top).toBe(2);
    expect(r.bottom).toBe(0);
    expect(r.diffs[0]).toBeCloseTo(0.6);
    expect(r.diffs[1]).toBeNaN();
    const even = contrastBySeed({ ...c, rank: [0, 0, 0] }, rs, [2]); // no expected order: the first two variants
    expect([even.top, even.bottom]).toEqual([0, 1]);
  });
});

describe('the card\'s contrast line', () => {
  const live = { frac_mixed: 0.8 };
  it('reads the newest comparable sibling on its own variant\'s claim', () => {
    const at = lesson.variants[1].claim.steps; // the live G = 8 run at its verdict's step
    const line = lessonContrast({ runs: [run(4, 0, 0.35), run(2, 0, 0.1)], liveOrigin: origin(1), stepsCompleted: at, overlayRunId: null }, lesson, 1, live);
    expect(line).not.toBeNull();
    expect(line!.runId).toBe(4);
    expect(line!.asExpected).toBe(true);
    expect(line!.sentence).toContain('0.80 in this run, 0.35 in 1 · G = 2 (run 4, 40 steps, same seed)');
    // the sibling overlaid on the charts, when one is chosen
    expect(lessonContrast({ runs: [run(4, 0, 0.35), run(2, 0, 0.1)], liveOrigin: origin(1), stepsCompleted: at, overlayRunId: 2 }, lesson, 1, live)!.runId).toBe(2);
  });
  it('before both runs reach their verdict\'s step: the numbers so far, no ✓ or ✗', () => {
    const need = Math.max(...lesson.variants.slice(0, 2).map((v) => v.claim.steps));
    const early = lessonContrast({ runs: [run(4, 0, 0.35)], liveOrigin: origin(1), stepsCompleted: 3, overlayRunId: null }, lesson, 1, live)!;
    expect(early.asExpected).toBeNull();
    expect(early.sentence).toBe(`mixed share of the groups: 0.80 in this run, 0.35 in 1 · G = 2 (run 4, 40 steps, same seed) — compared once both runs reach step ${need}, their verdicts' step.`);
    const shortSibling = { ...run(5, 0, 0.35), steps: steps(3, 0.35) };
    expect(lessonContrast({ runs: [shortSibling], liveOrigin: origin(1), stepsCompleted: 40, overlayRunId: null }, lesson, 1, live)!.asExpected).toBeNull();
  });
  it('no line without a comparable sibling: another seed, the same variant, another lesson, no live run', () => {
    expect(lessonContrast({ runs: [run(4, 0, 0.35, 9)], liveOrigin: origin(1), stepsCompleted: 30, overlayRunId: null }, lesson, 1, live)).toBeNull();
    expect(lessonContrast({ runs: [run(4, 1, 0.35)], liveOrigin: origin(1), stepsCompleted: 30, overlayRunId: null }, lesson, 1, live)).toBeNull();
    const other = getLesson('entropy-collapse')!;
    expect(lessonContrast({ runs: [run(4, 0, 0.35)], liveOrigin: runOrigin(lessonSettings(other, defaultSettings(), 0), { id: other.id, variant: 0 }, null), stepsCompleted: 30, overlayRunId: null }, other, 0, live)).toBeNull();
    expect(lessonContrast({ runs: [run(4, 0, 0.35)], liveOrigin: null, stepsCompleted: 30, overlayRunId: null }, lesson, 1, live)).toBeNull();
  });
});

describe('one number for one thing: the contrast reads what the verdict\'s sentence says', () => {
  it('lesson 9: the gain per 100k tokens in the contrast line is the one in each run\'s verdict (unrounded evidence)', () => {
    const ds = getLesson('dynamic-sampling')!;
    // pass@1 0.214 → 0.262 over 13,933 tokens: +0.34 per 100k unrounded, 0.36 from two-decimal evidence
    const record = (variant: number, tokens: number) => ({
      steps: Array.from({ length: 30 }, (_, i) => ({ step: i, frac_mixed: variant === 0 ? 0.99 : 0.74, prompts_drawn: 16, tokens_generated: tokens / 30, accuracy: 0.3, kl: 0.01, kl_exact: 0.01 }) as unknown as StepMetrics),
      evals: [0, 10, 20, 30].map((step) => ({ step, heldout_accuracy: 0.4, pass_at_k: { 1: step === 0 ? 0.214 : 0.262 } })),
    });
    const live = ds.variants[1].claim.judge(record(1, 13_933));
    expect(live.sentence).toContain('+0.34 per 100k generated tokens');
    const o = (variant: number): RunOrigin => runOrigin({ ...lessonSettings(ds, defaultSettings(), variant), seed: 1 }, { id: ds.id, variant }, null);
    const sibling: SavedRun = { id: 1, label: 'Run 1', name: overlayName(o(0), 1), origin: o(0), pinned: false, settings: lessonSettings(ds, defaultSettings(), 0), ...record(0, 17_869) };
    const line = lessonContrast({ runs: [sibling], liveOrigin: o(1), stepsCompleted: 30, overlayRunId: null }, ds, 1, live.measured)!;
    expect(line.sentence).toContain('gained per 100k generated tokens: 0.34 in this run, 0.27 in 9 · dynamic sampling');
  });
});

// The live run's contrast (store/lessonContrast.ts): the question's other variant on the same seed,
// comparable by the one rule (overlays.ts comparable) and at its verdict step, judged against the
// live run at the lesson's verdict step (rl/contrast.ts). Lesson 6's variants start from different
// bases by design and still pair; another seed, other weights or a short run do not.
import { describe, expect, it } from 'vitest';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { defaultSettings } from '../rl/settings.ts';
import type { SavedRun } from './labStore.ts';
import { contrastSibling, judgeLiveContrast } from './lessonContrast.ts';
import { overlayName, runOrigin, type RunOrigin } from './overlays.ts';

const lesson = getLesson('mixed-groups')!;
const N = lesson.variants[1].claim.steps;
const steps = (n: number, fracMixed: number) => Array.from({ length: n }, (_, i) => ({ step: i, frac_mixed: fracMixed + 0.02 * Math.sin(i), mixed_predicted: 0.5, accuracy: 0.3, kl: 0.01, kl_exact: 0.01 }) as unknown as StepMetrics);
const origin = (variant: number, seed = 3, weights = 'aaaaaaaaaaaaaaaa', l = lesson): RunOrigin => ({ ...runOrigin({ ...lessonSettings(l, defaultSettings(), variant), seed }, { id: l.id, variant }, null), weights });
const run = (id: number, variant: number, fracMixed: number, o = origin(variant), n = N): SavedRun =>
  ({ id, label: `Run ${id}`, name: overlayName(o, id), origin: o, pinned: false, settings: lessonSettings(lesson, defaultSettings(), variant), steps: steps(n, fracMixed), evals: [] });

describe('the live run\'s contrast', () => {
  it('G = 8 live against a finished G = 2 of the same seed and weights: asked − against, judged with its interval', () => {
    const s = { runs: [run(4, 0, 0.3)], liveOrigin: origin(1), overlayRunId: null };
    const v = judgeLiveContrast(s, lesson, 1, { steps: steps(N, 0.7), evals: [] }, { reps: 300 })!;
    expect(v.asked).toBe(1);
    expect(v.value).toBeCloseTo(0.4, 1);
    expect([v.outcome, v.state]).toEqual([0, 'holds']);
    // the other way round (G = 2 live, G = 8 finished): still asked − against
    const back = judgeLiveContrast({ runs: [run(5, 1, 0.7)], liveOrigin: origin(0), overlayRunId: null }, lesson, 0, { steps: steps(N, 0.3), evals: [] }, { reps: 300 })!;
    expect(back.value).toBeCloseTo(v.value, 6);
  });

  it('the sibling: the one overlaid, else the newest; none from another seed, other weights, the same variant, a run short of its verdict step, or G = 16', () => {
    expect(contrastSibling({ runs: [run(4, 0, 0.3), run(2, 0, 0.1)], liveOrigin: origin(1), overlayRunId: null }, lesson, 1)!.id).toBe(4);
    expect(contrastSibling({ runs: [run(4, 0, 0.3), run(2, 0, 0.1)], liveOrigin: origin(1), overlayRunId: 2 }, lesson, 1)!.id).toBe(2);
    expect(contrastSibling({ runs: [run(4, 0, 0.3, origin(0, 9))], liveOrigin: origin(1), overlayRunId: null }, lesson, 1)).toBeNull();
    expect(contrastSibling({ runs: [run(4, 0, 0.3, origin(0, 3, 'bbbbbbbbbbbbbbbb'))], liveOrigin: origin(1), overlayRunId: null }, lesson, 1)).toBeNull();
    expect(contrastSibling({ runs: [run(4, 1, 0.3)], liveOrigin: origin(1), overlayRunId: null }, lesson, 1)).toBeNull();
    expect(contrastSibling({ runs: [run(4, 0, 0.3, origin(0), N - 1)], liveOrigin: origin(1), overlayRunId: null }, lesson, 1)).toBeNull();
    expect(contrastSibling({ runs: [run(4, 0, 0.3)], liveOrigin: origin(2), overlayRunId: null }, lesson, 2)).toBeNull(); // G = 16 is not the question's
    expect(contrastSibling({ runs: [run(4, 0, 0.3)], liveOrigin: null, overlayRunId: null }, lesson, 1)).toBeNull();
  });

  it('lesson 6: its variants run different tasks from their own shipped bases (different weights by design), and pair', () => {
    const l6 = getLesson('scratchpad')!;
    const pays = origin(0, 3, '1111111111111111', l6), doesNot = origin(1, 3, '2222222222222222', l6);
    const sib: SavedRun = { ...run(7, 0, 0.3, pays), origin: pays };
    expect(contrastSibling({ runs: [sib], liveOrigin: doesNot, overlayRunId: null }, l6, 1)!.id).toBe(7);
    // not from an imported checkpoint: then the weights must match
    expect(contrastSibling({ runs: [{ ...sib, origin: { ...pays, base: 'my.ckpt' } }], liveOrigin: doesNot, overlayRunId: null }, l6, 1)).toBeNull();
  });
});

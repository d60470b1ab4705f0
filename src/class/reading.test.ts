/**
 * The card's prediction outcome: the live run's contrast number against a finished sibling of the
 * question's other variant on the same seed and starting weights — none from another seed or
 * other weights, none before the verdict's step.
 */
import { describe, expect, it } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import type { SavedRun } from '../store/labStore.ts';
import { runOrigin } from '../store/overlays.ts';
import { questionReading } from './reading.ts';

const lesson = getLesson('mixed-groups')!;
const round = (r: unknown) => JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === 'number' ? Number(v.toFixed(9)) : v)));
const steps = (n: number, mixed: number) => Array.from({ length: n }, (_, i) => ({ step: i, frac_mixed: mixed, mixed_predicted: mixed, accuracy: 0.3 }) as unknown as StepMetrics);
const origin = (variant: number, seed = 5, weights = 'aaaaaaaaaaaaaaaa') => runOrigin({ task: 'add', difficulty: 2, seed }, { id: 'mixed-groups', variant }, null, weights);
/** G = 8's verdict step (G = 2's comes sooner): every run here has reached it. */
const AT = lesson.variants[1].claim.steps;
const run = (id: number, variant: number, mixed: number, o = origin(variant)): SavedRun => ({ id, label: '', name: '', origin: o, pinned: false, settings: {} as SavedRun['settings'], steps: steps(AT, mixed), evals: [] });

describe('the prediction outcome on this seed', () => {
  it('G = 8 live against a finished G = 2 of the same seed and weights', () => {
    const r = questionReading({ steps: steps(AT, 0.8), evals: [], runs: [run(1, 0, 0.4)], liveOrigin: origin(1) }, lesson, 1);
    expect(round(r)).toEqual({ asked: 0.8, against: 0.4 });
    // the other way round: G = 2 live, G = 8 finished
    expect(round(questionReading({ steps: steps(AT, 0.4), evals: [], runs: [run(1, 1, 0.8)], liveOrigin: origin(0) }, lesson, 0))).toEqual({ asked: 0.8, against: 0.4 });
  });

  it('no outcome before the verdict; another seed or other weights is no sibling', () => {
    expect(questionReading({ steps: steps(AT - 1, 0.8), evals: [], runs: [run(1, 0, 0.4)], liveOrigin: origin(1) }, lesson, 1)).toBeNull();
    expect(questionReading({ steps: steps(AT, 0.8), evals: [], runs: [run(1, 0, 0.4, origin(0, 6))], liveOrigin: origin(1) }, lesson, 1)).toEqual({ other: 0 });
    expect(questionReading({ steps: steps(AT, 0.8), evals: [], runs: [run(1, 0, 0.4, origin(0, 5, 'bbbbbbbbbbbbbbbb'))], liveOrigin: origin(1) }, lesson, 1)).toEqual({ other: 0 });
    expect(questionReading({ steps: steps(AT, 0.8), evals: [], runs: [run(1, 0, 0.4)], liveOrigin: origin(2) }, lesson, 2)).toBeNull(); // G = 16 is not the question's
  });
});

// After its verdict a lesson run is read by its frozen verdict, never re-judged on the longer run:
// the tour's "the verdict is in" and its contrast with a sibling read what was frozen at the step.
import { describe, expect, it } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import type { ClaimVerdict } from '../rl/claims.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { liveVerdict } from './verdictView.ts';

const lesson = getLesson('entropy-collapse')!;
const claim = lesson.variants[0].claim;
const N = claim.steps;
const steps = (n: number, entropy: (i: number) => number) => Array.from({ length: n }, (_, i) => ({ step: i, entropy: entropy(i), kl: 0.1, kl_exact: 0.1, accuracy: 0.3 }) as StepMetrics);

describe('liveVerdict', () => {
  it('reads the frozen verdict of a run continued past it, not the claim re-judged on the longer run', () => {
    const falling = steps(N, (i) => 1 - 0.01 * i);
    const frozen = claim.judge({ steps: falling, evals: [] });
    expect(frozen.state).toBe('holds');
    // ten more steps in which the entropy climbs back: a re-judged run would read otherwise
    const longer = [...falling, ...steps(10, () => 1.5).map((m, i) => ({ ...m, step: N + i }))];
    const s = { steps: longer, evals: [], liveOrigin: { lessonId: lesson.id, variant: 0 } as never, verdict: { lessonId: lesson.id, variant: 0, step: N, judged: frozen, continued: true } };
    expect(liveVerdict(s, lesson.id, 0, claim)).toBe(frozen);
    // not judged (the run's settings were not the variant's): no verdict to read
    expect(liveVerdict({ ...s, verdict: { ...s.verdict, judged: null as ClaimVerdict | null } }, lesson.id, 0, claim)).toBeNull();
    // before its step: the run so far, pending
    expect(liveVerdict({ steps: falling.slice(0, 5), evals: [] }, lesson.id, 0, claim)!.state).toBe('pending');
  });
});

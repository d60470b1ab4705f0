/**
 * The card's prediction outcome reads the live run's frozen contrast (judged once with its verdict,
 * store/lessonContrast.ts); without one it names the variant still to run; none before the verdict,
 * none for a variant the question does not compare.
 */
import { describe, expect, it } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import type { ClaimVerdict } from '../rl/claims.ts';
import type { ContrastVerdict } from '../rl/contrast.ts';
import { runOrigin } from '../store/overlays.ts';
import { questionReading } from './reading.ts';

const lesson = getLesson('mixed-groups')!;
const origin = (variant: number) => runOrigin({ task: 'add', difficulty: 2, seed: 5 }, { id: 'mixed-groups', variant }, null, 'aaaaaaaaaaaaaaaa');
const judged = { state: 'holds' } as ClaimVerdict;
const contrast = { asked: 1, against: 0, value: 0.4, lo: 0.3, hi: 0.5, outcome: 0 } as ContrastVerdict;
const frozen = (variant: number, c: ContrastVerdict | null, j: ClaimVerdict | null = judged) => ({ lessonId: lesson.id, variant, step: 40, judged: j, continued: false, contrast: c });

describe('the prediction outcome on this seed', () => {
  it('reads the frozen contrast; without one, the variant still to run', () => {
    expect(questionReading({ verdict: frozen(1, contrast), liveOrigin: origin(1) }, lesson, 1)).toEqual({ contrast });
    expect(questionReading({ verdict: frozen(1, null), liveOrigin: origin(1) }, lesson, 1)).toEqual({ other: 0 });
    expect(questionReading({ verdict: frozen(0, null), liveOrigin: origin(0) }, lesson, 0)).toEqual({ other: 1 });
  });

  it('nothing before the verdict, for a run not judged, or for a variant the question does not compare', () => {
    expect(questionReading({ verdict: null, liveOrigin: origin(1) }, lesson, 1)).toBeNull();
    expect(questionReading({ verdict: frozen(1, null, null), liveOrigin: origin(1) }, lesson, 1)).toBeNull();
    expect(questionReading({ verdict: frozen(2, null), liveOrigin: origin(2) }, lesson, 2)).toBeNull(); // G = 16 is not the question's
  });
});

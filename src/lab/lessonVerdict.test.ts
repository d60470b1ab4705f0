// The verdict is the verdict: judged with its verdict-step evaluation. An engine loss that skipped
// that evaluation (the update at the verdict step was committed, the evaluation after it was lost)
// has it re-run from the committed state before the claim is judged, never judged without it.
import { describe, expect, it } from 'vitest';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { defaultSettings } from '../rl/settings.ts';
import type { RunRecord } from '../rl/claims.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { contractEval } from '../rl/testing/contractEval.ts';
import { runSettingsHash } from '../rl/contract.ts';
import type { LabState } from '../store/labStore.ts';
import { LessonVerdict } from './lessonVerdict.ts';

const lesson = getLesson('mixed-groups')!;
const VARIANT = 1; // G = 8: its claim reads held-out pass@1 at step 0 and at the verdict step
const N = lesson.variants[VARIANT].claim.steps;
const settings = { ...lessonSettings(lesson, defaultSettings(), VARIANT), seed: 5 };
const HASH = runSettingsHash(lessonSettings(lesson, defaultSettings(), VARIANT)); // the variant's, whatever the seed
const steps = Array.from({ length: N }, (_, i) => ({ step: i, accuracy: 0.3, frac_mixed: 0.6, mixed_predicted: 0.7, kl_exact: 0.01, settings_hash: HASH }) as StepMetrics);

function host(evals: RunRecord['evals'], verdictStepEval: RunRecord['evals'][number], runSteps = steps) {
  let state = { liveOrigin: { lessonId: lesson.id, variant: VARIANT }, verdict: null, steps: runSteps, evals, settings, runs: [], overlayRunId: null } as unknown as LabState;
  const calls = { evaluate: 0 };
  const v = new LessonVerdict({
    get: () => state,
    set: (p) => { state = { ...state, ...p }; },
    trainer: () => ({ step: N, settings }),
    requestSave: () => {},
    evaluate: async () => { calls.evaluate++; state = { ...state, evals: [...state.evals, verdictStepEval] as LabState['evals'] }; },
  });
  return { v, calls, state: () => state };
}

describe('LessonVerdict', () => {
  const e0 = contractEval(0, 256, 0.45, 0.3, 1);
  const eN = contractEval(N, 256, 0.5, 0.42, 2);

  it('judges a run that has its verdict-step evaluation as it stands, evaluating nothing again', async () => {
    const h = host([e0, eN], eN);
    await h.v.judgeIfDue();
    expect(h.calls.evaluate).toBe(0);
    const judged = h.state().verdict!.judged!;
    expect(judged.state, judged.sentence).toBe('holds');
  });

  it('re-runs the verdict-step evaluation an engine loss skipped, then judges with it: the same verdict as without the loss', async () => {
    const whole = host([e0, eN], eN);
    await whole.v.judgeIfDue();
    const lost = host([e0], eN); // the evaluation after the committed step-40 update was lost with the engine
    await lost.v.judgeIfDue();
    expect(lost.calls.evaluate).toBe(1);
    expect(lost.state().verdict!.judged).toEqual(whole.state().verdict!.judged);
  });

  it('a run that was not the variant throughout is not judged: a knob moved during the run and back, or one the lesson does not pin', async () => {
    const moved = (k: number, over: Partial<typeof settings>) => steps.map((m) => (m.step >= k && m.step < k + 3 ? { ...m, settings_hash: runSettingsHash({ ...settings, ...over }) } : m));
    for (const [runSteps, at] of [[moved(12, { learningRate: 2e-3 }), 12], [moved(0, { entropyCoef: 0.01 }), 0], [moved(30, { lossType: 'dr_grpo' }), 30]] as const) {
      const h = host([e0, eN], eN, runSteps as StepMetrics[]);
      await h.v.judgeIfDue();
      expect(h.state().verdict).toMatchObject({ judged: null, offVariant: `step ${at} ran with settings other than the variant's (a knob was moved during the run)` });
    }
    // another seed (and another evaluation cadence) is still the variant
    const h = host([e0, eN], eN, steps.map((m) => ({ ...m, settings_hash: runSettingsHash({ ...settings, seed: 99, evalEvery: 3 }) })));
    await h.v.judgeIfDue();
    expect(h.state().verdict!.judged!.state).toBe('holds');
  });
});

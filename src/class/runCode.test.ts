// Issue 48: a student who ran G = 2 then G = 8 can still share G = 2. The runs list's "Share" gives
// a finished lesson run the code its card's "Share result" gave while it was the live run — made
// by the one function (runCode.ts), from what the runs list keeps of it (its verdict, the contrast
// judged with it, where it started), also after the list went through this browser's storage.
import { describe, expect, it } from 'vitest';
import type { ClaimVerdict } from '../rl/claims.ts';
import type { ContrastVerdict } from '../rl/contrast.ts';
import { getLesson } from '../rl/lessons.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { validateFinishedRuns } from '../persist/savedRun.ts';
import type { FrozenVerdict, LabState } from '../store/labStore.ts';
import { runOrigin } from '../store/overlays.ts';
import { archivedRun } from '../store/views.ts';
import { decodeResult } from './code.ts';
import { finishedRunCode, runResultCode } from './runCode.ts';
import { lessonConcepts } from './concepts.ts';

const L1 = getLesson('mixed-groups')!;
const N = L1.variants[0].claim.steps;
const settings: Settings = { ...defaultSettings(), task: 'add', difficulty: 2, numGenerations: 2, seed: 4127 };
const origin = { ...runOrigin(settings, { id: L1.id, variant: 0 }, null), weights: '0123456789abcdef' };
const judged = { state: 'holds', sentence: 'At step 40: …', evidence: {}, measured: { heldout_greedy_start: 0.45, heldout_greedy_end: 0.21, frac_mixed: 0.18 }, number: { what: 'x', value: -0.24, lo: -0.3, hi: -0.18, threshold: -0.05, side: 'below', window: '' }, step: N } as unknown as ClaimVerdict;
const contrast: ContrastVerdict = { asked: 1, against: 0, askedValue: 0.71, againstValue: 0.18, value: 0.53, lo: 0.44, hi: 0.6, margin: 0.05, outcome: 0, expected: 0, state: 'holds', step: N, paired: true };
const frozen: FrozenVerdict = { lessonId: L1.id, variant: 0, step: N, judged, continued: false, contrast };
const steps = Array.from({ length: N }, (_, i) => ({ step: i, reward: 0.1 }) as StepMetrics);
const live = { steps, evals: [], verdict: frozen, liveOrigin: origin } as unknown as LabState;

/** The code the card's "Share result" gives for the live run (ClassShare.tsx useResultCode). */
const cardCode = (p: 0 | 1 | 2 | 'skipped' | undefined) => runResultCode(L1, 0, { origin, judged: frozen.judged, step: frozen.step, contrast: frozen.contrast }, p);

describe('a finished lesson run\'s share code', () => {
  it('is the code its card gave while it was live, decoding to that run, before and after the runs list is kept in this browser', () => {
    const card = cardCode(2)!;
    const kept = archivedRun(live, settings, origin, 7);
    expect(finishedRunCode(kept, { [L1.id]: 2 })).toBe(card);
    const d = decodeResult(card);
    expect(d.ok).toBe(true);
    if (d.ok) expect(d.result).toMatchObject({ lessonId: L1.id, variant: 0, seed: 4127, weights: origin.weights, verdict: 'holds', steps: N, prediction: 2, pairedContrast: { value: 0.53, outcome: 0 }, shippedBase: true });
    // read back from storage (the next visit's runs list): the same code
    const back = validateFinishedRuns(JSON.parse(JSON.stringify({ format: 'rlvr-lab-finished-runs', runs: [kept] })), 5);
    expect(back.ok).toBe(true);
    if (back.ok) expect(finishedRunCode(back.runs[0], { [L1.id]: 2 })).toBe(card);
  });

  it('carries this browser\'s prediction for the lesson, none where it was skipped', () => {
    const kept = archivedRun(live, settings, origin, 7);
    expect(finishedRunCode(kept, {})).toBe(cardCode(undefined));
    expect(finishedRunCode(kept, { [L1.id]: 'skipped' })).toBe(cardCode('skipped'));
    const d = decodeResult(finishedRunCode(kept, { [L1.id]: 'skipped' })!);
    expect(d.ok && d.result.prediction).toBeNull();
  });

  it('a run kept before the contrast was kept (no contrast field) still shares, without the paired contrast', () => {
    const { contrast: _c, ...old } = archivedRun(live, settings, origin, 7);
    const d = decodeResult(finishedRunCode(old, {})!);
    expect(d.ok && d.result.pairedContrast).toBeUndefined();
  });

  it('none for a run with no verdict, a verdict not judged, no lesson, or starting weights not known', () => {
    const kept = archivedRun(live, settings, origin, 7);
    expect(finishedRunCode({ ...kept, verdict: null }, {})).toBeNull();
    expect(finishedRunCode({ ...kept, verdict: { ...judged, state: 'pending' } }, {})).toBeNull();
    expect(finishedRunCode({ ...kept, origin: { ...origin, lessonId: null } }, {})).toBeNull();
    expect(finishedRunCode({ ...kept, origin: { ...origin, weights: '' } }, {})).toBeNull();
    expect(finishedRunCode({ ...kept, origin: { ...origin, lessonId: 'gone-lesson' } }, {})).toBeNull();
  });

  it('carries the student\'s explain choice and concept answers (issue 49): the same from the card and from the runs list', () => {
    const q = lessonConcepts(L1.id)!.concept;
    const answers = { explain: 2, pre: (q.pre.answer + 1) % q.pre.choices.length, post: q.post.answer };
    const card = runResultCode(L1, 0, { origin, judged: frozen.judged, step: frozen.step, contrast: frozen.contrast }, 2, answers)!;
    expect(finishedRunCode(archivedRun(live, settings, origin, 7), { [L1.id]: 2 }, { [L1.id]: answers })).toBe(card);
    const d = decodeResult(card);
    expect(d.ok && [d.result.explain, d.result.concept]).toEqual([2, { pre: false, post: true }]);
    // no answers: the code it gave before
    expect(finishedRunCode(archivedRun(live, settings, origin, 7), { [L1.id]: 2 }, { 'other-lesson': answers })).toBe(cardCode(2));
  });
});

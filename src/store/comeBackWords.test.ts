// Issue 48, "nothing lost": what a reload brought back, in a student's words — one sentence naming
// the lesson's runs and where each stands, and the offer of any other saved run naming its lesson
// (or saying it is outside the lessons), with no field names ("G=8, D=32 L=2").
import { describe, expect, it } from 'vitest';
import type { ClaimVerdict } from '../rl/claims.ts';
import { getLesson } from '../rl/lessons.ts';
import type { StepMetrics } from '../rl/metrics.ts';
import { comeBackSentence, savedRunOffer, savedWhen, type SavedRunView } from './comeBackWords.ts';
import type { FrozenVerdict, SavedRun } from './labStore.ts';
import { runOrigin } from './overlays.ts';

const L1 = getLesson('mixed-groups')!;
const N = L1.variants[0].claim.steps;
const steps = (n: number) => Array.from({ length: n }, (_, i) => ({ step: i, reward: 0 }) as StepMetrics);
const judged = (state: ClaimVerdict['state'], step = N) => ({ state, sentence: '', evidence: {}, measured: {}, number: {}, step }) as unknown as ClaimVerdict;
const run = (lessonId: string | null, variant: number, n: number, verdict: ClaimVerdict | null): Pick<SavedRun, 'origin' | 'steps' | 'verdict'> =>
  ({ origin: runOrigin({ task: 'add', difficulty: 2, seed: 3 }, { id: lessonId, variant }, null), steps: steps(n), verdict });
const frozen = (variant: number, o: Partial<FrozenVerdict> = {}): FrozenVerdict => ({ lessonId: L1.id, variant, step: N, judged: judged('holds'), continued: false, ...o });

describe('the sentence a lesson page shows after a reload', () => {
  it('names the lesson and each of its runs, oldest first: the runs list (newest first there), then the live run resumed', () => {
    // the runs list is newest first: G = 2 was run before the live G = 8
    expect(comeBackSentence(L1.id, [run(L1.id, 0, N, judged('fails'))], { variant: 1, verdict: null, steps: 12 })).toBe(`Your lesson 1 runs are back: G = 2 judged at step ${N}; G = 8 paused at step 12.`);
    const list = [run('kl-estimators', 0, 9, null), run(L1.id, 2, 7, null), run(L1.id, 0, N + 5, judged('holds'))];
    expect(comeBackSentence(L1.id, list, null)).toBe(`Your lesson 1 runs are back: G = 2 judged at step ${N}, run on to step ${N + 5}; G = 16 stopped at step 7.`); // another lesson's run is not named
    expect(comeBackSentence(L1.id, [], { variant: 0, verdict: frozen(0), steps: N })).toBe(`Your lesson 1 run is back: G = 2 judged at step ${N}.`);
    expect(comeBackSentence(L1.id, [], { variant: 0, verdict: frozen(0, { continued: true }), steps: N + 3 })).toBe(`Your lesson 1 run is back: G = 2 judged at step ${N}, continued to step ${N + 3}.`);
    expect(comeBackSentence(L1.id, [], { variant: 0, verdict: frozen(0, { judged: null }), steps: N })).toBe(`Your lesson 1 run is back: G = 2 paused at step ${N}.`); // not judged (off the variant's settings): no verdict to name
    expect(comeBackSentence(L1.id, [], { variant: 1, verdict: frozen(0), steps: 4 })).toBe('Your lesson 1 run is back: G = 8 paused at step 4.'); // another variant's verdict is not this run's
  });

  it('says nothing where nothing of the lesson came back', () => {
    expect(comeBackSentence(L1.id, [], null)).toBeNull();
    expect(comeBackSentence(L1.id, [run(null, 0, 5, null), run('kl-estimators', 0, 9, null)], { variant: 0, verdict: null, steps: 0 })).toBeNull();
    expect(comeBackSentence('no-such-lesson', [run(L1.id, 0, 5, null)], null)).toBeNull();
  });
});

describe('the offer of a saved run the page did not resume', () => {
  const now = new Date(2025, 4, 10, 15, 0).getTime();
  const at = new Date(2025, 4, 10, 14, 2).getTime();
  const view = (o: Partial<SavedRunView> = {}): SavedRunView => ({ settings: { task: 'add', difficulty: 2, numGenerations: 8, seed: 3 }, page: { lessonId: null, lessonVariant: 0 }, step: 40, savedAt: at, verdict: null, model: { dModel: 32, nLayers: 2 }, ...o });

  it('outside the lessons: the task by its title, the group size and the model in words, no field names', () => {
    const t = savedRunOffer(view(), null, now);
    expect(t).toBe('Your run outside the lessons (Addition of n-digit numbers, difficulty 2, 8 answers per prompt, a model of 2 layers 32 wide) was saved in this browser at step 40 (at 14:02).');
    expect(t).not.toMatch(/G=|D=|L=|\badd,/);
    expect(savedRunOffer(view(), L1.id, now)).toContain('“Resume it” leaves this lesson for it.');
  });

  it('another lesson\'s run is named by its lesson, variant and seed, and "Resume it" says it opens that lesson', () => {
    const l6 = getLesson('kl-estimators')!;
    const t = savedRunOffer(view({ page: { lessonId: l6.id, lessonVariant: 1 }, step: 12 }), 'reward-hacking', now);
    expect(t).toBe(`Your lesson 7 run (${l6.variants[1].short ?? l6.variants[1].label}, seed 3) was saved in this browser, paused at step 12 (at 14:02). “Resume it” opens lesson 7 with it, in place of this lesson.`);
    const judgedRun = savedRunOffer(view({ page: { lessonId: L1.id, lessonVariant: 0 }, verdict: frozen(0), step: N }), null, now);
    expect(judgedRun).toBe(`Your lesson 1 run (G = 2, seed 3) was saved in this browser, judged at step ${N} (at 14:02). “Resume it” opens lesson 1 with it.`);
    // the page's own lesson, another variant or seed: named, and nothing said about opening it
    expect(savedRunOffer(view({ page: { lessonId: L1.id, lessonVariant: 1 }, step: 5 }), L1.id, now)).toBe('Your lesson 1 run (G = 8, seed 3) was saved in this browser, paused at step 5 (at 14:02).');
  });

  it('the time: today by the clock, another day by its date', () => {
    expect(savedWhen(at, now)).toBe('at 14:02');
    expect(savedWhen(new Date(2025, 4, 3, 9, 5).getTime(), now)).toBe('on 3 May, 09:05');
  });
});

import { describe, expect, it } from 'vitest';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { defaultSettings } from '../rl/settings.ts';
import { CONFIGS, paramLayout } from '../model/config.ts';
import { initWeights } from '../model/init.ts';
import { startingWeightsId, weightsId } from '../model/weightsId.ts';
import { contrastSibling } from './lessonContrast.ts';
import { comparable, keptRuns, nextOverlayId, overlayName, runOrigin, shownOverlays, startedOrigin, type RunOrigin } from './overlays.ts';
import { runFigures, stepZeroSentence } from './views.ts';

/** Where a run of lesson `id`, variant `v` starts on `seed`, as the session records it (the lesson's own settings). */
function lessonRun(id: string, v: number, seed = 1, imported: string | null = null, weights = 'shipped-base-id'): RunOrigin {
  const s = lessonSettings(getLesson(id)!, { ...defaultSettings(), seed }, v);
  return runOrigin(s, { id, variant: v }, imported, weights);
}
const free = (task: string, seed = 1): RunOrigin => runOrigin({ task, difficulty: 2, seed }, { id: null, variant: 0 }, null);
let nextId = 1;
const run = (origin: RunOrigin, pinned = false) => {
  const id = nextId++;
  return { id, name: overlayName(origin, id), origin, pinned };
};

describe('comparable: a finished run is overlaid only beside runs of its own experiment', () => {
  it('sibling variants of one lesson on the same seed are comparable (GRPO then RFT; G = 2 then G = 8), and a variant run again', () => {
    expect(comparable(lessonRun('grpo-vs-best-of-n', 0), lessonRun('grpo-vs-best-of-n', 1))).toBe(true);
    expect(comparable(lessonRun('mixed-groups', 0), lessonRun('mixed-groups', 1))).toBe(true);
    expect(comparable(lessonRun('mixed-groups', 2), lessonRun('mixed-groups', 2))).toBe(true);
  });
  it('another lesson is not, even on the same task, difficulty, base and seed (lesson 7 and lesson 1 are both add d2)', () => {
    const kl = lessonRun('kl-estimators', 0), mixed = lessonRun('mixed-groups', 1);
    expect([kl.task, kl.difficulty, kl.seed, kl.base]).toEqual([mixed.task, mixed.difficulty, mixed.seed, mixed.base]);
    expect(comparable(kl, mixed)).toBe(false);
  });
  it('the cases the teacher saw: lesson 2 beside lesson 3, lesson 4 beside lesson 5, an add run beside lesson 6', () => {
    expect(comparable(lessonRun('length-bias', 0), lessonRun('entropy-collapse', 0))).toBe(false);
    expect(comparable(lessonRun('reward-hacking', 0), lessonRun('grpo-vs-best-of-n', 0))).toBe(false);
    expect(comparable(lessonRun('mixed-groups', 0), lessonRun('scratchpad', 0))).toBe(false);
    expect(comparable(free('add'), lessonRun('scratchpad', 0))).toBe(false);
  });
  it('another seed or other starting weights (an imported checkpoint) are not comparable', () => {
    expect(comparable(lessonRun('mixed-groups', 0, 1), lessonRun('mixed-groups', 1, 2))).toBe(false);
    expect(comparable(lessonRun('mixed-groups', 0, 1, 'mine.ckpt', 'imported-id'), lessonRun('mixed-groups', 1))).toBe(false);
    expect(comparable(free('add'), free('add', 3))).toBe(false);
  });
  it('"same base" is the starting weights\' identity, not the checkpoint\'s name: a cold-start base or a watched task\'s base under the same name is another start', async () => {
    const config = { vocabSize: 40, ...CONFIGS.micro };
    const init = startingWeightsId(config, null, 1); // a fresh init, hashed as the seeded init it is
    const base = new Float32Array(initWeights(paramLayout(config), 1));
    base[7] += 1e-3; // one weight moved: a cold-start base, a two-task base
    const other = weightsId(base);
    expect(other).not.toBe(init);
    // both named '' (no imported checkpoint): the name-only rule called them "same seed, same base"
    const a = lessonRun('mixed-groups', 0, 1, null, init), b = lessonRun('mixed-groups', 1, 1, null, other);
    expect([a.base, a.seed, a.task, a.difficulty]).toEqual([b.base, b.seed, b.task, b.difficulty]);
    expect(comparable(a, b)).toBe(false);
    expect(comparable(a, lessonRun('mixed-groups', 1, 1, null, init))).toBe(true);
    // the same bits under two file names are the same start
    expect(comparable(lessonRun('mixed-groups', 0, 1, 'a.ckpt', other), lessonRun('mixed-groups', 1, 1, 'b.ckpt', other))).toBe(true);
    // the session's origin once the weights are loaded: their id, and the page's own base named as such
    const started = startedOrigin(free('add'), config, base, { name: 'cold start, 30 SFT steps', weights: base });
    expect(started).toMatchObject({ weights: other, base: 'task base: cold start, 30 SFT steps' });
    expect(startedOrigin(free('add'), config, null).weights).toBe(init);
    // and the lesson contrast (lessonContrast.ts) reads comparable: a sibling from other weights is no contrast
    const lesson = getLesson('mixed-groups')!;
    const steps = Array.from({ length: 40 }, (_, i) => ({ step: i, reward_mean: 0.5, frac_reward_zero_std: 0.5 } as never));
    const sibling = { id: 1, name: '1 · G = 2', origin: b, pinned: false, steps, evals: [] as never[] } as never;
    expect(contrastSibling({ runs: [sibling], liveOrigin: a, overlayRunId: 1 }, lesson, 0)).toBeNull();
    const same = { ...(sibling as object), origin: lessonRun('mixed-groups', 1, 1, null, init) } as never;
    expect(contrastSibling({ runs: [same], liveOrigin: a, overlayRunId: 1 }, lesson, 0)).not.toBeNull();
  });

  it('a lesson whose variants are different tasks (6: modsum and its digitsum control) compares them, each on its own task only', () => {
    expect(comparable(lessonRun('scratchpad', 0), lessonRun('scratchpad', 1))).toBe(true);
    const moved = { ...lessonRun('scratchpad', 0), task: 'reverse' }; // a knob moved the task off the variant's
    expect(comparable(moved, lessonRun('scratchpad', 1))).toBe(false);
    expect(comparable(moved, { ...moved, variant: 1 })).toBe(true); // the same moved task on both sides is the same experiment
  });
  it('outside a lesson: the same task, difficulty, base and seed', () => {
    expect(comparable(free('add'), free('add'))).toBe(true);
    expect(comparable(free('add'), free('reverse'))).toBe(false);
  });
});

describe('overlay names: lesson number and variant label', () => {
  it('"1 · G = 2", "5 · GRPO"; outside a lesson the run number and task', () => {
    expect(overlayName(lessonRun('mixed-groups', 0), 4)).toBe('1 · G = 2');
    expect(overlayName(lessonRun('grpo-vs-best-of-n', 0), 4)).toBe('5 · GRPO');
    // a long variant label gives way to its short name in a legend
    expect(overlayName(lessonRun('scratchpad', 1), 4)).toBe('6 · whole sum');
    expect(overlayName(lessonRun('entropy-collapse', 0), 4)).toBe('3 · β = 0');
    expect(getLesson('scratchpad')!.variants[1].label.length).toBeGreaterThan(getLesson('scratchpad')!.variants[1].short!.length);
    expect(overlayName(free('add'), 4)).toBe('Run 4 · add');
  });
});

describe('shownOverlays, nextOverlayId, keptRuns', () => {
  const grpo = run(lessonRun('grpo-vs-best-of-n', 0));
  const hack = run(lessonRun('reward-hacking', 0));
  const live = lessonRun('grpo-vs-best-of-n', 1);
  it('the chosen run is drawn only while comparable to the live one; a pinned run is drawn beside anything', () => {
    expect(shownOverlays([grpo, hack], grpo.id, live).map((o) => o.name)).toEqual(['5 · GRPO']);
    expect(shownOverlays([grpo, hack], hack.id, live)).toEqual([]);
    expect(shownOverlays([grpo, hack], hack.id, null)).toEqual([]);
    const pinned = { ...hack, pinned: true };
    expect(shownOverlays([grpo, pinned], grpo.id, live).map((o) => o.run.id)).toEqual([grpo.id, hack.id]);
  });
  it('two overlays of the same variant are told apart by run number', () => {
    const again = { ...grpo, id: 99, pinned: true };
    expect(shownOverlays([again, grpo], grpo.id, live).map((o) => o.name)).toEqual(['5 · GRPO (run 99)', `5 · GRPO (run ${grpo.id})`]);
  });
  it('a new run keeps the chosen overlay if comparable; switching to a lesson with no run of its own clears it', () => {
    expect(nextOverlayId([grpo, hack], grpo.id, live)).toBe(grpo.id);
    expect(nextOverlayId([hack], hack.id, live)).toBe(null);
    expect(nextOverlayId([grpo], null, live)).toBe(null); // none chosen: none drawn
  });
  it('after a detour through other lessons the previous run of this experiment comes back (the tour: lesson 1 at G = 2, lessons 6 and 4, lesson 1 at G = 8)', () => {
    const g2 = run(lessonRun('mixed-groups', 0)), think = run(lessonRun('scratchpad', 0)), weak = run(lessonRun('reward-hacking', 0));
    const g8 = lessonRun('mixed-groups', 1);
    const runs = [weak, think, g2]; // newest first: the session archives lesson 4's run as lesson 1 at G = 8 starts, and chooses it
    expect(nextOverlayId(runs, weak.id, g8)).toBe(g2.id);
    expect(shownOverlays(runs, nextOverlayId(runs, weak.id, g8), g8).map((o) => o.name)).toEqual(['1 · G = 2']);
    // the newest comparable run, when there are several
    const again = run(lessonRun('mixed-groups', 0));
    expect(nextOverlayId([weak, again, think, g2], weak.id, g8)).toBe(again.id);
  });
  it('the list keeps every pinned run and the newest others', () => {
    const rs = [1, 2, 3, 4, 5].map((id) => ({ id, pinned: id === 5 }));
    expect(keptRuns(rs, 2).map((r) => r.id)).toEqual([1, 2, 5]);
  });
});

describe('held-out figures, named for what they measure', () => {
  const evals: { step: number; heldout_accuracy: number; pass_at_k: Record<string, number> }[] = [{ step: 0, heldout_accuracy: 0.4583, pass_at_k: { '1': 0.25, '2': 0.4 } }, { step: 5, heldout_accuracy: 0.5, pass_at_k: { '1': 0.3 } }];
  it('the engine line quotes the run\'s own step-0 evaluation (the status line\'s and the chart\'s first number)', () => {
    expect(stepZeroSentence(evals, 24)).toBe("At step 0, on this run's 24 held-out prompts: held-out accuracy (greedy) 0.46, held-out pass@1 (sampled) 0.25.");
    expect(stepZeroSentence([], 24)).toBe(null);
    expect(stepZeroSentence(evals.slice(1), 24)).toBe(null);
    // a lesson's step 0 reads its whole held-out set (256 prompts there), not the page's 32
    const lesson = [{ ...evals[0], per_prompt: { greedy: [1, 0, 1], correct: [3, 0, 2], G: 4 } }];
    expect(stepZeroSentence(lesson, 24)).toBe("At step 0, on this run's 3 held-out prompts: held-out accuracy (greedy) 0.46, held-out pass@1 (sampled) 0.25.");
  });
  it('the runs panel: greedy accuracy and sampled pass@1, first → last', () => {
    expect(runFigures(evals)).toBe('held-out accuracy (greedy) 0.46 → 0.50, held-out pass@1 (sampled) 0.25 → 0.30');
  });
});

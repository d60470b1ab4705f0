/**
 * A lesson's evaluation contract (contract.ts) as the runs use it: its verdict step and held-out
 * size, the hash that names it, and what a run of one of its variants needs.
 */
import baseChecksums from './records/bases.json' with { type: 'json' }; // the attribute: Node's loader (Playwright's specs import the lessons) reads JSON only with it
import { baseFor } from './bases.ts';
import { EVALUATOR_VERSION } from './evaluation.ts';
import { CONTRACT_EVAL_SIZE, hash32, PINNED, runSettingsHash, stableJson, type EvalContract } from './contract.ts';
import type { Claim } from './claims.ts';
import { getLesson, lessonSettings, type Lesson } from './lessons.ts';
import { defaultSettings, type Settings } from './settings.ts';

/** A lesson's evaluation contract: its verdict step (every variant's) and its held-out set's size. */
export function lessonContract(lesson: Lesson): EvalContract {
  return { steps: lesson.variants[0].claim.steps, size: CONTRACT_EVAL_SIZE };
}

/**
 * The hash that names a lesson's contract: its base and the bytes of each variant's base checkpoint
 * (records/bases.json), each variant's settings (over the defaults, the seed aside), each claim's
 * number, threshold, side and whether it promises a wreck (the flag its verdict reads), the verdict
 * step, the held-out size and the evaluator's version. A recorded seeds table and a class's share codes carry it (lessonRecords.ts).
 */
export function contractHash(lesson: Lesson): string {
  const c = lessonContract(lesson);
  const variants = lesson.variants.map((v, i) => {
    const { seed: _seed, ...settings } = lessonSettings(lesson, defaultSettings(), i);
    const base = baseFor(settings.task, settings.difficulty, settings.watchTask);
    const checkpoint = base ? { file: base.file, checksum: (baseChecksums as Record<string, string>)[base.file] ?? null } : null;
    return { settings, checkpoint, number: { what: v.claim.number.what, threshold: v.claim.number.threshold, side: v.claim.number.side }, steps: v.claim.steps, promisesWreck: v.claim.promisesWreck };
  });
  return hash32(stableJson({ id: lesson.id, base: lesson.base, contract: c, pinned: PINNED, evaluator: EVALUATOR_VERSION, variants }));
}

/** What a run of a lesson variant needs (runTraining's `lesson`): the claim, the contract and its hash. */
export function lessonRun(id: string, variant: number): { id: string; variant: number; claim: Claim; contract: EvalContract; hash: string } {
  const lesson = getLesson(id);
  if (!lesson || !lesson.variants[variant]) throw new Error(`no lesson ${id} variant ${variant}`);
  return { id, variant, claim: lesson.variants[variant].claim, contract: lessonContract(lesson), hash: contractHash(lesson) };
}

/**
 * Whether a run was the variant throughout: every step's settings hash (metrics.ts settings_hash,
 * every setting that shapes the objective or the data) is the variant's as the lesson sets it from
 * the defaults (on a lesson that runs on a task of one's own, with the run's own task). Null: it was;
 * else the first step that was not. Steps recorded before the hash existed are not read.
 */
export function stepOffVariant(lesson: Lesson, variant: number, current: Settings, steps: readonly { step: number; settings_hash?: number }[]): number | null {
  const onOwnTask = lesson.ownTask === true && current.task.startsWith('spec:');
  const want = { ...lessonSettings(lesson, defaultSettings(), variant), ...(onOwnTask ? { task: current.task, difficulty: current.difficulty } : {}) };
  const h = runSettingsHash(want);
  const off = steps.find((m) => typeof m.settings_hash === 'number' && m.settings_hash !== h);
  return off ? off.step : null;
}

/**
 * The lesson's own knobs (its settings and the variant's, task and difficulty included) that
 * `current` no longer has: a claim speaks of the variant as set, so the page does not judge a
 * run whose knobs were moved (it says which, and how to restart the variant).
 */
export function settingsChangedFrom(lesson: Lesson, variant: number, current: Settings): (keyof Settings)[] {
  const want = lessonSettings(lesson, current, variant);
  // a lesson that may run on a task of one's own is judged there with the task's own difficulty
  const onOwnTask = lesson.ownTask === true && current.task.startsWith('spec:');
  const keys = [...(onOwnTask ? [] : ['task', 'difficulty']), ...Object.keys(lesson.settings), ...Object.keys(lesson.variants[variant]?.settings ?? {})] as (keyof Settings)[];
  return [...new Set(keys)].filter((k) => current[k] !== want[k]);
}

/**
 * What a reload brought back, in a student's words (issue 48, lab/comeBack.ts): on a lesson's page
 * one sentence naming the lesson's runs and where each stands ("Your lesson 1 runs are back: G = 2
 * judged at step 40; G = 8 paused at step 12."), and the offer of a saved run the page did not
 * resume by itself — another lesson's (named), or a run outside the lessons — without field names.
 * Pure: the session hands it the store's runs and the saved run's record.
 */
import { getLesson, type Lesson } from '../rl/lessons.ts';
import type { Settings } from '../rl/settings.ts';
import { getTask } from '../tasks/registry.ts';
import type { FrozenVerdict, SavedRun } from './labStore.ts';

/** "lesson 1": a lesson by its number (its title's), else its id. */
export function lessonName(lesson: Lesson): string {
  return `lesson ${/^\s*(\d+)/.exec(lesson.title)?.[1] ?? lesson.id}`;
}

/** A variant by its short name ("G = 2"), as the overlays and the lesson card's buttons name it. */
export function variantName(lesson: Lesson, variant: number): string {
  const v = lesson.variants[variant];
  return v ? (v.short ?? v.label) : `variant ${variant + 1}`;
}

/** Where a finished run of the runs list stands: "judged at step 40", "judged at step 40, run on to step 52", "stopped at step 12". */
export function finishedRunState(run: Pick<SavedRun, 'steps' | 'verdict'>): string {
  const n = (run.steps.at(-1)?.step ?? -1) + 1;
  const v = run.verdict;
  if (v && v.state !== 'pending') return `judged at step ${v.step}${n > v.step ? `, run on to step ${n}` : ''}`;
  return `stopped at step ${n}`;
}

/** Where the live run stands once it is back: "judged at step 40", "judged at step 40, continued to step 45", "paused at step 12". */
export function liveRunState(verdict: FrozenVerdict | null, steps: number): string {
  if (verdict?.judged) return `judged at step ${verdict.step}${steps > verdict.step ? `, continued to step ${steps}` : ''}`;
  return `paused at step ${steps}`;
}

/**
 * The sentence a lesson's page shows after a reload: every run of this lesson the page came back
 * with, oldest first — the runs list's (newest first there), then the live run when it was resumed.
 * Null when none came back.
 */
export function comeBackSentence(lessonId: string, runs: readonly Pick<SavedRun, 'origin' | 'steps' | 'verdict'>[], live: { variant: number; verdict: FrozenVerdict | null; steps: number } | null): string | null {
  const lesson = getLesson(lessonId);
  if (!lesson) return null;
  const parts = [...runs].reverse().filter((r) => r.origin.lessonId === lessonId).map((r) => `${variantName(lesson, r.origin.variant)} ${finishedRunState(r)}`);
  if (live && live.steps > 0) parts.push(`${variantName(lesson, live.variant)} ${liveRunState(live.verdict?.lessonId === lessonId && live.verdict.variant === live.variant ? live.verdict : null, live.steps)}`);
  if (!parts.length) return null;
  return `Your ${lessonName(lesson)} ${parts.length === 1 ? 'run is' : 'runs are'} back: ${parts.join('; ')}.`;
}

/** "at 14:02" today, else "on 3 May, 14:02". */
export function savedWhen(savedAt: number, now = Date.now()): string {
  const d = new Date(savedAt), today = new Date(now);
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return d.toDateString() === today.toDateString() ? `at ${time}` : `on ${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long' })}, ${time}`;
}

/** A task by its title ("Reverse a word"), its id where this page does not know it (a custom task not registered yet). */
function taskTitle(id: string): string {
  try { return getTask(id).title; } catch { return id; }
}

/** A saved run as the page offers it back, in words (`current`: the lesson this page shows, null outside the lessons). */
export interface SavedRunView {
  settings: Pick<Settings, 'task' | 'difficulty' | 'numGenerations' | 'seed'>;
  page: { lessonId: string | null; lessonVariant: number };
  step: number;
  savedAt: number;
  verdict: FrozenVerdict | null;
  model: { dModel: number; nLayers: number };
}

/**
 * The offer of a saved run the page did not resume by itself, one or two sentences: a lesson's run
 * by its lesson and variant (and, on another lesson's page, that "Resume it" opens that lesson), a
 * run outside the lessons by its task, difficulty, group size and model in words.
 */
export function savedRunOffer(r: SavedRunView, current: string | null, now = Date.now()): string {
  const lesson = r.page.lessonId === null ? undefined : getLesson(r.page.lessonId);
  const when = savedWhen(r.savedAt, now);
  if (lesson) {
    const where = r.verdict?.judged ? liveRunState(r.verdict, r.step) : `paused at step ${r.step}`;
    const opens = lesson.id === current ? '' : ` “Resume it” opens ${lessonName(lesson)} with it${current === null ? '' : ', in place of this lesson'}.`;
    return `Your ${lessonName(lesson)} run (${variantName(lesson, r.page.lessonVariant)}, seed ${r.settings.seed}) was saved in this browser, ${where} (${when}).${opens}`;
  }
  const leave = current === null ? '' : ' “Resume it” leaves this lesson for it.';
  return `Your run outside the lessons (${taskTitle(r.settings.task)}, difficulty ${r.settings.difficulty}, ${r.settings.numGenerations} answers per prompt, a model of ${r.model.nLayers} layers ${r.model.dModel} wide) was saved in this browser at step ${r.step} (${when}).${leave}`;
}

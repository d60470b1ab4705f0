/**
 * Which finished runs the charts overlay on the live one. A run is drawn beside the live run
 * only when the two are comparable — the same lesson (another variant of it, or the same one
 * run again), the same seed, the same starting weights — by their identity (a hash of the
 * weights, src/model/weightsId.ts), not a checkpoint's name, since a custom task's cold-start base
 * or a watched task's base changes the bits under one name — and the same task and difficulty (or,
 * in a lesson whose variants are themselves different tasks, each on the task its variant
 * sets) — or when the user pinned it on purpose (the runs panel). Each overlay is named by
 * lesson number and variant ("1 · G = 2"). Pure functions: the session and the page read them.
 */
import type { ModelConfig } from '../model/config.ts';
import { startingWeightsId } from '../model/weightsId.ts';
import { getLesson, type Lesson } from '../rl/lessons.ts';
import type { Settings } from '../rl/settings.ts';

/** Where a run started: what decides whether two runs can be compared on one chart. */
export interface RunOrigin {
  lessonId: string | null;
  variant: number;
  task: string;
  difficulty: number;
  seed: number;
  /** Where the starting weights came from, in words: an imported checkpoint's name, "task base: <name>" for the page's own base of the task (a cold start or a loaded file), or '' for the shipped base of the task and difficulty (a fresh init where none is shipped). */
  base: string;
  /**
   * The starting weights' identity: 16 hex digits hashing their bits (src/model/weightsId.ts),
   * recorded when the run starts ('' while its weights are not known yet: comparable to nothing
   * but another such). What "same base" means wherever two runs are compared.
   */
  weights: string;
}

/** The run kept in the recent runs list needs only these to be overlaid. */
export interface OverlayCandidate {
  id: number;
  name: string;
  origin: RunOrigin;
  pinned: boolean;
}

export function runOrigin(s: Pick<Settings, 'task' | 'difficulty' | 'seed'>, lesson: { id: string | null; variant: number }, base: string | null, weights = ''): RunOrigin {
  return { lessonId: lesson.id, variant: lesson.variant, task: s.task, difficulty: s.difficulty, seed: s.seed, base: base ?? '', weights };
}

/**
 * The origin once the starting weights are known (the session, after loading them): their
 * identity (a hash of the bits; a fresh init hashed as the seeded init it is), and, for the page's
 * own base of the task (`own`, when those are its weights), "task base: <name>" as where they came from.
 */
export function startedOrigin(o: RunOrigin, config: ModelConfig, weights: Float32Array | null, own?: { name: string; weights: Float32Array }): RunOrigin {
  const base = o.base === '' && own && weights === own.weights ? `task base: ${own.name}` : o.base;
  return { ...o, base, weights: startingWeightsId(config, weights, o.seed) };
}

/** The task and difficulty a lesson's variant sets (the lesson's base, then its settings, then the variant's). */
function prescribed(lesson: Lesson, variant: number): { task: string; difficulty: number } {
  const v = lesson.variants[variant]?.settings ?? {};
  return { task: v.task ?? lesson.settings.task ?? lesson.base.task, difficulty: v.difficulty ?? lesson.settings.difficulty ?? lesson.base.difficulty };
}

/**
 * A lesson run's origin as a share code tells it (the class pool): the task and difficulty its
 * variant sets (a run on others is not judged, so has no code), its seed and starting weights, and
 * whether it started from the lesson's shipped base (base '' as a page's own origin says it; a code
 * that does not say is compared by its weights alone).
 */
export function codeOrigin(lesson: Lesson, variant: number, seed: number, weights: string, shippedBase: boolean): RunOrigin {
  return { lessonId: lesson.id, variant, ...prescribed(lesson, variant), seed, base: shippedBase ? '' : 'not said', weights };
}

/**
 * Can `run` be drawn beside `live` without pretending they are the same experiment? The one rule
 * for comparing two runs: the charts' overlay, the lesson card's contrast and the class pool's pairs. Same lesson
 * (both none: free play), same seed, same task and difficulty, and the same starting weights by
 * their identity (the hash, whatever the checkpoint was called). In a lesson whose variants are
 * different tasks (lesson 6's control), siblings on the tasks their variants set are comparable
 * too when both start from the shipped bases (their weights differ by design): that contrast is
 * the lesson.
 */
export function comparable(run: RunOrigin, live: RunOrigin): boolean {
  if (run.lessonId !== live.lessonId || run.seed !== live.seed) return false;
  if (run.task === live.task && run.difficulty === live.difficulty) return run.weights === live.weights;
  const lesson = run.lessonId === null || run.base !== '' || live.base !== '' ? undefined : getLesson(run.lessonId);
  if (!lesson) return false;
  const asSet = (o: RunOrigin) => {
    const p = prescribed(lesson, o.variant);
    return o.task === p.task && o.difficulty === p.difficulty;
  };
  return asSet(run) && asSet(live);
}

/** A finished run's name on the charts: "<lesson number> · <variant label>" ("1 · G = 2"); outside a lesson "Run <id> · <task>". */
export function overlayName(origin: RunOrigin, id: number): string {
  const lesson = origin.lessonId === null ? undefined : getLesson(origin.lessonId);
  const variant = lesson?.variants[origin.variant];
  if (!lesson || !variant) return `Run ${id} · ${origin.task}`;
  const n = /^\s*(\d+)/.exec(lesson.title)?.[1] ?? lesson.id;
  return `${n} · ${variant.short ?? variant.label}`;
}

/**
 * The runs the charts overlay now, newest first, each with the name its lines carry: every
 * pinned run, and the chosen one (`selectedId`) if it is comparable to the live run. Two
 * overlays with the same name (the same variant run twice) are told apart by their run number.
 */
export function shownOverlays<R extends OverlayCandidate>(runs: readonly R[], selectedId: number | null, live: RunOrigin | null): { run: R; name: string }[] {
  const shown = runs.filter((r) => r.pinned || (r.id === selectedId && live !== null && comparable(r.origin, live)));
  return shown.map((run) => ({ run, name: shown.some((o) => o !== run && o.name === run.name) ? `${run.name} (run ${run.id})` : run.name }));
}

/**
 * The overlay kept when a run starts from `live`: the one chosen (the run just ended, after a reset
 * or a switch) if comparable; else the newest run in the list that is — "the previous run stays on
 * the charts" holds after a detour through other lessons (lesson 1 at G = 2, lessons 6 and 4, then
 * lesson 1 at G = 8 overlays the G = 2 run); none where nothing is, or none was chosen.
 */
export function nextOverlayId(runs: readonly OverlayCandidate[], selectedId: number | null, live: RunOrigin): number | null {
  if (selectedId === null) return null;
  const chosen = runs.find((r) => r.id === selectedId);
  if (chosen && comparable(chosen.origin, live)) return chosen.id;
  return runs.find((r) => comparable(r.origin, live))?.id ?? null;
}

/** The recent runs list after a run is added at the front: every pinned run, and the newest `max` others. */
export function keptRuns<R extends { pinned: boolean }>(runs: readonly R[], max: number): R[] {
  let others = 0;
  return runs.filter((r) => r.pinned || ++others <= max);
}

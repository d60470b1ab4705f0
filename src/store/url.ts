/**
 * The lab's URL: every setting (from the one settings table, src/rl/settings.ts), the seed
 * (a setting), the lesson and its variant, the backend, and classroom mode with the controls
 * it hides; class=1 class mode (a seed per browser, the class results panel); present=1 opens the presenter view, tour=N the class tour at its stop N (tour=1: from
 * the start). Opening a link reproduces the run; bad values never break the page, they are
 * clamped or replaced and named in `notices`.
 *
 *   ?numGenerations=4&beta=0.05&lesson=mixed-groups&variant=1&backend=cpu&classroom=1&hide=beta,epsilon&present=1&tour=1
 *
 * A custom task (docs/custom-tasks.md) travels as its spec: `task=spec:times7&taskSpec=<base64url
 * of the spec's JSON>` (store/taskSpec.ts). The spec goes through validateSpec, the one-way
 * decoder, and is registered so that `task` can name it; a refused spec is one sentence in the
 * notices and the rest of the address still applies. A taskSpec without a task selects it.
 */
import { defaultSettings, GSPO_CLIP, settingsFromRecord, settingsToRecord, type Settings } from '../rl/settings.ts';
import { isSettingKey, ownSettingPairs } from '../persist/settingsFile.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';
import { bool, FieldError, num, oneOf } from '../model/validate.ts';
import { specTaskId, taskFromSpec, type Spec } from '../tasks/spec/index.ts';
import { customTasks, registerTask } from '../tasks/registry.ts';
import { decodeSpecParam, encodeSpecParam, specInUse } from './taskSpec.ts';

export type BackendPref = 'auto' | 'cpu' | 'webgpu';

export interface LabUrlState {
  settings: Settings;
  lessonId: string | null;
  lessonVariant: number;
  backend: BackendPref;
  classroom: boolean;
  /** Class mode (`class=1`): each browser its own seed (the page's start applies it: src/class/local.ts), the class results panel open. */
  classMode: boolean;
  /** Setting keys hidden in classroom mode. */
  hidden: string[];
  /** Open the presenter view on load. */
  present: boolean;
  /** Open the class tour on load at this stop (0-based; the address says tour=1 for the first), or null. */
  tour: number | null;
  /** The custom task's spec the address carried (validated and registered), by its task id; empty when none. */
  taskSpecs: Record<string, Spec>;
  /** What was ignored, clamped or replaced, in words. */
  notices: string[];
}

/** Longer addresses are cut at this many characters, and at most this many parameters are read. */
export const MAX_URL_CHARS = 100_000;
export const MAX_URL_PARAMS = 256;
/** At most this many controls can be hidden by one address. */
const MAX_HIDDEN = 64;

/**
 * Parse a query string. Never throws. A lesson's settings come first; explicit URL settings
 * override them. Page options are read with the same typed readers as every other decoder of
 * outside data (src/model/validate.ts); settings go through the settings table
 * (settingsFromRecord). A bad value is ignored or replaced and named in a notice.
 */
export function parseLabUrl(search: string): LabUrlState {
  const notices: string[] = [];
  let text = typeof search === 'string' ? search : '';
  if (text.length > MAX_URL_CHARS) {
    notices.push(`the address is longer than ${MAX_URL_CHARS} characters; its end was ignored`);
    text = text.slice(0, MAX_URL_CHARS);
  }
  let params: [string, string][];
  try {
    params = [...new URLSearchParams(text)];
  } catch {
    params = [];
    notices.push('ignored an unreadable address');
  }
  if (params.length > MAX_URL_PARAMS) {
    notices.push(`the address has ${params.length} parameters; only the first ${MAX_URL_PARAMS} were read`);
    params = params.slice(0, MAX_URL_PARAMS);
  }
  let lessonId: string | null = null;
  let lessonVariant = 0;
  let backend: BackendPref = 'auto';
  let classroom = false;
  let classMode = false;
  let present = false;
  let tour: number | null = null;
  let hidden: string[] = [];
  let taskSpec: Spec | null = null;
  const settingPairs: [string, string][] = [];
  /** Read one page option with a typed reader; a bad value leaves the default and says so. */
  const option = <T,>(key: string, value: string, read: (src: unknown, path: string) => T, otherwise: string): T | undefined => {
    try {
      return read({ [key]: value }, key);
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      notices.push(`${e.sentence('the address parameter')}; ${otherwise}`);
      return undefined;
    }
  };
  for (const [key, value] of params) {
    if (key === 'lesson') {
      if (getLesson(value)) lessonId = value;
      else notices.push(`ignored unknown lesson "${value.slice(0, 40)}"`);
    } else if (key === 'variant') {
      const v = option(key, value, (src, p) => num(src, p, { int: true, min: 0, max: 7, text: true }), 'ignored it');
      if (v !== undefined) lessonVariant = v;
    } else if (key === 'backend') {
      backend = option(key, value, (src, p) => oneOf(src, p, ['cpu', 'webgpu', 'auto'] as const), 'using auto') ?? 'auto';
    } else if (key === 'classroom') {
      classroom = option(key, value, (src, p) => bool(src, p, { text: true }), 'classroom mode is off') ?? false;
    } else if (key === 'class') {
      classMode = option(key, value, (src, p) => bool(src, p, { text: true }), 'class mode is off') ?? false;
    } else if (key === 'present') {
      present = option(key, value, (src, p) => bool(src, p, { text: true }), 'the presenter view stays closed') ?? false;
    } else if (key === 'tour') {
      const v = option(key, value, (src, p) => num(src, p, { int: true, min: 1, max: 99, text: true }), 'the class tour stays closed');
      tour = v === undefined ? null : v - 1;
    } else if (key === 'hide') {
      const items = value.split(',').filter(Boolean);
      if (items.length > MAX_HIDDEN) notices.push(`only the first ${MAX_HIDDEN} of the ${items.length} controls to hide were read`);
      for (const k of items.slice(0, MAX_HIDDEN)) {
        if (isSettingKey(k)) hidden.push(k);
        else notices.push(`cannot hide unknown control "${k.slice(0, 40)}"`);
      }
    } else if (key === 'taskSpec') {
      const r = decodeSpecParam(value);
      if (r.ok) taskSpec = r.spec;
      else notices.push(r.error);
      if (r.ok) registerTask(taskFromSpec(r.spec)); // validated (once: registerSpec would check it again): `task` may now name it
    } else {
      settingPairs.push([key, value]);
    }
  }
  // a custom task the address names without carrying its valid spec (taskSpec): said once, and the task stays as it was
  const taskValue = settingPairs.filter(([k]) => k === 'task').at(-1)?.[1];
  if (taskValue?.startsWith('spec:') && !customTasks().some((t) => t.id === taskValue)) {
    notices.push(`the custom task "${taskValue.slice(0, 40)}" was not used: the address does not carry its valid spec (taskSpec)`);
    settingPairs.splice(0, settingPairs.length, ...settingPairs.filter(([k]) => k !== 'task'));
  } else if (taskValue === undefined && taskSpec) settingPairs.push(['task', specTaskId(taskSpec.name)]);
  const lesson = lessonId ? getLesson(lessonId) : undefined;
  if (lesson && lessonVariant >= lesson.variants.length) {
    notices.push(`lesson "${lesson.id}" has ${lesson.variants.length} variants; using the first`);
    lessonVariant = 0;
  }
  const base = lesson ? lessonSettings(lesson, defaultSettings(), lessonVariant) : defaultSettings();
  // only the table's own keys reach it: "constructor" or "toString" are not settings
  const { known, unknownNotices } = ownSettingPairs(settingPairs);
  const r = settingsFromRecord(known, base);
  const oldClip = sequenceLinkNotice(r.settings, r.applied, known.some(([k]) => k === 'gspoEpsilonHigh'));
  if (oldClip) r.notices.push(oldClip);
  hidden = [...new Set(hidden)];
  const taskSpecs: Record<string, Spec> = taskSpec ? { [specTaskId((taskSpec as Spec).name)]: taskSpec } : {};
  return { settings: r.settings, lessonId, lessonVariant, backend, classroom, classMode, hidden, present, tour, taskSpecs, notices: [...notices, ...unknownNotices, ...r.notices] };
}

const bound = (x: number) => String(Number(x.toFixed(6)));

/**
 * A link that sets the sequence ratio level (GSPO) without ε: since issue 29, ε / ε_high clip the
 * sequence ratio, as TRL's do (0.2 by default); links made before clipped it at GSPO's own
 * 3e-4 / 4e-4 whatever ε was. The link still sets what it says; the page says what changed, once
 * (the CLI's sequenceClipNotice). Links made now always carry ε at the sequence level (labSearch).
 * `oldHigh`: the link named GSPO's former ε_high (gspoEpsilonHigh, now read as ε_high).
 */
function sequenceLinkNotice(s: Settings, applied: string[], oldHigh: boolean): string | null {
  if (s.importanceSamplingLevel !== 'sequence' || !applied.includes('importanceSamplingLevel') || applied.includes('epsilon')) return null;
  const before = `[${bound(1 - GSPO_CLIP.epsilon)}, ${bound(1 + (oldHigh ? s.epsilonHigh : GSPO_CLIP.epsilonHigh))}]`;
  return `This link sets the sequence ratio level (GSPO) without ε: ε = ${s.epsilon}, ε_high = ${s.epsilonHigh} clip the sequence ratio at [${bound(1 - s.epsilon)}, ${bound(1 + s.epsilonHigh)}], as TRL does; links made before December 2026 clipped it at GSPO's own ${before} whatever ε was — for that run, add epsilon=0.0003&epsilonHigh=0.0004 to the link (or choose token, then sequence, in the Ratio level menu)`;
}

/**
 * The query string for a state: settings that differ from the defaults, then the page options (`tour`: the class tour's stop, 0-based, or null),
 * then the custom task's spec when the run uses it (`taskSpec`).
 */
export function labSearch(s: { settings: Settings; lessonId: string | null; lessonVariant: number; backend: BackendPref; classroom: boolean; classMode?: boolean; hidden: string[]; presenter?: object | null; tour?: number | null; taskSpecs?: Record<string, Spec> }): string {
  const p = new URLSearchParams();
  // Every setting that differs from the defaults, so a lesson's own values are explicit too (robust to lesson
  // edits) — and, under a lesson, every setting that differs from what the lesson would set, or a value
  // equal to the default would be overwritten by the lesson's on the way back.
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  const lessonBase = (lesson ? lessonSettings(lesson, defaultSettings(), s.lessonVariant) : defaultSettings()) as unknown as Record<string, unknown>;
  const defaults = settingsToRecord(s.settings).map(([k]) => k);
  for (const [k, v] of settingsToRecord(s.settings, true)) if (defaults.includes(k) || String(lessonBase[k]) !== v) p.set(k, v);
  // at the sequence level ε is always written, even at its default: a link without it is one made before ε clipped the sequence ratio (sequenceLinkNotice)
  if (s.settings.importanceSamplingLevel === 'sequence' && !p.has('epsilon')) p.set('epsilon', String(s.settings.epsilon));
  if (s.lessonId) {
    p.set('lesson', s.lessonId);
    if (s.lessonVariant) p.set('variant', String(s.lessonVariant));
  }
  if (s.backend !== 'auto') p.set('backend', s.backend);
  if (s.classroom) p.set('classroom', '1');
  if (s.classMode) p.set('class', '1');
  if (s.hidden.length) p.set('hide', s.hidden.join(','));
  if (s.presenter) p.set('present', '1');
  if (typeof s.tour === 'number') p.set('tour', String(s.tour + 1));
  const spec = specInUse(s);
  if (spec) p.set('taskSpec', encodeSpecParam(spec));
  const q = p.toString();
  return q ? `?${q}` : '';
}

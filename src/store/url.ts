/**
 * The lab's URL: every setting (from the one settings table, src/rl/settings.ts), the seed
 * (a setting), the lesson and its variant, the backend, and classroom mode with the controls
 * it hides. Opening a link reproduces the run; bad values never break the page, they are
 * clamped or replaced and named in `notices`.
 *
 *   ?numGenerations=4&beta=0.05&lesson=mixed-groups&variant=1&backend=cpu&classroom=1&hide=beta,epsilon
 */
import { defaultSettings, settingsFromRecord, settingsToRecord, type Settings } from '../rl/settings.ts';
import { isSettingKey, ownSettingPairs } from '../persist/settingsFile.ts';
import { getLesson, lessonSettings } from '../rl/lessons.ts';

export type BackendPref = 'auto' | 'cpu' | 'webgpu';

/** Page options that are not run settings. */
export const PAGE_KEYS = ['lesson', 'variant', 'backend', 'classroom', 'hide'] as const;

export interface LabUrlState {
  settings: Settings;
  lessonId: string | null;
  lessonVariant: number;
  backend: BackendPref;
  classroom: boolean;
  /** Setting keys hidden in classroom mode. */
  hidden: string[];
  /** What was ignored, clamped or replaced, in words. */
  notices: string[];
}

/** Parse a query string. Never throws. A lesson's settings come first; explicit URL settings override them. */
export function parseLabUrl(search: string): LabUrlState {
  const notices: string[] = [];
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    params = new URLSearchParams();
    notices.push('ignored an unreadable address');
  }
  let lessonId: string | null = null;
  let lessonVariant = 0;
  let backend: BackendPref = 'auto';
  let classroom = false;
  let hidden: string[] = [];
  const settingPairs: [string, string][] = [];
  for (const [key, value] of params) {
    if (key === 'lesson') {
      if (getLesson(value)) lessonId = value;
      else notices.push(`ignored unknown lesson "${value.slice(0, 40)}"`);
    } else if (key === 'variant') {
      const v = Number(value);
      if (Number.isInteger(v) && v >= 0 && v < 8) lessonVariant = v;
      else notices.push(`ignored lesson variant "${value.slice(0, 40)}" (a whole number 0–7)`);
    } else if (key === 'backend') {
      if (value === 'cpu' || value === 'webgpu' || value === 'auto') backend = value;
      else notices.push(`backend must be cpu, webgpu or auto, got "${value.slice(0, 40)}"; using auto`);
    } else if (key === 'classroom') {
      classroom = value === '1' || value === 'true';
      if (!classroom && value !== '0' && value !== 'false') notices.push(`classroom must be 1 or 0, got "${value.slice(0, 40)}"; classroom mode is off`);
    } else if (key === 'hide') {
      for (const k of value.split(',').filter(Boolean)) {
        if (isSettingKey(k)) hidden.push(k);
        else notices.push(`cannot hide unknown control "${k.slice(0, 40)}"`);
      }
    } else {
      settingPairs.push([key, value]);
    }
  }
  const lesson = lessonId ? getLesson(lessonId) : undefined;
  if (lesson && lessonVariant >= lesson.variants.length) {
    notices.push(`lesson "${lesson.id}" has ${lesson.variants.length} variants; using the first`);
    lessonVariant = 0;
  }
  const base = lesson ? lessonSettings(lesson, defaultSettings(), lessonVariant) : defaultSettings();
  // only the table's own keys reach it: "constructor" or "toString" are not settings
  const { known, unknownNotices } = ownSettingPairs(settingPairs);
  const r = settingsFromRecord(known, base);
  hidden = [...new Set(hidden)];
  return { settings: r.settings, lessonId, lessonVariant, backend, classroom, hidden, notices: [...notices, ...unknownNotices, ...r.notices] };
}

/** The query string for a state: settings that differ from the defaults, then the page options. */
export function labSearch(s: { settings: Settings; lessonId: string | null; lessonVariant: number; backend: BackendPref; classroom: boolean; hidden: string[] }): string {
  const p = new URLSearchParams();
  // Every setting that differs from the defaults, so a lesson's own values are explicit too (robust to lesson
  // edits) — and, under a lesson, every setting that differs from what the lesson would set, or a value
  // equal to the default would be overwritten by the lesson's on the way back.
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  const lessonBase = (lesson ? lessonSettings(lesson, defaultSettings(), s.lessonVariant) : defaultSettings()) as unknown as Record<string, unknown>;
  const defaults = settingsToRecord(s.settings).map(([k]) => k);
  for (const [k, v] of settingsToRecord(s.settings, true)) if (defaults.includes(k) || String(lessonBase[k]) !== v) p.set(k, v);
  if (s.lessonId) {
    p.set('lesson', s.lessonId);
    if (s.lessonVariant) p.set('variant', String(s.lessonVariant));
  }
  if (s.backend !== 'auto') p.set('backend', s.backend);
  if (s.classroom) p.set('classroom', '1');
  if (s.hidden.length) p.set('hide', s.hidden.join(','));
  const q = p.toString();
  return q ? `?${q}` : '';
}

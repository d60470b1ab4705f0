/**
 * Untrusted settings from outside the page (an imported settings file, a saved run, a URL),
 * validated against THE settings table (src/rl/settings.ts) and nothing else.
 *
 * A settings file is JSON: { "format": "rlvr-lab-settings", "version": 1, "settings": {...} }.
 * The lab's run export ({ "settings": {...}, "steps": [...] }) is accepted too. A file that is
 * too large, not JSON, of another format or version, or with any invalid value is refused as a
 * whole with one sentence saying why: an import either applies completely or changes nothing.
 */
import { SETTINGS_BY_KEY, defaultSettings, parseSetting, settingsFromRecord, type Settings } from '../rl/settings.ts';

export const SETTINGS_FILE_FORMAT = 'rlvr-lab-settings';
export const SETTINGS_FILE_VERSION = 1;
/** A settings file is a few hundred bytes; a run export with history stays well under this. */
export const MAX_SETTINGS_FILE_BYTES = 2 << 20;

/** True if `key` is a setting of the table (own key: "constructor" or "__proto__" are not settings). */
export function isSettingKey(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(SETTINGS_BY_KEY, key);
}

/**
 * Split untrusted key/value pairs into the table's settings and the rest. Keys that only exist on
 * Object.prototype ("constructor", "toString", "__proto__") are not settings: they are reported
 * as unknown instead of being looked up in the table.
 */
export function ownSettingPairs(pairs: Iterable<[string, string]>): { known: [string, string][]; unknownNotices: string[] } {
  const known: [string, string][] = [];
  const unknownNotices: string[] = [];
  for (const [k, v] of pairs) {
    if (isSettingKey(k)) known.push([k, v]);
    else unknownNotices.push(`ignored unknown setting "${k.slice(0, 40)}"`);
  }
  return { known, unknownNotices };
}

/** The settings file for `s`: every setting, so it survives later changes of the defaults. */
export function settingsFileText(s: Settings): string {
  const all = Object.fromEntries(Object.keys(SETTINGS_BY_KEY).map((k) => [k, (s as unknown as Record<string, unknown>)[k]]));
  return `${JSON.stringify({ format: SETTINGS_FILE_FORMAT, version: SETTINGS_FILE_VERSION, settings: all }, null, 1)}\n`;
}

export type SettingsFileResult = { ok: true; settings: Settings; notices: string[] } | { ok: false; error: string };

/** Parse and validate an imported settings file (bytes as read from disk). Never throws. */
export function parseSettingsFile(name: string, bytes: Uint8Array, base: Settings = defaultSettings()): SettingsFileResult {
  const fail = (why: string): SettingsFileResult => ({ ok: false, error: `${name.slice(0, 80)} was not loaded: ${why}. Nothing was changed.` });
  if (bytes.length === 0) return fail('the file is empty');
  if (bytes.length > MAX_SETTINGS_FILE_BYTES) return fail(`the file has ${bytes.length} bytes, more than a settings file can have (${MAX_SETTINGS_FILE_BYTES})`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail('it is not text (not valid UTF-8)');
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return fail(`it is not valid JSON, perhaps truncated (${(e as Error).message.slice(0, 80)})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return fail('it is not a JSON object');
  const o = doc as Record<string, unknown>;
  if ('format' in o || 'version' in o) {
    if (o.format !== SETTINGS_FILE_FORMAT) return fail(`its format is ${JSON.stringify(o.format)?.slice(0, 40)}, not "${SETTINGS_FILE_FORMAT}"`);
    if (o.version !== SETTINGS_FILE_VERSION) {
      const newer = typeof o.version === 'number' && o.version > SETTINGS_FILE_VERSION;
      return fail(`it is version ${JSON.stringify(o.version)?.slice(0, 20)} (${newer ? 'written by a newer lab' : 'not a known version'}); this lab reads version ${SETTINGS_FILE_VERSION}`);
    }
  }
  const raw = o.settings;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('it has no "settings" object');
  return validateSettingsObject(raw as Record<string, unknown>, base, fail);
}

/**
 * Validate a settings object strictly: every known key must hold a valid value of its type and
 * range (no clamping: a file is either right or refused); unknown keys are named and ignored.
 */
export function validateSettingsObject(raw: Record<string, unknown>, base: Settings, fail: (why: string) => SettingsFileResult = (why) => ({ ok: false, error: why })): SettingsFileResult {
  const problems: string[] = [];
  const pairs: [string, string][] = [];
  const notices: string[] = [];
  for (const key of Object.keys(raw)) {
    const v = raw[key];
    if (!isSettingKey(key)) {
      notices.push(`ignored unknown setting "${key.slice(0, 40)}"`);
      continue;
    }
    const spec = SETTINGS_BY_KEY[key];
    const typeOk = spec.kind === 'bool' ? typeof v === 'boolean' : spec.kind === 'enum' ? typeof v === 'string' : typeof v === 'number';
    if (!typeOk) {
      problems.push(`${key} must be a ${spec.kind === 'bool' ? 'boolean' : spec.kind === 'enum' ? 'string' : 'number'}, got ${describe(v)}`);
      continue;
    }
    const r = parseSetting(spec, String(v));
    if (!r.ok) problems.push(r.error);
    else pairs.push([key, String(v)]);
  }
  if (problems.length) return fail(`${problems.length} invalid value${problems.length > 1 ? 's' : ''}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}`);
  const r = settingsFromRecord(pairs, base);
  return { ok: true, settings: r.settings, notices: [...notices, ...r.notices] };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)?.slice(0, 30)}`;
}

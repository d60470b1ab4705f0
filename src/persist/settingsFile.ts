/**
 * Untrusted settings from outside the page (an imported settings file, a saved run, a URL),
 * validated against THE settings table (src/rl/settings.ts) and nothing else.
 *
 * A settings file is JSON: { "format": "rlvr-lab-settings", "version": 1, "settings": {...} }.
 * The lab's run export ({ "settings": {...}, "steps": [...] }) is accepted too. A file that is
 * too large, not JSON, of another format or version, or with any invalid value is refused as a
 * whole with one sentence saying why: an import either applies completely or changes nothing.
 *
 * A run on a custom task (settings.task "spec:<name>", docs/custom-tasks.md) carries its spec
 * beside the settings: { …, "settings": {…}, "taskSpec": {…} }. The spec goes through
 * validateSpec (the one-way decoder) and is registered before the settings are read, so that
 * `task` can name it; if the file is refused after all, the task of that name is put back as it was.
 */
import { SETTINGS_BY_KEY, defaultSettings, epsilonHighFollows, isRetiredKey, parseSetting, settingsFromRecord, type Settings } from '../rl/settings.ts';
import { bool, describeValue, FieldError, isBytes, isRecord, jsonProblem, num, obj, oneOf, str, valueAt } from '../model/validate.ts';
import { customTasks, registerTask } from '../tasks/registry.ts';
import { registerSpec, specTaskId, validateSpec, type Spec } from '../tasks/spec/index.ts';

export const SETTINGS_FILE_FORMAT = 'rlvr-lab-settings';
export const SETTINGS_FILE_VERSION = 1;
/** A settings file is a few hundred bytes; a run export with history stays well under this. */
export const MAX_SETTINGS_FILE_BYTES = 2 << 20;

/** Unknown keys named one by one in notices; the rest are counted in one more notice. */
export const MAX_NAMED_UNKNOWN = 8;

/** True if `key` is a setting of the table (own key: "constructor" or "__proto__" are not settings). */
export function isSettingKey(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(SETTINGS_BY_KEY, key);
}

/** Notices for unknown keys: the first few by name, then how many more. */
function unknownKeyNotices(keys: string[]): string[] {
  const named = keys.slice(0, MAX_NAMED_UNKNOWN).map((k) => `ignored unknown setting "${k.slice(0, 40)}"`);
  const more = keys.length - named.length;
  return more > 0 ? [...named, `ignored ${more} more unknown setting${more === 1 ? '' : 's'}`] : named;
}

/**
 * Split untrusted key/value pairs into the table's settings and the rest. Keys that only exist on
 * Object.prototype ("constructor", "toString", "__proto__") are not settings: they are reported
 * as unknown instead of being looked up in the table.
 */
export function ownSettingPairs(pairs: Iterable<[string, string]>): { known: [string, string][]; unknownNotices: string[] } {
  const known: [string, string][] = [];
  const unknown: string[] = [];
  for (const [k, v] of pairs) {
    if (isSettingKey(k) || isRetiredKey(k)) known.push([k, v]); // a retired key is read by settingsFromRecord (RETIRED_KEYS)
    else unknown.push(k);
  }
  return { known, unknownNotices: unknownKeyNotices(unknown) };
}

/** The settings file for `s`: every setting, so it survives later changes of the defaults; and the custom task's spec when the run uses it. */
export function settingsFileText(s: Settings, taskSpec: Spec | null = null): string {
  const all = Object.fromEntries(Object.keys(SETTINGS_BY_KEY).map((k) => [k, (s as unknown as Record<string, unknown>)[k]]));
  const spec = taskSpec && s.task === specTaskId(taskSpec.name) ? { taskSpec } : {};
  return `${JSON.stringify({ format: SETTINGS_FILE_FORMAT, version: SETTINGS_FILE_VERSION, settings: all, ...spec }, null, 1)}\n`;
}

/** `taskSpecs`: the custom task's spec the file carried (validated and registered), by its task id. */
export type SettingsFileResult = { ok: true; settings: Settings; notices: string[]; taskSpecs?: Record<string, Spec> } | { ok: false; error: string };

/** Parse and validate an imported settings file (bytes as read from disk). Never throws. */
export function parseSettingsFile(name: string, bytes: Uint8Array, base: Settings = defaultSettings()): SettingsFileResult {
  const shown = typeof name === 'string' ? name.slice(0, 80) : 'The file';
  const fail = (why: string): SettingsFileResult => ({ ok: false, error: `${shown} was not loaded: ${why}. Nothing was changed.` });
  if (!isBytes(bytes)) return fail(`expected the file's bytes, got ${describeValue(bytes)}`);
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
    return fail(`it is not valid JSON, perhaps truncated (${jsonProblem(e)})`);
  }
  if (!isRecord(doc)) return fail(`it is not a JSON object (it is ${describeValue(doc)})`);
  let raw: Record<string, unknown>;
  try {
    // A settings file names its format and version; a run export ({ settings, steps, … }) has neither.
    if (!valueAt(doc, 'format').missing || !valueAt(doc, 'version').missing) {
      oneOf(doc, 'format', [SETTINGS_FILE_FORMAT]);
      const version = num(doc, 'version', { int: true, min: 0 });
      if (version !== SETTINGS_FILE_VERSION) {
        return fail(`it is version ${version} (${version > SETTINGS_FILE_VERSION ? 'written by a newer lab' : 'not a known version'}); this lab reads version ${SETTINGS_FILE_VERSION}`);
      }
    }
    raw = obj(doc, 'settings');
  } catch (e) {
    if (e instanceof FieldError) return fail(e.sentence('the field'));
    throw e;
  }
  if (valueAt(doc, 'taskSpec').missing) return validateSettingsObject(raw, base, fail);
  const spec = validateSpec(valueAt(doc, 'taskSpec').value);
  if (!spec.ok) return fail(`its task spec (taskSpec) was refused: ${spec.error.replace(/\.$/, '')}`);
  const id = specTaskId(spec.spec.name);
  const before = customTasks().find((t) => t.id === id);
  registerSpec(spec.spec);
  const r = validateSettingsObject(raw, base, fail);
  if (!r.ok && before) registerTask(before); // refused: the task of that name is what it was
  return r.ok ? { ...r, taskSpecs: { [id]: spec.spec } } : r;
}

/**
 * Validate a settings object strictly: every known key must hold a value of its type (checked by
 * the readers of src/model/validate.ts) and range (the settings table's parseSetting; no
 * clamping: a file is either right or refused); unknown keys are named and ignored. Never throws.
 */
export function validateSettingsObject(raw: Record<string, unknown>, base: Settings, fail: (why: string) => SettingsFileResult = (why) => ({ ok: false, error: why })): SettingsFileResult {
  if (!isRecord(raw)) return fail(`the settings are not an object (they are ${describeValue(raw)})`);
  const problems: string[] = [];
  const pairs: [string, string][] = [];
  const unknown: string[] = [];
  for (const key of Object.keys(raw)) {
    if (raw[key] === undefined) continue; // as if missing (a structured clone can carry undefined): the base value stays
    if (isRetiredKey(key) && typeof raw[key] === 'number') {
      pairs.push([key, String(raw[key])]); // an older lab's file: settingsFromRecord reads it (RETIRED_KEYS) and says so
      continue;
    }
    if (!isSettingKey(key)) {
      unknown.push(key);
      continue;
    }
    const spec = SETTINGS_BY_KEY[key];
    let v: number | string | boolean;
    try {
      v = spec.kind === 'bool' ? bool(raw, [key]) : spec.kind === 'enum' ? str(raw, [key]) : num(raw, [key]);
    } catch (e) {
      if (!(e instanceof FieldError)) throw e;
      problems.push(e.sentence(''));
      continue;
    }
    const r = parseSetting(spec, String(v));
    if (!r.ok) problems.push(r.error);
    else pairs.push([key, String(v)]);
  }
  if (problems.length) return fail(`${problems.length} invalid value${problems.length > 1 ? 's' : ''}: ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}`);
  const r = settingsFromRecord(pairs, base);
  // TRL's rule, as for flags: epsilon without epsilon_high sets both (a file the lab writes names both)
  const eps = epsilonHighFollows(r.settings as { epsilon: unknown; epsilonHigh: unknown }, (k) => r.applied.includes(k));
  return { ok: true, settings: r.settings, notices: [...unknownKeyNotices(unknown), ...r.notices, ...(eps ? [eps.replace(/^--epsilon (\S+) without --epsilon_high/, 'epsilon $1 without epsilonHigh')] : [])] };
}

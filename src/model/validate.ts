/**
 * One way to read data from outside the page: a checkpoint's JSON header, an imported settings
 * file, a run saved in IndexedDB, the address. Every field a decoder uses is read through one of
 * the typed readers below, which check its type, null, absence, range and (for lists) length
 * and elements BEFORE the value is used, and throw a FieldError naming the field's path:
 *
 *   num(header, 'config.nLayers', { int: true, min: 1, max: 64 })
 *     → FieldError: the field config.nLayers must be a whole number between 1 and 64, got null
 *
 * Each decoder wraps a FieldError into its own error or result (CheckpointError, the settings
 * file's sentence, the saved run's sentence, a URL notice), usually with `e.sentence('the header
 * field')`. Rules shared by all readers:
 *   - only own properties are read: "__proto__", "constructor" or "toString" are missing fields,
 *     never Object.prototype's;
 *   - NaN and ±Infinity are not numbers (unless a reader asks for `nonFinite`);
 *   - lists are measured before their elements are visited, so a huge list costs nothing;
 *   - a value is described in words ("null", "a list of 3 items", "an object", "\"abc\""),
 *     never as "[object Object]" or "undefined".
 * Unknown extra fields are simply not read.
 *
 * Pure TS (no DOM, no Node): src/model may use it, and so may persist/ and store/.
 */

/** One step of a path: an object key or a list index. */
export type Segment = string | number;
/** 'config.nLayers', 'layout.tensors[3].shape[0]', or the segments themselves (for keys taken from data). */
export type Path = string | readonly Segment[];

const CLIP = 40;

/** A field that is missing or holds a value of the wrong type or range. */
export class FieldError extends Error {
  /** The field's path in words, e.g. "layout.tensors[3].name" ("" for the whole document). */
  readonly path: string;
  /** What the field must be, e.g. "a whole number between 1 and 64". */
  readonly expected: string;
  /** What it was, in words ("null", "a list of 2 items"); "" when it is missing. */
  readonly got: string;
  readonly missing: boolean;
  constructor(path: string, expected: string, got: string, missing: boolean) {
    super('');
    this.name = 'FieldError';
    this.path = path;
    this.expected = expected;
    this.got = got;
    this.missing = missing;
    this.message = this.sentence();
  }

  /**
   * The problem as a sentence, the field introduced by `where` ("the header field", "the
   * setting", "" for a bare path): "the header field config.nLayers must be a whole number
   * between 1 and 64, got null" or "the header field checksum is missing (it must be …)".
   */
  sentence(where = 'the field'): string {
    const subject = this.path === '' ? (where ? `${where.replace(/ field$/, '')}` : 'the value') : where ? `${where} ${this.path}` : this.path;
    return this.missing ? `${subject} is missing (it must be ${this.expected})` : `${subject} must be ${this.expected}, got ${this.got}`;
  }
}

/** Keys that would reach an object's prototype machinery if copied by assignment. */
export function isProtoKey(k: string): boolean {
  return k === '__proto__' || k === 'constructor' || k === 'prototype';
}

/** A plain record: a JSON object or a structured-clone object (not null, a list, binary data, a Date or a Map). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && Object.prototype.toString.call(x) === '[object Object]';
}

/** Bytes (a Uint8Array, Node's Buffer included), checked without relying on one realm's constructor. */
export function isBytes(x: unknown): x is Uint8Array {
  return ArrayBuffer.isView(x) && Object.prototype.toString.call(x) === '[object Uint8Array]';
}

const clip = (s: string, n = CLIP) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** A value in words, short and safe to show: never "[object Object]" or "undefined". */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'number':
      return Object.is(v, -0) ? '0' : String(v);
    case 'bigint':
      return `the big integer ${clip(v.toString(), 24)}`;
    case 'string':
      if (v.length === 0) return 'an empty text ""';
      {
        const q = JSON.stringify(clip(v)); // escapes quotes and control characters; may grow up to 6×
        return q.length > 2 * CLIP ? `${q.slice(0, 2 * CLIP)}…"` : q;
      }
    case 'boolean':
      return String(v);
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    default:
      break;
  }
  if (Array.isArray(v)) return `a list of ${v.length} item${v.length === 1 ? '' : 's'}`;
  if (ArrayBuffer.isView(v)) return `binary data (${v.byteLength} bytes)`;
  if (isRecord(v)) return 'an object';
  const tag = /^\[object (\w{1,30})\]$/.exec(Object.prototype.toString.call(v))?.[1];
  return tag ? `a ${tag} object` : 'an object';
}

/** A path's segments in words: keys that are plain names joined by dots, others quoted, indices in brackets. */
export function pathText(p: readonly Segment[]): string {
  let out = '';
  for (const s of p) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$/-]{0,63}$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(clip(s))}]`;
  }
  return out;
}

const PATH_PART = /([^.[\]]+)|\[(\d+)\]/g;
function segments(p: Path): readonly Segment[] {
  if (typeof p !== 'string') return p;
  const out: Segment[] = [];
  for (const m of p.matchAll(PATH_PART)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

/** Join a base path and more segments. */
export function at(base: Path, ...more: Segment[]): Segment[] {
  return [...segments(base), ...more];
}

/**
 * The value at `path` under `src`, walking own properties only. A container on the way that is
 * not an object (for a key) or a list (for an index) is itself the field in error.
 */
export function valueAt(src: unknown, path: Path): { value: unknown; missing: boolean } {
  const segs = segments(path);
  let cur: unknown = src;
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    if (typeof s === 'number') {
      if (!Array.isArray(cur)) throw fieldError(segs.slice(0, i), 'a list', cur);
      if (s >= cur.length || !Object.prototype.hasOwnProperty.call(cur, s)) return { value: undefined, missing: true };
      cur = cur[s];
    } else {
      if (!isRecord(cur)) throw fieldError(segs.slice(0, i), 'an object', cur);
      if (!Object.prototype.hasOwnProperty.call(cur, s)) return { value: undefined, missing: true };
      cur = cur[s];
    }
  }
  return { value: cur, missing: cur === undefined };
}

function fieldError(path: Path, expected: string, value: unknown): FieldError {
  const missing = value === undefined;
  return new FieldError(pathText(segments(path)), expected, missing ? '' : describeValue(value), missing);
}

const fmt = (x: number) => (Number.isInteger(x) || Math.abs(x) >= 1e-3 ? String(x) : x.toExponential().replace(/e-(\d)$/, 'e-0$1').replace(/\.0+e/, 'e'));

export interface NumOptions {
  /** A whole number. */
  int?: boolean;
  min?: number;
  max?: number;
  /** Also accept NaN and ±Infinity (metrics that may legitimately be NaN); range checks then apply to finite values only. */
  nonFinite?: boolean;
  /** Also accept a text holding a number ("12", " 0.5 "), as in an address. */
  text?: boolean;
}

function numExpectation(o: NumOptions): string {
  const what = o.int ? 'a whole number' : 'a number';
  const { min, max } = o;
  if (min !== undefined && max !== undefined) return `${what} between ${fmt(min)} and ${fmt(max)}`;
  if (min !== undefined) return min === 0 ? `${what} of 0 or more` : `${what} of at least ${fmt(min)}`;
  if (max !== undefined) return `${what} of at most ${fmt(max)}`;
  return what;
}

/** Read a number (finite unless `nonFinite`; whole if `int`; within [min, max]). */
export function num(src: unknown, path: Path, o: NumOptions = {}): number {
  const { value, missing } = valueAt(src, path);
  let x: unknown = value;
  if (o.text && typeof x === 'string') x = x.trim() === '' ? NaN : Number(x);
  const bad = () => fieldError(path, numExpectation(o), missing ? undefined : value);
  if (typeof x !== 'number') throw bad();
  if (!Number.isFinite(x)) {
    if (o.nonFinite) return x;
    throw bad();
  }
  if (o.int && !Number.isInteger(x)) throw bad();
  if ((o.min !== undefined && x < o.min) || (o.max !== undefined && x > o.max)) throw bad();
  return x;
}

export interface StrOptions {
  /** Longest allowed length in UTF-16 units. */
  max?: number;
  /** At least this many characters (e.g. 1: not empty). */
  min?: number;
  /** A pattern the text must match, and its description in words. */
  pattern?: RegExp;
  patternText?: string;
}

/** Read a text. */
export function str(src: unknown, path: Path, o: StrOptions = {}): string {
  const { value, missing } = valueAt(src, path);
  let expected = o.patternText ?? 'a text';
  if (!o.patternText && o.max !== undefined) expected += o.min ? ` of ${o.min} to ${o.max} characters` : ` of at most ${o.max} characters`;
  else if (!o.patternText && o.min) expected += ` of at least ${o.min} character${o.min === 1 ? '' : 's'}`;
  if (typeof value !== 'string') throw fieldError(path, expected, missing ? undefined : value);
  if ((o.max !== undefined && value.length > o.max) || (o.min !== undefined && value.length < o.min)) {
    throw new FieldError(pathText(segments(path)), expected, value.length > CLIP ? `a text of ${value.length} characters` : describeValue(value), false);
  }
  if (o.pattern && !o.pattern.test(value)) throw fieldError(path, expected, value);
  return value;
}

/** Read true or false (with `text`: also "true"/"false"/"1"/"0", as in an address). */
export function bool(src: unknown, path: Path, o: { text?: boolean } = {}): boolean {
  const { value, missing } = valueAt(src, path);
  if (typeof value === 'boolean') return value;
  if (o.text && typeof value === 'string') {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
  }
  throw fieldError(path, o.text ? 'true or false (1 or 0)' : 'true or false', missing ? undefined : value);
}

/** Read a plain object (not null, not a list); `maxKeys` bounds how many fields it may have. */
export function obj(src: unknown, path: Path, o: { maxKeys?: number } = {}): Record<string, unknown> {
  const { value, missing } = valueAt(src, path);
  if (!isRecord(value)) throw fieldError(path, 'an object', missing ? undefined : value);
  if (o.maxKeys !== undefined) {
    let n = 0;
    for (const k in value) if (Object.prototype.hasOwnProperty.call(value, k) && ++n > o.maxKeys) break;
    if (n > o.maxKeys) throw new FieldError(pathText(segments(path)), `an object of at most ${o.maxKeys} fields`, 'an object with more', false);
  }
  return value;
}

/**
 * Read a list of at most `max` items (measured before any item is visited), each read by
 * `each(pathOfItem, index)` — which reads from the same root, e.g. `str(root, at(p, 'name'))`.
 */
export function arr<T = unknown>(src: unknown, path: Path, o: { max: number; min?: number }, each?: (item: Segment[], i: number) => T): T[] {
  const { value, missing } = valueAt(src, path);
  const expected = `a list of ${o.min ? `${o.min} to ${o.max}` : `at most ${o.max}`} items`;
  if (!Array.isArray(value)) throw fieldError(path, expected, missing ? undefined : value);
  if (value.length > o.max || (o.min !== undefined && value.length < o.min)) throw fieldError(path, expected, value);
  const base = segments(path);
  const out: T[] = [];
  for (let i = 0; i < value.length; i++) {
    if (!each) out.push(value[i] as T);
    else out.push(each([...base, i], i));
  }
  return out;
}

/** Read one of a fixed set of values (texts or numbers), compared with ===. */
export function oneOf<T extends string | number | boolean>(src: unknown, path: Path, options: readonly T[]): T {
  const { value, missing } = valueAt(src, path);
  if ((options as readonly unknown[]).includes(value)) return value as T;
  const list = options.map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x)));
  const expected = list.length === 1 ? list[0] : list.length <= 8 ? `one of ${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : `one of the ${list.length} known values (${list.slice(0, 4).join(', ')}, …)`;
  throw fieldError(path, expected, missing ? undefined : value);
}

/** Read bytes (a Uint8Array) of at most `max` bytes. */
export function bytes(src: unknown, path: Path, o: { max: number }): Uint8Array {
  const { value, missing } = valueAt(src, path);
  const expected = `binary data of at most ${o.max} bytes`;
  if (!isBytes(value) || value.length > o.max) throw fieldError(path, expected, missing ? undefined : value);
  return value;
}

/** null, or what `read` reads at `path` (its error then says "… or null"). */
export function orNull<T>(src: unknown, path: Path, read: (src: unknown, path: Path) => T): T | null {
  const { value, missing } = valueAt(src, path);
  if (!missing && value === null) return null;
  try {
    return read(src, path);
  } catch (e) {
    if (e instanceof FieldError && e.path === pathText(segments(path))) throw new FieldError(e.path, `${e.expected} or null`, e.got, e.missing);
    throw e;
  }
}

/** What `read` reads at `path`, or `fallback` when the field is missing. */
export function optional<T>(src: unknown, path: Path, fallback: T, read: (src: unknown, path: Path) => T): T {
  return valueAt(src, path).missing ? fallback : read(src, path);
}

/**
 * Check that a free-form value (e.g. a checkpoint's metadata) nests at most `maxDepth` lists or
 * objects deep, without recursion: code that later walks it recursively (JSON.stringify,
 * structuredClone) would otherwise overflow the stack.
 */
export function shallow(src: unknown, path: Path, maxDepth: number): void {
  const { value } = valueAt(src, path);
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d >= maxDepth) throw new FieldError(pathText(segments(path)), `nested at most ${maxDepth} levels deep`, 'deeper nesting', false);
    for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k)) stack.push([(v as Record<string, unknown>)[k], d + 1]);
  }
}

/** A JSON.parse failure as words, without the engine's own message (it varies by browser and quotes the input). */
export function jsonProblem(e: unknown): string {
  const m = e instanceof Error ? e.message : '';
  if (/end of (JSON )?(input|data)|Unterminated|unterminated|EOF/.test(m)) return 'it ends in the middle of a value';
  const pos = /position (\d+)/.exec(m)?.[1] ?? /column (\d+)/.exec(m)?.[1];
  return pos ? `unexpected character near position ${pos}` : 'it breaks the JSON syntax';
}

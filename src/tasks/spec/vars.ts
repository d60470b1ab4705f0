/**
 * Variables and the prompt template of a task spec: the three kinds of variable (an integer
 * range, a choice, a random string), how each is drawn from the seeded RNG, enumerated and
 * read back from prompt text, and the `{name}` template that writes them into a prompt.
 *
 * RNG order (what makes a spec reproduce a built-in task draw for draw): the variables are
 * drawn one after another in the order `vars` declares them, each by exactly
 *   [lo, hi]                          one rng.int(hi − lo + 1)            → lo + that
 *   { "choice": [v0, v1, …] }          one rng.int(count)                  → v[that]
 *   { "string": { alphabet, length } } one rng.int(hi − lo + 1) for the length (even when
 *                                      lo = hi), then one rng.int(|alphabet|) per character
 * — the same calls as common.ts's randInt and randLetters.
 */
import type { Rng } from '../../model/rng.ts';
import { INTEGER_RE } from '../common.ts';
import { charName, numberText, quote, type Type, type Value } from './language.ts';

export type Domain =
  | { kind: 'int'; lo: number; hi: number }
  | { kind: 'choice'; values: Value[] }
  | { kind: 'string'; alphabet: string; lo: number; hi: number };

/** The JSON forms. */
export type VarSpec = [number, number] | { choice: Value[] } | { string: { alphabet: string; length: [number, number] } };

export const MAX_ABS_INT = 1e9;
export const MAX_CHOICES = 64;
export const MAX_CHOICE_CHARS = 16;
export const MAX_STRING_LENGTH = 16;
/** Prompt, alphabet and choice characters: the vocabulary without the answer separator "|". */
export const VOCAB_TEXT = /^[0-9a-z+\-*/=(),?: ]*$/;
export const VOCAB_WORDS = 'digits, a-z, "+-*/=(),?:" and space';

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const own = (o: Record<string, unknown>, k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && Math.abs(x) <= MAX_ABS_INT;
const firstBad = (s: string) => [...s].find((c) => !VOCAB_TEXT.test(c)) ?? '';

/** Reads one variable's JSON; throws a sentence fragment (the caller prefixes the field). */
export function readDomain(v: unknown): Domain {
  if (Array.isArray(v)) {
    if (v.length !== 2) throw new Error(`a range must be [lo, hi] with two numbers, got a list of ${v.length}`);
    const [lo, hi] = v;
    if (!isInt(lo) || !isInt(hi)) throw new Error(`a range must be two whole numbers between -${MAX_ABS_INT} and ${MAX_ABS_INT}`);
    if (lo > hi) throw new Error(`lo ${lo} is greater than hi ${hi}`);
    return { kind: 'int', lo, hi };
  }
  if (!isPlain(v)) throw new Error('must be a range [lo, hi], { "choice": [...] } or { "string": { "alphabet": ..., "length": [lo, hi] } }');
  const keys = Object.keys(v);
  if (keys.length !== 1 || (keys[0] !== 'choice' && keys[0] !== 'string')) {
    throw new Error(`must have exactly one key, "choice" or "string", got ${keys.length ? keys.slice(0, 3).map((k) => quote(k, 12)).join(', ') : 'none'}`);
  }
  if (keys[0] === 'choice') {
    const c = own(v, 'choice');
    if (!Array.isArray(c) || c.length === 0) throw new Error('choice must be a non-empty list');
    if (c.length > MAX_CHOICES) throw new Error(`choice has ${c.length} values, at most ${MAX_CHOICES} are allowed`);
    const numbers = c.every(isInt);
    const strings = c.every((x) => typeof x === 'string');
    if (!numbers && !strings) throw new Error(`choice must be all whole numbers (within ±${MAX_ABS_INT}) or all strings`);
    if (strings) {
      for (const s of c as string[]) {
        if (s.length === 0 || s.length > MAX_CHOICE_CHARS) throw new Error(`choice strings must have 1 to ${MAX_CHOICE_CHARS} characters, got ${quote(s)}`);
        if (!VOCAB_TEXT.test(s)) throw new Error(`choice ${quote(s)} has the character ${charName(firstBad(s))}, which is outside the vocabulary (${VOCAB_WORDS})`);
      }
    }
    return { kind: 'choice', values: [...(c as Value[])] };
  }
  const s = own(v, 'string');
  if (!isPlain(s)) throw new Error('string must be { "alphabet": "abc", "length": [lo, hi] }');
  const extra = Object.keys(s).filter((k) => k !== 'alphabet' && k !== 'length');
  if (extra.length) throw new Error(`string has the unknown key ${quote(extra[0], 12)} (the keys are alphabet and length)`);
  const alphabet = own(s, 'alphabet');
  const length = own(s, 'length');
  if (typeof alphabet !== 'string' || alphabet.length === 0 || alphabet.length > 40) throw new Error('string.alphabet must be text of 1 to 40 characters');
  if (!VOCAB_TEXT.test(alphabet)) throw new Error(`string.alphabet has the character ${charName(firstBad(alphabet))}, which is outside the vocabulary (${VOCAB_WORDS})`);
  const dup = [...alphabet].find((c, i) => alphabet.indexOf(c) !== i);
  if (dup !== undefined) throw new Error(`string.alphabet repeats ${charName(dup)}`);
  if (!Array.isArray(length) || length.length !== 2 || !length.every((x) => Number.isInteger(x))) throw new Error('string.length must be [lo, hi] with two whole numbers');
  const [lo, hi] = length as number[];
  if (lo < 0 || hi > MAX_STRING_LENGTH) throw new Error(`string.length must be within 0 to ${MAX_STRING_LENGTH}, got [${lo}, ${hi}]`);
  if (lo > hi) throw new Error(`string.length lo ${lo} is greater than hi ${hi}`);
  return { kind: 'string', alphabet, lo, hi };
}

/** The JSON form of a domain (what a normalized spec stores). */
export function domainJson(d: Domain): VarSpec {
  if (d.kind === 'int') return [d.lo, d.hi];
  if (d.kind === 'choice') return { choice: [...d.values] };
  return { string: { alphabet: d.alphabet, length: [d.lo, d.hi] } };
}

export function domainType(d: Domain): Type {
  if (d.kind === 'int') return { t: 'int' };
  if (d.kind === 'choice') return typeof d.values[0] === 'number' ? { t: 'int' } : { t: 'str', letters: d.values.every((v) => /^[a-z]+$/.test(v as string)) };
  return { t: 'str', letters: /^[a-z]+$/.test(d.alphabet) };
}

/** One draw, in the documented RNG order. */
export function draw(d: Domain, rng: Rng): Value {
  if (d.kind === 'int') return d.lo + rng.int(d.hi - d.lo + 1);
  if (d.kind === 'choice') return d.values[rng.int(d.values.length)];
  const n = d.lo + rng.int(d.hi - d.lo + 1);
  let s = '';
  for (let i = 0; i < n; i++) s += d.alphabet[rng.int(d.alphabet.length)];
  return s;
}

/** How many values the domain has (may exceed 2^53 for long strings: then approximate). */
export function domainSize(d: Domain): number {
  if (d.kind === 'int') return d.hi - d.lo + 1;
  if (d.kind === 'choice') return new Set(d.values).size;
  let n = 0;
  for (let len = d.lo; len <= d.hi; len++) n += d.alphabet.length ** len;
  return n;
}

/** The i-th value in a fixed order (0 ≤ i < domainSize): ints from lo, choices as listed (distinct), strings shortest first. */
export function nth(d: Domain, i: number): Value {
  if (d.kind === 'int') return d.lo + i;
  if (d.kind === 'choice') return [...new Set(d.values)][i];
  let len = d.lo;
  while (i >= d.alphabet.length ** len) i -= d.alphabet.length ** len++;
  let s = '';
  for (let k = 0; k < len; k++) {
    s = d.alphabet[i % d.alphabet.length] + s;
    i = Math.floor(i / d.alphabet.length);
  }
  return s;
}

/** A few values that tend to break expressions: the ends of a range, 0, ±1; the shortest and longest strings; every choice. */
export function edgeValues(d: Domain): Value[] {
  if (d.kind === 'int') return [...new Set([d.lo, d.hi, 0, 1, -1, 2].filter((x) => x >= d.lo && x <= d.hi))];
  if (d.kind === 'choice') return [...new Set(d.values)].slice(0, 16);
  const a = d.alphabet;
  const mixed = Array.from({ length: d.hi }, (_, i) => a[i % a.length]).join('');
  return [...new Set([a[0].repeat(d.lo), a[a.length - 1].repeat(d.hi), mixed])];
}

/** The value whose text is longest (for the longest possible prompt). */
export function longestValue(d: Domain): Value {
  if (d.kind === 'int') return numberText(d.lo).length >= numberText(d.hi).length ? d.lo : d.hi;
  if (d.kind === 'choice') return d.values.reduce((a, b) => (valueLen(b) > valueLen(a) ? b : a));
  return d.alphabet[0].repeat(d.hi);
}
const valueLen = (v: Value) => (typeof v === 'number' ? numberText(v) : v).length;

/** Shortest and longest text of any value. */
export function textBounds(d: Domain): [number, number] {
  if (d.kind === 'int') {
    const lens = [numberText(d.lo).length, numberText(d.hi).length];
    return [d.lo <= 0 && d.hi >= 0 ? 1 : Math.min(...lens), Math.max(...lens)];
  }
  if (d.kind === 'choice') return [Math.min(...d.values.map(valueLen)), Math.max(...d.values.map(valueLen))];
  return [d.lo, d.hi];
}

/** The value this text writes in this domain, or undefined when the domain cannot write it. */
export function readValue(d: Domain, text: string): Value | undefined {
  if (d.kind === 'int') {
    if (!INTEGER_RE.test(text) || text.length > 11) return undefined;
    const x = Number(text);
    return x >= d.lo && x <= d.hi ? x : undefined;
  }
  if (d.kind === 'choice') return d.values.find((v) => (typeof v === 'number' ? numberText(v) : v) === text);
  if (text.length < d.lo || text.length > d.hi) return undefined;
  for (const c of text) if (!d.alphabet.includes(c)) return undefined;
  return text;
}

// ---------------------------------------------------------------------------------------------
// The prompt template.

export type Part = { lit: string } | { name: string };

export const MAX_TEMPLATE_CHARS = 64;
export const MAX_PLACEHOLDERS = 16;

/** Splits "{a}*7=" into parts; throws a sentence fragment on an unclosed brace, an empty name or a bad character. */
export function parseTemplate(t: string): Part[] {
  const parts: Part[] = [];
  let lit = '';
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '{') {
      const end = t.indexOf('}', i);
      if (end < 0) throw new Error(`the "{" at character ${i + 1} is not closed`);
      const name = t.slice(i + 1, end);
      if (!/^[a-z][a-z0-9_]{0,11}$/.test(name)) throw new Error(`the placeholder ${quote(`{${name}}`)} at character ${i + 1} is not a variable name (a-z, then a-z, 0-9 or _, at most 12 characters)`);
      if (lit) parts.push({ lit });
      lit = '';
      parts.push({ name });
      if (parts.filter((p) => 'name' in p).length > MAX_PLACEHOLDERS) throw new Error(`the prompt has more than ${MAX_PLACEHOLDERS} placeholders`);
      i = end;
    } else if (c === '}') {
      throw new Error(`the "}" at character ${i + 1} closes nothing`);
    } else if (c === '|') {
      throw new Error('the answer separator "|" cannot appear in a prompt');
    } else if (!VOCAB_TEXT.test(c)) {
      throw new Error(`the character ${charName(c)} at character ${i + 1} is outside the vocabulary (${VOCAB_WORDS})`);
    } else lit += c;
  }
  if (lit) parts.push({ lit });
  return parts;
}

export function render(parts: Part[], values: ReadonlyMap<string, Value>): string {
  let s = '';
  for (const p of parts) {
    if ('lit' in p) s += p.lit;
    else {
      const v = values.get(p.name)!;
      s += typeof v === 'number' ? numberText(v) : v;
    }
  }
  return s;
}

/**
 * Every way (up to `limit`) to read `prompt` as this template: the variables' values, each
 * accepted by one of its domains (a prompt may come from any level). A variable written twice
 * must read the same both times. Bounded by a step budget: past it, the reading stops (as if
 * no more were found).
 */
export function readPrompt(parts: Part[], domains: ReadonlyMap<string, Domain[]>, prompt: string, limit: number): Map<string, Value>[] {
  const found: Map<string, Value>[] = [];
  const bounds = new Map<string, [number, number]>();
  for (const [name, ds] of domains) {
    const b = ds.map(textBounds);
    bounds.set(name, [Math.min(...b.map((x) => x[0])), Math.max(...b.map((x) => x[1]))]);
  }
  let budget = 20_000;
  const bound = new Map<string, Value>();
  const go = (k: number, pos: number): void => {
    if (found.length >= limit || --budget < 0) return;
    if (k === parts.length) {
      if (pos === prompt.length) found.push(new Map(bound));
      return;
    }
    const p = parts[k];
    if ('lit' in p) {
      if (prompt.startsWith(p.lit, pos)) go(k + 1, pos + p.lit.length);
      return;
    }
    const had = bound.get(p.name);
    if (had !== undefined) {
      const text = typeof had === 'number' ? numberText(had) : had;
      if (prompt.startsWith(text, pos)) go(k + 1, pos + text.length);
      return;
    }
    const [lo, hi] = bounds.get(p.name)!;
    for (let end = pos + lo; end <= Math.min(prompt.length, pos + hi); end++) {
      const text = prompt.slice(pos, end);
      const v = domains.get(p.name)!.map((d) => readValue(d, text)).find((x) => x !== undefined);
      if (v === undefined) continue;
      bound.set(p.name, v);
      go(k + 1, end);
      bound.delete(p.name);
      if (found.length >= limit || budget < 0) return;
    }
  };
  go(0, 0);
  return found;
}

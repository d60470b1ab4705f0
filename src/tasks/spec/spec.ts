/**
 * Task specs: a task written as data. `validateSpec` is the ONE-WAY decoder every outside
 * source (a share link, a file, the CLI) goes through: it never throws, never hangs (every
 * list, string, range, expression and search is bounded), and answers either a normalized
 * spec or ONE plain-text sentence naming the field and the reason ("vars.a: lo 9 is greater
 * than hi 2."). `compileSpec` turns a valid spec into what task.ts builds the Task from.
 *
 * Two forms:
 *   generated  { name, title?, prompt: "{a}*7=", vars: { a: [2, 99] }, answer: "a*7",
 *                scratchpad?: ["a*2", …], levels?: [{ a: [0, 9] }, { a: [10, 99] }] }
 *   data       { name, title?, data: [{ prompt: "2*7=", answer: "14" }, …] }
 *
 * What validation refuses, beyond bad shapes and unknown keys: characters outside the vocabulary
 * (statically, in the template, alphabets, choices and string literals), an expression that
 * does not parse or mixes types, an unknown variable, a variable the prompt does not show (the
 * verifier re-derives everything from the prompt text), and — found by generating examples
 * (EXAMPLES random draws per level plus edge values: range ends, 0, ±1, empty and longest
 * strings, every choice, and the longest prompt) — a division or remainder by zero, an empty or
 * over-long answer, a prompt the verifier cannot read back unambiguously, and a prompt plus
 * response that does not fit the model (BOS + prompt + response ≤ MODEL_POSITIONS; the EOS is
 * predicted at the last position; response + EOS ≤ MAX_RESPONSE_TOKENS). Finally the
 * distinct prompts of every level are enumerated (exactly when there are at most ENUM_LIMIT
 * combinations, else the first ENUM_LIMIT, and the count is then the product of the domain sizes)
 * and split by the lab's held-out hash: each level needs at least MIN_HELDOUT_PROMPTS held-out
 * and MIN_TRAIN_PROMPTS training prompts. promptCountPhrase says a level's count in words.
 */
import { CONFIGS } from '../../model/config.ts';
import { Rng } from '../../model/rng.ts';
import { INTEGER_RE, LETTERS_RE, MAX_ANSWER_CHARS } from '../common.ts';
import { isHeldOut } from '../split.ts';
import { FUNCTIONS, LanguageError, charName, evaluate, parseExpression, quote, typeOf, valueText, type Node, type Type, type Value } from './language.ts';
import {
  MAX_TEMPLATE_CHARS, VOCAB_TEXT, VOCAB_WORDS, domainJson, domainSize, domainType, draw, edgeValues, longestValue, nth, parseTemplate, readDomain, readPrompt, render,
  type Domain, type Part, type VarSpec,
} from './vars.ts';

export interface GeneratedSpec {
  name: string;
  title?: string;
  prompt: string;
  vars: Record<string, VarSpec>;
  answer: string;
  scratchpad?: string[];
  levels?: Record<string, VarSpec>[];
}
export interface DataPair { prompt: string; answer: string }
export interface DataSpec { name: string; title?: string; data: DataPair[] }
export type Spec = GeneratedSpec | DataSpec;

/** What a validated spec can do, for the page and the CLI. */
export interface SpecStats {
  /**
   * Per difficulty: the distinct prompts and how the split divides them. `exact`: every
   * combination was enumerated, so `distinct`, `heldout` and `train` are counts. Otherwise
   * (`exact: false`) `distinct` is the product of the variables' domain sizes, capped at
   * MAX_COUNTED (`capped`), and `heldout`/`train` are what the first ENUM_LIMIT combinations
   * gave (enough for the split's minimum); `atMost`: some of those combinations rendered the
   * same prompt, so the product is only an upper bound (else every value reads back from its
   * prompt, which the examples check, and the product is the count).
   */
  levels: { distinct: number; exact: boolean; heldout: number; train: number; atMost?: boolean; capped?: boolean }[];
  /** Longest response in the examples, in tokens with its EOS (the thinking form when there is a scratchpad). */
  maxResponseTokens: number;
}
export type SpecResult = { ok: true; spec: Spec; stats: SpecStats } | { ok: false; error: string };

export const SPEC_KEYS = ['name', 'title', 'prompt', 'vars', 'answer', 'scratchpad', 'levels', 'data'] as const;
export const MAX_VARS = 8;
export const MAX_LEVELS = 4;
export const MAX_SCRATCHPAD = 12;
export const MAX_DATA_ROWS = 5000;
/** The model the spec must fit: the micro configuration's context. */
export const MODEL_POSITIONS = CONFIGS.micro.seqLen;
/** The longest response the lab samples (the maxCompletionLength setting's maximum), EOS included. */
export const MAX_RESPONSE_TOKENS = 20;
export const EXAMPLES = 200;
export const ENUM_LIMIT = 4096;
/** Counts of prompts beyond this are reported as "more than" it (a product of domain sizes can pass 2^53). */
export const MAX_COUNTED = 1e15;
/** A disjoint held-out split worth measuring: at least this many distinct held-out prompts per level… */
export const MIN_HELDOUT_PROMPTS = 5;
/** …and this many distinct training prompts. */
export const MIN_TRAIN_PROMPTS = 20;
export const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,23}$/;

export type AnswerKind = 'int' | 'letters' | 'text';
export type Compiled =
  | { kind: 'generated'; id: string; title: string; spec: GeneratedSpec; parts: Part[]; names: string[]; levels: Map<string, Domain>[]; union: Map<string, Domain[]>; answer: Node; scratch: Node[]; answerKind: AnswerKind }
  | { kind: 'data'; id: string; title: string; spec: DataSpec; table: Map<string, string>; prompts: string[]; answerKind: AnswerKind };

/** A refusal: the message is the whole sentence. */
export class SpecError extends Error {}
const refuse = (field: string, reason: string): never => {
  throw new SpecError(`${field}: ${reason}.`);
};

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};
const own = (o: Record<string, unknown>, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
const has = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const firstBad = (s: string) => [...s].find((c) => !VOCAB_TEXT.test(c)) ?? '';
const sentence = (e: unknown) => (e instanceof Error ? e.message : 'is not valid');

/** The task id of a spec name: "spec:" + name. */
export const specTaskId = (name: string) => `spec:${name}`;

/** What validateSpec says if a check itself fails (a bug, never a verdict on the spec: the fuzz test makes sure it never appears). */
export const INTERNAL_ERROR = 'spec: this spec could not be checked because of an internal error in the lab; please report it.';

/** The one-way decoder: a normalized spec and its stats, or one sentence. Never throws. */
export function validateSpec(json: unknown): SpecResult {
  try {
    const c = compileSpec(json);
    const stats = checkGenerated(c);
    return { ok: true, spec: c.spec, stats };
  } catch (e) {
    if (e instanceof SpecError) return { ok: false, error: e.message };
    return { ok: false, error: INTERNAL_ERROR };
  }
}

/** The static half of validation: shapes, names, the template and the expressions. Throws SpecError. */
export function compileSpec(json: unknown): Compiled {
  if (!isPlain(json)) refuse('spec', 'must be a JSON object such as { "name": "times7", "prompt": "{a}*7=", "vars": { "a": [2, 99] }, "answer": "a*7" }');
  const o = json as Record<string, unknown>;
  const keys = Object.keys(o);
  const unknown = keys.find((k) => !(SPEC_KEYS as readonly string[]).includes(k));
  if (unknown !== undefined) refuse('spec', `the key ${quote(unknown)} is not part of a task spec (the keys are ${SPEC_KEYS.join(', ')})`);
  const name = own(o, 'name');
  if (typeof name !== 'string' || !NAME_RE.test(name)) refuse('name', 'must be 1 to 24 characters: lowercase letters, digits, "-" or "_", starting with a letter or digit');
  const title = own(o, 'title');
  if (title !== undefined && (typeof title !== 'string' || !/^[\x20-\x7e]{1,60}$/.test(title) || /[<>&]/.test(title))) {
    refuse('title', 'must be plain text of 1 to 60 printable ASCII characters, without angle brackets or ampersands');
  }
  const id = specTaskId(name as string);
  const shownTitle = (title as string | undefined) ?? (name as string);
  if (has(o, 'data')) {
    const other = ['prompt', 'vars', 'answer', 'scratchpad', 'levels'].find((k) => has(o, k));
    if (other) refuse(other, 'a data task takes its prompts and answers from "data", so it cannot also have generators; remove one of the two');
    const data = readData(own(o, 'data'));
    const spec: DataSpec = { name: name as string, ...(title !== undefined ? { title: title as string } : {}), data };
    return { kind: 'data', id, title: shownTitle, spec, table: new Map(data.map((d) => [d.prompt, d.answer])), prompts: data.map((d) => d.prompt), answerKind: kindOfTexts(data.map((d) => d.answer)) };
  }
  for (const k of ['prompt', 'vars', 'answer'] as const) if (!has(o, k)) refuse(k, `is missing (a task spec needs "prompt", "vars" and "answer", or "data")`);
  // vars
  const varsJson = own(o, 'vars');
  if (!isPlain(varsJson)) refuse('vars', 'must be an object of variables, such as { "a": [0, 99] }');
  const names = Object.keys(varsJson as object);
  if (names.length === 0 || names.length > MAX_VARS) refuse('vars', `must declare 1 to ${MAX_VARS} variables, got ${names.length}`);
  const base = new Map<string, Domain>();
  for (const n of names) {
    if (!/^[a-z][a-z0-9_]{0,11}$/.test(n)) refuse('vars', `the name ${quote(n)} is not a variable name (a-z, then a-z, 0-9 or _, at most 12 characters)`);
    if (Object.prototype.hasOwnProperty.call(FUNCTIONS, n)) refuse(`vars.${n}`, `${quote(n)} is a function of the language and cannot name a variable`);
    base.set(n, domainOf(`vars.${n}`, own(varsJson as Record<string, unknown>, n)));
  }
  // levels
  const levelsJson = own(o, 'levels');
  const levels: Map<string, Domain>[] = [];
  if (levelsJson === undefined) levels.push(base);
  else {
    if (!Array.isArray(levelsJson) || levelsJson.length === 0 || levelsJson.length > MAX_LEVELS) refuse('levels', `must be a list of 1 to ${MAX_LEVELS} objects (difficulty 1, 2, …), each overriding some variables`);
    (levelsJson as unknown[]).forEach((l, i) => {
      if (!isPlain(l)) refuse(`levels[${i}]`, 'must be an object of variables, such as { "a": [0, 9] }');
      const level = new Map(base);
      for (const n of Object.keys(l as object)) {
        if (!base.has(n)) refuse(`levels[${i}]`, `${quote(n)} is not a variable declared in vars`);
        const d = domainOf(`levels[${i}].${n}`, own(l as Record<string, unknown>, n));
        if (domainType(d).t !== domainType(base.get(n)!).t) refuse(`levels[${i}].${n}`, `changes ${n} from ${domainType(base.get(n)!).t === 'int' ? 'a number' : 'a string'} to ${domainType(d).t === 'int' ? 'a number' : 'a string'}`);
        level.set(n, d);
      }
      levels.push(level);
    });
  }
  const union = new Map<string, Domain[]>(names.map((n) => [n, levels.map((l) => l.get(n)!)]));
  // the prompt template
  const prompt = own(o, 'prompt');
  if (typeof prompt !== 'string' || prompt.length === 0 || prompt.length > MAX_TEMPLATE_CHARS) refuse('prompt', `must be text of 1 to ${MAX_TEMPLATE_CHARS} characters with {name} placeholders, such as "{a}*7="`);
  let parts: Part[] = [];
  try {
    parts = parseTemplate(prompt as string);
  } catch (e) {
    refuse('prompt', sentence(e));
  }
  for (const p of parts) if ('name' in p && !base.has(p.name)) refuse('prompt', `the placeholder {${p.name}} names no variable (the variables are ${names.join(', ')})`);
  const shown = new Set(parts.flatMap((p) => ('name' in p ? [p.name] : [])));
  const hidden = names.find((n) => !shown.has(n));
  if (hidden !== undefined) refuse(`vars.${hidden}`, `is not written in the prompt, but the verifier must re-derive the answer from the prompt text alone; add {${hidden}} to the prompt or remove the variable`);
  // types and expressions
  const env = new Map<string, Type>(names.map((n) => {
    const ts = union.get(n)!.map(domainType);
    return [n, ts[0].t === 'int' ? ts[0] : { t: 'str', letters: ts.every((t) => t.t === 'str' && t.letters) }];
  }));
  const answerNode = expression('answer', own(o, 'answer'), env);
  const answerType = typeOf(answerNode, env);
  const scratchJson = own(o, 'scratchpad');
  const scratch: Node[] = [];
  if (scratchJson !== undefined) {
    if (!Array.isArray(scratchJson) || scratchJson.length === 0 || scratchJson.length > MAX_SCRATCHPAD) refuse('scratchpad', `must be a list of 1 to ${MAX_SCRATCHPAD} expressions (the thinking steps)`);
    (scratchJson as unknown[]).forEach((s, i) => scratch.push(expression(`scratchpad[${i}]`, s, env)));
  }
  const spec: GeneratedSpec = {
    name: name as string,
    ...(title !== undefined ? { title: title as string } : {}),
    prompt: prompt as string,
    vars: Object.fromEntries(names.map((n) => [n, domainJson(base.get(n)!)])),
    answer: own(o, 'answer') as string,
    ...(scratchJson !== undefined ? { scratchpad: [...(scratchJson as string[])] } : {}),
    ...(levelsJson !== undefined ? { levels: (levelsJson as Record<string, unknown>[]).map((l, i) => Object.fromEntries(Object.keys(l).map((n) => [n, domainJson(levels[i].get(n)!)]))) } : {}),
  };
  const answerKind: AnswerKind = answerType.t === 'int' ? 'int' : answerType.letters ? 'letters' : 'text';
  return { kind: 'generated', id, title: shownTitle, spec, parts, names, levels, union, answer: answerNode, scratch, answerKind };
}

function domainOf(field: string, v: unknown): Domain {
  try {
    return readDomain(v);
  } catch (e) {
    return refuse(field, sentence(e));
  }
}

function expression(field: string, src: unknown, env: ReadonlyMap<string, Type>): Node {
  if (typeof src !== 'string' || src.trim() === '') refuse(field, 'must be an expression written as text, such as "a*7"');
  try {
    const n = parseExpression(src);
    typeOf(n, env);
    return n;
  } catch (e) {
    if (e instanceof LanguageError) refuse(field, e.kind === 'parse' ? `${quote(src as string, 40)} does not parse: ${e.message}` : `in ${quote(src as string, 40)}, ${e.message}`);
    throw e;
  }
}

function kindOfTexts(answers: string[]): AnswerKind {
  if (answers.every((a) => INTEGER_RE.test(a))) return 'int';
  if (answers.every((a) => LETTERS_RE.test(a))) return 'letters';
  return 'text';
}

function readData(v: unknown): DataPair[] {
  if (!Array.isArray(v) || v.length === 0) refuse('data', 'must be a non-empty list of { "prompt", "answer" } pairs');
  const rows = v as unknown[];
  if (rows.length > MAX_DATA_ROWS) refuse('data', `has ${rows.length} pairs, at most ${MAX_DATA_ROWS} are allowed`);
  const seen = new Map<string, number>();
  return rows.map((r, i) => {
    const f = `data[${i}]`;
    if (!isPlain(r)) refuse(f, 'must be an object { "prompt": …, "answer": … }');
    const row = r as Record<string, unknown>;
    const extra = Object.keys(row).find((k) => k !== 'prompt' && k !== 'answer');
    if (extra !== undefined) refuse(f, `the key ${quote(extra)} is not part of a pair (the keys are prompt and answer)`);
    const p = own(row, 'prompt');
    let a = own(row, 'answer');
    if (typeof a === 'number' && Number.isInteger(a) && Math.abs(a) <= 1e15) a = valueText(a);
    if (typeof p !== 'string' || p.length === 0 || p.length > MODEL_POSITIONS - 2) refuse(`${f}.prompt`, `must be text of 1 to ${MODEL_POSITIONS - 2} characters`);
    if (typeof a !== 'string') refuse(`${f}.answer`, 'must be text or a whole number');
    checkText(`${f}.prompt`, p as string, 'prompt');
    checkAnswerText(`${f}.answer`, a as string, '');
    const fits = 1 + (p as string).length + (a as string).length;
    if (fits > MODEL_POSITIONS) refuse(f, `the prompt and answer take ${fits} of the model's ${MODEL_POSITIONS} positions (BOS, prompt, answer; the EOS is predicted at the last one)`);
    const before = seen.get(p as string);
    if (before !== undefined) refuse(`${f}.prompt`, `repeats the prompt of data[${before}]`);
    seen.set(p as string, i);
    return { prompt: p as string, answer: a as string };
  });
}

function checkText(field: string, s: string, what: string): void {
  if (s.includes('|')) refuse(field, `the answer separator "|" cannot appear in ${what === 'prompt' ? 'a prompt' : 'an answer'}`);
  if (!VOCAB_TEXT.test(s)) refuse(field, `${quote(s)} has the character ${charName(firstBad(s))}, which is outside the vocabulary (${VOCAB_WORDS})`);
}

function checkAnswerText(field: string, a: string, when: string): void {
  checkText(field, a, 'answer');
  if (a.length === 0) refuse(field, `is empty${when}, and an empty answer is unparseable`);
  if (a.startsWith(' ') || a.endsWith(' ')) refuse(field, `${quote(a)}${when} starts or ends with a space, which the verifier strips`);
  if (a.length > MAX_ANSWER_CHARS) refuse(field, `${quote(a)}${when} has ${a.length} characters, more than the ${MAX_ANSWER_CHARS} an answer may have`);
}

// ---------------------------------------------------------------------------------------------
// Checks by generating.

/** The prompt, answer and steps of one assignment, or the refusal it causes. */
export function instanceOf(c: Extract<Compiled, { kind: 'generated' }>, values: ReadonlyMap<string, Value>): { prompt: string; answer: string; steps: string[] } {
  const prompt = render(c.parts, values);
  return { prompt, answer: valueText(evaluate(c.answer, values)), steps: c.scratch.map((s) => valueText(evaluate(s, values))) };
}

const describeValues = (values: ReadonlyMap<string, Value>) => [...values].map(([k, v]) => `${k}=${typeof v === 'number' ? v : quote(v, 16)}`).join(', ');

function checkExample(c: Extract<Compiled, { kind: 'generated' }>, values: ReadonlyMap<string, Value>, level: number): number {
  const prompt = render(c.parts, values);
  const when = ` for the prompt ${quote(prompt, 30)} (${describeValues(values)}${c.levels.length > 1 ? `, difficulty ${level}` : ''})`;
  if (prompt.length > MODEL_POSITIONS - 2) refuse('prompt', `${quote(prompt, 30)} has ${prompt.length} characters, too long for the model's ${MODEL_POSITIONS} positions; shorten the prompt or the ranges`);
  const value = (field: string, n: Node): string => {
    try {
      return valueText(evaluate(n, values));
    } catch (e) {
      return refuse(field, `${sentence(e)}${when}`);
    }
  };
  const answer = value('answer', c.answer);
  checkAnswerText('answer', answer, when);
  const steps = c.scratch.map((n, i) => {
    const s = value(`scratchpad[${i}]`, n);
    if (s.includes(',')) refuse(`scratchpad[${i}]`, `the step ${quote(s)}${when} contains a comma, which separates the steps`);
    if (s.length === 0 || s.startsWith(' ') || s.endsWith(' ')) refuse(`scratchpad[${i}]`, `the step ${quote(s)}${when} is empty or starts or ends with a space`);
    if (s.includes('|')) refuse(`scratchpad[${i}]`, `the step ${quote(s)}${when} contains the answer separator "|"`);
    return s;
  });
  const response = steps.length ? `${steps.join(',')}|${answer}` : answer;
  const positions = 1 + prompt.length + response.length;
  if (positions > MODEL_POSITIONS || response.length + 1 > MAX_RESPONSE_TOKENS) {
    refuse(steps.length ? 'scratchpad' : 'answer', `the prompt ${quote(prompt, 30)} with the response ${quote(response, 30)} takes ${positions} of the model's ${MODEL_POSITIONS} positions (BOS, prompt, response; the EOS is predicted at the last one)` +
      `${response.length + 1 > MAX_RESPONSE_TOKENS ? ` and the response needs ${response.length + 1} tokens with its EOS, more than the ${MAX_RESPONSE_TOKENS} the lab samples` : ''}; shorten the prompt or narrow the ranges`);
  }
  const readings = readPrompt(c.parts, c.union, prompt, 2);
  if (readings.length === 0) refuse('prompt', `the verifier cannot read the prompt ${quote(prompt, 30)} back into its variables`);
  if (readings.length > 1) refuse('prompt', `${quote(prompt, 30)} can be read in more than one way (${describeValues(readings[0])} or ${describeValues(readings[1])}); put fixed text between the placeholders`);
  return response.length + 1;
}

/** The dynamic half: examples of every level, then the distinct prompts and the split. Returns the stats or throws SpecError. */
export function checkGenerated(c: Compiled): SpecStats {
  if (c.kind === 'data') {
    const heldout = c.prompts.filter((p) => isHeldOut(c.id, p)).length;
    checkSplit('data', c.prompts.length, true, heldout, c.prompts.length - heldout);
    return { levels: [{ distinct: c.prompts.length, exact: true, heldout, train: c.prompts.length - heldout }], maxResponseTokens: Math.max(...c.spec.data.map((d) => d.answer.length + 1)) };
  }
  let maxTokens = 0;
  const levels: SpecStats['levels'] = [];
  c.levels.forEach((level, li) => {
    const rng = new Rng(0x5eed + li);
    const randomTuple = () => new Map(c.names.map((n) => [n, draw(level.get(n)!, rng)] as const));
    const tuples: Map<string, Value>[] = [new Map(c.names.map((n) => [n, longestValue(level.get(n)!)] as const))];
    for (let i = 0; i < EXAMPLES; i++) tuples.push(randomTuple());
    c.names.forEach((n, k) => {
      for (const v of edgeValues(level.get(n)!)) tuples.push(new Map(tuples[1 + (k % EXAMPLES)]).set(n, v));
    });
    for (const t of tuples) maxTokens = Math.max(maxTokens, checkExample(c, t, li + 1));
    const field = c.levels.length > 1 ? `levels[${li}]` : 'vars';
    levels.push(countPrompts(c, level, field));
  });
  return { levels, maxResponseTokens: maxTokens };
}

function countPrompts(c: Extract<Compiled, { kind: 'generated' }>, level: Map<string, Domain>, field: string): SpecStats['levels'][number] {
  const sizes = c.names.map((n) => Math.min(domainSize(level.get(n)!), ENUM_LIMIT));
  const total = sizes.reduce((a, b) => a * b, 1);
  const exact = c.names.every((n) => domainSize(level.get(n)!) <= ENUM_LIMIT) && total <= ENUM_LIMIT;
  const n = Math.min(total, ENUM_LIMIT);
  const seen = new Set<string>();
  let heldout = 0;
  for (let i = 0; i < n; i++) {
    let rest = i;
    const values = new Map<string, Value>();
    c.names.forEach((name, k) => {
      values.set(name, nth(level.get(name)!, rest % sizes[k]));
      rest = Math.floor(rest / sizes[k]);
    });
    const p = render(c.parts, values);
    if (seen.has(p)) continue;
    seen.add(p);
    if (isHeldOut(c.id, p)) heldout++;
  }
  checkSplit(field, seen.size, exact, heldout, seen.size - heldout);
  if (exact) return { distinct: seen.size, exact, heldout, train: seen.size - heldout };
  // too many to enumerate: the product of the domain sizes (the count when each prompt reads back one way)
  const product = c.names.reduce((a, name) => a * domainSize(level.get(name)!), 1);
  const collided = seen.size < n; // two of the first n combinations gave the same prompt
  return { distinct: Math.min(product, MAX_COUNTED), exact, heldout, train: seen.size - heldout, ...(collided ? { atMost: true } : {}), ...(product > MAX_COUNTED ? { capped: true } : {}) };
}

const countText = (n: number) => (n >= 1e4 ? n.toLocaleString('en-US') : String(n));

/**
 * One level's prompt count in words: a count when every combination was enumerated
 * ("1000 distinct prompts (200 held out, 800 for training)"), else the product of the
 * variables' ranges ("286,331,136 distinct prompts (the product of the variables' ranges; about
 * 20% held out)"), "at most" it when two values gave the same prompt, "more than" the cap.
 */
export function promptCountPhrase(l: SpecStats['levels'][number]): string {
  if (l.exact) return `${l.distinct} distinct prompt${l.distinct === 1 ? '' : 's'} (${l.heldout} held out, ${l.train} for training)`;
  const share = Math.round((100 * l.heldout) / Math.max(1, l.heldout + l.train));
  const how = l.capped ? 'more than' : l.atMost ? 'at most' : '';
  return `${how ? `${how} ` : ''}${countText(l.distinct)} distinct prompts (the product of the variables' ranges${l.atMost ? ', though some values give the same prompt' : ''}; about ${share}% held out)`;
}

function checkSplit(field: string, distinct: number, exact: boolean, heldout: number, train: number): void {
  if (heldout >= MIN_HELDOUT_PROMPTS && train >= MIN_TRAIN_PROMPTS) return;
  refuse(field, `${exact ? 'can produce only' : 'produced only'} ${distinct} distinct prompt${distinct === 1 ? '' : 's'} (${heldout} held out, ${train} for training), but a disjoint held-out split needs at least ${MIN_HELDOUT_PROMPTS} held-out and ${MIN_TRAIN_PROMPTS} training prompts; widen a range${field === 'data' ? ' (add pairs)' : ' or add a variable'}`);
}

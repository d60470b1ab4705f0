/**
 * Structured fuzz of the task-spec decoder (validateSpec), from REAL specs: the ones shipped in
 * public/tasks/ and a data spec. Every field is walked recursively and replaced by hostile values
 * (every wrong type, null, missing, huge, negative, fractional, long strings and lists, nested
 * junk, markup, prototype keys), plus unknown keys, and thousands of random specs built from a
 * small grammar (random variables, templates and expressions). And the expression parser alone
 * on mutated and random expressions.
 *
 * Every case must be accepted or refused with ONE plain-text sentence naming a field (never a
 * throw, never a raw JavaScript message, never markup), quickly; a value of the wrong JSON type
 * must be refused; an accepted spec must round-trip (validateSpec(spec) gives it back) and its
 * task must generate, at every difficulty, prompts whose reference response the verifier
 * accepts. The counts are printed.
 *
 * Bounded work is counted, not timed (a timed bound fails on a loaded machine; speed lives in
 * `npm run bench`): the prompts validateSpec renders to check a spec by generating are counted
 * (at most ENUM_LIMIT a level, plus the examples), an oversized expression or data list must be
 * refused by its size cap (unread), and a deep expression by the depth cap.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { Rng } from '../../model/rng.ts';
import { LanguageError, evaluate, MAX_DEPTH, MAX_EXPR_CHARS, parseExpression, typeOf, type Type, type Value } from './language.ts';
import { ENUM_LIMIT, EXAMPLES, INTERNAL_ERROR, MAX_DATA_ROWS, MAX_LEVELS, validateSpec } from './spec.ts';
import { taskFromSpec } from './task.ts';
import { allPaths, isPlain, MISSING, pathText, setAt, withKey, type Seg } from '../../testing/structuredFuzz.ts';

/** Prompts rendered (vars.ts render: spec.ts's only way to make a prompt). */
const work = vi.hoisted(() => ({ rendered: 0 }));
vi.mock('./vars.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('./vars.ts')>();
  return { ...m, render: (...a: Parameters<typeof m.render>) => (work.rendered++, m.render(...a)) };
});
/** What validateSpec may render for one spec: per level, the enumeration (ENUM_LIMIT), the random examples and the edge values. */
const MAX_RENDERED = MAX_LEVELS * (ENUM_LIMIT + 2 * EXAMPLES);

const BAD_WORDS = ['TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'undefined', 'Cannot read', 'is not a function', 'is not iterable', '[object Object]', 'Unexpected token', 'NaN', 'Infinity', 'Symbol('];

let deep: unknown = 1;
for (let i = 0; i < 2000; i++) deep = { d: deep };
const HOSTILE: [string, unknown][] = [
  ['string', 'x'], ['empty string', ''], ['numeric string', '8'], ['long string', 'z'.repeat(10_000)], ['markup', '<script>alert(1)</script>'], ['unicode', '😀\u202e'],
  ['brace soup', '{{{{a}}}}'], ['expression', 'a*7'], ['deep parens', '('.repeat(5000)], ['NUL', '\u0000'],
  ['zero', 0], ['-1', -1], ['fraction', 1.5], ['1e308', 1e308], ['-1e308', -1e308], ['2^53', 2 ** 53], ['1e9', 1e9], ['NaN', NaN], ['Infinity', Infinity],
  ['true', true], ['false', false], ['null', null],
  ['empty list', []], ['list', [1, 2, 3]], ['pair', [0, 9]], ['reversed pair', [9, 0]], ['list of junk', [null, {}, 'x']], ['empty object', {}], ['nested object', { a: { b: [1, { c: null }] } }],
  ['choice', { choice: ['a', 'b'] }], ['string var', { string: { alphabet: 'ab', length: [1, 3] } }], ['long list', new Array(20_000).fill(0)], ['sparse huge list', new Array(10_000_000)],
  ['deep object', deep], ['missing', MISSING],
];

type Kind = 'string' | 'number' | 'list' | 'object' | 'other';
const kindOf = (v: unknown): Kind => (typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : Array.isArray(v) ? 'list' : isPlain(v) ? 'object' : 'other');
/** The JSON kinds a field may hold (anything else must be refused); undefined: no rule. */
function allowedKinds(p: Seg[]): Kind[] | undefined {
  const t = pathText(p).replace(/\[\d+\]/g, '[]').replace(/^(vars|levels\[\])\.[a-z0-9_]+/, '$1.X');
  const rules: Record<string, Kind[]> = {
    '': ['object'], name: ['string'], title: ['string'], prompt: ['string'], answer: ['string'], vars: ['object'], 'vars.X': ['list', 'object'], 'vars.X[]': ['number'],
    levels: ['list'], 'levels[]': ['object'], 'levels[].X': ['list', 'object'], scratchpad: ['list'], 'scratchpad[]': ['string'],
    data: ['list'], 'data[]': ['object'], 'data[].prompt': ['string'], 'data[].answer': ['string', 'number'],
  };
  return rules[t];
}

interface Case { where: string; accepted: boolean; error?: string; ms: number; rendered: number }

function check(spec: unknown, where: string, cases: Case[], mustRefuse = false): void {
  const t0 = performance.now();
  let r: ReturnType<typeof validateSpec>;
  work.rendered = 0;
  try {
    r = validateSpec(spec);
  } catch (e) {
    throw new Error(`${where}: threw ${String(e)}`);
  }
  const ms = performance.now() - t0;
  const rendered = work.rendered;
  if (rendered > MAX_RENDERED) expect(rendered, `${where}: prompts rendered by validateSpec`).toBeLessThanOrEqual(MAX_RENDERED); // bounded work
  if (r.ok) {
    if (mustRefuse) expect(`accepted`, where).toBe('refused');
    const again = validateSpec(JSON.parse(JSON.stringify(r.spec)));
    if (!again.ok || JSON.stringify(again.spec) !== JSON.stringify(r.spec)) expect(again, `${where}: round trip`).toEqual({ ok: true, spec: r.spec, stats: r.stats });
    const task = taskFromSpec(r.spec);
    for (const d of task.difficulties) {
      const x = task.generate(new Rng(d), d);
      const v = task.verify(x.prompt, task.referenceResponse(x.prompt, { think: true }));
      if (!v.correct || x.answer !== task.solve(x.prompt)) expect({ x, v }, where).toEqual('a reference response the verifier accepts');
    }
  } else {
    const problems = BAD_WORDS.filter((w) => r.error.includes(w));
    if (r.error === INTERNAL_ERROR) problems.push('a check threw inside validateSpec');
    if (!/^(spec|name|title|prompt|answer|vars|levels|scratchpad|data)[^\s:]*: [^\n]{8,600}\.$/.test(r.error)) problems.push('not one sentence naming a field');
    if (/[<>]|&/.test(r.error) || r.error.includes('\n')) problems.push('markup or a newline');
    if (problems.length) expect(problems, `${where}: ${r.error}`).toEqual([]);
  }
  cases.push({ where, accepted: r.ok, error: r.ok ? undefined : r.error, ms, rendered });
}

function summarize(title: string, cases: Case[], ms: number): void {
  const refused = cases.filter((c) => !c.accepted);
  const slowest = cases.reduce((a, c) => (c.ms > a.ms ? c : a), cases[0]);
  const most = cases.reduce((a, c) => (c.rendered > a.rendered ? c : a), cases[0]);
  console.log(`${title}: ${cases.length} cases (${refused.length} refused, ${cases.length - refused.length} accepted) in ${ms.toFixed(0)} ms; slowest ${slowest.ms.toFixed(1)} ms (${slowest.where}; for information); at most ${most.rendered} prompts rendered (${most.where})`);
  const seen = new Set<string>();
  const examples = refused.filter((c) => { const k = c.error!.split(':')[0]; if (seen.has(k)) return false; seen.add(k); return true; });
  console.table(examples.slice(0, 12).map((c) => ({ case: c.where.slice(0, 50), error: c.error!.slice(0, 140) })));
}

const REAL: [string, unknown][] = [
  ...['add', 'reverse', 'digitsum', 'times7', 'vowels', 'mul'].map((f) => [f, JSON.parse(readFileSync(`public/tasks/${f}.json`, 'utf8'))] as [string, unknown]),
  ['data', { name: 'squares', title: 'Squares', data: Array.from({ length: 60 }, (_, i) => ({ prompt: `sq:${i}=`, answer: i % 2 ? String(i * i) : i * i })) }],
];

// ---------------------------------------------------------------------------------------------
// A small random grammar: specs that are often valid, to exercise the accepting path too.

const ALPHA = 'abcdefghijklmnopqrstuvwxyz';
function randomExpr(rng: Rng, vars: [string, Type][], depth = 0): string {
  const pick = <T,>(xs: T[]) => xs[rng.int(xs.length)];
  const r = rng.int(depth > 2 ? 3 : 12);
  if (r === 0) return String(rng.int(20));
  if (r === 1 && rng.next() < 0.3) return `"${pick(['a', 'b', 'xy', ''])}"`;
  if (r <= 2) return pick(vars)[0];
  const sub = () => randomExpr(rng, vars, depth + 1);
  return pick([
    () => `${sub()} ${pick(['+', '-', '*', '/', '%', '+'])} ${sub()}`, () => `(${sub()})`, () => `-${sub()}`, () => `${pick(['min', 'max'])}(${sub()}, ${sub()})`,
    () => `abs(${sub()})`, () => `len(${sub()})`, () => `${pick(['reverse', 'sort', 'first', 'last'])}(${sub()})`, () => `count(${sub()}, ${sub()})`,
  ])();
}
function randomSpec(rng: Rng, i: number): unknown {
  const n = 1 + rng.int(3);
  const vars: Record<string, unknown> = {};
  const types: [string, Type][] = [];
  for (let k = 0; k < n; k++) {
    const name = 'abcxyw'[k] + (rng.next() < 0.2 ? String(k) : '');
    const kind = rng.int(3);
    if (kind === 0) {
      const lo = rng.int(30) - 10;
      vars[name] = [lo, lo + rng.int(200)];
      types.push([name, { t: 'int' }]);
    } else if (kind === 1) {
      vars[name] = { choice: rng.next() < 0.5 ? [1, 2, 3, 5, 8].slice(0, 1 + rng.int(5)) : ['ab', 'c', 'de', 'f'].slice(0, 1 + rng.int(4)) };
      types.push([name, (vars[name] as { choice: Value[] }).choice.every((v) => typeof v === 'number') ? { t: 'int' } : { t: 'str', letters: true }]);
    } else {
      const lo = rng.int(4);
      vars[name] = { string: { alphabet: ALPHA.slice(0, 2 + rng.int(8)), length: [lo, lo + rng.int(4)] } };
      types.push([name, { t: 'str', letters: true }]);
    }
  }
  const seps = ['+', ':', ',', '?', '*', ' '];
  const prompt = `${'pqrs'[rng.int(4)]}:` + Object.keys(vars).map((v) => `{${v}}`).join(seps[rng.int(seps.length)]) + '=';
  const spec: Record<string, unknown> = { name: `r${i}`, prompt, vars, answer: randomExpr(rng, types) };
  if (rng.next() < 0.2) spec.scratchpad = [randomExpr(rng, types), randomExpr(rng, types)];
  if (rng.next() < 0.2) spec.levels = [{}, { [Object.keys(vars)[0]]: vars[Object.keys(vars)[0]] }];
  return spec;
}

describe('task-spec decoder, structured fuzz', () => {
  it('every field of real specs × hostile values, deleted; unknown and prototype keys: accepted or one sentence, never a throw', () => {
    const cases: Case[] = [];
    const t0 = performance.now();
    for (const [label, spec] of REAL) {
      check(spec, `${label} as shipped`, cases);
      expect(cases.at(-1)!.accepted, label).toBe(true);
      for (const p of allPaths(spec)) {
        const allowed = allowedKinds(p);
        for (const [name, value] of HOSTILE) {
          const mutated = setAt(spec, p, value);
          const wrongKind = allowed !== undefined && value !== MISSING && !allowed.includes(kindOf(value));
          check(mutated, `${label} ${pathText(p) || '(root)'} ← ${name}`, cases, wrongKind);
        }
      }
      for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'colour', 'Name', 'name ', '']) {
        check(withKey(spec as Record<string, unknown>, key, { a: 1 }), `${label} + key ${JSON.stringify(key)}`, cases, true);
      }
      if ('vars' in (spec as object)) check(setAt(spec, ['vars', '__proto__'], [0, 9]), `${label} vars.__proto__`, cases);
    }
    const ms = performance.now() - t0;
    summarize('validateSpec on mutated real specs', cases, ms);
    expect(cases.length).toBeGreaterThan(1500);
    // bounded work, counted: check() held every case to MAX_RENDERED prompts, and a shipped spec reached the enumeration cap…
    expect(Math.max(...cases.map((c) => c.rendered))).toBeGreaterThan(ENUM_LIMIT);
    // …and an oversized expression or data list is refused by its size cap, before it is parsed or read
    const sized = (re: RegExp) => cases.filter((c) => re.test(c.where));
    const longExpr = sized(/ (answer|scratchpad\[\d+\]) ← (long string|deep parens)$/);
    const longData = sized(/ data ← (long list|sparse huge list)$/);
    expect(longExpr.length).toBeGreaterThanOrEqual(4);
    expect(longData.length).toBe(2);
    for (const c of longExpr) expect(c.error, c.where).toMatch(new RegExp(`the expression is \\d+ characters long, at most ${MAX_EXPR_CHARS} are allowed`));
    for (const c of longData) expect(c.error, c.where).toMatch(new RegExp(`has \\d+ pairs, at most ${MAX_DATA_ROWS} are allowed`));
  });

  it('random specs from a small grammar: accepted ones build working tasks, refused ones say why', () => {
    const rng = new Rng(2024);
    const cases: Case[] = [];
    const t0 = performance.now();
    for (let i = 0; i < 1500; i++) check(randomSpec(rng, i), `random spec ${i}`, cases);
    const ms = performance.now() - t0;
    summarize('validateSpec on random specs', cases, ms);
    const accepted = cases.filter((c) => c.accepted).length;
    expect(accepted).toBeGreaterThan(100);
    expect(cases.length - accepted).toBeGreaterThan(100);
  });

  it('the expression parser on mutated and random expressions: a value or a LanguageError, bounded by the length and depth caps', () => {
    const rng = new Rng(99);
    const types = new Map<string, Type>([['a', { t: 'int' }], ['b', { t: 'int' }], ['w', { t: 'str', letters: true }]]);
    const env = new Map<string, Value>([['a', 7], ['b', 0], ['w', 'abba']]);
    const seeds = ['a*7', 'min(a, b) + abs(-a) % 3', 'reverse(w) + len(w)', 'count(w, "b") * (a - b) / 2', 'first(w) + last(sort(w))', '"x" + a + b'];
    const soup = 'ab w 0123456789 +-*/%(),"minaxbslenrvtcoufi';
    let parsed = 0, typed = 0, valued = 0, refused = 0, tooLong = 0, tooDeep = 0;
    let slowest = 0;
    const t0 = performance.now();
    // short but deep (parentheses, minus signs, function calls): within the length cap, so only the depth cap can refuse them
    const deepShort = [17, 40, 90].flatMap((d) => [`${'('.repeat(d)}a${')'.repeat(d)}`, `${'-'.repeat(d)}a`, `${'abs('.repeat(Math.min(d, 30))}a${')'.repeat(Math.min(d, 30))}`]);
    for (let i = 0; i < 20_000 + deepShort.length; i++) {
      let src: string;
      if (i % 4 === 0) src = Array.from({ length: rng.int(30) }, () => soup[rng.int(soup.length)]).join('');
      else if (i % 4 === 1) src = randomExpr(rng, [...types]);
      else {
        const s = seeds[rng.int(seeds.length)].split('');
        for (let k = 0; k < 1 + rng.int(4); k++) {
          const at = rng.int(s.length + 1);
          const op = rng.int(3);
          if (op === 0) s.splice(at, 1);
          else if (op === 1) s.splice(at, 0, soup[rng.int(soup.length)]);
          else s.splice(at, 0, ...s.slice(0, rng.int(s.length)));
        }
        src = s.join('');
      }
      if (i % 1000 === 0) src = '('.repeat(rng.int(5000)) + 'a' + ')'.repeat(rng.int(5000));
      if (i >= 20_000) src = deepShort[i - 20_000];
      const c0 = performance.now();
      let why = '';
      try {
        const n = parseExpression(src);
        parsed++;
        typeOf(n, types);
        typed++;
        evaluate(n, env);
        valued++;
      } catch (e) {
        if (!(e instanceof LanguageError)) throw new Error(`${JSON.stringify(src)}: threw ${String(e)}`);
        if (BAD_WORDS.some((w) => e.message.includes(w)) || e.message.length < 10) expect(e.message, src).toBe('a sentence');
        refused++;
        why = e.message;
        if (why.startsWith(`the expression is ${src.length} characters long, at most ${MAX_EXPR_CHARS} are allowed`)) tooLong++;
        if (why.startsWith(`the expression nests deeper than ${MAX_DEPTH} levels`)) tooDeep++;
      }
      slowest = Math.max(slowest, performance.now() - c0);
      // bounded, not timed: an expression over the length cap is refused unread (the 5000-deep ones), a short deep one by the depth cap
      if (src.length > MAX_EXPR_CHARS && !why.startsWith('the expression is ')) expect(why, `${src.slice(0, 30)}… (${src.length} characters)`).toMatch(/^the expression is \d+ characters long/);
      if (i >= 20_000 && !why.startsWith('the expression nests deeper')) expect(why, src).toMatch(/^the expression nests deeper/);
    }
    console.log(`expressions: ${20_000 + deepShort.length} (${parsed} parsed, ${typed} type-checked, ${valued} evaluated, ${refused} refused with a LanguageError: ${tooLong} too long, ${tooDeep} too deep) in ${(performance.now() - t0).toFixed(0)} ms; slowest ${slowest.toFixed(2)} ms (for information: speed lives in the bench)`);
    expect(valued).toBeGreaterThan(2000);
    expect(refused).toBeGreaterThan(2000);
    expect(tooLong).toBeGreaterThanOrEqual(15); // most of the 20 '('×rng.int(5000) inputs
    expect(tooDeep).toBeGreaterThanOrEqual(deepShort.length);
  });
});

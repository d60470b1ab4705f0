/**
 * The task-spec expression language: a tokenizer, a recursive-descent parser, a static type
 * checker and an AST interpreter, written by hand. Nothing here calls eval, Function or a
 * worker: a spec is data, and this module is the only thing that gives it meaning.
 *
 * Grammar (spaces between tokens are ignored):
 *   expr    := term (("+" | "-") term)*
 *   term    := unary (("*" | "/" | "%") unary)*
 *   unary   := "-" unary | primary
 *   primary := NUMBER | STRING | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"
 *   NUMBER  := 1 to 10 digits            STRING := '"' vocabulary characters '"' (no escapes)
 *   NAME    := a-z, then a-z 0-9 _
 *
 * Values are integers or strings. Semantics:
 *   a + b    numbers: their sum. If either side is a string, both sides become text (a number
 *            becomes its decimal text: 7 → "7", −7 → "-7") and are concatenated. "+" is left
 *            associative, so 1 + 2 + "a" is "3a" and "a" + 1 + 2 is "a12".
 *   - * / %  numbers only. "/" is integer division truncated toward zero (7 / 2 = 3,
 *            −7 / 2 = −3, as in C, not Python's floor); "%" is the remainder with the sign of
 *            the dividend (−7 % 2 = −1), so a = (a / b) * b + a % b. Dividing or taking the
 *            remainder by zero is an error.
 *   -x       negation (numbers only).
 *   min(a, b, …), max(a, b, …)   2 to 8 numbers;   abs(x)   a number
 *   len(s)   length of a string;   reverse(s), sort(s)   the string reversed / its characters in
 *            code order (a < b < … , digits before letters);   first(s), last(s)   its first / last
 *            character (an error on an empty string);   count(s, t)   non-overlapping
 *            occurrences of t in s, scanning left to right (an error when t is empty).
 * Every number stays within ±10^15 and every string within 256 characters (an error beyond),
 * so evaluation is bounded; an expression is at most 200 characters and nests at most 16 deep.
 */

export const MAX_EXPR_CHARS = 200;
export const MAX_DEPTH = 16;
export const MAX_NUMBER = 1e15;
export const MAX_STRING = 256;
export const MAX_ARGS = 8;

export type Value = number | string;
export type Node =
  | { k: 'num'; v: number; pos: number }
  | { k: 'str'; v: string; pos: number }
  | { k: 'var'; name: string; pos: number }
  | { k: 'neg'; e: Node; pos: number }
  | { k: 'bin'; op: '+' | '-' | '*' | '/' | '%'; l: Node; r: Node; pos: number }
  | { k: 'call'; fn: string; args: Node[]; pos: number };

/** A static type: a number, or a string (`letters`: it can only ever hold a-z). */
export type Type = { t: 'int' } | { t: 'str'; letters: boolean };

/** A sentence about an expression: it does not parse ('parse'), mixes types or names an unknown thing ('type'), or fails on these values ('eval'). */
export class LanguageError extends Error {
  constructor(message: string, readonly kind: 'parse' | 'type' | 'eval' = 'parse') {
    super(message);
  }
}

/** The language's functions: name → [min args, max args]. Variables may not take these names. */
export const FUNCTIONS: Readonly<Record<string, readonly [number, number]>> = Object.freeze({
  min: [2, MAX_ARGS], max: [2, MAX_ARGS], abs: [1, 1], len: [1, 1], reverse: [1, 1], sort: [1, 1], first: [1, 1], last: [1, 1], count: [2, 2],
});
const isFunction = (name: string) => Object.prototype.hasOwnProperty.call(FUNCTIONS, name);

/** Characters a string literal may hold: the tokenizer's vocabulary without the answer separator "|". */
const LITERAL_CHARS = /^[0-9a-z+\-*/=(),?: ]*$/;

type Tok = { k: 'num' | 'str' | 'name' | 'op'; v: string; pos: number };

/** A value shown inside a sentence: quoted, cut short, plain ASCII (never markup). */
export function quote(s: string, max = 24): string {
  const shown = JSON.stringify(s.slice(0, max)).replace(/[^\x20-\x7e]|[<>&]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s.length > max ? `${shown}...` : shown;
}

/** One character shown inside a sentence: quoted when printable ASCII, else its code point ("U+00D7"). */
export function charName(c: string): string {
  return /^[\x20-\x7e]$/.test(c) && !/[<>&]/.test(c) ? JSON.stringify(c) : `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ') { i++; continue; }
    const start = i;
    if (c >= '0' && c <= '9') {
      while (i < src.length && src[i] >= '0' && src[i] <= '9') i++;
      if (i - start > 10) throw new LanguageError(`the number at character ${start + 1} has more than 10 digits`);
      out.push({ k: 'num', v: src.slice(start, i), pos: start });
    } else if (c >= 'a' && c <= 'z') {
      while (i < src.length && /[a-z0-9_]/.test(src[i])) i++;
      out.push({ k: 'name', v: src.slice(start, i), pos: start });
    } else if (c === '"') {
      const end = src.indexOf('"', i + 1);
      if (end < 0) throw new LanguageError(`the text that starts at character ${start + 1} has no closing quote`);
      const text = src.slice(i + 1, end);
      if (!LITERAL_CHARS.test(text)) throw new LanguageError(`the text at character ${start + 1} has a character outside the vocabulary (digits, a-z, "+-*/=(),?:" and space)`);
      out.push({ k: 'str', v: text, pos: start });
      i = end + 1;
    } else if ('+-*/%(),'.includes(c)) {
      out.push({ k: 'op', v: c, pos: start });
      i++;
    } else {
      throw new LanguageError(`unexpected character ${charName(c)} at character ${start + 1}`);
    }
  }
  return out;
}

/** Parses one expression; throws a LanguageError saying where it stops making sense. */
export function parseExpression(src: unknown): Node {
  if (typeof src !== 'string') throw new LanguageError('an expression must be text');
  if (src.length > MAX_EXPR_CHARS) throw new LanguageError(`the expression is ${src.length} characters long, at most ${MAX_EXPR_CHARS} are allowed`);
  const toks = tokenize(src);
  let i = 0;
  const peek = () => toks[i];
  const at = (t: Tok | undefined) => (t ? `at character ${t.pos + 1}` : 'at the end');
  const isOp = (v: string) => toks[i]?.k === 'op' && toks[i].v === v;
  const expect = (v: string) => {
    if (!isOp(v)) throw new LanguageError(`expected ${quote(v)} ${at(peek())}`);
    i++;
  };
  const expr = (depth: number): Node => {
    let l = term(depth);
    while (isOp('+') || isOp('-')) {
      const t = toks[i++];
      l = { k: 'bin', op: t.v as '+' | '-', l, r: term(depth), pos: t.pos };
    }
    return l;
  };
  const term = (depth: number): Node => {
    let l = unary(depth);
    while (isOp('*') || isOp('/') || isOp('%')) {
      const t = toks[i++];
      l = { k: 'bin', op: t.v as '*' | '/' | '%', l, r: unary(depth), pos: t.pos };
    }
    return l;
  };
  const unary = (depth: number): Node => {
    if (depth > MAX_DEPTH) throw new LanguageError(`the expression nests deeper than ${MAX_DEPTH} levels ${at(peek())}`);
    if (isOp('-')) {
      const t = toks[i++];
      return { k: 'neg', e: unary(depth + 1), pos: t.pos };
    }
    return primary(depth);
  };
  const primary = (depth: number): Node => {
    const t = peek();
    if (!t) throw new LanguageError('the expression ends where a value was expected');
    if (t.k === 'num') { i++; return { k: 'num', v: Number(t.v), pos: t.pos }; }
    if (t.k === 'str') { i++; return { k: 'str', v: t.v, pos: t.pos }; }
    if (t.k === 'name') {
      i++;
      if (!isOp('(')) return { k: 'var', name: t.v, pos: t.pos };
      i++;
      const args: Node[] = [expr(depth + 1)];
      while (isOp(',')) {
        i++;
        if (args.length >= MAX_ARGS) throw new LanguageError(`${t.v} at character ${t.pos + 1} has more than ${MAX_ARGS} arguments`);
        args.push(expr(depth + 1));
      }
      expect(')');
      return { k: 'call', fn: t.v, args, pos: t.pos };
    }
    if (isOp('(')) {
      i++;
      const e = expr(depth + 1);
      expect(')');
      return e;
    }
    throw new LanguageError(`unexpected ${quote(t.v)} at character ${t.pos + 1}`);
  };
  const node = expr(0);
  if (i < toks.length) throw new LanguageError(`unexpected ${quote(toks[i].v)} at character ${toks[i].pos + 1}`);
  return node;
}

/** Every variable name an expression reads. */
export function variablesOf(n: Node, out = new Set<string>()): Set<string> {
  if (n.k === 'var') out.add(n.name);
  else if (n.k === 'neg') variablesOf(n.e, out);
  else if (n.k === 'bin') { variablesOf(n.l, out); variablesOf(n.r, out); }
  else if (n.k === 'call') for (const a of n.args) variablesOf(a, out);
  return out;
}

const kindName = (t: Type) => (t.t === 'int' ? 'a number' : 'a string');
const LETTERS = /^[a-z]*$/;

/** The static type of an expression under the variables' types; throws a LanguageError on a type mistake or an unknown name. */
export function typeOf(n: Node, env: ReadonlyMap<string, Type>): Type {
  switch (n.k) {
    case 'num':
      return { t: 'int' };
    case 'str':
      return { t: 'str', letters: LETTERS.test(n.v) };
    case 'var': {
      const t = env.get(n.name);
      if (!t) {
        const known = [...env.keys()];
        throw new LanguageError(`unknown variable ${quote(n.name)} at character ${n.pos + 1} (${known.length ? `the variables are ${known.join(', ')}` : 'there are no variables'})`, 'type');
      }
      return t;
    }
    case 'neg': {
      const t = typeOf(n.e, env);
      if (t.t !== 'int') throw new LanguageError(`"-" at character ${n.pos + 1} needs a number, but gets a string`, 'type');
      return t;
    }
    case 'bin': {
      const l = typeOf(n.l, env);
      const r = typeOf(n.r, env);
      if (n.op === '+') {
        if (l.t === 'int' && r.t === 'int') return l;
        return { t: 'str', letters: l.t === 'str' && r.t === 'str' && l.letters && r.letters };
      }
      if (l.t !== 'int' || r.t !== 'int') throw new LanguageError(`${quote(n.op)} at character ${n.pos + 1} needs numbers on both sides, but its ${l.t !== 'int' ? 'left' : 'right'} side is a string`, 'type');
      return l;
    }
    case 'call': {
      if (!isFunction(n.fn)) throw new LanguageError(`unknown function ${quote(n.fn)} at character ${n.pos + 1} (the functions are ${Object.keys(FUNCTIONS).join(', ')})`, 'type');
      const [lo, hi] = FUNCTIONS[n.fn];
      if (n.args.length < lo || n.args.length > hi) {
        throw new LanguageError(`${n.fn} at character ${n.pos + 1} takes ${lo === hi ? lo : `${lo} to ${hi}`} argument${hi === 1 ? '' : 's'}, got ${n.args.length}`, 'type');
      }
      const ts = n.args.map((a) => typeOf(a, env));
      const want = n.fn === 'min' || n.fn === 'max' || n.fn === 'abs' ? 'int' : 'str';
      const bad = ts.findIndex((t) => t.t !== want);
      if (bad >= 0) throw new LanguageError(`${n.fn} at character ${n.pos + 1} needs ${want === 'int' ? 'numbers' : 'strings'}, but argument ${bad + 1} is ${kindName(ts[bad])}`, 'type');
      if (want === 'int' || n.fn === 'len' || n.fn === 'count') return { t: 'int' };
      return { t: 'str', letters: (ts[0] as { letters: boolean }).letters };
    }
  }
}

/** The decimal text of an integer ("-0" never appears). */
export const numberText = (x: number): string => (x === 0 ? '0' : String(x));
const asText = (v: Value) => (typeof v === 'number' ? numberText(v) : v);

function checkNumber(x: number, pos: number): number {
  if (!Number.isFinite(x) || Math.abs(x) > MAX_NUMBER) throw new LanguageError(`a number grows past 10^15 at character ${pos + 1}`, 'eval');
  return x || 0; // never -0
}
function checkString(s: string, pos: number): string {
  if (s.length > MAX_STRING) throw new LanguageError(`a string grows past ${MAX_STRING} characters at character ${pos + 1}`, 'eval');
  return s;
}

/**
 * Evaluates a type-checked expression. Throws a LanguageError on a division or remainder by
 * zero, first/last of an empty string, count of an empty string, or a value out of bounds.
 */
export function evaluate(n: Node, env: ReadonlyMap<string, Value>): Value {
  switch (n.k) {
    case 'num':
      return n.v;
    case 'str':
      return n.v;
    case 'var': {
      const v = env.get(n.name);
      if (v === undefined) throw new LanguageError(`unknown variable ${quote(n.name)}`, 'eval');
      return v;
    }
    case 'neg':
      return checkNumber(-(evaluate(n.e, env) as number), n.pos);
    case 'bin': {
      const l = evaluate(n.l, env);
      const r = evaluate(n.r, env);
      if (n.op === '+' && (typeof l === 'string' || typeof r === 'string')) return checkString(asText(l) + asText(r), n.pos);
      const a = l as number;
      const b = r as number;
      if (n.op === '+') return checkNumber(a + b, n.pos);
      if (n.op === '-') return checkNumber(a - b, n.pos);
      if (n.op === '*') return checkNumber(a * b, n.pos);
      if (b === 0) throw new LanguageError(`${n.op === '/' ? 'division' : 'remainder'} by zero at character ${n.pos + 1}`, 'eval');
      return checkNumber(n.op === '/' ? Math.trunc(a / b) : a % b, n.pos);
    }
    case 'call': {
      const args = n.args.map((a) => evaluate(a, env));
      const s = args[0] as string;
      switch (n.fn) {
        case 'min': return Math.min(...(args as number[]));
        case 'max': return Math.max(...(args as number[]));
        case 'abs': return Math.abs(args[0] as number);
        case 'len': return s.length;
        case 'reverse': return s.split('').reverse().join('');
        case 'sort': return s.split('').sort().join('');
        case 'first':
        case 'last':
          if (s.length === 0) throw new LanguageError(`${n.fn} of an empty string at character ${n.pos + 1}`, 'eval');
          return n.fn === 'first' ? s[0] : s[s.length - 1];
        case 'count': {
          const t = args[1] as string;
          if (t.length === 0) throw new LanguageError(`count of an empty string at character ${n.pos + 1}`, 'eval');
          let c = 0;
          for (let at = s.indexOf(t); at >= 0; at = s.indexOf(t, at + t.length)) c++;
          return c;
        }
      }
      throw new LanguageError(`unknown function ${quote(n.fn)}`, 'eval');
    }
  }
}

/** A value as it is written in a prompt, an answer or a scratchpad step. */
export const valueText = asText;

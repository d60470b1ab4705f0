/**
 * Countdown: reach a target with the given numbers, each used at most once, with + - * / and
 * parentheses. Many answers are valid, so the verifier does not compare strings: it parses
 * the expression with its own small recursive-descent parser (never eval/Function), checks
 * the numbers against the given multiset, and evaluates with exact integer division.
 *
 * Prompt: "cd:24:3,5,8=" (target 24, numbers 3, 5, 8). Reference answer: "3*8".
 *
 * Grammar of an answer (spaces allowed between tokens):
 *   expr   := term (('+' | '-') term)*
 *   term   := factor (('*' | '/') factor)*
 *   factor := number | '(' expr ')'
 *   number := canonical natural number (no leading zeros), no unary minus
 */
import type { Rng } from '../model/rng.ts';
import { makeTask, matchPrompt, randInt } from './common.ts';
import { PromptError } from './types.ts';

const PROMPT_RE = /^cd:([1-9][0-9]{0,3}):([1-9][0-9]?(?:,[1-9][0-9]?){1,4})=$/;
const PROMPT_SHAPE = '"cd:T:a,b,c=" with a target 1..9999 and 2 to 5 numbers 1..99';

export interface CountdownInstance {
  target: number;
  numbers: number[];
}

/** Target and numbers from the prompt text. */
export function parseCountdownPrompt(prompt: string): CountdownInstance {
  const m = matchPrompt('countdown', PROMPT_RE, PROMPT_SHAPE, prompt);
  return { target: Number(m[1]), numbers: m[2].split(',').map(Number) };
}

// --- the answer parser -------------------------------------------------------------------------

export type Expr = { kind: 'num'; value: number } | { kind: 'bin'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr };

export class ExpressionSyntaxError extends Error {}

/** Parses an arithmetic expression under the grammar above, or throws ExpressionSyntaxError. */
export function parseExpression(text: string): Expr {
  let i = 0;
  const skip = () => {
    while (i < text.length && text[i] === ' ') i++;
  };
  const fail = (what: string): never => {
    const at = i < text.length ? `${JSON.stringify(text[i])} at ${i}` : 'end of answer';
    throw new ExpressionSyntaxError(`not an expression: expected ${what}, found ${at}`);
  };
  const factor = (): Expr => {
    skip();
    if (text[i] === '(') {
      i++;
      const e = expr();
      skip();
      if (text[i] !== ')') fail('")"');
      i++;
      return e;
    }
    const start = i;
    while (i < text.length && text[i] >= '0' && text[i] <= '9') i++;
    if (i === start) fail('a number or "("');
    const digits = text.slice(start, i);
    if (digits.length > 1 && digits[0] === '0') {
      i = start;
      fail('a number without leading zeros');
    }
    return { kind: 'num', value: Number(digits) };
  };
  const term = (): Expr => {
    let left = factor();
    for (;;) {
      skip();
      const op = text[i];
      if (op !== '*' && op !== '/') return left;
      i++;
      left = { kind: 'bin', op, left, right: factor() };
    }
  };
  const expr = (): Expr => {
    let left = term();
    for (;;) {
      skip();
      const op = text[i];
      if (op !== '+' && op !== '-') return left;
      i++;
      left = { kind: 'bin', op, left, right: term() };
    }
  };
  const e = expr();
  skip();
  if (i < text.length) fail('an operator or the end');
  return e;
}

/** The numbers an expression uses, left to right. */
export function leaves(e: Expr, out: number[] = []): number[] {
  if (e.kind === 'num') out.push(e.value);
  else {
    leaves(e.left, out);
    leaves(e.right, out);
  }
  return out;
}

/** Exact value, or the reason there is none (division by zero, a non-integer division). */
export function evaluate(e: Expr): { ok: true; value: number } | { ok: false; reason: string } {
  if (e.kind === 'num') return { ok: true, value: e.value };
  const l = evaluate(e.left);
  if (!l.ok) return l;
  const r = evaluate(e.right);
  if (!r.ok) return r;
  switch (e.op) {
    case '+':
      return { ok: true, value: l.value + r.value };
    case '-':
      return { ok: true, value: l.value - r.value };
    case '*':
      return { ok: true, value: l.value * r.value };
    case '/':
      if (r.value === 0) return { ok: false, reason: 'division by zero' };
      if (l.value % r.value !== 0) return { ok: false, reason: `non-integer division ${l.value}/${r.value}` };
      return { ok: true, value: l.value / r.value };
  }
}

/** Why `used` is not a sub-multiset of `given`, or null. */
function numbersProblem(used: number[], given: number[]): string | null {
  const left = new Map<number, number>();
  for (const n of given) left.set(n, (left.get(n) ?? 0) + 1);
  for (const n of used) {
    const k = left.get(n);
    if (k === undefined) return `uses ${n}, which is not among the given numbers`;
    if (k === 0) return `uses ${n} more often than given (reused number)`;
    left.set(n, k - 1);
  }
  return null;
}

// --- generator and reference solver -----------------------------------------------------------

/** A partial expression during generation/search: value, text, precedence (1 +-, 2 for * and /, 3 atom), top op. */
interface Node {
  v: number;
  s: string;
  prec: number;
  op: string;
}

/** a op b with standard-rule intermediates (positive, exact division), printed with minimal parentheses. */
function combine(a: Node, b: Node, op: '+' | '-' | '*' | '/'): Node | null {
  const wrap = (n: Node, need: boolean) => (need ? `(${n.s})` : n.s);
  switch (op) {
    case '+':
      return { v: a.v + b.v, s: `${a.s}+${b.s}`, prec: 1, op };
    case '-':
      if (a.v <= b.v) return null;
      return { v: a.v - b.v, s: `${a.s}-${wrap(b, b.prec === 1)}`, prec: 1, op };
    case '*':
      return { v: a.v * b.v, s: `${wrap(a, a.prec === 1)}*${wrap(b, b.prec === 1 || b.op === '/')}`, prec: 2, op };
    case '/':
      if (b.v === 0 || a.v % b.v !== 0) return null;
      return { v: a.v / b.v, s: `${wrap(a, a.prec === 1)}/${wrap(b, b.prec < 3)}`, prec: 2, op };
  }
}

const OPS = ['+', '-', '*', '/'] as const;

/**
 * Depth-first search over pairwise combinations (the classic countdown solver), keeping every
 * intermediate positive and every division exact. With positive intermediates each operation
 * is strictly monotone in each operand, so changing any one number of the answer changes its
 * value: a perturbed reference answer can never still hit the target.
 */
export function solveCountdown(target: number, numbers: number[]): string | null {
  const atoms: Node[] = numbers.map((n) => ({ v: n, s: String(n), prec: 3, op: '' }));
  for (const a of atoms) if (a.v === target) return a.s;
  const search = (items: Node[]): string | null => {
    for (let i = 0; i < items.length; i++) {
      for (let j = 0; j < items.length; j++) {
        if (i === j) continue;
        for (const op of OPS) {
          if ((op === '+' || op === '*') && j < i) continue; // commutative: one order suffices
          const c = combine(items[i], items[j], op);
          if (!c) continue;
          if (c.v === target) return c.s;
          if (items.length > 2) {
            const rest = items.filter((_, k) => k !== i && k !== j);
            rest.push(c);
            const r = search(rest);
            if (r) return r;
          }
        }
      }
    }
    return null;
  };
  return search(atoms);
}

/** Per difficulty: how many numbers are given, their range, how many the hidden solution uses. */
const LEVELS: Record<number, { count: number; max: number; use: [number, number] }> = {
  1: { count: 3, max: 9, use: [2, 2] },
  2: { count: 4, max: 9, use: [3, 3] },
  3: { count: 4, max: 25, use: [3, 4] },
};

function generatePrompt(rng: Rng, d: number): string {
  const { count, max, use } = LEVELS[d];
  for (;;) {
    const numbers = Array.from({ length: count }, () => randInt(rng, 1, max));
    const k = randInt(rng, use[0], use[1]);
    let pool: Node[] = rng.shuffle(numbers.slice()).slice(0, k).map((n) => ({ v: n, s: String(n), prec: 3, op: '' }));
    while (pool.length > 1) {
      const i = rng.int(pool.length);
      let j = rng.int(pool.length - 1);
      if (j >= i) j++;
      const c = combine(pool[i], pool[j], OPS[rng.int(4)]);
      if (!c) continue;
      pool = pool.filter((_, q) => q !== i && q !== j);
      pool.push(c);
    }
    const target = pool[0].v;
    if (target < 1 || target > 999 || numbers.includes(target)) continue;
    return `cd:${target}:${numbers.join(',')}=`;
  }
}

function solve(prompt: string): string {
  const { target, numbers } = parseCountdownPrompt(prompt);
  const s = solveCountdown(target, numbers);
  if (s === null) throw new PromptError(`task countdown: ${prompt} has no solution`);
  return s;
}

export const countdownTask = makeTask({
  id: 'countdown',
  family: 'arithmetic',
  title: 'Countdown',
  grammar:
    'Prompt "cd:24:3,5,8=": reach the target 24 using the numbers 3, 5, 8. ' +
    'The answer is an arithmetic expression of natural numbers (no leading zeros, no unary minus), + - * / and parentheses, spaces allowed between tokens, ' +
    'nothing else (no "=", no result). It is correct when every number it uses is among the given ones and no given number is used more often than listed ' +
    '(not all need be used), every division is exact and not by zero, and its value under the usual precedence (* / before + -, left to right) equals the target. ' +
    'A syntax error is unparseable; a parsed expression that breaks a rule or misses the target is wrong.',
  difficulties: [1, 2, 3],
  version: 1,
  generatePrompt,
  solve,
  checkPrompt: (prompt) => void parseCountdownPrompt(prompt),
  grade(prompt, answer) {
    const { target, numbers } = parseCountdownPrompt(prompt);
    let e: Expr;
    try {
      e = parseExpression(answer);
    } catch (err) {
      if (err instanceof ExpressionSyntaxError) return { formatOk: false, correct: false, reason: err.message };
      throw err;
    }
    const problem = numbersProblem(leaves(e), numbers);
    if (problem) return { formatOk: true, correct: false, reason: `wrong: ${problem}` };
    const r = evaluate(e);
    if (!r.ok) return { formatOk: true, correct: false, reason: `wrong: ${r.reason}` };
    if (r.value !== target) return { formatOk: true, correct: false, reason: `wrong: evaluates to ${r.value}, target ${target}` };
    return { formatOk: true, correct: true, reason: 'correct' };
  },
});

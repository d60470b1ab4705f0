/**
 * Arithmetic tasks with a single integer answer: addition, subtraction, multiplication
 * (1 × n digits), a multi-step +/- chain with checkable partial results, and the digit sum
 * and its last digit (mod 10), each with a running-result scratchpad. (Countdown, with many
 * valid answers, is in countdown.ts.)
 *
 * Prompts are the expression followed by "=" (digit sums: "ds:" or "mod:" then the digits), so the
 * prompt text alone determines the instance. Answers are canonical integers: optional "-",
 * no "+", no leading zeros, no "-0".
 */
import type { Rng } from '../model/rng.ts';
import { gradeExact, integerFormatReason, makeTask, matchPrompt, randInt } from './common.ts';
import type { Task } from './types.ts';

const INT_ANSWER =
  'The answer is the exact integer result written in canonical form: ASCII digits, a leading "-" only when negative, no "+", no leading zeros ("07" is unparseable), "-0" is unparseable.';

/** Operand range for "n-digit" difficulty d: uniform in [0, 10^d - 1]. */
const maxFor = (d: number) => 10 ** d - 1;

function binaryTask(
  id: string,
  title: string,
  op: '+' | '-' | '*',
  difficulties: number[],
  leftMax: (d: number) => number,
  rightMax: (d: number) => number,
  example: string,
): Task {
  const re = new RegExp(`^(0|[1-9][0-9]{0,5})\\${op}(0|[1-9][0-9]{0,5})=$`);
  const shape = `"A${op}B=" with A, B canonical integers of at most 6 digits`;
  const apply = (a: number, b: number) => (op === '+' ? a + b : op === '-' ? a - b : a * b);
  const solve = (prompt: string) => {
    const m = matchPrompt(id, re, shape, prompt);
    return String(apply(Number(m[1]), Number(m[2])));
  };
  return makeTask({
    id,
    family: 'arithmetic',
    title,
    grammar: `Prompt "${example}". ${INT_ANSWER}`,
    difficulties,
    version: 1,
    generatePrompt: (rng: Rng, d: number) => `${randInt(rng, 0, leftMax(d))}${op}${randInt(rng, 0, rightMax(d))}=`,
    solve,
    grade: (prompt, answer) => gradeExact(solve(prompt), answer, integerFormatReason(answer, true)),
  });
}

/** A+B with both operands d-digit (uniform in [0, 10^d - 1]). */
export const addTask = binaryTask('add', 'Addition of n-digit numbers', '+', [1, 2, 3, 4], maxFor, maxFor, '12+34=');

/** A-B with both operands d-digit; the result may be negative ("-26"). */
export const subTask = binaryTask('sub', 'Subtraction of n-digit numbers', '-', [1, 2, 3, 4], maxFor, maxFor, '53-27=');

/** A*B with A one digit and B d-digit. */
export const mulTask = binaryTask('mul', 'Multiplication, 1 × n digits', '*', [1, 2, 3, 4], () => 9, maxFor, '7*123=');

// ---------------------------------------------------------------------------------------------

const CHAIN_RE = /^(0|[1-9][0-9]{0,3})((?:[+-](?:0|[1-9][0-9]{0,3})){2,8})=$/;
const CHAIN_SHAPE = '"A+B-C...=" with 3 to 9 canonical integer terms joined by + or -';

/** Partial results of a chain: for 7+5-3+8 the running values 12, 9, 17. */
function chainSteps(prompt: string): string[] {
  const m = matchPrompt('chain', CHAIN_RE, CHAIN_SHAPE, prompt);
  let acc = Number(m[1]);
  const steps: string[] = [];
  for (const t of m[2].matchAll(/([+-])([0-9]+)/g)) {
    acc = t[1] === '+' ? acc + Number(t[2]) : acc - Number(t[2]);
    steps.push(String(acc));
  }
  return steps;
}

const chainSolve = (prompt: string) => chainSteps(prompt).at(-1)!;

/** Terms per difficulty and the largest term: d1 three 1-digit terms, d2 four, d3 five up to 2 digits. */
const CHAIN_LEVELS: Record<number, { terms: number; max: number }> = {
  1: { terms: 3, max: 9 },
  2: { terms: 4, max: 9 },
  3: { terms: 5, max: 99 },
};

/** Left-to-right +/- chain; the scratchpad holds each partial result ("12,9,17|17"). */
export const chainTask = makeTask({
  id: 'chain',
  family: 'arithmetic',
  title: 'Multi-step chain',
  grammar:
    `Prompt "7+5-3+8=", evaluated left to right. ${INT_ANSWER} ` +
    'Optional thinking: the partial results after each operation, comma-separated, then "|" ("12,9,17|17"); only the answer is graded.',
  difficulties: [1, 2, 3],
  version: 1,
  generatePrompt(rng, d) {
    const { terms, max } = CHAIN_LEVELS[d];
    let p = String(randInt(rng, 0, max));
    for (let i = 1; i < terms; i++) p += (rng.next() < 0.5 ? '+' : '-') + randInt(rng, 0, max);
    return `${p}=`;
  },
  solve: chainSolve,
  grade: (prompt, answer) => gradeExact(chainSolve(prompt), answer, integerFormatReason(answer, true)),
  steps: chainSteps,
});

// ---------------------------------------------------------------------------------------------

/**
 * A digit-list task with a running-result scratchpad: the prompt is `<prefix>:<digits>=`, the
 * steps are the running results of `add` over the digits, and the answer is the last step.
 */
function runningDigitsTask(o: {
  id: string;
  prefix: string;
  title: string;
  grammar: string;
  /** Digits per difficulty. */
  digits: Record<number, number>;
  /** The next running result from the previous one and a digit. */
  add: (acc: number, digit: number) => number;
  /** Why an answer is outside the grammar, or null. */
  formatReason: (answer: string) => string | null;
}): Task {
  const re = new RegExp(`^${o.prefix}:([0-9]{2,12})=$`);
  const shape = `"${o.prefix}:" followed by 2 to 12 digits and "="`;
  const steps = (prompt: string): string[] => {
    const m = matchPrompt(o.id, re, shape, prompt);
    let acc = 0;
    return m[1].split('').map((c) => String((acc = o.add(acc, Number(c)))));
  };
  const solve = (prompt: string) => steps(prompt).at(-1)!;
  return makeTask({
    id: o.id,
    family: 'arithmetic',
    title: o.title,
    grammar: o.grammar,
    difficulties: Object.keys(o.digits).map(Number),
    version: 1,
    generatePrompt(rng, d) {
      let s = '';
      for (let i = 0; i < o.digits[d]; i++) s += rng.int(10);
      return `${o.prefix}:${s}=`;
    },
    solve,
    grade: (prompt, answer) => gradeExact(solve(prompt), answer, o.formatReason(answer)),
    steps,
  });
}

/** Sum of a list of digits; a scratchpad of running sums helps ("7,12,20,23|23"). */
export const digitSumTask = runningDigitsTask({
  id: 'digitsum',
  prefix: 'ds',
  title: 'Digit sum with a scratchpad',
  grammar:
    `Prompt "ds:7583=" (the digits to add). ${INT_ANSWER} ` +
    'Optional thinking: the running sums, comma-separated, then "|" ("7,12,20,23|23"); only the answer is graded.',
  digits: { 1: 3, 2: 5, 3: 8 },
  add: (acc, d) => acc + d,
  formatReason: (a) => integerFormatReason(a, true),
});

/**
 * The last digit of a digit sum. Answered directly it needs every digit at once (hard for a
 * small transformer); a scratchpad of running sums mod 10 turns it into one-digit steps, each
 * reading one prompt digit and the previous step — the task where thinking pays (lesson 6).
 */
export const modSumTask = runningDigitsTask({
  id: 'modsum',
  prefix: 'mod',
  title: 'Last digit of a digit sum (mod 10)',
  grammar:
    'Prompt "mod:7583=" (the digits to add; the answer is the last digit of their sum, here 3). ' +
    'The answer is one digit 0-9. ' +
    'Optional thinking: the running sums mod 10, comma-separated, then "|" ("7,2,0,3|3"); only the answer is graded.',
  digits: { 1: 3, 2: 5, 3: 7 },
  add: (acc, d) => (acc + d) % 10,
  formatReason: (a) => (/^[0-9]$/.test(a) ? null : integerFormatReason(a, true) ?? 'not a single digit'),
});

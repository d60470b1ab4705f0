/**
 * Arithmetic tasks with a single integer answer: addition, subtraction, multiplication
 * (1 × n digits), a multi-step +/- chain with checkable partial results, and the digit sum
 * with a running-sum scratchpad. (Countdown, with many valid answers, is in countdown.ts.)
 *
 * Prompts are the expression followed by "=" (digit sum: "ds:" then the digits), so the
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

const DS_RE = /^ds:([0-9]{2,12})=$/;
const DS_SHAPE = '"ds:" followed by 2 to 12 digits and "="';

/** Running sums of the digits: for 7583 the steps 7, 12, 20, 23. */
function digitSumSteps(prompt: string): string[] {
  const m = matchPrompt('digitsum', DS_RE, DS_SHAPE, prompt);
  let acc = 0;
  return m[1].split('').map((c) => String((acc += Number(c))));
}

const digitSumSolve = (prompt: string) => digitSumSteps(prompt).at(-1)!;
const DS_DIGITS: Record<number, number> = { 1: 3, 2: 5, 3: 8 };

/** Sum of a list of digits; a scratchpad of running sums helps ("7,12,20,23|23"). */
export const digitSumTask = makeTask({
  id: 'digitsum',
  family: 'arithmetic',
  title: 'Digit sum with a scratchpad',
  grammar:
    `Prompt "ds:7583=" (the digits to add). ${INT_ANSWER} ` +
    'Optional thinking: the running sums, comma-separated, then "|" ("7,12,20,23|23"); only the answer is graded.',
  difficulties: [1, 2, 3],
  version: 1,
  generatePrompt(rng, d) {
    let s = '';
    for (let i = 0; i < DS_DIGITS[d]; i++) s += rng.int(10);
    return `ds:${s}=`;
  },
  solve: digitSumSolve,
  grade: (prompt, answer) => gradeExact(digitSumSolve(prompt), answer, integerFormatReason(answer, true)),
  steps: digitSumSteps,
});

// ---------------------------------------------------------------------------------------------

const MS_RE = /^mod:([0-9]{2,12})=$/;
const MS_SHAPE = '"mod:" followed by 2 to 12 digits and "="';

/** Running sums mod 10, one digit each: for 7583 the steps 7, 2, 0, 3. */
function modSumSteps(prompt: string): string[] {
  const m = matchPrompt('modsum', MS_RE, MS_SHAPE, prompt);
  let acc = 0;
  return m[1].split('').map((c) => String((acc = (acc + Number(c)) % 10)));
}

const modSumSolve = (prompt: string) => modSumSteps(prompt).at(-1)!;
const MS_DIGITS: Record<number, number> = { 1: 3, 2: 5, 3: 7 };

/**
 * The last digit of a digit sum. Answered directly it needs every digit at once (hard for a
 * small transformer); a scratchpad of running sums mod 10 turns it into one-digit steps, each
 * reading one prompt digit and the previous step — the task where thinking pays (lesson 6).
 */
export const modSumTask = makeTask({
  id: 'modsum',
  family: 'arithmetic',
  title: 'Last digit of a digit sum (mod 10)',
  grammar:
    'Prompt "mod:7583=" (the digits to add; the answer is the last digit of their sum, here 3). ' +
    'The answer is one digit 0-9. ' +
    'Optional thinking: the running sums mod 10, comma-separated, then "|" ("7,2,0,3|3"); only the answer is graded.',
  difficulties: [1, 2, 3],
  version: 1,
  generatePrompt(rng, d) {
    let s = '';
    for (let i = 0; i < MS_DIGITS[d]; i++) s += rng.int(10);
    return `mod:${s}=`;
  },
  solve: modSumSolve,
  grade: (prompt, answer) => gradeExact(modSumSolve(prompt), answer, /^[0-9]$/.test(answer) ? null : integerFormatReason(answer, true) ?? 'not a single digit'),
  steps: modSumSteps,
});

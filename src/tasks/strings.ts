/**
 * String tasks over lowercase letters: reverse, sort the letters, count a letter,
 * is-palindrome, remove duplicates, and shift each letter to the next one (z wraps to a).
 *
 * Prompts are a one-letter task prefix, ":", the word and "=" ("r:abc="), so the prompt text
 * alone determines the instance. Letter answers are lowercase ASCII only: case, look-alikes
 * ("0" for "o") and non-ASCII letters are unparseable.
 */
import type { Rng } from '../model/rng.ts';
import { ALPHABET, LETTERS_RE, gradeExact, integerFormatReason, makeTask, matchPrompt, randInt, randLetters } from './common.ts';
import type { Task } from './types.ts';

const LETTERS_ANSWER = 'The answer is lowercase ASCII letters a-z only, exactly the expected string (no spaces inside, no other characters).';

/** Word length range and alphabet per difficulty. */
type Levels = Record<number, { len: [number, number]; alphabet: string }>;

function wordTask(opts: {
  id: string;
  title: string;
  prefix: string;
  rule: string;
  example: string;
  levels: Levels;
  transform: (word: string) => string;
}): Task {
  const re = new RegExp(`^${opts.prefix}:([a-z]{1,16})=$`);
  const shape = `"${opts.prefix}:word=" with 1 to 16 lowercase letters`;
  const solve = (prompt: string) => opts.transform(matchPrompt(opts.id, re, shape, prompt)[1]);
  return makeTask({
    id: opts.id,
    family: 'string',
    title: opts.title,
    grammar: `Prompt "${opts.example}". ${opts.rule} ${LETTERS_ANSWER}`,
    difficulties: Object.keys(opts.levels).map(Number),
    version: 1,
    generatePrompt(rng: Rng, d: number) {
      const { len, alphabet } = opts.levels[d];
      return `${opts.prefix}:${randLetters(rng, randInt(rng, len[0], len[1]), alphabet)}=`;
    },
    solve,
    grade: (prompt, answer) => gradeExact(solve(prompt), answer, LETTERS_RE.test(answer) ? null : 'not lowercase letters'),
  });
}

const WORD_LEVELS: Levels = {
  1: { len: [3, 3], alphabet: ALPHABET },
  2: { len: [4, 5], alphabet: ALPHABET },
  3: { len: [6, 8], alphabet: ALPHABET },
};

export const reverseTask = wordTask({
  id: 'reverse',
  title: 'Reverse a word',
  prefix: 'r',
  rule: 'The answer is the word reversed ("r:abc=" → "cba").',
  example: 'r:abc=',
  levels: WORD_LEVELS,
  transform: (w) => w.split('').reverse().join(''),
});

export const sortTask = wordTask({
  id: 'sort',
  title: 'Sort the letters',
  prefix: 's',
  rule: 'The answer is the word\'s letters in alphabetical order, duplicates kept ("s:cab=" → "abc", "s:bab=" → "abb").',
  example: 's:cab=',
  levels: WORD_LEVELS,
  transform: (w) => w.split('').sort().join(''),
});

export const dedupTask = wordTask({
  id: 'dedup',
  title: 'Remove duplicate letters',
  prefix: 'd',
  rule: 'The answer keeps the first occurrence of each letter, in order ("d:abcab=" → "abc").',
  example: 'd:abcab=',
  levels: {
    1: { len: [4, 4], alphabet: 'abcd' },
    2: { len: [6, 6], alphabet: 'abcdef' },
    3: { len: [9, 9], alphabet: 'abcdefgh' },
  },
  transform: (w) => [...new Set(w.split(''))].join(''),
});

export const shiftTask = wordTask({
  id: 'shift',
  title: 'Next letter (Caesar shift by one)',
  prefix: 'n',
  rule: 'The answer replaces each letter by the next one in the alphabet, z by a ("n:abz=" → "bca").',
  example: 'n:abz=',
  levels: { 1: { len: [3, 3], alphabet: ALPHABET }, 2: { len: [5, 5], alphabet: ALPHABET }, 3: { len: [7, 7], alphabet: ALPHABET } },
  transform: (w) => w.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 1) % 26) + 97)),
});

// ---------------------------------------------------------------------------------------------

const COUNT_RE = /^c:([a-z]):([a-z]{1,16})=$/;
const COUNT_SHAPE = '"c:x:word=" with one letter x and a word of 1 to 16 lowercase letters';
const COUNT_LEVELS: Levels = {
  1: { len: [4, 5], alphabet: 'abc' },
  2: { len: [6, 8], alphabet: 'abcd' },
  3: { len: [9, 12], alphabet: 'abcdef' },
};

function countSolve(prompt: string): string {
  const m = matchPrompt('count', COUNT_RE, COUNT_SHAPE, prompt);
  let n = 0;
  for (const c of m[2]) if (c === m[1]) n++;
  return String(n);
}

export const countTask = makeTask({
  id: 'count',
  family: 'string',
  title: 'Count a letter',
  grammar:
    'Prompt "c:a:banana=": how many times the letter a occurs in banana. ' +
    'The answer is that count as a canonical natural number: ASCII digits, no sign, no leading zeros ("03" is unparseable); 0 when the letter is absent.',
  difficulties: [1, 2, 3],
  version: 1,
  generatePrompt(rng, d) {
    const { len, alphabet } = COUNT_LEVELS[d];
    const letter = alphabet[rng.int(alphabet.length)];
    return `c:${letter}:${randLetters(rng, randInt(rng, len[0], len[1]), alphabet)}=`;
  },
  solve: countSolve,
  grade: (prompt, answer) => gradeExact(countSolve(prompt), answer, integerFormatReason(answer, false)),
});

// ---------------------------------------------------------------------------------------------

const PAL_RE = /^p:([a-z]{1,16})=$/;
const PAL_SHAPE = '"p:word=" with 1 to 16 lowercase letters';
const PAL_LEVELS: Levels = {
  1: { len: [3, 4], alphabet: 'abc' },
  2: { len: [5, 6], alphabet: 'abcde' },
  3: { len: [7, 9], alphabet: ALPHABET },
};

function palSolve(prompt: string): string {
  const w = matchPrompt('palindrome', PAL_RE, PAL_SHAPE, prompt)[1];
  return w === w.split('').reverse().join('') ? 'yes' : 'no';
}

export const palindromeTask = makeTask({
  id: 'palindrome',
  family: 'string',
  title: 'Is it a palindrome?',
  grammar: 'Prompt "p:abba=": does the word read the same backwards? The answer is exactly "yes" or "no" (lowercase; "y", "true", "Yes" are unparseable).',
  difficulties: [1, 2, 3],
  version: 1,
  generatePrompt(rng, d) {
    const { len, alphabet } = PAL_LEVELS[d];
    const n = randInt(rng, len[0], len[1]);
    const half = randLetters(rng, Math.ceil(n / 2), alphabet);
    const w = (half + half.slice(0, Math.floor(n / 2)).split('').reverse().join('')).split('');
    // Half the prompts are near misses: a palindrome with one letter changed, so "no"
    // cannot be learned from letter statistics alone.
    if (rng.next() < 0.5) {
      const i = rng.int(Math.floor(n / 2)); // a position with a distinct mirror
      const other = alphabet.replace(w[i], '');
      w[i] = other[rng.int(other.length)];
    }
    return `p:${w.join('')}=`;
  },
  solve: palSolve,
  grade: (prompt, answer) => gradeExact(palSolve(prompt), answer, answer === 'yes' || answer === 'no' ? null : 'not "yes" or "no"'),
});

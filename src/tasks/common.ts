/**
 * What every strict verifier shares: the response rules (where the graded answer is, what is
 * stripped, what is refused before parsing), verdict construction, and a small task builder.
 *
 * The rules, applied in this order, identically for every task:
 *   1. A response longer than MAX_RESPONSE_CHARS is unparseable ("answer too long"), checked
 *      before anything else looks at the text, so a 10,000-character answer costs O(1).
 *   2. Every character must be in the tokenizer's vocabulary (digits, a-z, "+-*\/=(),?:",
 *      space, "|"). Anything else (unicode digits, look-alike letters, "<eos>" written as
 *      text, HTML) makes the response unparseable.
 *   3. At most ONE answer separator "|". Text before it is thinking and is not graded; the
 *      text after it is the answer. With no separator the whole response is the answer. Two or
 *      more separators are unparseable (no guessing which one was meant).
 *   4. Leading and trailing spaces (U+0020) of the answer are ignored; nothing else is.
 *   5. An empty answer, or one longer than MAX_ANSWER_CHARS, is unparseable.
 *   6. The answer must match the task's grammar exactly (its answerSpec); anything after the
 *      answer ("46 abc", "46 or 47", "4646") therefore fails, as unparseable or wrong.
 */
import { ANSWER_SEPARATOR, isEncodable } from './tokenizer.ts';
import { DEFAULT_WEIGHTS, PromptError, type Instance, type RewardWeights, type Task, type Verdict } from './types.ts';
import type { Rng } from '../model/rng.ts';

/** Longest response a strict verifier reads at all (the lab's contexts are far shorter). */
export const MAX_RESPONSE_CHARS = 128;
/** Longest graded answer (after the separator, spaces stripped). */
export const MAX_ANSWER_CHARS = 32;

/** The shared rules in words; every task's answerSpec starts from these. */
export const RESPONSE_RULES =
  `Response rules (all tasks): at most ${MAX_RESPONSE_CHARS} characters, only vocabulary characters (digits, a-z, "+-*/=(),?:", space, "|"); ` +
  `at most one "|": text before it is thinking and is not graded, the answer is what follows it (the whole response if there is no "|"); ` +
  `leading/trailing spaces of the answer are ignored; an empty answer or one over ${MAX_ANSWER_CHARS} characters is unparseable; ` +
  `the answer must match the grammar below exactly, with nothing before or after it.`;

export type Extracted = { ok: true; answer: string; thinking: string | null } | { ok: false; reason: string };

/** Steps 1-5 of the response rules: the graded answer, or why there is none. */
export function extractAnswer(response: string): Extracted {
  if (typeof response !== 'string') return { ok: false, reason: 'response is not a string' };
  if (response.length > MAX_RESPONSE_CHARS) return { ok: false, reason: 'answer too long' };
  if (!isEncodable(response)) return { ok: false, reason: 'character outside the vocabulary' };
  const first = response.indexOf(ANSWER_SEPARATOR);
  if (first >= 0 && response.indexOf(ANSWER_SEPARATOR, first + 1) >= 0) {
    return { ok: false, reason: 'more than one answer separator' };
  }
  const thinking = first >= 0 ? response.slice(0, first) : null;
  const answer = stripSpaces(first >= 0 ? response.slice(first + 1) : response);
  if (answer.length === 0) return { ok: false, reason: 'empty answer' };
  if (answer.length > MAX_ANSWER_CHARS) return { ok: false, reason: 'answer too long' };
  return { ok: true, answer, thinking };
}

/** Removes leading and trailing U+0020 only (String.trim would also eat tabs, NBSP, ...). */
export function stripSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 32) a++;
  while (b > a && s.charCodeAt(b - 1) === 32) b--;
  return s.slice(a, b);
}

/** reward = w.unparseable | w.wrong | w.correct, by outcome. */
export function makeVerdict(
  version: string,
  formatOk: boolean,
  correct: boolean,
  reason: string,
  weights: RewardWeights = DEFAULT_WEIGHTS,
): Verdict {
  const reward = !formatOk ? weights.unparseable : correct ? weights.correct : weights.wrong;
  return { reward, correct: formatOk && correct, formatOk, reason, verifierVersion: version };
}

/** A canonical integer: optional "-", no "+", no leading zeros, no "-0". */
export const INTEGER_RE = /^(0|-?[1-9][0-9]*)$/;
/** A non-negative canonical integer. */
export const NATURAL_RE = /^(0|[1-9][0-9]*)$/;
/** One or more lowercase ASCII letters. */
export const LETTERS_RE = /^[a-z]+$/;

/** Why a string fails the integer grammar, in words (for verdict reasons). */
export function integerFormatReason(a: string, allowNegative: boolean): string | null {
  if ((allowNegative ? INTEGER_RE : NATURAL_RE).test(a)) return null;
  if (/^-?0[0-9]+$/.test(a)) return 'not an integer in canonical form (leading zero)';
  if (a === '-0') return 'not an integer in canonical form (-0)';
  if (/^\+[0-9]+$/.test(a)) return 'not an integer in canonical form (explicit +)';
  if (!allowNegative && /^-[0-9]+$/.test(a)) return 'negative numbers are not allowed here';
  return 'not an integer';
}

/** The specification of one task, from which makeTask builds the Task object. */
export interface TaskSpec {
  id: string;
  family: Task['family'];
  title: string;
  /** The answer grammar and correctness rule, appended to RESPONSE_RULES. */
  grammar: string;
  difficulties: number[];
  /** Version of this task's grading rule (bump on any change). */
  version: number;
  /** A seeded prompt at a difficulty (the answer comes from solve). */
  generatePrompt(rng: Rng, difficulty: number): string;
  solve(prompt: string): string;
  /** Throws PromptError on a prompt this task could not have generated (default: solve). */
  checkPrompt?(prompt: string): void;
  /** Grades a graded-answer string (already extracted): format reason or correctness. */
  grade(prompt: string, answer: string): { formatOk: boolean; correct: boolean; reason: string };
  /** Scratchpad steps for SFT (running results), when the task has one. */
  steps?(prompt: string): string[];
}

export function makeTask(spec: TaskSpec): Task {
  const version = `${spec.id}@${spec.version}`;
  const task: Task = {
    id: spec.id,
    family: spec.family,
    title: spec.title,
    answerSpec: `${spec.grammar} ${RESPONSE_RULES}`,
    difficulties: spec.difficulties,
    generate(rng: Rng, difficulty: number): Instance {
      if (!spec.difficulties.includes(difficulty)) {
        throw new Error(`task ${spec.id}: unknown difficulty ${difficulty} (valid: ${spec.difficulties.join(', ')})`);
      }
      const prompt = spec.generatePrompt(rng, difficulty);
      return { prompt, answer: spec.solve(prompt), difficulty };
    },
    solve: spec.solve,
    referenceResponse(prompt: string, opts?: { think?: boolean }): string {
      const answer = spec.solve(prompt);
      if (opts?.think && spec.steps) return `${spec.steps(prompt).join(',')}${ANSWER_SEPARATOR}${answer}`;
      return answer;
    },
    verify(prompt: string, response: string, weights: RewardWeights = DEFAULT_WEIGHTS): Verdict {
      const ex = extractAnswer(response);
      if (!ex.ok) {
        // A malformed prompt throws PromptError even when the response is junk.
        if (spec.checkPrompt) spec.checkPrompt(prompt);
        else spec.solve(prompt);
        return makeVerdict(version, false, false, ex.reason, weights);
      }
      const g = spec.grade(prompt, ex.answer);
      return makeVerdict(version, g.formatOk, g.correct, g.reason, weights);
    },
  };
  if (spec.steps) {
    const steps = spec.steps;
    task.processReward = (prompt: string, response: string): number => {
      const expected = steps(prompt);
      const written = scratchpadSteps(response);
      if (written === null) return 0;
      let good = 0;
      for (let i = 0; i < Math.min(expected.length, written.length); i++) if (written[i] === expected[i]) good++;
      return good / Math.max(expected.length, written.length);
    };
  }
  return task;
}

/**
 * The scratchpad steps a response writes before its answer separator ("12,10,17|17" → 12, 10,
 * 17; spaces around a step ignored), or null when it writes none: no separator, nothing but
 * spaces before it, or a response too long to read. processReward grades these steps.
 */
export function scratchpadSteps(response: string): string[] | null {
  if (typeof response !== 'string' || response.length > MAX_RESPONSE_CHARS) return null;
  const sep = response.indexOf(ANSWER_SEPARATOR);
  if (sep < 0) return null;
  const written = response.slice(0, sep).split(',').map(stripSpaces);
  return written.length === 1 && written[0] === '' ? null : written;
}

/** Exact-match grading for tasks whose answer is a single canonical string. */
export function gradeExact(
  expected: string,
  answer: string,
  formatReason: string | null,
): { formatOk: boolean; correct: boolean; reason: string } {
  if (formatReason !== null) return { formatOk: false, correct: false, reason: formatReason };
  if (answer === expected) return { formatOk: true, correct: true, reason: 'correct' };
  return { formatOk: true, correct: false, reason: `wrong: expected ${expected}, got ${answer}` };
}

/** Uniform integer in [lo, hi]. */
export function randInt(rng: Rng, lo: number, hi: number): number {
  return lo + rng.int(hi - lo + 1);
}

/** A random string of `n` letters drawn from `alphabet`. */
export function randLetters(rng: Rng, n: number, alphabet: string): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(alphabet.length)];
  return s;
}

export const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';

/** Parses a prompt with a regex or throws PromptError naming the task and the expected shape. */
export function matchPrompt(taskId: string, re: RegExp, shape: string, prompt: string): RegExpMatchArray {
  const m = typeof prompt === 'string' ? prompt.match(re) : null;
  if (!m) throw new PromptError(`task ${taskId}: malformed prompt ${JSON.stringify(prompt)}; expected ${shape}`);
  return m;
}

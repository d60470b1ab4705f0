/**
 * A validated task spec as a Task: the same contract, response rules, verdicts and reward
 * weights as the built-in tasks (it is built by common.ts's makeTask), so the trainer, the
 * held-out split and the verify CLI treat it like any other.
 *
 *   id           "spec:<name>"; verifierVersion "spec:<name>@1" (bumped if the spec grading rule changes)
 *   difficulties 1 … number of levels (1 without levels; a data task has 1)
 *   generate     the variables drawn in declaration order (vars.ts documents each kind's RNG
 *                calls); a data task draws one pair with one rng.int(number of pairs)
 *   solve        re-derived from the prompt text alone: the template is read back into the
 *                variables (any level's values are accepted), then the answer is evaluated
 *   verify       the strict checker: the graded part after the separator must be, for a
 *                number answer, a canonical integer (no "+", no leading zeros, no "-0") equal
 *                to the expected one — canonical text makes the comparison one of numbers; for
 *                a letters answer (a string built only from a-z), lowercase letters equal to the
 *                expected ones; for any other string, exactly the expected text
 *   scratchpad   referenceResponse(prompt, { think: true }) is "step1,step2,…|answer" and
 *                processReward grades the steps position by position (common.ts)
 */
import type { Rng } from '../../model/rng.ts';
import { gradeExact, integerFormatReason, makeTask } from '../common.ts';
import { registerTask } from '../registry.ts';
import { PromptError, type Task } from '../types.ts';
import { LanguageError, evaluate, quote, valueText, type Value } from './language.ts';
import { MODEL_POSITIONS, SpecError, checkGenerated, compileSpec, type AnswerKind, type Compiled, type Spec } from './spec.ts';
import { draw, readPrompt, render } from './vars.ts';

const RULES: Record<AnswerKind, string> = {
  int: 'The answer is the exact integer written in canonical form: ASCII digits, a leading "-" only when negative, no "+", no leading zeros ("07" is unparseable), "-0" is unparseable; it is then compared as a number.',
  letters: 'The answer is lowercase ASCII letters a-z only, exactly the expected string (no spaces inside, no other characters).',
  text: 'The answer is exactly the expected text, character by character (leading and trailing spaces aside).',
};

function formatReason(kind: AnswerKind, answer: string): string | null {
  if (kind === 'int') return integerFormatReason(answer, true);
  if (kind === 'letters') return /^[a-z]+$/.test(answer) ? null : 'not lowercase letters';
  return null;
}

/** The Task of a spec that validateSpec accepted. Throws on one it would refuse (validate first). */
export function taskFromSpec(spec: Spec): Task {
  const c = compileSpec(spec);
  return buildTask(c);
}

/** validateSpec + taskFromSpec + registerTask: the task getTask("spec:<name>") now finds. Throws SpecError on a bad spec. */
export function registerSpec(spec: unknown): Task {
  const c = compileSpec(spec);
  checkGenerated(c);
  return registerTask(buildTask(c));
}

function buildTask(c: Compiled): Task {
  const cache = new Map<string, { answer: string; steps: string[] }>();
  const malformed = (prompt: unknown, why: string) => new PromptError(`task ${c.id}: malformed prompt ${typeof prompt === 'string' ? quote(prompt, 30) : String(typeof prompt)}; ${why}`);
  const readGenerated = (g: Extract<Compiled, { kind: 'generated' }>, prompt: string) => {
    const r = readPrompt(g.parts, g.union, prompt, 1)[0];
    if (!r) throw malformed(prompt, `expected ${quote(g.spec.prompt, 64)} with the variables in their ranges`);
    try {
      return { answer: valueText(evaluate(g.answer, r)), steps: g.scratch.map((s) => valueText(evaluate(s, r))) };
    } catch (e) {
      if (e instanceof LanguageError) throw malformed(prompt, `its answer cannot be computed (${e.message})`);
      throw e;
    }
  };
  const read = (prompt: string): { answer: string; steps: string[] } => {
    if (typeof prompt !== 'string' || prompt.length > MODEL_POSITIONS) throw malformed(prompt, 'not a prompt of this task');
    const hit = cache.get(prompt);
    if (hit) return hit;
    let out: { answer: string; steps: string[] };
    if (c.kind === 'data') {
      const a = c.table.get(prompt);
      if (a === undefined) throw malformed(prompt, 'it is not one of the task\'s data prompts');
      out = { answer: a, steps: [] };
    } else out = readGenerated(c, prompt);
    if (cache.size >= 4096) cache.clear();
    cache.set(prompt, out);
    return out;
  };
  const solve = (prompt: string) => read(prompt).answer;
  const generatePrompt = (rng: Rng, d: number): string => {
    if (c.kind === 'data') return c.prompts[rng.int(c.prompts.length)];
    const level = c.levels[d - 1];
    // A prompt whose answer cannot be computed (a division by zero the validation's examples missed) is drawn again, at most 20 times.
    for (let attempt = 0; ; attempt++) {
      const values = new Map<string, Value>(c.names.map((n) => [n, draw(level.get(n)!, rng)]));
      const prompt = render(c.parts, values);
      try {
        read(prompt);
        return prompt;
      } catch (e) {
        if (!(e instanceof PromptError) || attempt >= 20) throw e;
      }
    }
  };
  const example = c.kind === 'data' ? c.prompts[0] : c.spec.prompt;
  const grammar = c.kind === 'data'
    ? `Prompt "${example}" (one of ${c.prompts.length} data prompts); the answer is the pair's answer. ${RULES[c.answerKind]}`
    : `Prompt template "${c.spec.prompt}"; the answer is ${c.spec.answer}.${c.scratch.length ? ` Optional thinking: ${c.spec.scratchpad!.join(', ')}, comma-separated, then "|"; only the answer is graded.` : ''} ${RULES[c.answerKind]}`;
  return makeTask({
    id: c.id,
    family: c.answerKind === 'int' ? 'arithmetic' : 'string',
    title: c.title,
    grammar,
    difficulties: c.kind === 'data' ? [1] : c.levels.map((_, i) => i + 1),
    version: 1,
    generatePrompt,
    solve,
    checkPrompt: (prompt) => void read(prompt),
    grade: (prompt, answer) => gradeExact(solve(prompt), answer, formatReason(c.answerKind, answer)),
    ...(c.kind === 'generated' && c.scratch.length ? { steps: (prompt: string) => read(prompt).steps } : {}),
  });
}

export { SpecError };

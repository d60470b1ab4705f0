// Task specs: every refusal is one sentence naming the field and the reason (the exact sentences
// are pinned here and listed in docs/custom-tasks.md); the shipped specs are accepted; a spec task works
// with the registry, the held-out split, the scratchpad form, process reward, data pairs and
// the CSV/JSONL readers.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { Rng } from '../../model/rng.ts';
import { getTask, registerTask, TASKS } from '../registry.ts';
import { isHeldOut, samplePrompts } from '../split.ts';
import { PromptError } from '../types.ts';
import { parseDataCsv, parseDataJsonl, parseSpecText } from './data.ts';
import { MAX_COUNTED, MIN_HELDOUT_PROMPTS, MIN_TRAIN_PROMPTS, promptCountPhrase, SpecError, validateSpec, type Spec } from './spec.ts';
import { registerSpec, taskFromSpec } from './task.ts';

const T = { name: 'times7', prompt: '{a}*7=', vars: { a: [2, 99] }, answer: 'a*7' };
const ok = (json: unknown): Spec => {
  const r = validateSpec(json);
  if (!r.ok) throw new Error(r.error);
  return r.spec;
};

/** [what, spec, the exact refusal]. */
const REFUSALS: [string, unknown, string][] = [
  ["not an object", [1, 2], "spec: must be a JSON object such as { \"name\": \"times7\", \"prompt\": \"{a}*7=\", \"vars\": { \"a\": [2, 99] }, \"answer\": \"a*7\" }."],
  ["unknown key", { ...T, colour: 'red' }, "spec: the key \"colour\" is not part of a task spec (the keys are name, title, prompt, vars, answer, scratchpad, levels, data)."],
  ["bad name", { ...T, name: 'Times 7!' }, "name: must be 1 to 24 characters: lowercase letters, digits, \"-\" or \"_\", starting with a letter or digit."],
  ["html title", { ...T, title: '<b>x</b>' }, "title: must be plain text of 1 to 60 printable ASCII characters, without angle brackets or ampersands."],
  ["missing answer", { name: 'x', prompt: '{a}=', vars: { a: [0, 99] } }, "answer: is missing (a task spec needs \"prompt\", \"vars\" and \"answer\", or \"data\")."],
  ["vars not object", { ...T, vars: [1] }, "vars: must be an object of variables, such as { \"a\": [0, 99] }."],
  ["too many vars", { ...T, vars: Object.fromEntries('abcdefghi'.split('').map((c) => [c, [0, 9]])) }, "vars: must declare 1 to 8 variables, got 9."],
  ["bad var name", { ...T, vars: { A: [0, 9] } }, "vars: the name \"A\" is not a variable name (a-z, then a-z, 0-9 or _, at most 12 characters)."],
  ["function var name", { ...T, prompt: '{len}*7=', vars: { len: [0, 9] }, answer: 'len*7' }, "vars.len: \"len\" is a function of the language and cannot name a variable."],
  ["lo > hi", { ...T, vars: { a: [9, 2] } }, "vars.a: lo 9 is greater than hi 2."],
  ["non-integer", { ...T, vars: { a: [0, 2.5] } }, "vars.a: a range must be two whole numbers between -1000000000 and 1000000000."],
  ["huge range", { ...T, vars: { a: [0, 1e12] } }, "vars.a: a range must be two whole numbers between -1000000000 and 1000000000."],
  ["range of 3", { ...T, vars: { a: [0, 1, 2] } }, "vars.a: a range must be [lo, hi] with two numbers, got a list of 3."],
  ["empty choice", { ...T, vars: { a: { choice: [] } } }, "vars.a: choice must be a non-empty list."],
  ["mixed choice", { ...T, vars: { a: { choice: [1, 'x'] } } }, "vars.a: choice must be all whole numbers (within \u00b11000000000) or all strings."],
  ["choice bad char", { ...T, vars: { a: { choice: ['é'] } } }, "vars.a: choice \"\\u00e9\" has the character U+00E9, which is outside the vocabulary (digits, a-z, \"+-*/=(),?:\" and space)."],
  ["alphabet bad char", { name: 'r', prompt: 'r:{w}=', vars: { w: { string: { alphabet: 'abC', length: [3, 5] } } }, answer: 'reverse(w)' }, "vars.w: string.alphabet has the character \"C\", which is outside the vocabulary (digits, a-z, \"+-*/=(),?:\" and space)."],
  ["alphabet repeats", { name: 'r', prompt: 'r:{w}=', vars: { w: { string: { alphabet: 'aba', length: [3, 5] } } }, answer: 'reverse(w)' }, "vars.w: string.alphabet repeats \"a\"."],
  ["string too long", { name: 'r', prompt: 'r:{w}=', vars: { w: { string: { alphabet: 'ab', length: [3, 50] } } }, answer: 'reverse(w)' }, "vars.w: string.length must be within 0 to 16, got [3, 50]."],
  ["two keys", { ...T, vars: { a: { choice: [1], string: {} } } }, "vars.a: must have exactly one key, \"choice\" or \"string\", got \"choice\", \"string\"."],
  ["prompt bad char", { ...T, prompt: '{a}×7=' }, "prompt: the character U+00D7 at character 4 is outside the vocabulary (digits, a-z, \"+-*/=(),?:\" and space)."],
  ["prompt separator", { ...T, prompt: '{a}|7=' }, "prompt: the answer separator \"|\" cannot appear in a prompt."],
  ["prompt unclosed", { ...T, prompt: '{a*7=' }, "prompt: the \"{\" at character 1 is not closed."],
  ["prompt unknown placeholder", { ...T, prompt: '{a}*{b}=' }, "prompt: the placeholder {b} names no variable (the variables are a)."],
  ["var not in prompt", { ...T, vars: { a: [2, 99], b: [0, 9] } }, "vars.b: is not written in the prompt, but the verifier must re-derive the answer from the prompt text alone; add {b} to the prompt or remove the variable."],
  ["answer does not parse", { ...T, answer: 'a*(7' }, "answer: \"a*(7\" does not parse: expected \")\" at the end."],
  ["answer unknown var", { ...T, answer: 'a*b' }, "answer: in \"a*b\", unknown variable \"b\" at character 3 (the variables are a)."],
  ["answer unknown fn", { ...T, answer: 'sqrt(a)' }, "answer: in \"sqrt(a)\", unknown function \"sqrt\" at character 1 (the functions are min, max, abs, len, reverse, sort, first, last, count)."],
  ["answer type", { name: 'r', prompt: 'r:{w}=', vars: { w: { string: { alphabet: 'ab', length: [3, 5] } } }, answer: 'w*2' }, "answer: in \"w*2\", \"*\" at character 2 needs numbers on both sides, but its left side is a string."],
  ["answer eval", { ...T, answer: 'eval("1")' }, "answer: in \"eval(\\\"1\\\")\", unknown function \"eval\" at character 1 (the functions are min, max, abs, len, reverse, sort, first, last, count)."],
  ["answer deep", { ...T, answer: '('.repeat(40) + 'a' + ')'.repeat(40) }, "answer: \"((((((((((((((((((((((((((((((((((((((((\"... does not parse: the expression nests deeper than 16 levels at character 18."],
  ["answer long", { ...T, answer: 'a+'.repeat(150) + 'a' }, "answer: \"a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+\"... does not parse: the expression is 301 characters long, at most 200 are allowed."],
  ["division by zero", { name: 'div', prompt: '{a}/{b}=', vars: { a: [0, 99], b: [0, 9] }, answer: 'a/b' }, "answer: division by zero at character 2 for the prompt \"99/0=\" (a=99, b=0)."],
  ["division by zero hidden", { name: 'div', prompt: '{a}/{b}=', vars: { a: [0, 99], b: [0, 9] }, answer: 'a/(b-5)' }, "answer: division by zero at character 2 for the prompt \"84/5=\" (a=84, b=5)."],
  ["first of empty", { name: 'f', prompt: 'f:{w}=', vars: { w: { string: { alphabet: 'ab', length: [0, 5] } } }, answer: 'first(w)' }, "answer: first of an empty string at character 1 for the prompt \"f:=\" (w=\"\")."],
  ["empty answer", { name: 'e', prompt: 'e:{w}=', vars: { w: { string: { alphabet: 'ab', length: [0, 5] } } }, answer: 'reverse(w)' }, "answer: is empty for the prompt \"e:=\" (w=\"\"), and an empty answer is unparseable."],
  ["answer space", { name: 'e', prompt: 'e:{w}=', vars: { w: { string: { alphabet: 'ab', length: [1, 5] } } }, answer: 'w + " "' }, "answer: \"aaaaa \" for the prompt \"e:aaaaa=\" (w=\"aaaaa\") starts or ends with a space, which the verifier strips."],
  ["answer too long", { name: 'e', prompt: '{w}', vars: { w: { string: { alphabet: 'ab', length: [5, 8] } } }, answer: 'w+w+w+w+w' }, "answer: \"aaaaaaaaaaaaaaaaaaaaaaaa\"... for the prompt \"aaaaaaaa\" (w=\"aaaaaaaa\") has 40 characters, more than the 32 an answer may have."],
  ["too few prompts", T.vars && { ...T, vars: { a: [2, 12] } }, "vars: can produce only 11 distinct prompts (1 held out, 10 for training), but a disjoint held-out split needs at least 5 held-out and 20 training prompts; widen a range or add a variable."],
  ["prompt + answer too long", { name: 'big', prompt: '{a}*{b}*{c}=', vars: { a: [0, 99999], b: [0, 99999], c: [0, 99999] }, answer: 'a*b*c' }, "answer: the prompt \"99999*99999*99999=\" with the response \"999970000299999\" takes 34 of the model's 24 positions (BOS, prompt, response; the EOS is predicted at the last one); shorten the prompt or narrow the ranges."],
  ["prompt too long", { ...T, prompt: 'what is {a} times seven, please tell me=' }, "prompt: \"what is 99 times seven, please\"... has 39 characters, too long for the model's 24 positions; shorten the prompt or the ranges."],
  ["ambiguous", { name: 'amb', prompt: '{a}{b}=', vars: { a: [0, 99], b: [0, 99] }, answer: 'a+b' }, "prompt: \"390=\" can be read in more than one way (a=3, b=90 or a=39, b=0); put fixed text between the placeholders."],
  ["scratchpad comma", { name: 's', prompt: '{a}+{b}=', vars: { a: [0, 99], b: [0, 99] }, answer: 'a+b', scratchpad: ['a + "," + b'] }, "scratchpad[0]: the step \"99,99\" for the prompt \"99+99=\" (a=99, b=99) contains a comma, which separates the steps."],
  ["scratchpad not list", { ...T, scratchpad: 'a' }, "scratchpad: must be a list of 1 to 12 expressions (the thinking steps)."],
  ["scratchpad too long", { name: 's', prompt: '{a}+{b}=', vars: { a: [0, 999], b: [0, 999] }, answer: 'a+b', scratchpad: ['a*1000+b', 'a+b', 'a*b'] }, "scratchpad: the prompt \"999+999=\" with the response \"999999,1998,998001|1998\" takes 32 of the model's 24 positions (BOS, prompt, response; the EOS is predicted at the last one) and the response needs 24 tokens with its EOS, more than the 20 the lab samples; shorten the prompt or narrow the ranges."],
  ["levels unknown var", { ...T, levels: [{ b: [0, 9] }] }, "levels[0]: \"b\" is not a variable declared in vars."],
  ["levels type change", { ...T, levels: [{ a: { choice: ['x'] } }] }, "levels[0].a: changes a from a number to a string."],
  ["too many levels", { ...T, levels: [{}, {}, {}, {}, {}] }, "levels: must be a list of 1 to 4 objects (difficulty 1, 2, \u2026), each overriding some variables."],
  ["level too small", { ...T, levels: [{ a: [0, 4] }, { a: [0, 99] }] }, "levels[0]: can produce only 5 distinct prompts (0 held out, 5 for training), but a disjoint held-out split needs at least 5 held-out and 20 training prompts; widen a range or add a variable."],
  ["data and vars", { name: 'd', data: [{ prompt: '1=', answer: '1' }], vars: {} }, "vars: a data task takes its prompts and answers from \"data\", so it cannot also have generators; remove one of the two."],
  ["data empty", { name: 'd', data: [] }, "data: must be a non-empty list of { \"prompt\", \"answer\" } pairs."],
  ["data bad row", { name: 'd', data: [{ prompt: '1=', answer: '1', extra: 1 }] }, "data[0]: the key \"extra\" is not part of a pair (the keys are prompt and answer)."],
  ["data duplicate", { name: 'd', data: [{ prompt: '1=', answer: '1' }, { prompt: '1=', answer: '2' }] }, "data[1].prompt: repeats the prompt of data[0]."],
  ["data bad char", { name: 'd', data: [{ prompt: 'Paris=', answer: 'france' }] }, "data[0].prompt: \"Paris=\" has the character \"P\", which is outside the vocabulary (digits, a-z, \"+-*/=(),?:\" and space)."],
  ["data too few", { name: 'd', data: Array.from({ length: 10 }, (_, i) => ({ prompt: `${i}*2=`, answer: String(i * 2) })) }, "data: can produce only 10 distinct prompts (1 held out, 9 for training), but a disjoint held-out split needs at least 5 held-out and 20 training prompts; widen a range (add pairs)."],
  ["data answer separator", { name: 'd', data: [{ prompt: '1=', answer: 'a|b' }] }, "data[0].answer: the answer separator \"|\" cannot appear in an answer."],
  ["__proto__ key", JSON.parse('{"name":"x","__proto__":{"a":1},"prompt":"{a}=","vars":{"a":[0,99]},"answer":"a"}'), "spec: the key \"__proto__\" is not part of a task spec (the keys are name, title, prompt, vars, answer, scratchpad, levels, data)."],];

describe('task specs', () => {
  it(`refuses with one sentence naming the field and the reason (${REFUSALS.length} cases)`, () => {
    for (const [what, spec, sentence] of REFUSALS) {
      const r = validateSpec(spec);
      expect(r.ok ? 'accepted' : r.error, what).toBe(sentence);
      expect(sentence, what).toMatch(/^(spec|name|title|prompt|answer|vars|levels|scratchpad|data)(\.[a-z0-9_]+|\[\d+\])*(\.[a-z0-9_]+|\[\d+\])*: [^\n]+\.$/);
      expect(sentence, what).not.toMatch(/[<>&]/);
    }
    console.log(REFUSALS.map(([what, , s]) => `${what.padEnd(26)} ${s}`).join('\n'));
  });

  it('accepts the shipped specs (public/tasks/) and says how their prompts split', () => {
    for (const f of readdirSync('public/tasks')) {
      const r = parseSpecText(readFileSync(`public/tasks/${f}`, 'utf8'));
      expect(r.ok ? r.stats.levels.every((l) => l.heldout >= MIN_HELDOUT_PROMPTS && l.train >= MIN_TRAIN_PROMPTS) : r.error, f).toBe(true);
    }
    const r = validateSpec(T);
    expect(r.ok && r.stats).toEqual({ levels: [{ distinct: 98, exact: true, heldout: 20, train: 78 }], maxResponseTokens: 4 });
    expect(r.ok && r.spec).toEqual(T); // normalized: the same JSON back, nothing added
  });

  it('counts the distinct prompts it cannot enumerate as the product of the ranges, not the few it looked at', () => {
    // words of 2-7 letters from 16 letters: 16^2 + … + 16^7 = 286,331,136 prompts (it once said "at least 27")
    const words = validateSpec({ name: 'words', prompt: 'r:{w}=', vars: { w: { string: { alphabet: 'abcdefghijklmnop', length: [2, 7] } } }, answer: 'reverse(w)' });
    if (!words.ok) throw new Error(words.error);
    const [l] = words.stats.levels;
    expect(l).toMatchObject({ distinct: 286_331_136, exact: false });
    expect(l.atMost).toBeUndefined();
    expect(promptCountPhrase(l)).toMatch(/^286,331,136 distinct prompts \(the product of the variables' ranges; about (1[5-9]|2[0-5])% held out\)$/);
    // two variables multiply; past 10^15 it says "more than"
    const two = validateSpec({ name: 'two', prompt: '{a}+{b}=', vars: { a: [0, 999], b: [0, 999] }, answer: 'a+b' });
    expect(two.ok && two.stats.levels[0]).toMatchObject({ distinct: 1_000_000, exact: false });
    const huge = validateSpec({ name: 'huge', prompt: '{a}-{b}=', vars: { a: { string: { alphabet: 'abcdefghijklmnopqrstuvwxyz', length: [1, 6] } }, b: { string: { alphabet: 'abcdefghijklmnopqrstuvwxyz', length: [1, 6] } } }, answer: 'reverse(a)' });
    if (!huge.ok) throw new Error(huge.error);
    expect(huge.stats.levels[0]).toMatchObject({ distinct: MAX_COUNTED, capped: true });
    expect(promptCountPhrase(huge.stats.levels[0])).toMatch(/^more than 1,000,000,000,000,000 distinct prompts/);
    // what can be enumerated is still counted exactly
    expect(promptCountPhrase({ distinct: 98, exact: true, heldout: 20, train: 78 })).toBe('98 distinct prompts (20 held out, 78 for training)');
  });

  it('registers as spec:<name>, so getTask, the split and the trainer find it; built-ins are untouched', () => {
    const before = TASKS.map((t) => t.id);
    const task = registerSpec(T);
    expect(task.id).toBe('spec:times7');
    expect(getTask('spec:times7')).toBe(task);
    expect(TASKS.map((t) => t.id)).toEqual(before);
    expect(() => registerTask({ ...task, id: 'add' })).toThrow('must start with "spec:"');
    expect(() => getTask('spec:nope')).toThrow(/unknown task "spec:nope"; valid tasks: add, .*spec:times7/);
    const train = samplePrompts(task, new Rng(3), 1, 'train', 200);
    const held = samplePrompts(task, new Rng(3), 1, 'heldout', 50);
    const heldSet = new Set(held.map((i) => i.prompt));
    expect(heldSet.size).toBeGreaterThanOrEqual(MIN_HELDOUT_PROMPTS);
    expect(train.some((i) => heldSet.has(i.prompt))).toBe(false);
    expect(held.every((i) => isHeldOut('spec:times7', i.prompt))).toBe(true);
    const x = task.generate(new Rng(1), 1);
    expect(x.answer).toBe(String(Number(x.prompt.split('*')[0]) * 7));
    expect(task.verify(x.prompt, x.answer)).toMatchObject({ correct: true, reward: 1, verifierVersion: 'spec:times7@1' });
    expect(() => task.verify('100*7=', '700')).toThrow(PromptError);
    expect(() => task.generate(new Rng(1), 2)).toThrow('unknown difficulty 2');
  });

  it('a scratchpad gives the thinking form and process reward; levels are difficulties; any level\'s prompt is read', () => {
    const task = taskFromSpec(ok({
      name: 'sum3', prompt: '{a}+{b}+{c}=', vars: { a: [0, 9], b: [0, 9], c: [0, 9] }, answer: 'a+b+c', scratchpad: ['a+b', 'a+b+c'],
      levels: [{}, { a: [10, 99], b: [10, 99], c: [10, 99] }],
    }));
    expect(task.difficulties).toEqual([1, 2]);
    expect(task.referenceResponse('1+2+3=', { think: true })).toBe('3,6|6');
    expect(task.referenceResponse('1+2+3=')).toBe('6');
    expect(task.referenceResponse('10+20+3=', { think: true })).toBe('30,33|33'); // a mix of both levels' values still reads
    expect(task.processReward!('1+2+3=', '3,6|6')).toBe(1);
    expect(task.processReward!('1+2+3=', '3,7|6')).toBe(0.5);
    expect(task.processReward!('1+2+3=', '6')).toBe(0);
    expect(task.verify('1+2+3=', '3,7|6')).toMatchObject({ correct: true });
    expect(task.generate(new Rng(2), 2).prompt).toMatch(/^\d\d\+\d\d\+\d\d=$/);
  });

  it('answers: numbers are canonical integers, letters are a-z, other text is exact', () => {
    const num = taskFromSpec(ok(T));
    expect(num.verify('3*7=', '21').correct).toBe(true);
    expect(num.verify('3*7=', '021')).toMatchObject({ formatOk: false, reason: 'not an integer in canonical form (leading zero)' });
    expect(num.verify('3*7=', '22')).toMatchObject({ formatOk: true, correct: false, reason: 'wrong: expected 21, got 22' });
    const letters = taskFromSpec(ok({ name: 'rev', prompt: 'r:{w}=', vars: { w: { string: { alphabet: 'abc', length: [3, 5] } } }, answer: 'reverse(w)' }));
    expect(letters.family).toBe('string');
    expect(letters.verify('r:abc=', 'cb1')).toMatchObject({ formatOk: false, reason: 'not lowercase letters' });
    const text = taskFromSpec(ok({ name: 'tag', prompt: '{w}:{n}=', vars: { w: { choice: ['x', 'y', 'z'] }, n: [0, 99] }, answer: 'w + n' }));
    expect(text.referenceResponse('x:42=')).toBe('x42');
    expect(text.verify('x:42=', 'x42').correct).toBe(true);
    expect(text.verify('x:42=', 'y42')).toMatchObject({ formatOk: true, correct: false });
  });

  it('data pairs: a task from a list, from CSV or from JSONL (verify --sample output included)', () => {
    const pairs = Array.from({ length: 40 }, (_, i) => ({ prompt: `sq:${i}=`, answer: String(i * i) }));
    const task = taskFromSpec(ok({ name: 'squares', data: pairs }));
    expect(task.difficulties).toEqual([1]);
    expect(task.verify('sq:7=', '49').correct).toBe(true);
    expect(() => task.verify('sq:77=', '1')).toThrow(PromptError);
    const rng = new Rng(5);
    const i = task.generate(rng, 1);
    expect(pairs.some((p) => p.prompt === i.prompt && p.answer === i.answer)).toBe(true);
    const csv = parseDataCsv('prompt,answer\r\nsq:1=,1\n\n"a,b",ab\n"say ""hi""",x\n');
    expect(csv).toEqual({ ok: true, data: [{ prompt: 'sq:1=', answer: '1' }, { prompt: 'a,b', answer: 'ab' }, { prompt: 'say "hi"', answer: 'x' }] });
    expect(parseDataCsv('a,b,c\n')).toEqual({ ok: false, error: 'data line 1: has 3 fields, a row is prompt,answer (quote a field that contains a comma).' });
    expect(parseDataCsv('"a,b\n')).toEqual({ ok: false, error: 'data line 1: a quoted field is not closed, or a quote sits inside an unquoted field.' });
    const jsonl = parseDataJsonl('{"task":"add","prompt":"1+1=","answer":"2","difficulty":1}\n{"prompt":"2+2=","answer":4}\n');
    expect(jsonl).toEqual({ ok: true, data: [{ prompt: '1+1=', answer: '2' }, { prompt: '2+2=', answer: '4' }] });
    expect(parseDataJsonl('{"prompt":"1+1="}\n')).toEqual({ ok: false, error: 'data line 1: "answer" must be text or a whole number, got "nothing".' });
    expect(parseDataJsonl('nope')).toEqual({ ok: false, error: 'data line 1: not valid JSON.' });
    expect(parseSpecText('{')).toEqual({ ok: false, error: 'spec: the file is not valid JSON.' });
  });

  it('taskFromSpec refuses what validateSpec refuses (it never builds a task from a bad spec)', () => {
    expect(() => taskFromSpec({ ...T, vars: { a: [9, 2] } } as unknown as Spec)).toThrow(SpecError);
    expect(() => registerSpec({ ...T, vars: { a: [2, 12] } })).toThrow('vars: can produce only 11 distinct prompts');
  });
});

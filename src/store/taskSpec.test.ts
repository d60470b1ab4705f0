import { describe, expect, it } from 'vitest';
import { registerSpec, validateSpec, type Spec } from '../tasks/spec/index.ts';
import { decodeSpecParam, encodeSpecParam, EXAMPLE_SPEC, EXAMPLE_SPEC_TEXT, readSpecText, specExamples, specInUse, specSummary, specText, wrongAnswer } from './taskSpec.ts';
import { labSearch, parseLabUrl } from './url.ts';
import { defaultSettings } from '../rl/settings.ts';
import { effectiveRewardMode, hasSteps, rewardModeNotice } from '../rl/processReward.ts';
import { settingAvailability } from '../rl/availability.ts';

const VOWELS: Spec = { name: 'vowels', title: 'Count the vowels', prompt: 'v:{w}=', vars: { w: { string: { alphabet: 'abcdeiou', length: [3, 6] } } }, answer: 'count(w, "a") + count(w, "e") + count(w, "i") + count(w, "o") + count(w, "u")' };

describe('the taskSpec address parameter', () => {
  it('round-trips a spec as base64url, and reads the JSON itself too', () => {
    for (const spec of [EXAMPLE_SPEC, VOWELS, { name: 'pairs', data: Array.from({ length: 40 }, (_, i) => ({ prompt: `q${i}?`, answer: `${i * 3}` })) } as Spec]) {
      const p = encodeSpecParam(spec);
      expect(p).toMatch(/^[A-Za-z0-9_-]+$/);
      const back = decodeSpecParam(p);
      expect(back.ok && back.spec).toEqual(validateSpec(spec).ok && (validateSpec(spec) as { spec: Spec }).spec);
      expect(decodeSpecParam(JSON.stringify(spec)).ok).toBe(true);
    }
  });

  it('a bad value is one sentence naming taskSpec, never a throw', () => {
    const cases: unknown[] = ['', '   ', '%%%', 'abc', '!!', btoa('not json').replace(/=/g, ''), encodeSpecParam({ name: 'x' } as Spec), '{"name":"t","prompt":"{a}=","vars":{"a":[9,2]},"answer":"a"}', '{', 'A'.repeat(300_000), null, 5, {}];
    for (const c of cases) {
      const r = decodeSpecParam(c);
      expect(r.ok, String(c).slice(0, 30)).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatch(/^the task spec in the address \(taskSpec\) was not used: /);
        expect(r.error.length).toBeLessThanOrEqual(240);
        expect(r.error).not.toMatch(/TypeError|SyntaxError|undefined|\[object/);
      }
    }
    const lohi = decodeSpecParam('{"name":"t","prompt":"{a}=","vars":{"a":[9,2]},"answer":"a"}');
    expect(lohi.ok || lohi.error).toBe('the task spec in the address (taskSpec) was not used: vars.a: lo 9 is greater than hi 2.');
  });

  it('an address with a custom task: registered, selected, written back; a bad one loses nothing else', () => {
    const q = `?task=spec%3Atimes7&beta=0.02&taskSpec=${encodeSpecParam(EXAMPLE_SPEC)}`;
    const u = parseLabUrl(q);
    expect(u.notices).toEqual([]);
    expect(u.settings.task).toBe('spec:times7');
    expect(u.settings.beta).toBe(0.02);
    expect(u.taskSpecs['spec:times7']).toEqual(EXAMPLE_SPEC);
    const back = labSearch({ ...u, taskSpecs: u.taskSpecs });
    expect(new URLSearchParams(back).get('taskSpec')).toBe(encodeSpecParam(EXAMPLE_SPEC));
    expect(parseLabUrl(back).settings).toEqual(u.settings);
    // without a task parameter the spec selects itself
    expect(parseLabUrl(`?taskSpec=${encodeSpecParam(VOWELS)}`).settings.task).toBe('spec:vowels');
    // a hostile spec: one sentence, the task stays the default, beta still applies
    const bad = parseLabUrl('?task=spec%3Anope&beta=0.02&taskSpec=%7B%22name%22%3A%22nope%22%7D');
    expect(bad.settings.beta).toBe(0.02);
    expect(bad.settings.task).toBe(defaultSettings().task);
    expect(bad.notices).toEqual([
      'the task spec in the address (taskSpec) was not used: prompt: is missing (a task spec needs "prompt", "vars" and "answer", or "data").',
      'the custom task "spec:nope" was not used: the address does not carry its valid spec (taskSpec)',
    ]);
    // a built-in task's address carries no spec even when the page knows some
    expect(labSearch({ ...u, settings: { ...u.settings, task: 'add' } })).not.toContain('taskSpec');
    expect(specInUse({ settings: { task: 'spec:times7' }, taskSpecs: { 'spec:times7': VOWELS } })).toBeNull();
  });
});

describe('the editor', () => {
  it('says what is wrong in one sentence, JSON syntax included (line and column)', () => {
    expect(readSpecText('')).toMatchObject({ ok: false });
    const r = readSpecText('{\n  "name": "t",\n  "prompt": "{a}=" x\n}');
    expect(r.ok || r.error).toMatch(/^spec: the text is not valid JSON \(unexpected character at line 3, column \d+\)\.$/);
    expect(readSpecText('{ "name": "t"').ok || (readSpecText('{ "name": "t"') as { error: string }).error).toMatch(/not closed/);
    expect(readSpecText('{ "name": "times7", "prompt": "{a}*7=", "vars": { "a": [0, 99] }, "answer": "a*" }').ok).toBe(false);
  });

  it('the example spec is valid, shown one key a line with ranges on one line, and summarised', () => {
    const r = readSpecText(EXAMPLE_SPEC_TEXT);
    expect(r.ok).toBe(true);
    expect(EXAMPLE_SPEC_TEXT).toContain('"a": [0, 999]');
    if (r.ok) expect(specSummary(r.spec, r.stats)).toMatch(/^Valid: task spec:times7, 1000 distinct prompts \(\d+ held out, \d+ for training\); responses up to 5 tokens with the end token\.$/);
    const data: Spec = { name: 'd', data: [{ prompt: 'a, b', answer: 'x' }, { prompt: 'c', answer: '1' }] };
    expect(JSON.parse(specText(data))).toEqual(data);
    expect(specText(data).split('\n')).toContain('    {"prompt":"a, b","answer":"x"},');
    expect(JSON.parse(specText(VOWELS))).toEqual(VOWELS);
  });

  it('five examples: the reference answer passes, the wrong one fails, held-out prompts marked', () => {
    for (const spec of [EXAMPLE_SPEC, VOWELS, { name: 'ds', prompt: 'ds:{a}{b}=', vars: { a: [0, 9], b: [0, 9] }, answer: 'a+b', scratchpad: ['a', 'a+b'] } as Spec]) {
      const ex = specExamples(spec);
      expect(ex).toHaveLength(5);
      for (const e of ex) {
        expect(e.right).toMatchObject({ correct: true, reward: 1 });
        expect(e.wrongVerdict.correct).toBe(false);
        expect(e.wrongVerdict.formatOk).toBe(true);
      }
      expect(specExamples(spec)).toEqual(ex); // seeded
    }
    expect(specExamples({ name: 'ds', prompt: 'ds:{a}{b}=', vars: { a: [0, 9], b: [0, 9] }, answer: 'a+b', scratchpad: ['a', 'a+b'] } as Spec)[0].response).toMatch(/^\d+,\d+\|\d+$/);
    expect(['41', '-7', 'abc', 'abz', 'yes!', 'x0'].map(wrongAnswer)).toEqual(['42', '-6', 'abd', 'aba', 'yes0', 'x1']);
  });
});

describe('process reward on a custom task', () => {
  it('a spec with a scratchpad has checkable steps; one without has none', () => {
    registerSpec({ name: 'pr-steps', prompt: 'p:{a}{b}=', vars: { a: [0, 9], b: [0, 9] }, answer: 'a+b', scratchpad: ['a', 'a+b'] });
    registerSpec({ name: 'pr-none', prompt: 'q:{a}=', vars: { a: [0, 99] }, answer: 'a*3' });
    expect(hasSteps('spec:pr-steps')).toBe(true);
    expect(hasSteps('spec:pr-none')).toBe(false);
    const s = { ...defaultSettings(), rewardMode: 'process' as const };
    expect(effectiveRewardMode({ ...s, task: 'spec:pr-steps' })).toBe('process');
    expect(rewardModeNotice({ ...s, task: 'spec:pr-steps' })).toBeNull();
    expect(effectiveRewardMode({ ...s, task: 'spec:pr-none' })).toBe('outcome');
    expect(settingAvailability('rewardMode', { ...s, task: 'spec:pr-steps' }).reason).toBeNull();
    expect(settingAvailability('rewardMode', { ...s, task: 'spec:pr-none' }).reason).toMatch(/no checkable steps/);
  });
});

// The one response-length rule for a custom task (page and CLI): grow to the spec's longest
// response with its EOS, never shorten, never past the setting's maximum.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitResponseLength, specResponseLength } from './responseLength.ts';
import { taskFromSpec } from '../tasks/spec/task.ts';
import { encode } from '../tasks/tokenizer.ts';

const digitsum = JSON.parse(readFileSync('public/tasks/digitsum.json', 'utf8'));

describe('fitResponseLength', () => {
  it('grows to what the spec needs, keeps a longer setting, stays within 1..20', () => {
    expect(fitResponseLength(8, 11)).toBe(11);
    expect(fitResponseLength(14, 11)).toBe(14);
    expect(fitResponseLength(8, 4)).toBe(8);
    expect(fitResponseLength(8, 25)).toBe(20);
  });
  it('the shipped digit-sum spec ("9,18,27|27" + EOS) needs 11 tokens; a refused spec leaves the length alone', () => {
    expect(specResponseLength(digitsum, 8)).toBe(11);
    expect(specResponseLength({ ...digitsum, vars: { a: [9, 2] } }, 8)).toBe(8);
  });
});

describe('no right answer is cut off', () => {
  it('every one of the digit-sum spec\'s 1,000 prompts has its right answers (scratchpad and direct) fit the fitted length with their EOS', () => {
    const task = taskFromSpec(digitsum);
    const length = specResponseLength(digitsum, 8);
    let longest = 0;
    for (let n = 0; n < 1000; n++) {
      const prompt = `ds:${String(n).padStart(3, '0')}=`;
      for (const think of [true, false]) {
        const r = task.referenceResponse(prompt, { think });
        expect(task.verify(prompt, r).correct).toBe(true);
        longest = Math.max(longest, encode(r).length + 1);
      }
    }
    expect(longest).toBe(11); // "9,18,27|27" and its EOS
    expect(longest).toBeLessThanOrEqual(length);
  });
});

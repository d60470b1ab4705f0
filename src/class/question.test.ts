/** The prediction question from a lesson's contrast, and the prediction scored against the contrast's own verdict. */
import { describe, expect, it } from 'vitest';
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { lessonQuestion, outcomeSentence } from './question.ts';

describe('prediction question', () => {
  it('lesson 1 asks about G = 8 against G = 2 and expects higher; lesson 3 expects lower; no order where the lesson has none', () => {
    const l1 = getLesson('mixed-groups')!;
    const q = lessonQuestion(l1)!;
    expect(q.text).toBe('Compared with the run “G = 2”, in the run “G = 8”, the mixed share of the groups will be:');
    expect(q.expected).toBe(0);
    expect(lessonQuestion(getLesson('entropy-collapse')!)!.expected).toBe(2);
    expect(lessonQuestion(getLesson('kl-estimators')!)!.expected).toBeNull();
    expect(lessonQuestion(getLesson('forgetting')!)!.expected).toBe(0); // the leash is expected to protect reverse: the fresh seeds judge it
    expect(lessonQuestion(getLesson('grpo-vs-best-of-n')!)).toBeNull(); // no contrast
    expect(LESSONS.filter((l) => lessonQuestion(l)).length).toBe(LESSONS.filter((l) => l.contrast).length);
  });

  it('every lesson\'s question reads as a sentence: each variant named as a run, in quotes, whatever its name is (a setting, a noun, a clause)', () => {
    const asked = LESSONS.flatMap((l) => { const q = lessonQuestion(l); return q ? [{ l, q }] : []; });
    expect(asked.length).toBeGreaterThanOrEqual(8);
    for (const { l, q } of asked) {
      const name = (v: number) => l.variants[v].short ?? l.variants[v].label;
      expect(q.text, l.id).toBe(`Compared with the run “${name(q.against)}”, in the run “${name(q.asked)}”, the ${l.contrast!.what} will be:`);
      expect(q.text, l.id).not.toMatch(/\bWith .* instead of /); // "With whole sum instead of last digit"
      // the class results read the measured quantity back out of the question
      expect(q.text.replace(/^.*, the (.*) will be:$/, '$1'), l.id).toBe(l.contrast!.what);
      // every contrast states its margin, in the number's units (0 would make "about the same" unreachable)
      expect(l.contrast!.margin, l.id).toBeGreaterThan(0);
    }
    // the clause-named variants that read wrong before
    expect(lessonQuestion(getLesson('scratchpad')!)!.text).toBe('Compared with the run “last digit”, in the run “whole sum”, the rise of the thinking share will be:');
    expect(lessonQuestion(getLesson('reward-hacking')!)!.text).toBe('Compared with the run “weak verifier”, in the run “strict verifier”, the strict accuracy of the last steps will be:');
  });

  it('the prediction is scored against the contrast\'s verdict; an unclear one settles no prediction', () => {
    expect(outcomeSentence(2, { outcome: 0 })).toBe('you predicted lower; the two runs on this seed showed higher — not what you predicted ✗.');
    expect(outcomeSentence(0, { outcome: 0 })).toBe('you predicted higher; the two runs on this seed showed higher — as you predicted ✓.');
    expect(outcomeSentence(1, { outcome: 1 })).toContain('showed about the same — as you predicted ✓');
    expect(outcomeSentence(0, { outcome: null })).toBe('you predicted higher; the two runs on this seed cannot tell yet (the interval reaches across the margin): the class pool, with many seeds, can.');
    expect(outcomeSentence(null, { outcome: 2 })).toBe('no prediction; the two runs on this seed showed lower.');
  });
});

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

  it('the prediction is scored against the contrast\'s outcome, and the lesson\'s claim on a line of its own: being right is not the claim holding', () => {
    // the case: predicted higher, the runs showed lower, which is what the lesson claims
    expect(outcomeSentence(0, { outcome: 2, expected: 2 })).toEqual({
      prediction: 'You predicted higher. On this seed the runs showed lower: your prediction was not borne out.',
      claim: 'The lesson\'s claim (lower) held on this seed.',
    });
    // right against the claim: the prediction was borne out, the claim did not hold
    expect(outcomeSentence(2, { outcome: 2, expected: 0 })).toEqual({
      prediction: 'You predicted lower. On this seed the runs showed lower: your prediction was borne out.',
      claim: 'The lesson\'s claim (higher) did not hold on this seed.',
    });
    // right with the claim
    expect(outcomeSentence(1, { outcome: 1, expected: 1 })).toEqual({
      prediction: 'You predicted about the same. On this seed the runs showed about the same: your prediction was borne out.',
      claim: 'The lesson\'s claim (about the same) held on this seed.',
    });
    // no ticks or crosses beside the claim to read as "you were right"
    for (const p of [0, 1, 2] as const) for (const o of [0, 1, 2, null] as const) {
      const { prediction, claim } = outcomeSentence(p, { outcome: o, expected: 0 });
      expect(`${prediction} ${claim}`).not.toMatch(/[✓✗]/);
      expect(prediction.includes('not borne out'), `${p} vs ${o}`).toBe(o !== null && p !== o);
      expect(claim!.includes('did not hold'), `${p} vs ${o}`).toBe(o !== null && o !== 0);
    }
  });

  it('an unclear contrast settles neither the prediction nor the claim; a lesson that claims no order has no claim line', () => {
    expect(outcomeSentence(0, { outcome: null, expected: 0 })).toEqual({
      prediction: 'You predicted higher. On this seed the runs cannot tell (the interval reaches across the margin): the class pool, with many seeds, can.',
      claim: 'The lesson\'s claim (higher): this seed cannot tell.',
    });
    expect(outcomeSentence(null, { outcome: 2, expected: 0 })).toEqual({ prediction: 'You made no prediction. On this seed the runs showed lower.', claim: 'The lesson\'s claim (higher) did not hold on this seed.' });
    expect(outcomeSentence(2, { outcome: 0, expected: null })).toEqual({ prediction: 'You predicted lower. On this seed the runs showed higher: your prediction was not borne out.', claim: null });
  });
});

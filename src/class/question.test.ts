/** The prediction question from a lesson's contrast, and the outcome on one seed. */
import { describe, expect, it } from 'vitest';
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { lessonQuestion, outcomeOf, outcomeSentence } from './question.ts';

describe('prediction question', () => {
  it('lesson 1 asks about G = 8 against G = 2 and expects higher; lesson 3 expects lower; no order where the lesson has none', () => {
    const l1 = getLesson('mixed-groups')!;
    const q = lessonQuestion(l1)!;
    expect(q.text).toBe('Compared with the run “G = 2”, in the run “G = 8”, the mixed share of the groups will be:');
    expect(q.expected).toBe(0);
    expect(lessonQuestion(getLesson('entropy-collapse')!)!.expected).toBe(2);
    expect(lessonQuestion(getLesson('kl-estimators')!)!.expected).toBeNull();
    expect(lessonQuestion(getLesson('grpo-vs-best-of-n')!)).toBeNull(); // no contrast
    expect(LESSONS.filter((l) => lessonQuestion(l)).length).toBe(LESSONS.filter((l) => l.contrast).length);
  });

  it('every lesson\'s question reads as a sentence: each variant named as a run, in quotes, whatever its name is (a setting, a noun, a clause)', () => {
    const asked = LESSONS.flatMap((l) => { const q = lessonQuestion(l); return q ? [{ l, q }] : []; });
    expect(asked.length).toBeGreaterThanOrEqual(8);
    for (const { l, q } of asked) {
      const name = (v: number) => l.variants[v].short ?? l.variants[v].label;
      expect(q.text, l.id).toBe(`Compared with the run “${name(q.against)}”, in the run “${name(q.asked)}”, the ${l.contrast!.what} will be:`);
      expect(q.text, l.id).not.toMatch(/\bWith .* instead of /); // "With thinking does not pay instead of thinking pays"
      // the class results read the measured quantity back out of the question
      expect(q.text.replace(/^.*, the (.*) will be:$/, '$1'), l.id).toBe(l.contrast!.what);
      const said = outcomeSentence(l, q, 0, 0.5, 0.25);
      expect(said, l.id).toContain(`(0.50 in “${name(q.asked)}”, 0.25 in “${name(q.against)}”)`);
    }
    // the clause-named variants that read wrong before
    expect(lessonQuestion(getLesson('scratchpad')!)!.text).toBe('Compared with the run “thinking pays”, in the run “thinking does not pay”, the rise of the thinking share will be:');
    expect(lessonQuestion(getLesson('reward-hacking')!)!.text).toBe('Compared with the run “weak verifier”, in the run “strict verifier”, the strict accuracy of the last steps will be:');
  });

  it('the outcome: within a tenth of the larger is about the same', () => {
    expect(outcomeOf(0.82, 0.41)).toBe(0);
    expect(outcomeOf(0.41, 0.82)).toBe(2);
    expect(outcomeOf(0.95, 1)).toBe(1);
    expect(outcomeOf(0.89, 1)).toBe(2);
    expect(outcomeOf(NaN, 1)).toBeNull();
    const l1 = getLesson('mixed-groups')!;
    expect(outcomeSentence(l1, lessonQuestion(l1)!, 2, 0.82, 0.41)).toBe('you predicted lower; on this seed: higher (0.82 in “G = 8”, 0.41 in “G = 2”) ✓ the lesson\'s claim.');
    expect(outcomeSentence(l1, lessonQuestion(l1)!, 0, 0.3, 0.41)).toBe('you predicted higher; on this seed: lower (0.30 in “G = 8”, 0.41 in “G = 2”) ✗ not the lesson\'s claim on this seed.');
  });
});

/** The prediction question from a lesson's contrast, and the outcome on one seed. */
import { describe, expect, it } from 'vitest';
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { lessonQuestion, outcomeOf, outcomeSentence } from './question.ts';

describe('prediction question', () => {
  it('lesson 1 asks about G = 8 against G = 2 and expects higher; lesson 3 expects lower; no order where the lesson has none', () => {
    const l1 = getLesson('mixed-groups')!;
    const q = lessonQuestion(l1)!;
    expect(q.text).toBe('With G = 8 instead of G = 2, the mixed share of the groups will be:');
    expect(q.expected).toBe(0);
    expect(lessonQuestion(getLesson('entropy-collapse')!)!.expected).toBe(2);
    expect(lessonQuestion(getLesson('kl-estimators')!)!.expected).toBeNull();
    expect(lessonQuestion(getLesson('grpo-vs-best-of-n')!)).toBeNull(); // no contrast
    expect(LESSONS.filter((l) => lessonQuestion(l)).length).toBe(LESSONS.filter((l) => l.contrast).length);
  });

  it('the outcome: within a tenth of the larger is about the same', () => {
    expect(outcomeOf(0.82, 0.41)).toBe(0);
    expect(outcomeOf(0.41, 0.82)).toBe(2);
    expect(outcomeOf(0.95, 1)).toBe(1);
    expect(outcomeOf(0.89, 1)).toBe(2);
    expect(outcomeOf(NaN, 1)).toBeNull();
    const l1 = getLesson('mixed-groups')!;
    expect(outcomeSentence(l1, lessonQuestion(l1)!, 2, 0.82, 0.41)).toBe('you predicted lower; on this seed: higher (0.82 with G = 8, 0.41 with G = 2) ✓ the lesson\'s claim.');
    expect(outcomeSentence(l1, lessonQuestion(l1)!, 0, 0.3, 0.41)).toBe('you predicted higher; on this seed: lower (0.30 with G = 8, 0.41 with G = 2) ✗ not the lesson\'s claim on this seed.');
  });
});

// Blind until the class predicts (issue 48): each lesson names the phrases of its explanation that
// state the outcome (Lesson.reveals), and nothing a blind card or a blind projector shows holds
// them. The browser walk (e2e/lab-blind.spec.ts) reads the pages themselves; this reads the data they show.
import { describe, expect, it } from 'vitest';
import { lessonQuestion } from '../class/question.ts';
import { LESSONS } from '../rl/lessons.ts';
import { CHART_QUESTIONS, lessonCaptions } from './presenterView.ts';

const asked = LESSONS.filter((l) => lessonQuestion(l));
const has = (text: string, phrase: string) => text.toLowerCase().includes(phrase.toLowerCase());

describe('blind until the class predicts', () => {
  it('every lesson with a question names the phrases that state its outcome, each taken from its explanation', () => {
    for (const l of asked) {
      expect(l.reveals?.length ?? 0, l.id).toBeGreaterThanOrEqual(2);
      const explanation = [l.watch, ...lessonCaptions(l.id)].join(' ');
      for (const p of l.reveals!) expect(has(explanation, p), `${l.id}: "${p}" is not in its explanation`).toBe(true);
    }
  });

  it('no title, variant name, question or blind caption states a lesson\'s outcome', () => {
    const everywhere = [...LESSONS.map((l) => l.title), ...Object.values(CHART_QUESTIONS)];
    for (const l of asked) {
      const shown = [...everywhere, ...l.variants.flatMap((v) => [v.label, v.short ?? '']), lessonQuestion(l)!.text];
      for (const p of l.reveals!) for (const t of shown) expect(has(t, p), `${l.id}: "${p}" shows in "${t}"`).toBe(false);
    }
  });
});

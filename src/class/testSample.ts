/** A result for the class tests (test-only): judged at its variant's verdict step unless told. */
import { getLesson } from '../rl/lessons.ts';
import { contractHash } from '../rl/lessonContract.ts';
import { APP_VERSION, type ResultCode } from './code.ts';

export const sample = (o: Partial<ResultCode> = {}): ResultCode => {
  const lessonId = o.lessonId ?? 'mixed-groups', variant = o.variant ?? 1;
  const verdict = o.verdict ?? (o.held === false ? 'fails' : 'holds');
  return {
    app: APP_VERSION, lessonId, variant, seed: 4127, weights: '0123456789abcdef', steps: getLesson(lessonId)!.variants[variant].claim.steps,
    contract: contractHash(getLesson(lessonId)!), claim: 0.0625, contrast: 0.8214285, prediction: 2, ...o, verdict, held: verdict === 'holds',
  };
};

/**
 * 25 students of lesson 1, one code each (G = 8, seeds 100–124): reasons 1 (right) ×14, 0 (a
 * bigger batch) ×6, 2 ×3, 3 ×2; concept before → after: wrong → wrong 5, wrong → right 14,
 * right → wrong 1, right → right 5 (6 of 25 right before, 19 of 25 after: ⟨g⟩ = 13/19).
 */
export const classOf25 = (): ResultCode[] => {
  const explain = [...Array<number>(14).fill(1), ...Array<number>(6).fill(0), ...Array<number>(3).fill(2), ...Array<number>(2).fill(3)];
  const cells: [boolean, boolean][] = [...Array(5).fill([false, false]), ...Array(14).fill([false, true]), [true, false], ...Array(5).fill([true, true])];
  // the explain choices and the concept answers paired in another order (7 is prime to 25)
  return explain.map((e, i) => {
    const [pre, post] = cells[(i * 7) % 25];
    return sample({ seed: 100 + i, variant: 1, explain: e, concept: { pre, post } });
  });
};

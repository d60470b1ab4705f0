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

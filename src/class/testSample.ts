/** A result for the class tests (test-only). */
import { APP_VERSION, type ResultCode } from './code.ts';

export const sample = (o: Partial<ResultCode> = {}): ResultCode => ({
  app: APP_VERSION, lessonId: 'mixed-groups', variant: 1, seed: 4127, weights: '0123456789abcdef', held: true, steps: 50,
  claim: 0.0625, contrast: 0.8214285, prediction: 2, ...o,
});


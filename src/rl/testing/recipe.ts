import type { Settings } from '../settings.ts';

/** The GRPO recipe the learning tests use on both backends (found by the sweeps in the closing notes). */
export const LEARNING_RECIPE: Partial<Settings> = { promptsPerStep: 32, numGenerations: 8, learningRate: 7e-4, numIterations: 2, temperature: 1, seed: 1, measureKl: false };

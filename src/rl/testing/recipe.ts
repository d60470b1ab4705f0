import type { Settings } from '../settings.ts';

/**
 * The GRPO recipe the learning tests use on both backends (found by the sweeps in the closing notes).
 * The settings table's defaults are this recipe plus a 10-step warm-up (which made a 16-prompt
 * run on add-d2 go from −5 to +19 points in 60 steps); it is spelled out here, warm-up off as
 * when it was measured, so a change of defaults cannot silently change what the tests prove.
 */
export const LEARNING_RECIPE: Partial<Settings> = { promptsPerStep: 32, numGenerations: 8, learningRate: 7e-4, numIterations: 2, temperature: 1, seed: 1, measureKl: false, warmupSteps: 0 };

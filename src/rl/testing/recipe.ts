import type { Settings } from '../settings.ts';

/**
 * The GRPO recipe the learning tests use on both backends (found by the sweeps in the closing notes).
 * The settings table's defaults are the same recipe; it is spelled out here so a change of
 * defaults cannot silently change what the learning tests prove.
 */
export const LEARNING_RECIPE: Partial<Settings> = { promptsPerStep: 32, numGenerations: 8, learningRate: 7e-4, numIterations: 2, temperature: 1, seed: 1, measureKl: false };

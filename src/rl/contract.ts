/**
 * A lesson's evaluation contract: what its verdict is judged on, fixed before any run is judged
 * (the chapter: a reliable run begins with an evaluation contract).
 *
 *   steps     the verdict step: every variant runs to it, Play stops there, and the verdict is
 *             judged there once (claims.ts judges the run truncated at it)
 *   size      the held-out prompts read in full at step 0 and at the verdict step (the same
 *             prompts for everyone, the same draws before and after: evaluation.ts)
 *   pinned    the settings that move results, which the lesson sets itself (lessons.test.ts
 *             checks every lesson sets them, and that its variants differ only in `varies`)
 *
 * A hash of the contract and the lesson's settings names it: the recorded seeds table
 * (lessonRecords.ts) and a class's share codes carry it, so a changed lesson cannot be judged by an
 * old record. Engine layer: pure.
 */
import type { Settings } from './settings.ts';

export interface EvalContract {
  /** The verdict step. */
  steps: number;
  /** Held-out prompts read in full at step 0 and at the verdict step, and greedy at every evaluation between. */
  size: number;
  /** Further steps where the full set is read (`npm run lessons -- --probe`, choosing a verdict step on seeds 1–6; never a lesson's own). */
  probes?: readonly number[];
}

/**
 * 256 held-out prompts: a pass rate near 0.3 reads ±0.029 (one standard error) there, and a paired
 * difference of two readings of the same prompts and draws less (most prompts answer alike at both
 * ends), against claims' thresholds of 0.02–0.15. 32 prompts read it ±0.08.
 */
export const CONTRACT_EVAL_SIZE = 256;

/** The settings that move a lesson's results: each lesson pins every one of them (its own settings or every variant's). */
export const PINNED: readonly (keyof Settings)[] = [
  'learningRate', 'warmupSteps', 'numIterations', 'promptsPerStep', 'numGenerations', 'temperature', 'beta', 'measureKl', 'evalEvery', 'maxCompletionLength', 'formatReward',
];

/** The settings that shape neither the objective nor the data a run trains on: which seed it draws, and how often it evaluates between the contract's readings. */
export const NOT_RUN_SHAPING: readonly (keyof Settings)[] = ['seed', 'evalEvery'];

/** A run's settings as one 32-bit number: every setting but NOT_RUN_SHAPING (what each step records, metrics.ts settings_hash). */
export function runSettingsHash(s: Settings): number {
  const shaping = Object.fromEntries(Object.entries(s).filter(([k]) => !NOT_RUN_SHAPING.includes(k as keyof Settings)));
  return parseInt(hash32(stableJson(shaping)), 16);
}

/** JSON with sorted keys (a stable text to hash). */
export function stableJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(stableJson).join(',')}]`;
  if (x && typeof x === 'object') return `{${Object.keys(x).sort().map((k) => `${JSON.stringify(k)}:${stableJson((x as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(x ?? null);
}

/** FNV-1a, 32 bits, as 8 hex digits. */
export function hash32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The settings every lesson pins (contract.ts PINNED), at the values the lab's defaults had when
 * the lessons' claims were fixed: a later change of a default does not move a lesson, and a
 * lesson's own settings override these.
 */
export const LESSON_PINS: Readonly<Partial<Settings>> = Object.freeze({
  learningRate: 7e-4, warmupSteps: 10, numIterations: 2, promptsPerStep: 32, numGenerations: 8, temperature: 1,
  beta: 0, measureKl: true, evalEvery: 10, maxCompletionLength: 8, formatReward: 0.1,
});
export const pin = (own: Partial<Settings>): Partial<Settings> => ({ ...LESSON_PINS, ...own });

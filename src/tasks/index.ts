/**
 * The tasks layer in one import: registry, contract types, split, metrics, weak verifiers.
 * Pure TS, Node- and browser-safe (no DOM, no React, no fs).
 */
export { TASKS, getTask, WEAK_VERIFIERS, getWeakVerifier, type WeakVerifier } from './registry.ts';
export { DEFAULT_WEIGHTS, PromptError, type Instance, type RewardWeights, type Task, type Verdict } from './types.ts';
export { isHeldOut, samplePrompts, HELDOUT_FRACTION, type Split } from './split.ts';
export { passAtK, mixedGroupProbability } from './metrics.ts';
export { MAX_ANSWER_CHARS, MAX_RESPONSE_CHARS, RESPONSE_RULES, extractAnswer } from './common.ts';
export { ADVERSARIAL_KINDS, type AdversarialKind } from './weak.ts';
export { ADVERSARIAL_FILES, parseAdversarialJsonl, type AdversarialCase } from './adversarial.ts';

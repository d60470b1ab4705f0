/**
 * Custom tasks written as data (docs/custom-tasks.md): the expression language, the spec
 * format and its one-way validation, the Task built from a spec, and the file parsers.
 */
export { parseExpression, evaluate, typeOf, quote, LanguageError, FUNCTIONS, type Node, type Value } from './language.ts';
export {
  validateSpec, compileSpec, promptCountPhrase, specTaskId, SpecError, SPEC_KEYS, MIN_HELDOUT_PROMPTS, MIN_TRAIN_PROMPTS, MODEL_POSITIONS, MAX_RESPONSE_TOKENS,
  type Spec, type GeneratedSpec, type DataSpec, type DataPair, type SpecResult, type SpecStats,
} from './spec.ts';
export { taskFromSpec, registerSpec } from './task.ts';
export { parseSpecText, parseDataCsv, parseDataJsonl, MAX_SPEC_TEXT, type DataResult } from './data.ts';

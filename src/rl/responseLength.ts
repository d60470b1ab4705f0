/**
 * The one rule for a custom task's response length, shared by the page ("Use this task", a base
 * file that carries a spec, a cold start, "Lesson 1 on this task") and the CLI (--task-file):
 * the longest reference response the spec can produce (its thinking form when it has a
 * scratchpad, plus its EOS — validateSpec's `maxResponseTokens`) must fit, so Max response length
 * grows to it; a longer setting is kept (never shortened), and it never passes the setting's
 * maximum (the validator refuses a spec whose responses would need more). Without this a
 * scratchpad such as "3,9,12|12" is cut off at the default 8 tokens and graded wrong.
 */
import { MAX_RESPONSE_TOKENS, validateSpec } from '../tasks/spec/spec.ts';

/** Max response length for a task whose longest response needs `needed` tokens (EOS included), from the current setting. */
export function fitResponseLength(current: number, needed: number): number {
  const c = Number.isFinite(current) ? Math.round(current) : MAX_RESPONSE_TOKENS;
  const n = Number.isFinite(needed) ? Math.round(needed) : 0;
  return Math.max(1, Math.min(MAX_RESPONSE_TOKENS, Math.max(c, n)));
}

/** The same rule from a spec (validated again here: a spec it refuses leaves the length as it is). */
export function specResponseLength(spec: unknown, current: number): number {
  const r = validateSpec(spec);
  return r.ok ? fitResponseLength(current, r.stats.maxResponseTokens) : current;
}

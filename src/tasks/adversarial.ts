/**
 * Adversarial cases: hostile or unusual responses with hand-written expected verdicts, kept
 * as JSONL in data/adversarial/ (one file per family: arithmetic, countdown, strings).
 *
 * One line: { task, prompt, response, kind, correct, formatOk, fools, note }
 *   kind     one of ADVERSARIAL_KINDS ("several-answers", "long-answer", ...)
 *   correct, formatOk   what the strict verifier must say
 *   fools    ids of weak verifiers that wrongly accept this response (exploits)
 * This module only parses text, so it stays Node- and browser-safe (the caller reads files).
 */
import { ADVERSARIAL_KINDS, type AdversarialKind } from './weak.ts';

export interface AdversarialCase {
  task: string;
  prompt: string;
  response: string;
  kind: AdversarialKind;
  correct: boolean;
  formatOk: boolean;
  fools: string[];
  note: string;
  /** Where it came from, "file:line", for failure messages. */
  source: string;
}

/** The family files, relative to the repository root. */
export const ADVERSARIAL_FILES = ['data/adversarial/arithmetic.jsonl', 'data/adversarial/countdown.jsonl', 'data/adversarial/strings.jsonl'];

/** Parses one JSONL file's text; throws naming file:line on any malformed case. */
export function parseAdversarialJsonl(text: string, file: string): AdversarialCase[] {
  const out: AdversarialCase[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    const o = JSON.parse(line) as Record<string, unknown>;
    const str = (k: string) => {
      if (typeof o[k] !== 'string') throw new Error(`${where}: field ${k} must be a string`);
      return o[k] as string;
    };
    const bool = (k: string) => {
      if (typeof o[k] !== 'boolean') throw new Error(`${where}: field ${k} must be a boolean`);
      return o[k] as boolean;
    };
    const kind = str('kind');
    if (!(ADVERSARIAL_KINDS as readonly string[]).includes(kind)) throw new Error(`${where}: unknown kind ${kind}`);
    if (!Array.isArray(o.fools) || o.fools.some((f) => typeof f !== 'string')) throw new Error(`${where}: fools must be a string array`);
    out.push({
      task: str('task'),
      prompt: str('prompt'),
      response: str('response'),
      kind: kind as AdversarialKind,
      correct: bool('correct'),
      formatOk: bool('formatOk'),
      fools: o.fools as string[],
      note: typeof o.note === 'string' ? o.note : '',
      source: where,
    });
  });
  return out;
}

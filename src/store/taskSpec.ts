/**
 * The page's side of custom task specs (docs/custom-tasks.md), pure functions: the spec in an
 * address (the `taskSpec` parameter: base64url of the spec's JSON, or the JSON itself), the
 * editor's reading of its text, and its live examples. Everything outside the page sends goes
 * through validateSpec (src/tasks/spec/), the one-way decoder: these never throw and answer a
 * spec or ONE plain-text sentence.
 */
import { Rng } from '../model/rng.ts';
import { isHeldOut } from '../tasks/split.ts';
import { MAX_SPEC_TEXT, promptCountPhrase, specTaskId, taskFromSpec, validateSpec, type Spec, type SpecResult, type SpecStats } from '../tasks/spec/index.ts';
import type { Verdict } from '../tasks/types.ts';

/**
 * What the editor opens with: the 7 times table on 0..999, as public/tasks/times7.json (it cold-starts in 500 SFT
 * steps on the CPU reference; its 800 training prompts are too many to memorise, so GRPO raises held-out accuracy —
 * on 0..99 the 80 training prompts are learnt by heart and held-out accuracy stalls: lesson 9's warning).
 */
export const EXAMPLE_SPEC: Spec = { name: 'times7', title: 'The 7 times table', prompt: '{a}*7=', vars: { a: [0, 999] }, answer: 'a*7' };
export const EXAMPLE_SPEC_TEXT = specText(EXAMPLE_SPEC);
/** A `taskSpec` parameter longer than this is refused unread (a data spec of 5000 pairs is about 150 000 characters). */
export const MAX_SPEC_PARAM = 200_000;
/** A share link longer than this may be cut by mail programs and servers: the editor says so (the link still works here). */
export const LONG_LINK = 8000;
/** Notices in the address list are at most this long (the sentence is cut at a word). */
const MAX_NOTICE = 230;

/** The spec as the editor shows it: one key per line, short lists kept on one line. */
export function specText(spec: Spec): string {
  if ('data' in spec) { // one pair a line
    const head = JSON.stringify({ ...spec, data: [] }, null, 2).replace(/\n}$/, '').replace(/"data": \[\]/, '"data": [');
    return `${head}\n${spec.data.map((d) => `    ${JSON.stringify(d)}`).join(',\n')}\n  ]\n}`;
  }
  const text = JSON.stringify(spec, null, 2);
  // [2, 99] on one line: a range reads as a range (only lists of numbers: a string's own spaces are kept)
  return text.replace(/\[\s+(-?\d+(?:,\s+-?\d+)*)\s+\]/g, (_, inner: string) => `[${inner.split(/,\s+/).join(', ')}]`);
}

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, s.lastIndexOf(' ', n - 1) > n / 2 ? s.lastIndexOf(' ', n - 1) : n - 1)}…`);

/** UTF-8 bytes → base64url without padding. */
function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The `taskSpec` parameter of a spec: base64url of its compact JSON. */
export function encodeSpecParam(spec: Spec): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify(spec)));
}

/**
 * A `taskSpec` parameter → validateSpec: base64url of the JSON (what the lab writes), or the JSON
 * itself (a hand-written link). Never throws; a refusal is one sentence for the address notices.
 */
export function decodeSpecParam(value: unknown): SpecResult {
  const refuse = (why: string): SpecResult => ({ ok: false, error: clip(`the task spec in the address (taskSpec) was not used: ${why}`, MAX_NOTICE) });
  if (typeof value !== 'string' || value.trim() === '') return refuse('it is empty.');
  if (value.length > MAX_SPEC_PARAM) return refuse(`it has ${value.length} characters, at most ${MAX_SPEC_PARAM} are read.`);
  let text: string;
  if (value.trimStart().startsWith('{')) text = value;
  else {
    if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return refuse('it is neither base64url text nor a JSON object.');
    try {
      const bin = atob(value.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/'));
      text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    } catch {
      return refuse('its base64url text does not decode to UTF-8 text.');
    }
  }
  const r = readSpecText(text);
  return r.ok ? r : refuse(r.error);
}

/** The editor's text → validateSpec, with a JSON syntax error said in words (line and column). Never throws. */
export function readSpecText(text: unknown): SpecResult {
  if (typeof text !== 'string') return { ok: false, error: 'spec: the text is not text.' };
  if (text.length > MAX_SPEC_TEXT) return { ok: false, error: `spec: the text has ${text.length} characters, at most ${MAX_SPEC_TEXT} are allowed.` };
  if (text.trim() === '') return { ok: false, error: 'spec: the text is empty; write a JSON object such as { "name": "times7", "prompt": "{a}*7=", "vars": { "a": [0, 99] }, "answer": "a*7" }.' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `spec: the text is not valid JSON (${jsonWhere(e, text)}).` };
  }
  return validateSpec(json);
}

/** Where JSON.parse stopped, as line and column (the engines' messages differ; none is shown as it is). */
function jsonWhere(e: unknown, text: string): string {
  const m = e instanceof Error ? e.message : '';
  if (/end of (JSON )?(input|data)|Unterminated|unterminated/i.test(m)) return 'it ends in the middle of a value: a quote, bracket or brace is not closed';
  const pos = Number(/position (\d+)/.exec(m)?.[1] ?? NaN);
  const at = Number.isInteger(pos) ? pos : -1;
  if (at >= text.trimEnd().length) return 'it ends in the middle of a value: a quote, bracket or brace is not closed';
  const lc = /line (\d+) column (\d+)/.exec(m);
  if (lc) return `unexpected character at line ${lc[1]}, column ${lc[2]}`;
  if (at < 0) return 'check the quotes, commas and brackets';
  const before = text.slice(0, at).split('\n');
  return `unexpected character at line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** The spec of the custom task a state's run uses, or null (a built-in task, or a custom one this page has no spec for). */
export function specInUse(s: { settings: { task: string }; taskSpecs?: Record<string, Spec> }): Spec | null {
  const spec = s.taskSpecs && Object.prototype.hasOwnProperty.call(s.taskSpecs, s.settings.task) ? s.taskSpecs[s.settings.task] : undefined;
  return spec && specTaskId(spec.name) === s.settings.task ? spec : null;
}

/** One line on what a valid spec can do: its prompts, the split, the longest response. */
export function specSummary(spec: Spec, stats: SpecStats): string {
  const levels = stats.levels.map((l, i) => `${stats.levels.length > 1 ? `difficulty ${i + 1}: ` : ''}${promptCountPhrase(l)}`);
  return `Valid: task ${specTaskId(spec.name)}, ${levels.join('; ')}; responses up to ${stats.maxResponseTokens} tokens with the end token.`;
}

export interface SpecExample {
  prompt: string;
  difficulty: number;
  heldout: boolean;
  /** The reference response (the thinking form when the spec has a scratchpad) and the verifier's verdict on it. */
  response: string;
  right: Verdict;
  /** A wrong answer (the reference's final answer changed) and the verdict on it. */
  wrong: string;
  wrongVerdict: Verdict;
}

/** A wrong answer near the right one: a number plus one, letters with the last one moved on, any other text changed at its end. */
export function wrongAnswer(answer: string): string {
  if (/^-?\d+$/.test(answer)) return String(BigInt(answer) + 1n);
  const last = answer.at(-1) ?? '';
  if (/^[a-z]$/.test(last)) return `${answer.slice(0, -1)}${last === 'z' ? 'a' : String.fromCharCode(last.charCodeAt(0) + 1)}`;
  return last === '0' ? `${answer.slice(0, -1)}1` : `${answer.slice(0, -1)}0`;
}

/** `n` prompts drawn as a run draws them (difficulties in turn), each with the verdicts on its reference response and on a wrong answer. */
export function specExamples(spec: Spec, n = 5, seed = 1): SpecExample[] {
  const task = taskFromSpec(spec);
  const rng = new Rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const d = task.difficulties[i % task.difficulties.length];
    const { prompt } = task.generate(rng, d);
    const response = task.referenceResponse(prompt, { think: true });
    const cut = response.lastIndexOf('|');
    const wrong = `${response.slice(0, cut + 1)}${wrongAnswer(response.slice(cut + 1))}`;
    return { prompt, difficulty: d, heldout: isHeldOut(task.id, prompt), response, right: task.verify(prompt, response), wrong, wrongVerdict: task.verify(prompt, wrong) };
  });
}

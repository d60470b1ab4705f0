/**
 * Reading task specs and their data from text (a file, an upload): bounded, never throwing,
 * one sentence on a refusal. What they return still goes through validateSpec.
 *
 *   parseSpecText   a JSON task spec (at most MAX_SPEC_TEXT characters)
 *   parseDataCsv    two columns, prompt and answer; an optional header row "prompt,answer";
 *                   a field may be quoted ("a,b", with "" for a quote); blank lines are skipped
 *   parseDataJsonl  one object per line with "prompt" and "answer" (text or a whole number);
 *                   other keys are ignored, so `npm run verify -- --sample N` output is data
 */
import { quote } from './language.ts';
import { MAX_DATA_ROWS, validateSpec, type DataPair, type SpecResult } from './spec.ts';

export const MAX_SPEC_TEXT = 512 * 1024;
export type DataResult = { ok: true; data: DataPair[] } | { ok: false; error: string };

/** JSON text → validateSpec. */
export function parseSpecText(text: unknown): SpecResult {
  if (typeof text !== 'string') return { ok: false, error: 'spec: the file is not text.' };
  if (text.length > MAX_SPEC_TEXT) return { ok: false, error: `spec: the file has ${text.length} characters, at most ${MAX_SPEC_TEXT} are allowed.` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'spec: the file is not valid JSON.' };
  }
  return validateSpec(json);
}

function lines(text: unknown): { ok: true; rows: [number, string][] } | { ok: false; error: string } {
  if (typeof text !== 'string') return { ok: false, error: 'data: the file is not text.' };
  if (text.length > MAX_SPEC_TEXT) return { ok: false, error: `data: the file has ${text.length} characters, at most ${MAX_SPEC_TEXT} are allowed.` };
  const rows: [number, string][] = [];
  text.split('\n').forEach((l, i) => {
    const line = l.endsWith('\r') ? l.slice(0, -1) : l;
    if (line.trim() !== '') rows.push([i + 1, line]);
  });
  if (rows.length === 0) return { ok: false, error: 'data: the file has no rows.' };
  if (rows.length > MAX_DATA_ROWS + 1) return { ok: false, error: `data: the file has ${rows.length} rows, at most ${MAX_DATA_ROWS} are allowed.` };
  return { ok: true, rows };
}

/** One CSV row's fields, or null when its quotes do not close. */
function csvFields(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] === '"') { field += '"'; i += 2; continue; }
          i++;
          break;
        }
        field += line[i++];
      }
      if (i < line.length && line[i] !== ',') return null;
    } else {
      const end = line.indexOf(',', i);
      field = end < 0 ? line.slice(i) : line.slice(i, end);
      if (field.includes('"')) return null;
      i = end < 0 ? line.length : end;
    }
    out.push(field);
    if (i >= line.length) return out;
    i++; // the comma
  }
}

export function parseDataCsv(text: unknown): DataResult {
  const r = lines(text);
  if (!r.ok) return r;
  const data: DataPair[] = [];
  for (const [n, line] of r.rows) {
    const f = csvFields(line);
    if (!f) return { ok: false, error: `data line ${n}: a quoted field is not closed, or a quote sits inside an unquoted field.` };
    if (f.length !== 2) return { ok: false, error: `data line ${n}: has ${f.length} fields, a row is prompt,answer (quote a field that contains a comma).` };
    if (data.length === 0 && n === r.rows[0][0] && f[0].trim().toLowerCase() === 'prompt' && f[1].trim().toLowerCase() === 'answer') continue;
    data.push({ prompt: f[0], answer: f[1] });
  }
  if (data.length > MAX_DATA_ROWS) return { ok: false, error: `data: the file has ${data.length} pairs, at most ${MAX_DATA_ROWS} are allowed.` };
  return { ok: true, data };
}

export function parseDataJsonl(text: unknown): DataResult {
  const r = lines(text);
  if (!r.ok) return r;
  const data: DataPair[] = [];
  for (const [n, line] of r.rows) {
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      return { ok: false, error: `data line ${n}: not valid JSON.` };
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return { ok: false, error: `data line ${n}: not a JSON object with "prompt" and "answer".` };
    const rec = o as Record<string, unknown>;
    const p = Object.prototype.hasOwnProperty.call(rec, 'prompt') ? rec.prompt : undefined;
    const a = Object.prototype.hasOwnProperty.call(rec, 'answer') ? rec.answer : undefined;
    if (typeof p !== 'string') return { ok: false, error: `data line ${n}: "prompt" must be text.` };
    if (typeof a === 'number' && Number.isInteger(a) && Math.abs(a) <= 1e15) data.push({ prompt: p, answer: a === 0 ? '0' : String(a) });
    else if (typeof a === 'string') data.push({ prompt: p, answer: a });
    else return { ok: false, error: `data line ${n}: "answer" must be text or a whole number, got ${quote(JSON.stringify(a) ?? 'nothing', 20)}.` };
  }
  return { ok: true, data };
}

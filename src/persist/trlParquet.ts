/**
 * TRL's completion logs, read one way: `completions/completions_NNNNN.parquet`, written by
 * GRPOTrainer with `log_completions=True` through pandas' `DataFrame.to_parquet` (pyarrow,
 * snappy): one row per completion, columns `step`, `prompt`, `completion`, one per reward function
 * (named after it), any extra dataset fields, and `advantage` (older TRL: step, prompt, completion
 * only). A conversational prompt or completion (a list of {role, content}) is shown as its lines.
 *
 * Read with hyparquet (pure JavaScript, browser and Node). Before anything is decoded, the file's
 * footer and every page header are checked against the caps below (rows, columns, sizes, values
 * per page, codecs), so a hostile file is refused in bounded time and memory instead of making
 * the reader allocate what its headers claim. Never throws: a refusal is one sentence.
 */
import { parquetMetadata, parquetReadObjects, parquetSchema, snappyUncompress, type FileMetaData } from 'hyparquet';
import type { TrlCompletion, TrlCompletionStep } from '../rl/doctor.ts';
import { amount, checkPages, MAX_PAGE_BYTES, refuse, Refusal } from './trlParquetGuard.ts';

import { MAX_PARQUET_BYTES } from './trlKeys.ts';

/** Completions per file (TRL logs one batch: G × prompts per step). */
export const MAX_PARQUET_ROWS = 20_000;
export const MAX_PARQUET_COLUMNS = 256;
const MAX_ROW_GROUPS = 256;
/** Characters of a prompt or completion kept (the rest is cut, with "…"). */
export const MAX_TEXT = 4000;

export type ParquetResult = { ok: true; steps: TrlCompletionStep[]; notices: string[] } | { ok: false; why: string };

const big = (x: unknown): number => (typeof x === 'bigint' ? Number(x) : typeof x === 'number' ? x : NaN);
const clip = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);
const shown = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** A bounded snappy decompressor: the page's claimed size is checked before it is allocated. */
function snappy(input: Uint8Array, size: number): Uint8Array {
  if (!(size >= 0 && size <= MAX_PAGE_BYTES)) refuse(`a page claims ${amount(size)} bytes uncompressed`);
  const out = new Uint8Array(size);
  snappyUncompress(input, out);
  return out;
}

/** The footer's numbers against the caps; then every page (trlParquetGuard.ts). */
function preflight(md: FileMetaData, bytes: Uint8Array): void {
  const rows = big(md.num_rows);
  if (!(rows >= 0 && rows <= MAX_PARQUET_ROWS)) refuse(`it claims ${amount(rows)} rows, more than a completion log holds (${MAX_PARQUET_ROWS})`);
  if (md.schema.length > MAX_PARQUET_COLUMNS) refuse(`it has ${md.schema.length} schema fields (at most ${MAX_PARQUET_COLUMNS})`);
  if (md.row_groups.length > MAX_ROW_GROUPS) refuse(`it has ${md.row_groups.length} row groups (at most ${MAX_ROW_GROUPS})`);
  for (const rg of md.row_groups) if (!(big(rg.num_rows) >= 0 && big(rg.num_rows) <= MAX_PARQUET_ROWS)) refuse('a row group claims an impossible number of rows');
  checkPages(md, bytes, snappy);
}

/** A prompt or completion as text: a string, or a conversation's messages one a line. */
function text(v: unknown, what: string, row: number): string {
  if (typeof v === 'string') return clip(v);
  if (Array.isArray(v) && v.length <= 64) {
    const lines = v.map((m) => (m && typeof m === 'object' && typeof (m as { content?: unknown }).content === 'string'
      ? `${typeof (m as { role?: unknown }).role === 'string' ? `${String((m as { role: string }).role).slice(0, 20)}: ` : ''}${(m as { content: string }).content}`
      : null));
    if (lines.every((l) => l !== null)) return clip(lines.join('\n'));
  }
  return refuse(`the ${what} of row ${row + 1} is not text or a list of messages`);
}

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? Number(v) : NaN);

/**
 * One completion log. `name` is the file's name (its step when there is no `step` column:
 * completions_00050.parquet is step 50).
 */
export async function decodeCompletionsParquet(name: string, bytes: Uint8Array): Promise<ParquetResult> {
  try {
    if (bytes.length < 12) refuse('it is too short to be a parquet file');
    if (bytes.length > MAX_PARQUET_BYTES) refuse(`it has ${bytes.length} bytes, more than a completion log the lab reads (${MAX_PARQUET_BYTES >> 20} MiB)`);
    const magic = (o: number) => bytes[o] === 0x50 && bytes[o + 1] === 0x41 && bytes[o + 2] === 0x52 && bytes[o + 3] === 0x31;
    if (!magic(0) || !magic(bytes.length - 4)) refuse('it is not a parquet file (no PAR1 marks)');
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    let md: FileMetaData;
    try {
      md = parquetMetadata(buffer);
    } catch {
      return { ok: false, why: 'its parquet footer cannot be read' };
    }
    preflight(md, new Uint8Array(buffer));
    const top = parquetSchema(md).children;
    if (top.length > MAX_PARQUET_COLUMNS) refuse(`it has ${top.length} columns`);
    const names = top.map((c) => c.element.name);
    for (const need of ['prompt', 'completion']) if (!names.includes(need)) refuse(`it has no "${need}" column (TRL's completion logs have prompt and completion)`);
    const isNumber = (c: (typeof top)[number]) => !c.children.length && ['INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BOOLEAN'].includes(String(c.element.type)) && c.element.converted_type !== 'UTF8';
    const numeric = top.filter((c) => isNumber(c) && !['step', 'advantage'].includes(c.element.name)).map((c) => c.element.name);
    const extra = names.filter((n) => !['step', 'prompt', 'completion', 'advantage', 'mode'].includes(n) && !numeric.includes(n));
    const rows = (await parquetReadObjects({ file: buffer, metadata: md, compressors: { SNAPPY: snappy }, columns: names.filter((n) => !extra.includes(n)) })) as Record<string, unknown>[];
    const fromName = /completions_(\d{1,9})\.parquet$/i.exec(name);
    const byStep = new Map<number, Map<string, TrlCompletion[]>>();
    let skippedEval = 0;
    rows.forEach((r, i) => {
      if (names.includes('mode') && r.mode !== 'train') { skippedEval++; return; }
      const step = names.includes('step') ? num(r.step) : fromName ? Number(fromName[1]) : NaN;
      if (!(Number.isInteger(step) && step >= 0 && step <= 1e9)) refuse(`row ${i + 1} has no step (a "step" column or a completions_NNNNN name)`);
      const prompt = text(r.prompt, 'prompt', i);
      const answer: TrlCompletion = { prompt, completion: text(r.completion, 'completion', i), rewards: Object.fromEntries(numeric.map((k) => [k, num(r[k])])), advantage: num(r.advantage) };
      const groups = byStep.get(step) ?? new Map<string, TrlCompletion[]>();
      byStep.set(step, groups);
      const g = groups.get(prompt) ?? [];
      groups.set(prompt, g);
      g.push(answer);
    });
    const steps = [...byStep].sort((a, b) => a[0] - b[0]).map(([step, groups]) => ({
      step, file: name, rewardColumns: numeric, extraColumns: extra,
      groups: [...groups].map(([prompt, answers]) => ({ prompt, answers })),
    }));
    const notices = skippedEval ? [`${shown(name)}: ${skippedEval} evaluation rows not shown`] : [];
    return { ok: true, steps, notices };
  } catch (e) {
    return { ok: false, why: e instanceof Refusal ? e.message : 'its parquet data cannot be read (a damaged or unusual file)' };
  }
}

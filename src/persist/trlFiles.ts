/**
 * Which files of a TRL output folder the import reads — one rule for the page's import
 * (src/ui/ImportRun.tsx), `npm run doctor` (scripts/doctor.ts) and importTrlFiles itself: a
 * folder is listed by name and size, selectImportFiles keeps the logs and the completion logs
 * (thinned to every k-th and the last when there are many: train_grpo.py writes one a step),
 * and only those are read. Model weights and the rest are skipped by name, never opened.
 */
import { MAX_PARQUET_BYTES } from './trlKeys.ts';

export const MAX_LOG_BYTES = 48 << 20;
/** Files listed at most under a chosen folder (names and sizes only: selectImportFiles says which few are read). */
export const MAX_LISTED = 100_000;
/** Log files read at most (a checkpoint-N/trainer_state.json each): the output folder's first, then the latest checkpoints'. */
export const MAX_LOG_FILES = 50;
/** Completion logs read at most (one a logged step: every k-th and the last are read). */
export const MAX_COMPLETION_FILES = 200;

export const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
export const names = (xs: string[], max = 5) => xs.slice(0, max).map((x) => `"${shownName(x)}"`).join(', ') + (xs.length > max ? ` and ${xs.length - max} more` : '');

/** A name safe to show: no control or direction characters, clipped. */
export function shownName(name: unknown): string {
  if (typeof name !== 'string') return 'The file';
  const clean = name.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  const base = clean.length > 60 ? `…${clean.slice(-59)}` : clean;
  return base || 'The file';
}

/** The base name of a path ("a/b/trainer_state.json" → "trainer_state.json"). */
export const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Which dropped files are read (the page reads no others: model weights are never loaded). */
export function wantedFile(name: string, size: number): 'log' | 'completions' | null {
  const b = baseName(name).toLowerCase();
  if (b.endsWith('.parquet')) return size <= MAX_PARQUET_BYTES ? 'completions' : null;
  if (b.endsWith('.jsonl') || b === 'trainer_state.json' || (b.endsWith('.json') && !/^(config|generation_config|tokenizer|tokenizer_config|special_tokens_map|adapter_config|model\.safetensors\.index|vocab|added_tokens|preprocessor_config|chat_template)\.json$/.test(b))) {
    return size <= MAX_LOG_BYTES ? 'log' : null;
  }
  return null;
}

/** A listed file: its path and size (its bytes are read only if selected). */
export interface ListedFile {
  name: string;
  size: number;
}

/** What is read of a listing, and one sentence on what was kept (null when every file is read). */
export interface ImportSelection<T extends ListedFile> {
  /** The logs (the output folder's, then the latest checkpoints'), then the completion logs in step order. */
  read: T[];
  kept: string | null;
}

const stepOfParquet = (name: string) => Number(/(\d+)\.parquet$/i.exec(baseName(name))?.[1] ?? NaN);
const checkpointOf = (name: string) => Number(/(?:^|\/)checkpoint-(\d+)\//.exec(name)?.[1] ?? Infinity);
const byName = (a: ListedFile, b: ListedFile) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const ordinal = (k: number) => `${k}${k % 100 >= 11 && k % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] ?? 'th'}`;

/**
 * The one rule for which files of a listing are read — the page's import and `npm run doctor`
 * both list a folder (names and sizes), call this, and read only what it keeps: the logs
 * (wantedFile; at most MAX_LOG_FILES, the output folder's and the latest checkpoints' first),
 * and the completion logs in step order, thinned to every k-th and the last when there are more
 * than MAX_COMPLETION_FILES (train_grpo.py writes one a step). Model weights and the rest are
 * skipped by name.
 */
export function selectImportFiles<T extends ListedFile>(listing: readonly T[]): ImportSelection<T> {
  const logs: T[] = [], parquets: T[] = [], other: T[] = [];
  for (const f of listing) {
    const w = wantedFile(f.name, f.size);
    (w === 'log' ? logs : w === 'completions' ? parquets : other).push(f);
  }
  logs.sort((a, b) => checkpointOf(b.name) - checkpointOf(a.name) || byName(a, b));
  const logsRead = logs.slice(0, MAX_LOG_FILES);
  parquets.sort((a, b) => {
    const sa = stepOfParquet(a.name), sb = stepOfParquet(b.name);
    return Number.isFinite(sa) && Number.isFinite(sb) && sa !== sb ? sa - sb : byName(a, b);
  });
  const n = parquets.length;
  const every = n > MAX_COMPLETION_FILES ? Math.ceil((n - 1) / (MAX_COMPLETION_FILES - 1)) : 1;
  const parquetsRead = every > 1 ? parquets.filter((_, i) => i % every === 0 || i === n - 1) : parquets;
  const skipped = other.length ? `${plural(other.length, 'file')} the lab does not read: ${names(other.map((f) => f.name).sort())}` : '';
  let kept: string | null = null;
  if (logsRead.length < logs.length || parquetsRead.length < n) {
    const logPart = logsRead.length < logs.length ? `${logsRead.length} of ${logs.length} logs (the output folder's, then the latest checkpoints')` : logs.length ? plural(logs.length, 'log') : 'no training log';
    const parquetPart = parquetsRead.length < n ? `${parquetsRead.length} of ${n} completion logs (every ${ordinal(every)}, and the last)` : plural(n, 'completion log');
    kept = `Of ${listing.length} files, read ${logPart} and ${parquetPart}${skipped ? `; skipped ${skipped}` : ''}.`;
  } else if (skipped) kept = `Skipped ${skipped}.`;
  return { read: [...logsRead, ...parquetsRead], kept };
}


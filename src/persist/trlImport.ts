/**
 * Import a run trained elsewhere: the one-way decoder of outside run data into the lab's
 * canonical form (src/rl/doctor.ts TrlRun). It reads
 *   - TRL's `trainer_state.json` (transformers' TrainerState: its `log_history`), from any
 *     checkpoint-N/ folder or the output folder — the one with the longest history is used;
 *   - a JSON list of log entries, or a JSONL of them, with the same keys (also W&B's `train/…`
 *     and `eval/…` names);
 *   - TRL's completion logs `completions/completions_NNNNN.parquet` (trlParquet.ts);
 * with the key names TRL used from 0.14 to today and Unsloth's (trlKeys.ts). Keys the lab does
 * not know are listed, not dropped silently. Python's json writes NaN and Infinity as bare
 * words: they are read as missing numbers. Everything is capped (bytes, files, entries, keys,
 * key length, rows, text): a file that is not a TRL log, or is hostile, is refused in one
 * sentence, never a throw, and nothing of the lab's own run is touched (this module only reads).
 */
import { isBytes, isRecord } from '../model/validate.ts';
import type { TrlCompletionStep, TrlEntry, TrlRun } from '../rl/doctor.ts';
import { baseName, MAX_LOG_BYTES, MAX_LISTED, names, plural, selectImportFiles, shownName, wantedFile } from './trlFiles.ts';
import { keyRole, keyStatus } from './trlKeys.ts';

export { MAX_COMPLETION_FILES, MAX_LISTED, MAX_LOG_BYTES, MAX_LOG_FILES, selectImportFiles, shownName, wantedFile, type ImportSelection, type ListedFile } from './trlFiles.ts';

export const MAX_TOTAL_BYTES = 192 << 20;
/** Log entries read from one file (a run logging every step for 100k steps is refused). */
export const MAX_ENTRIES = 200_000;
/** Training entries kept (more are thinned: every k-th logged step, the last one kept). */
export const MAX_TRAIN_ENTRIES = 10_000;
export const MAX_KEYS_PER_ENTRY = 500;
export const MAX_DISTINCT_KEYS = 2000;
export const MAX_KEY_LENGTH = 200;

export interface TrlFile {
  /** The file's name, or its path inside a dropped folder ("run/checkpoint-500/trainer_state.json"). */
  name: string;
  /** Its bytes: empty for a listed file that selectImportFiles does not read. */
  bytes: Uint8Array;
  /** Its size on disk (the bytes' length when not given): what selectImportFiles reads by. */
  size?: number;
}

export type TrlImportResult = { ok: true; run: TrlRun } | { ok: false; error: string };

class Refusal extends Error {}
const refuse = (why: string): never => {
  throw new Refusal(why);
};

/**
 * Python's json.dumps writes NaN, Infinity and -Infinity as bare words (invalid JSON): rewritten
 * to null outside strings, in one pass. Returns null when there were none.
 */
export function pythonJsonToJson(text: string): { text: string; replaced: number } | null {
  let out = '', last = 0, replaced = 0, i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) { // a string: skip to its closing quote
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    const word = c === 78 && text.startsWith('NaN', i) ? 3 : c === 73 && text.startsWith('Infinity', i) ? 8 : c === 45 && text.startsWith('-Infinity', i) ? 9 : 0;
    if (word) {
      out += `${text.slice(last, i)}null`;
      i += word;
      last = i;
      replaced++;
      continue;
    }
    i++;
  }
  return replaced ? { text: out + text.slice(last), replaced } : null;
}

/** JSON (or Python's json) parsed, or undefined. */
function parseJson(text: string): { doc: unknown; nonFinite: number } | undefined {
  try {
    return { doc: JSON.parse(text), nonFinite: 0 };
  } catch {
    const py = pythonJsonToJson(text);
    if (!py) return undefined;
    try {
      return { doc: JSON.parse(py.text), nonFinite: py.replaced };
    } catch {
      return undefined;
    }
  }
}

/** One log file's entries, before merging. */
interface LogDoc {
  kind: 'trainer_state' | 'jsonl' | 'log_history';
  entries: unknown[];
  globalStep: number;
  nonFinite: number;
}

function readLogDoc(bytes: Uint8Array): LogDoc {
  if (!isBytes(bytes)) refuse('it was not read as bytes');
  if (bytes.length === 0) refuse('the file is empty');
  if (bytes.length > MAX_LOG_BYTES) refuse(`it has ${bytes.length} bytes, more than a log the lab reads (${MAX_LOG_BYTES >> 20} MiB)`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('it is not text (not valid UTF-8)');
  }
  text = text.replace(/^\uFEFF/, '');
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && first !== '[') refuse(first === '<' ? 'it is markup (HTML or XML), not a TRL log' : 'it is not JSON (a trainer_state.json, a list of log entries or a JSONL of them)');
  const whole = parseJson(text);
  if (whole) {
    const d = whole.doc;
    if (Array.isArray(d)) return { kind: 'log_history', entries: d, globalStep: NaN, nonFinite: whole.nonFinite };
    if (isRecord(d) && Object.prototype.hasOwnProperty.call(d, 'log_history')) {
      if (!Array.isArray(d.log_history)) refuse('its log_history is not a list');
      const gs = typeof d.global_step === 'number' ? d.global_step : NaN;
      return { kind: 'trainer_state', entries: d.log_history as unknown[], globalStep: gs, nonFinite: whole.nonFinite };
    }
    if (isRecord(d)) return { kind: 'jsonl', entries: [d], globalStep: NaN, nonFinite: whole.nonFinite };
  }
  // JSONL: one entry a line
  const lines = text.split('\n');
  if (lines.length > MAX_ENTRIES + 1000) refuse(`it has ${lines.length} lines, more than the ${MAX_ENTRIES} log entries the lab reads`);
  const entries: unknown[] = [];
  let nonFinite = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const p = parseJson(line);
    if (!p) refuse(entries.length === 0 ? 'it is not valid JSON (cut short or damaged?)' : `line ${i + 1} is not valid JSON`);
    if (!isRecord(p!.doc)) refuse(`line ${i + 1} is not a log entry (an object of metrics)`);
    nonFinite += p!.nonFinite;
    entries.push(p!.doc);
  }
  if (!entries.length) refuse('it holds no log entries');
  return { kind: 'jsonl', entries, globalStep: NaN, nonFinite };
}

/** Merged logs: train and eval entries by step, the summary, and every key seen with its role. */
interface Acc {
  train: Map<number, Record<string, number>>;
  evals: Map<number, Record<string, number>>;
  summary: Record<string, number>;
  keys: Map<string, string>; // canonical (eval_ prefixed on the held-out side) → status
  renamed: Map<string, string>;
  rewardFuncs: Set<string>;
  skipped: { junk: number; noStep: number; nonNumeric: number; longKeys: number };
}

const newAcc = (): Acc => ({ train: new Map(), evals: new Map(), summary: Object.create(null), keys: new Map(), renamed: new Map(), rewardFuncs: new Set(), skipped: { junk: 0, noStep: 0, nonNumeric: 0, longKeys: 0 } });

function addEntries(acc: Acc, entries: unknown[]): void {
  if (entries.length > MAX_ENTRIES) refuse(`it has ${entries.length} log entries, more than the ${MAX_ENTRIES} the lab reads`);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (!isRecord(e)) { acc.skipped.junk++; continue; }
    const keys = Object.keys(e);
    if (keys.length > MAX_KEYS_PER_ENTRY) refuse(`log entry ${i + 1} has ${keys.length} keys (a TRL entry has well under ${MAX_KEYS_PER_ENTRY})`);
    let step = NaN;
    const train: [string, number, boolean][] = [], ev: [string, number, boolean][] = [];
    for (const k of keys) {
      if (k.length > MAX_KEY_LENGTH) { acc.skipped.longKeys++; continue; }
      const v = e[k];
      const role = keyRole(k);
      if (role.role === 'step') {
        if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1e9) step = v;
        continue;
      }
      const x = typeof v === 'number' ? v : v === null ? NaN : undefined;
      const shownKey = role.role === 'eval' ? `eval_${role.key}` : role.key;
      if (!acc.keys.has(shownKey)) {
        if (acc.keys.size >= MAX_DISTINCT_KEYS) refuse(`it has more than ${MAX_DISTINCT_KEYS} different keys`);
        acc.keys.set(shownKey, role.role === 'summary' ? 'known' : keyStatus(role.key));
      }
      const wandb = /^(train|eval)\//.test(k);
      const from = wandb ? 'train/…, eval/… (W&B history names)' : role.role !== 'summary' ? role.renamedFrom : undefined;
      if (from && !acc.renamed.has(from)) acc.renamed.set(from, wandb ? '…, eval_…' : shownKey);
      if (x === undefined) { acc.skipped.nonNumeric++; continue; }
      if (role.role === 'summary') acc.summary[role.key] = x;
      else {
        if (role.rewardFunc) acc.rewardFuncs.add(role.rewardFunc);
        (role.role === 'eval' ? ev : train).push([role.key, x, !wandb && !!role.renamedFrom]);
      }
    }
    if (!train.length && !ev.length) continue; // the summary, or an entry of bookkeeping only
    if (!Number.isFinite(step)) { acc.skipped.noStep++; continue; }
    const put = (m: Map<number, Record<string, number>>, pairs: [string, number, boolean][]) => {
      const rec = m.get(step) ?? (Object.create(null) as Record<string, number>);
      // canonical names first: one wins over an old name for the same number (Unsloth logs completion_length beside TRL's completions/mean_length)
      for (const alias of [false, true]) for (const [k, x, a] of pairs) if (a === alias && (!(k in rec) || (alias && !Number.isFinite(rec[k])))) rec[k] = x;
      m.set(step, rec);
    };
    const hasMetric = (pairs: [string, number, boolean][]) => pairs.some(([k]) => k !== 'epoch');
    if (hasMetric(train)) put(acc.train, train);
    if (hasMetric(ev)) put(acc.evals, ev);
  }
}

const toEntries = (m: Map<number, Record<string, number>>): TrlEntry[] => [...m].sort((a, b) => a[0] - b[0]).map(([step, values]) => ({ step, values: { ...values } }));


/** A log file alone (trainer_state.json, a JSON list of entries, or JSONL): its canonical run. Never throws. */
export function decodeTrlLog(name: string, bytes: Uint8Array): TrlImportResult {
  return assemble(shownName(name), [{ name, bytes }], []);
}

/** Build the run from decoded log files and completion steps (sync part). */
function assemble(shown: string, logs: TrlFile[], completions: TrlCompletionStep[], notices: string[] = [], sources: TrlRun['sources'] = []): TrlImportResult {
  try {
    const acc = newAcc();
    const docs: { file: TrlFile; doc: LogDoc }[] = [];
    const bad: string[] = [];
    for (const f of logs) {
      try {
        docs.push({ file: f, doc: readLogDoc(f.bytes) });
      } catch (e) {
        if (!(e instanceof Refusal)) throw e;
        if (logs.length === 1 && !completions.length) throw e;
        bad.push(`${shownName(baseName(f.name))} (${e.message})`);
      }
    }
    // several trainer_state.json (checkpoint-N/ folders): the longest history, the others are older copies of it
    const states = docs.filter((d) => d.doc.kind === 'trainer_state').sort((a, b) => b.doc.entries.length - a.doc.entries.length || (b.doc.globalStep || 0) - (a.doc.globalStep || 0));
    const used = [...states.slice(0, 1), ...docs.filter((d) => d.doc.kind !== 'trainer_state')];
    if (states.length > 1) notices.push(`Read ${shownName(states[0].file.name)}, the longest of ${states.length} trainer_state.json files (${states.length === 2 ? 'the other is an earlier checkpoint' : 'the others are earlier checkpoints'} of the same log).`);
    let nonFinite = 0;
    for (const d of used) {
      addEntries(acc, d.doc.entries);
      nonFinite += d.doc.nonFinite;
      sources.push({ file: d.file.name, kind: d.doc.kind });
    }
    let train = toEntries(acc.train);
    const evals = toEntries(acc.evals);
    if (used.length && !train.length && !evals.length) refuse('it has no log entries with a step and metrics');
    const grpo = [...acc.keys.keys()].some((k) => /^(eval_)?(reward|reward_std|frac_reward_zero_std|completions\/mean_length|rewards\/.+\/mean)$/.test(k));
    if (used.length && !grpo) refuse('it has no GRPO metrics (reward, reward_std, rewards/…, completion lengths): is it a GRPOTrainer log?');
    if (!used.length && !completions.length) refuse('it holds neither a training log nor completion logs');
    if (train.length > MAX_TRAIN_ENTRIES) {
      const k = Math.ceil(train.length / MAX_TRAIN_ENTRIES);
      const n = train.length;
      train = train.filter((_, i) => i % k === 0 || i === n - 1);
      notices.push(`The log has ${n} logged steps: every ${k}th is drawn and checked.`);
    }
    const rewardFuncs = [...acc.rewardFuncs];
    if (!rewardFuncs.length) for (const c of completions) for (const r of c.rewardColumns) if (!rewardFuncs.includes(r)) rewardFuncs.push(r);
    for (const c of completions) {
      // numeric columns that the log does not name as reward functions are extra dataset fields
      const extra = c.rewardColumns.filter((r) => !rewardFuncs.includes(r));
      if (extra.length) {
        c.rewardColumns = c.rewardColumns.filter((r) => rewardFuncs.includes(r));
        c.extraColumns = [...c.extraColumns, ...extra];
        for (const g of c.groups) for (const a of g.answers) for (const x of extra) delete a.rewards[x];
      }
    }
    const s = acc.skipped;
    if (nonFinite) notices.push(`${plural(nonFinite, 'value')} written as NaN or Infinity (Python's json) read as missing.`);
    if (s.junk) notices.push(`${plural(s.junk, 'log entry')} that ${s.junk === 1 ? 'is' : 'are'} not an object skipped.`);
    if (s.noStep) notices.push(`${plural(s.noStep, 'log entry')} without a step skipped.`);
    if (s.nonNumeric) notices.push(`${plural(s.nonNumeric, 'value')} that ${s.nonNumeric === 1 ? 'is' : 'are'} not a number ignored.`);
    if (s.longKeys) notices.push(`${plural(s.longKeys, 'key')} longer than ${MAX_KEY_LENGTH} characters ignored.`);
    if (bad.length) notices.push(`Not read: ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? `; and ${bad.length - 3} more` : ''}.`);
    const byStatus = (st: string) => [...acc.keys].filter(([, v]) => v === st).map(([k]) => k).sort();
    const run: TrlRun = {
      name: shown,
      sources: [...sources],
      train,
      evals,
      rewardFuncs,
      completions,
      keys: { used: byStatus('used'), known: byStatus('known'), renamed: [...acc.renamed].map(([a, b]) => `${a} → ${b}`), unknown: byStatus('unknown') },
      summary: { ...acc.summary },
      notices,
    };
    return { ok: true, run };
  } catch (e) {
    return { ok: false, error: sentence(shown, e instanceof Refusal ? e.message : 'it could not be read (an unexpected structure)') };
  }
}

const sentence = (shown: string, why: string) => `${shown} was not imported: ${why}; the lab's own run is unchanged.`;

/**
 * Import dropped or chosen files (one file, several, or a folder's): the logs and the completion
 * logs among them are read, the rest skipped by name. Never throws, never rejects.
 */
export async function importTrlFiles(files: readonly TrlFile[], label?: string): Promise<TrlImportResult> {
  const list = Array.isArray(files) ? files.filter((f) => isRecord(f) && typeof f.name === 'string' && isBytes(f.bytes)) : [];
  const shown = shownName(label ?? (list.length === 1 ? baseName(list[0].name) : list.length ? list[0].name.split('/')[0] : 'The import'));
  try {
    if (!list.length) refuse('no file was given');
    if (list.length > MAX_LISTED) refuse(`${list.length} files were given (at most ${MAX_LISTED})`);
    const listed = list.map((f) => ({ name: f.name, size: typeof f.size === 'number' && Number.isFinite(f.size) && f.size >= 0 ? f.size : f.bytes.length, f }));
    const selection = selectImportFiles(listed);
    const logs = selection.read.filter((x) => wantedFile(x.name, x.size) === 'log').map((x) => x.f);
    const parquets = selection.read.filter((x) => wantedFile(x.name, x.size) === 'completions').map((x) => x.f);
    const total = selection.read.reduce((a, x) => a + x.f.bytes.length, 0);
    if (total > MAX_TOTAL_BYTES) refuse(`the files hold ${total} bytes (at most ${MAX_TOTAL_BYTES >> 20} MiB)`);
    if (!logs.length && !parquets.length) {
      if (list.length === 1) {
        const f = list[0];
        const b = baseName(f.name).toLowerCase();
        // one file of another name: read it as a log if it looks like one, else say what the lab reads
        const first = f.bytes.find((x: number) => x !== 0x20 && x !== 0x0a && x !== 0x0d && x !== 0x09 && x !== 0xef && x !== 0xbb && x !== 0xbf);
        if (f.bytes.length <= MAX_LOG_BYTES && !b.endsWith('.parquet') && (first === 0x7b || first === 0x5b || first === 0x3c)) return assemble(shown, [f], []);
        if (listed[0].size > MAX_LOG_BYTES) refuse(`it has ${listed[0].size} bytes, more than a log the lab reads (${MAX_LOG_BYTES >> 20} MiB)`);
        refuse('it is not a trainer_state.json, a JSONL of log entries or a completions parquet');
      }
      refuse(`none of the ${list.length} files is a TRL log (trainer_state.json, *.jsonl) or a completion log (completions_NNNNN.parquet): ${names(list.map((f) => f.name))}`);
    }
    const notices: string[] = selection.kept ? [selection.kept] : [];
    const completions: TrlCompletionStep[] = [];
    const sources: TrlRun['sources'] = [];
    const badParquet: string[] = [];
    for (const f of parquets) {
      const { decodeCompletionsParquet } = await import('./trlParquet.ts'); // hyparquet: its own chunk, loaded when a parquet is dropped
      const r = await decodeCompletionsParquet(baseName(f.name), f.bytes);
      if (r.ok) {
        completions.push(...r.steps);
        notices.push(...r.notices);
        sources.push({ file: f.name, kind: 'completions' });
      } else {
        if (parquets.length === 1 && !logs.length) refuse(r.why);
        badParquet.push(`${shownName(baseName(f.name))} (${r.why})`);
      }
    }
    if (badParquet.length) notices.push(`Not read: ${badParquet.slice(0, 3).join('; ')}${badParquet.length > 3 ? `; and ${badParquet.length - 3} more` : ''}.`);
    if (parquets.length && !completions.length && !logs.length) refuse('none of its completion logs could be read');
    completions.sort((a, b) => a.step - b.step);
    return assemble(shown, logs, completions, notices, sources);
  } catch (e) {
    return { ok: false, error: sentence(shown, e instanceof Refusal ? e.message : 'it could not be read (an unexpected structure)') };
  }
}

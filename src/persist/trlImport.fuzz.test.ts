/**
 * Structured fuzz of the TRL run import (trlImport.ts, trlParquet.ts), each from a REAL-schema
 * input (e2e/fixtures/trl: a TRL 1.x trainer_state.json, a TRL 0.14 one, the JSONL, a completion
 * log written as pandas writes it):
 *   - trainer_state.json: every top-level field, the log list, whole entries, and every key of a
 *     training entry, an evaluation entry and the summary entry, replaced by hostile JSON values;
 *     hostile keys added (prototype names, 10,000 characters, markup, direction marks);
 *   - the text: truncated, bytes flipped, re-encoded, nested, huge;
 *   - JSONL lines replaced by junk;
 *   - the completion log (version-1 data pages, as pyarrow writes them, and version 2): every byte flipped, truncated everywhere, the footer's length forged, and
 *     columns rewritten with hostile data by the parquet writer (wrong types, missing columns,
 *     huge strings, too many rows or columns).
 * Each case must be imported or refused with one sentence (never a throw, never a raw engine
 * message), with bounded work, and agree with an oracle of what the format allows; an imported
 * run must be well formed (integer steps in order, numbers only, text clipped) and the doctor must
 * run on it. The counts are printed.
 *
 * Bounded work is checked by the refusal, not timed (a timed bound fails on a loaded machine;
 * speed lives in `npm run bench`): each input past a cap (bytes, entries, keys per entry,
 * distinct keys, rows, columns) must be refused by that cap's sentence, i.e. before it is read;
 * and the byte flips that made hyparquet run for seconds without the page guard
 * (trlParquetGuard.ts; 11 s and 18 s here) must be refused by the guard, before hyparquet
 * decodes them. The times are still printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { diagnose, type TrlRun } from '../rl/doctor.ts';
import { importTrlFiles, MAX_DISTINCT_KEYS, MAX_ENTRIES, MAX_KEYS_PER_ENTRY, MAX_LOG_BYTES, pythonJsonToJson, type TrlImportResult } from './trlImport.ts';
import { decodeCompletionsParquet, MAX_PARQUET_COLUMNS, MAX_PARQUET_ROWS, MAX_TEXT } from './trlParquet.ts';
import { MISSING, setAt, withKey } from '../testing/structuredFuzz.ts';

const DIR = join(import.meta.dirname, '../../e2e/fixtures/trl');
const BAD_WORDS = ['TypeError', 'RangeError', 'SyntaxError', 'undefined', 'Cannot read', 'is not a function', 'is not iterable', '[object Object]', 'Unexpected token', 'Symbol(', '<script', 'NaN was'];
const enc = (s: string) => new TextEncoder().encode(s);

const JSON_HOSTILE: [string, unknown][] = [
  ['string', 'x'], ['empty string', ''], ['"NaN"', 'NaN'], ['numeric string', '8'], ['long string', 'z'.repeat(10_000)], ['markup', '<img src=x onerror=alert(1)>'],
  ['zero', 0], ['-1', -1], ['fraction', 1.5], ['1e308', 1e308], ['-1e308', -1e308], ['2^53', 2 ** 53], ['tiny', 1e-300],
  ['true', true], ['false', false], ['null', null],
  ['empty list', []], ['list', [1, 2, 3]], ['list of junk', [null, {}, 'x']], ['empty object', {}], ['nested object', { a: { b: [1, { c: null }] } }],
  ['long list', new Array(20_000).fill(0)], ['missing', MISSING],
];

/** One expect per problem found (expect is slow in a hot loop). */
function checkSentence(message: string, where: string): void {
  const problems = BAD_WORDS.filter((w) => message.includes(w));
  if (!/^\S.{10,700}$/s.test(message) || !/ not imported: .+; the lab's own run is unchanged\.$/.test(message)) problems.push('not the one sentence');
  if (/\.\s/.test(message.replace(/e\.g\.|i\.e\./g, ''))) problems.push('more than one sentence');
  if (problems.length) expect(problems, `${where}: ${message}`).toEqual([]);
}

/** An imported run must be well formed, and the doctor must run on it. */
function checkRun(run: TrlRun, where: string): void {
  const problems: string[] = [];
  for (const list of [run.train, run.evals]) {
    list.forEach((e, i) => {
      if (!Number.isInteger(e.step) || e.step < 0 || (i > 0 && e.step <= list[i - 1].step)) problems.push(`step ${e.step} out of order`);
      for (const [k, v] of Object.entries(e.values)) if (typeof v !== 'number') problems.push(`${k} is ${typeof v}`);
    });
  }
  for (const c of run.completions) for (const g of c.groups) for (const a of g.answers) if (a.prompt.length > MAX_TEXT + 1 || a.completion.length > MAX_TEXT + 1) problems.push('text not clipped');
  for (const k of [...run.keys.unknown, ...run.keys.known, ...run.keys.used]) if (k.length > 206) problems.push(`key of ${k.length} characters listed`);
  if (({} as Record<string, unknown>).polluted !== undefined || Object.prototype.hasOwnProperty.call(Object.prototype, 'reward')) problems.push('Object.prototype polluted');
  try {
    diagnose(run);
  } catch (e) {
    problems.push(`diagnose threw ${String(e)}`);
  }
  if (problems.length) expect(problems, where).toEqual([]);
}

interface Case { where: string; accepted: boolean; error?: string; ms: number }
function summarize(title: string, cases: Case[], ms: number): void {
  const refused = cases.filter((c) => !c.accepted);
  const slowest = cases.reduce((a, c) => (c.ms > a.ms ? c : a), cases[0]);
  console.log(`${title}: ${cases.length} cases (${refused.length} refused, ${cases.length - refused.length} imported) in ${ms.toFixed(0)} ms; slowest ${slowest.ms.toFixed(1)} ms (${slowest.where}; for information: speed lives in the bench)`);
  const seen = new Set<string>();
  console.table(refused.filter((c) => { const k = c.error!.replace(/^.*? not imported: /, '').slice(0, 40); if (seen.has(k)) return false; seen.add(k); return true; }).slice(0, 10).map((c) => ({ case: c.where.slice(0, 60), error: c.error!.slice(0, 140) })));
}

async function runCase(cases: Case[], where: string, files: { name: string; bytes: Uint8Array }[], expectAccepted?: boolean): Promise<TrlImportResult> {
  const t0 = performance.now();
  let r: TrlImportResult;
  try {
    r = await importTrlFiles(files);
  } catch (e) {
    expect.fail(`${where}: threw ${String(e)}`);
  }
  const ms = performance.now() - t0;
  cases.push({ where, accepted: r.ok, error: r.ok ? undefined : r.error, ms });
  if (r.ok) checkRun(r.run, where);
  else checkSentence(r.error, where);
  // (the work is bounded by the caps: the inputs past them are checked by their refusal, below)
  if (expectAccepted !== undefined && r.ok !== expectAccepted) expect(r.ok ? 'imported' : r.error, `${where}: the oracle says ${expectAccepted ? 'imported' : 'refused'}`).toBe(expectAccepted ? 'imported' : 'refused');
  return r;
}

const readState = (p: string) => JSON.parse(pythonJsonToJson(readFileSync(join(DIR, p), 'utf8'))?.text ?? readFileSync(join(DIR, p), 'utf8')) as Record<string, unknown> & { log_history: Record<string, unknown>[] };

/** A real trainer_state.json cut to a few entries of each kind (the schema unchanged). */
function realState(p: string, train: number): Record<string, unknown> & { log_history: Record<string, unknown>[] } {
  const s = readState(p);
  const h = s.log_history;
  const tr = h.filter((e) => 'reward' in e).slice(0, train);
  const ev = h.filter((e) => 'eval_reward' in e).slice(0, 2);
  const summary = h.filter((e) => 'train_runtime' in e);
  return { ...s, log_history: [...tr, ...ev, ...summary] };
}

describe('TRL import fuzz', () => {
  it('trainer_state.json: every field of a real TRL 1.x and TRL 0.14 state, hostile values and keys', async () => {
    const cases: Case[] = [];
    const t0 = performance.now();
    for (const [p, n] of [['grpo-output/trainer_state.json', 24], ['trl0.14/trainer_state.json', 24]] as const) {
      const base = realState(p, n);
      const h = base.log_history;
      const iTrain = 0, iEval = h.findIndex((e) => Object.keys(e).some((k) => k.startsWith('eval_'))), iSum = h.findIndex((e) => 'train_runtime' in e);
      const send = (doc: unknown, where: string, expectAccepted?: boolean) => runCase(cases, `${p} ${where}`, [{ name: 'trainer_state.json', bytes: enc(JSON.stringify(doc)) }], expectAccepted);
      expect((await send(base, 'as is', true)).ok).toBe(true);
      for (const key of Object.keys(base)) {
        for (const [name, v] of JSON_HOSTILE) await send(setAt(base, [key], v), `${key} ← ${name}`, key !== 'log_history' ? true : undefined);
      }
      for (const [name, v] of JSON_HOSTILE) await send(setAt(base, ['log_history'], v), `log_history ← ${name}`, false);
      for (const i of [iTrain, 1, iEval, iSum]) for (const [name, v] of JSON_HOSTILE) await send(setAt(base, ['log_history', i], v), `log_history[${i}] ← ${name}`, true);
      for (const i of [iTrain, iEval, iSum]) {
        for (const key of Object.keys(h[i])) {
          for (const [name, v] of JSON_HOSTILE) {
            const r = await send(setAt(base, ['log_history', i, key], v), `log_history[${i}].${key} ← ${name}`, true);
            // the oracle for the value: a finite number is kept, null is missing (NaN), anything else is not read
            const step = key === 'step' ? null : (h[i].step as number);
            if (r.ok && step !== null && i !== iSum && key !== 'epoch') {
              const side = key.startsWith('eval_') ? r.run.evals : r.run.train;
              const canon = key.replace(/^eval_/, '').replace(/^completion_length$/, 'completions/mean_length').replace(/^(rewards\/[^/]+)$/, '$1/mean');
              const got = side.find((e) => e.step === step)?.values[canon];
              const want = typeof v === 'number' ? v : v === null ? NaN : undefined;
              if (!Object.is(got, want) && !(want === undefined && got === undefined)) expect(got, `log_history[${i}].${key} ← ${name}`).toBe(want);
            }
          }
        }
      }
      const hostileKeys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'k'.repeat(10_000), '<script>alert(1)</script>', '\u202eevil', '', 'eval_', 'rewards/', 'rewards/a/b/c', 'train/', 'eval/'];
      for (const k of hostileKeys) {
        for (const v of [1, null, 'x', { polluted: 1 }]) {
          const r = await send(setAt(base, ['log_history', iTrain], withKey(h[iTrain], k, v)), `key ${JSON.stringify(k.slice(0, 20))} = ${JSON.stringify(v)}`, true);
          if (r.ok && k.length > 200 && r.run.notices.join().indexOf('longer than 200') < 0) expect.fail('a 10,000-character key not reported');
        }
      }
      // past the caps: refused by the cap's sentence (an entry's keys are counted before they are read; distinct keys as they come)
      const wide = await send(setAt(base, ['log_history', iTrain], Object.fromEntries(Array.from({ length: 600 }, (_, j) => [`k${j}`, j]))), 'an entry of 600 keys', false);
      expect(wide.ok ? 'imported' : wide.error).toContain(`log entry ${iTrain + 1} has 600 keys (a TRL entry has well under ${MAX_KEYS_PER_ENTRY})`);
      const keys = await send({ ...base, log_history: Array.from({ length: 2100 }, (_, j) => ({ [`key${j}`]: 1, reward: 0.5, step: j })) }, '2,100 different keys', false);
      expect(keys.ok ? 'imported' : keys.error).toContain(`it has more than ${MAX_DISTINCT_KEYS} different keys`);
    }
    summarize('trainer_state.json', cases, performance.now() - t0);
    expect(cases.length).toBeGreaterThan(3000);
  });

  it('the text: truncated, bytes flipped, re-encoded, nested, huge', async () => {
    const cases: Case[] = [];
    const t0 = performance.now();
    const real = readFileSync(join(DIR, 'trl0.14/trainer_state.json'));
    const send = (bytes: Uint8Array, where: string, name = 'trainer_state.json') => runCase(cases, where, [{ name, bytes }]);
    for (let i = 1; i <= 40; i++) await send(real.subarray(0, Math.floor((real.length * i) / 41)), `truncated at ${i}/41`);
    let seed = 23;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 150; i++) {
      const b = new Uint8Array(real);
      const at = Math.floor(rand() * b.length);
      b[at] = [0x00, 0xff, 0x22, 0x5c, 0x7b, 0x5d, 0x4e][i % 7];
      await send(b, `byte ${at} flipped`);
    }
    const text = real.toString('utf8');
    const utf16 = new Uint8Array(Buffer.from(`\ufeff${text}`, 'utf16le'));
    const special: [string, Uint8Array][] = [
      ['BOM', enc(`\ufeff${text}`)], ['UTF-16', utf16], ['deep nesting', enc(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)], ['null', enc('null')], ['a string', enc('"log_history"')],
      ['1e999', enc('1e999')], ['NaN everywhere', enc(text.replace(/: (\d)/g, ': NaN'))], ['Infinity everywhere', enc(text.replace(/: (\d)/g, ': -Infinity'))],
      ['200,001 entries', enc(JSON.stringify({ log_history: new Array(200_001).fill(0) }))], ['49 MiB', new Uint8Array(49 << 20)], ['HTML', enc('<!doctype html><title>404</title>')],
      ['a JSON list of entries', enc(JSON.stringify(readState('trl0.14/trainer_state.json').log_history))],
    ];
    for (const [name, b] of special) await send(b, name);
    summarize('text', cases, performance.now() - t0);
    // bounded work: past the caps, refused by the cap's sentence — the 49 MiB unread, the 200,001 entries uncounted
    const said = (where: string) => cases.find((c) => c.where === where)?.error ?? 'imported';
    expect(said('49 MiB')).toContain(`it has ${49 << 20} bytes, more than a log the lab reads (${MAX_LOG_BYTES >> 20} MiB)`);
    expect(said('200,001 entries')).toContain(`it has 200001 log entries, more than the ${MAX_ENTRIES} the lab reads`);
  });

  it('JSONL: a real log with lines replaced by junk', async () => {
    const cases: Case[] = [];
    const t0 = performance.now();
    const lines = readFileSync(join(DIR, 'jsonl/log_history.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 30);
    const junk: [string, string, boolean][] = [['blank', '', true], ['spaces', '   ', true], ['open brace', '{', false], ['null', 'null', false], ['list', '[1, 2]', false], ['a string', '"x"', false],
      ['step as text', '{"step": "x", "reward": 1}', true], ['no step', '{"reward": 1}', true], ['markup', '<html>', false], ['NaN', '{"step": 999, "reward": NaN}', true], ['1 MB line', `{"step": 998, "k": "${'x'.repeat(1 << 20)}"}`, true]];
    for (const i of [0, 7, 29]) {
      for (const [name, line, ok] of junk) {
        const l = [...lines];
        l[i] = line;
        await runCase(cases, `line ${i + 1} ← ${name}`, [{ name: 'log.jsonl', bytes: enc(l.join('\n')) }], ok);
      }
    }
    summarize('JSONL', cases, performance.now() - t0);
  });

  it('completion logs: every byte flipped, truncations, forged footer lengths, hostile columns', async () => {
    const cases: Case[] = [];
    const t0 = performance.now();
    const real = new Uint8Array(readFileSync(join(DIR, 'grpo-output/completions/completions_00020.parquet')));
    const one = async (bytes: Uint8Array, where: string, expectAccepted?: boolean) => {
      const s = performance.now();
      let r: Awaited<ReturnType<typeof decodeCompletionsParquet>>;
      try {
        r = await decodeCompletionsParquet('completions_00020.parquet', bytes);
      } catch (e) {
        expect.fail(`${where}: threw ${String(e)}`);
      }
      cases.push({ where, accepted: r.ok, error: r.ok ? undefined : `x was not imported: ${r.why}; the lab's own run is unchanged.`, ms: performance.now() - s });
      if (!r.ok) checkSentence(`completions_00020.parquet was not imported: ${r.why}; the lab's own run is unchanged.`, where);
      else {
        const problems: string[] = [];
        for (const c of r.steps) {
          if (!Number.isInteger(c.step) || c.step < 0) problems.push(`step ${c.step}`);
          for (const g of c.groups) for (const a of g.answers) if (a.completion.length > MAX_TEXT + 1 || typeof a.advantage !== 'number') problems.push('answer');
        }
        if (problems.length) expect(problems, where).toEqual([]);
      }
      if (expectAccepted !== undefined && r.ok !== expectAccepted) expect(r.ok ? 'read' : r.why, where).toBe(expectAccepted ? 'read' : 'refused');
    };
    await one(real, 'as is', true);
    // bounded work, checked by who refuses, not by time (and first: without the guard these take seconds each, and the
    // loop below does not finish): the two byte flips that sent hyparquet into seconds-long runs when the page guard
    // (trlParquetGuard.ts) was off — 11 s and 18 s here — are refused by the guard's own sentence, before hyparquet decodes a page
    for (const [at, value, why] of [[732, 127, 'a page ends in the middle of its values'], [755, 226, 'a page has a run header out of range']] as const) {
      const b = new Uint8Array(real);
      b[at] = value;
      const r = await decodeCompletionsParquet('completions_00020.parquet', b);
      expect(r.ok ? 'read' : r.why, `byte ${at} ← ${value}`).toBe(why);
    }
    for (let i = 0; i < real.length; i++) {
      for (const f of [(b: number) => b ^ 0xff, () => 0x7f]) {
        const b = new Uint8Array(real);
        b[i] = f(b[i]);
        await one(b, `byte ${i} ← ${b[i]}`);
      }
    }
    // the same log with version-2 data pages (hyparquet-writer's, polars' or duckdb's layout): every byte inverted
    const decoded = await decodeCompletionsParquet('completions_00020.parquet', real);
    if (!decoded.ok) return expect.fail(decoded.why);
    const answers = decoded.steps[0].groups.flatMap((g) => g.answers);
    const v2 = new Uint8Array(parquetWriteBuffer({ columnData: [
      { name: 'step', data: answers.map(() => 20n), type: 'INT64' }, { name: 'prompt', data: answers.map((a) => a.prompt), type: 'STRING' },
      { name: 'completion', data: answers.map((a) => a.completion), type: 'STRING' }, { name: 'accuracy_reward', data: answers.map((a) => a.rewards.accuracy_reward), type: 'DOUBLE' },
      { name: 'advantage', data: answers.map((a) => a.advantage), type: 'DOUBLE' },
    ] }));
    await one(v2, 'version 2 as is', true);
    for (let i = 0; i < v2.length; i++) {
      const b = new Uint8Array(v2);
      b[i] ^= 0xff;
      await one(b, `version 2: byte ${i} ← ${b[i]}`);
    }
    for (let n = 0; n < real.length; n += 16) await one(real.subarray(0, n), `truncated to ${n} bytes`, false);
    for (const len of [0, 1, real.length - 8, real.length, 0x7fffffff, 0xffffffff]) {
      const b = new Uint8Array(real);
      new DataView(b.buffer).setUint32(b.length - 8, len >>> 0, true);
      await one(b, `footer length ← ${len}`);
    }
    // columns rewritten with the parquet writer
    const N = 16;
    const col = (name: string, data: unknown[], type?: string) => ({ name, data, ...(type ? { type } : {}) });
    const good = () => [col('step', Array(N).fill(5n), 'INT64'), col('prompt', Array.from({ length: N }, (_, i) => `${i >> 2}+1=`), 'STRING'), col('completion', Array(N).fill('2'), 'STRING'), col('accuracy_reward', Array(N).fill(1), 'DOUBLE'), col('advantage', Array(N).fill(0), 'DOUBLE')];
    const variants: [string, ReturnType<typeof good>, boolean][] = [
      ['as written', good(), true],
      ['no prompt', good().filter((c) => c.name !== 'prompt'), false],
      ['no completion', good().filter((c) => c.name !== 'completion'), false],
      ['prompt as numbers', good().map((c) => (c.name === 'prompt' ? col('prompt', Array(N).fill(3), 'DOUBLE') : c)), false],
      ['prompt null', good().map((c) => (c.name === 'prompt' ? col('prompt', Array(N).fill(null), 'STRING') : c)), false],
      ['1 MB completions', good().map((c) => (c.name === 'completion' ? col('completion', Array(N).fill('y'.repeat(1 << 20)), 'STRING') : c)), true],
      ['step −1', good().map((c) => (c.name === 'step' ? col('step', Array(N).fill(-1n), 'INT64') : c)), false],
      ['step 2^40', good().map((c) => (c.name === 'step' ? col('step', Array(N).fill(2n ** 40n), 'INT64') : c)), false],
      ['step as text', good().map((c) => (c.name === 'step' ? col('step', Array(N).fill('five'), 'STRING') : c)), false],
      ['no step (from the name)', good().filter((c) => c.name !== 'step'), true],
      ['reward as text', good().map((c) => (c.name === 'accuracy_reward' ? col('accuracy_reward', Array(N).fill('1'), 'STRING') : c)), true],
      ['reward null', good().map((c) => (c.name === 'accuracy_reward' ? col('accuracy_reward', Array(N).fill(null), 'DOUBLE') : c)), true],
      ['advantage as text', good().map((c) => (c.name === 'advantage' ? col('advantage', Array(N).fill('x'), 'STRING') : c)), true],
      ['300 columns', [...good(), ...Array.from({ length: 300 }, (_, i) => col(`extra${i}`, Array(N).fill(i), 'DOUBLE'))], false],
      ['a mode column', [...good(), col('mode', Array.from({ length: N }, (_, i) => (i % 2 ? 'eval' : 'train')), 'STRING')], true],
      ['a __proto__ column', [...good(), col('__proto__', Array(N).fill(1), 'DOUBLE')], true],
    ];
    for (const [name, cols, ok] of variants) await one(new Uint8Array(parquetWriteBuffer({ columnData: cols as never })), `columns: ${name}`, ok);
    const rows = 20_001;
    await one(new Uint8Array(parquetWriteBuffer({ columnData: [col('step', Array(rows).fill(1n), 'INT64'), col('prompt', Array(rows).fill('p'), 'STRING'), col('completion', Array(rows).fill('c'), 'STRING')] as never })), '20,001 rows', false);
    summarize('completions parquet', cases, performance.now() - t0);
    expect(cases.length).toBeGreaterThan(3000);
    // bounded work (with the two byte flips checked first, above): a file past the row or column cap is refused from its footer, before its data is read
    const said = (where: string) => cases.find((c) => c.where === where)?.error ?? 'read';
    expect(said('20,001 rows')).toContain(`it claims ${MAX_PARQUET_ROWS + 1} rows, more than a completion log holds (${MAX_PARQUET_ROWS})`);
    expect(said('columns: 300 columns')).toMatch(new RegExp(`it has \\d+ schema fields \\(at most ${MAX_PARQUET_COLUMNS}\\)`));
  });
});

/**
 * Structured fuzz of the persist decoders, each from a REAL input:
 *   - parseSettingsFile: the settings file the lab exports (settingsFileText) and the run export
 *     (store/exports.ts runJson, with real metrics), both accepted as settings files;
 *   - validateSavedRun: a record built exactly as the autosave builds it, from a real GRPO step
 *     on the CPU reference (real StepMetrics, real EvalMetrics, real checkpoints), passed through
 *     structuredClone as IndexedDB would.
 * Every field is walked recursively and replaced by hostile values (every wrong type, null,
 * missing, huge, negative, fractional, NaN/Infinity where the format carries them, nested junk,
 * long lists, prototype keys). Every case must be accepted or refused with a sentence (never a
 * throw, never a raw JavaScript message), with bounded work; and the acceptance must agree with an
 * oracle of what the format allows, so a field left unchecked shows up as "accepted".
 *
 * Bounded work is counted, not timed (a timed bound fails on a loaded machine; speed lives in
 * `npm run bench`): a settings file is parsed once, and not at all past MAX_SETTINGS_FILE_BYTES
 * (JSON.parse is counted); a saved run's oversized list is refused by its length cap before an
 * item is read (the objects read are counted); unknown settings are named at most
 * MAX_NAMED_UNKNOWN times. The times are still printed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeCheckpoint } from '../model/checkpoint.ts';
import type { ModelConfig } from '../model/config.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { Rng } from '../model/rng.ts';
import { defaultSettings, parseSetting, SETTINGS, SETTINGS_BY_KEY, type Settings } from '../rl/settings.ts';
import { GrpoTrainer } from '../rl/trainer.ts';
import { runJson } from '../store/exports.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { SAVED_RUN_FORMAT, SAVED_RUN_LIMITS, SAVED_RUN_VERSION, validateSavedRun, type SavedRunRecord } from './savedRun.ts';
import { MAX_NAMED_UNKNOWN, MAX_SETTINGS_FILE_BYTES, parseSettingsFile, settingsFileText } from './settingsFile.ts';
import { allPaths, get, isPlain, MISSING, pathText, setAt, withKey, type Seg } from '../testing/structuredFuzz.ts';

/** Work done by a decoder: JSON texts parsed (and their characters), objects read by the typed readers (src/model/validate.ts obj). */
const work = vi.hoisted(() => ({ parses: 0, parsedChars: 0, objects: 0 }));
vi.mock('../model/validate.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../model/validate.ts')>();
  return { ...m, obj: (...a: Parameters<typeof m.obj>) => (work.objects++, m.obj(...a)) };
});
const realParse = JSON.parse;
beforeAll(() => {
  JSON.parse = (text: string, reviver?: Parameters<typeof realParse>[1]) => {
    work.parses++;
    work.parsedChars += String(text).length;
    return realParse(text, reviver);
  };
});
afterAll(() => {
  JSON.parse = realParse;
});
const resetWork = () => Object.assign(work, { parses: 0, parsedChars: 0, objects: 0 });

const BAD_WORDS = ['TypeError', 'RangeError', 'SyntaxError', 'undefined', 'Cannot read', 'is not a function', 'is not iterable', '[object Object]', 'Unexpected token', 'Symbol('];

const ALL_KEYS = SETTINGS.map((s) => s.key).sort().join();

type Kind = 'number' | 'nonfinite' | 'string' | 'boolean' | 'null' | 'missing' | 'list' | 'object' | 'bytes' | 'other';
function kindOf(v: unknown): Kind {
  if (v === MISSING || v === undefined) return 'missing';
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? 'number' : 'nonfinite';
  if (typeof v === 'string' || typeof v === 'boolean') return typeof v as Kind;
  if (Array.isArray(v)) return 'list';
  if (Object.prototype.toString.call(v) === '[object Uint8Array]') return 'bytes';
  return isPlain(v) ? 'object' : 'other';
}

/** Hostile values for JSON (a settings file). */
const JSON_HOSTILE: [string, unknown][] = [
  ['string', 'x'], ['empty string', ''], ['"NaN"', 'NaN'], ['"Infinity"', 'Infinity'], ['numeric string', '8'], ['"true"', 'true'], ['long string', 'z'.repeat(10_000)],
  ['zero', 0], ['-1', -1], ['fraction', 1.5], ['1e308', 1e308], ['-1e308', -1e308], ['2^53', 2 ** 53], ['1e6', 1e6], ['tiny', 1e-300],
  ['true', true], ['false', false], ['null', null],
  ['empty list', []], ['list', [1, 2, 3]], ['list of junk', [null, {}, 'x']], ['empty object', {}], ['nested object', { a: { b: [1, { c: null }] } }],
  ['long list', new Array(20_000).fill(0)], ['missing', MISSING],
];

/** Hostile values a structured clone (IndexedDB) can carry besides JSON's. */
function cloneHostile(): [string, unknown][] {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  let deep: unknown = 1;
  for (let i = 0; i < 2000; i++) deep = { d: deep };
  const nullProto = Object.assign(Object.create(null), { step: 1, reward: 0.5 });
  return [
    ...JSON_HOSTILE.filter(([n]) => n !== 'long list'),
    ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity], ['-0', -0], ['present undefined', undefined], ['bigint', 10n],
    ['Date', new Date(0)], ['Map', new Map([[1, 2]])], ['Set', new Set([1])], ['Float32Array', new Float32Array(4)], ['Uint8Array', new Uint8Array(8)],
    ['sparse huge list', new Array(10_000_000)], ['long list', new Array(20_000).fill(0)], ['cyclic object', cyclic], ['deep object', deep], ['null-prototype object', nullProto],
  ];
}

/** A sentence for a person: no engine message, no "undefined", not empty or huge. (One expect per call: expect is slow in a hot loop.) */
function checkSentence(message: string, where: string): void {
  const problems = BAD_WORDS.filter((w) => message.includes(w));
  if (!/^\S.{10,600}$/s.test(message)) problems.push('not a sentence of 10 to 600 characters');
  if (problems.length) expect(problems, `${where}: ${message}`).toEqual([]);
}

interface Case { path: string; name: string; accepted: boolean; error?: string; ms: number }
function summarize(title: string, paths: number, cases: Case[], ms: number): void {
  const refused = cases.filter((c) => !c.accepted);
  const slowest = cases.reduce((a, c) => (c.ms > a.ms ? c : a), cases[0]);
  const inDecoder = cases.reduce((a, c) => a + c.ms, 0);
  console.log(`${title}: ${paths} paths, ${cases.length} cases (${refused.length} refused, ${cases.length - refused.length} accepted) in ${ms.toFixed(0)} ms (${inDecoder.toFixed(0)} ms in the decoder); slowest ${slowest.ms.toFixed(1)} ms (${slowest.path} ← ${slowest.name})`);
  const seen = new Set<string>();
  const examples = refused.filter((c) => { const k = c.path.split(/[.[]/)[0]; if (seen.has(k)) return false; seen.add(k); return true; });
  console.table(examples.slice(0, 14).map((c) => ({ field: c.path, value: c.name, error: c.error!.slice(0, 150) })));
}

// ---------------------------------------------------------------------------------------------
// Settings files.

/** Accept iff a settings value is of the spec's JSON type and valid for the table (the file is refused otherwise). */
function settingOk(key: string, v: unknown): boolean {
  const spec = SETTINGS_BY_KEY[key];
  if (v === MISSING) return true; // a partial file keeps the others
  const typeOk = spec.kind === 'bool' ? typeof v === 'boolean' : spec.kind === 'enum' ? typeof v === 'string' : typeof v === 'number' && Number.isFinite(v);
  return typeOk && parseSetting(spec, String(v)).ok;
}

function fuzzSettingsFile(label: string, doc: Record<string, unknown>, cases: Case[]): number {
  const paths = allPaths(doc);
  const MARK = 'HOSTILE-VALUE-MARK';
  const decode = (name: string, p: Seg[], text: string, want: 'accept' | 'refuse' | 'either') => {
    const bytes = new TextEncoder().encode(text);
    const t0 = performance.now();
    let r: ReturnType<typeof parseSettingsFile>;
    resetWork();
    try {
      r = parseSettingsFile(`${label}.json`, bytes);
    } catch (e) {
      throw new Error(`${label} ${pathText(p)} ← ${name}: threw ${String(e)}`);
    }
    const ms = performance.now() - t0;
    const where = `${label} ${pathText(p)} ← ${name}`;
    // bounded work: the text is parsed at most once, whatever it holds (a run export's steps and evals are not read)
    if (work.parses > 1 || work.parsedChars > text.length) expect(work, `${where}: JSON parsed more than once`).toMatchObject({ parses: 1, parsedChars: text.length });
    if (r.ok) {
      const keys = Object.keys(r.settings).sort().join();
      const invalid = Object.entries(r.settings).filter(([k, v]) => !SETTINGS_BY_KEY[k] || !parseSetting(SETTINGS_BY_KEY[k], String(v)).ok);
      if (keys !== ALL_KEYS || invalid.length) expect({ keys, invalid }, where).toEqual({ keys: ALL_KEYS, invalid: [] });
      for (const n of r.notices) checkSentence(n, where);
    } else {
      checkSentence(r.error, where);
      if (!/^\S+ was not loaded: .+\. Nothing was changed\.$/s.test(r.error)) expect(r.error, where).toMatch(/^\S+ was not loaded: .+\. Nothing was changed\.$/s);
    }
    if (want !== 'either' && (r.ok ? 'accept' : 'refuse') !== want) expect(r.ok ? 'accept' : 'refuse', `${where}: ${r.ok ? 'accepted' : r.error}`).toBe(want);
    cases.push({ path: `${label}:${pathText(p)}`, name, accepted: r.ok, error: r.ok ? undefined : r.error, ms });
  };
  for (const p of paths) {
    const original = p.length ? get(doc, p) : doc;
    const inSettings = p[0] === 'settings';
    for (const [name, value] of [...JSON_HOSTILE, ['1e999 (Infinity)', 'RAW:1e999'], ['-1e999', 'RAW:-1e999']] as [string, unknown][]) {
      const raw = typeof value === 'string' && value.startsWith('RAW:') ? value.slice(4) : undefined;
      const effective = raw !== undefined ? Number(raw) : value;
      const text = value === MISSING ? JSON.stringify(setAt(doc, p, MISSING)) ?? '' : JSON.stringify(setAt(doc, p, MARK)).replace(`"${MARK}"`, () => raw ?? JSON.stringify(value));
      const same = JSON.stringify(effective) === JSON.stringify(original) && kindOf(effective) === kindOf(original);
      let want: 'accept' | 'refuse' | 'either';
      if (p.length === 0) want = 'refuse';
      else if (inSettings && p.length === 2) want = settingOk(p[1] as string, effective) ? 'accept' : 'refuse';
      else if (inSettings && p.length === 1) want = kindOf(effective) === 'object' ? 'either' : 'refuse';
      else if (p[0] === 'format' || p[0] === 'version') want = same ? 'accept' : 'refuse';
      else want = 'accept'; // the run export's other fields (steps, evals, …) are not read
      decode(name, p, text, want);
    }
    if (isPlain(original)) {
      for (const [key, extra] of [['zzExtra', { a: [1, null] }], ['__proto__', { beta: 1, format: 'x' }], ['constructor', 5], ['toString', 'x']] as const) {
        const text = JSON.stringify(p.length ? setAt(doc, p, withKey(original, key, extra)) : withKey(doc, key, extra));
        decode(`extra ${key}`, [...p, key], text, 'accept');
      }
    }
  }
  return paths.length;
}

// ---------------------------------------------------------------------------------------------
// Saved runs.

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 16, dModel: 8, nHeads: 2, nLayers: 1 };
const runSettings: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 2, numGenerations: 4, maxCompletionLength: 5, numIterations: 1, evalEvery: 1 };

/** A saved record as the autosave writes it (src/lab/autosave.ts), from one real GRPO step, through structuredClone like IndexedDB. */
async function realSavedRun(): Promise<SavedRunRecord> {
  const be = ReferenceBackend.create(config, 7);
  await be.snapshotReference();
  const reference = await be.getWeights();
  const tr = new GrpoTrainer(be, runSettings, { evalSize: 2 });
  const e0 = await tr.evaluate();
  const { metrics } = await tr.trainStep();
  const e1 = await tr.evaluate();
  const prompts = new Rng(runSettings.seed);
  prompts.normal(); // a stream with a spare normal
  const record: SavedRunRecord = {
    format: SAVED_RUN_FORMAT,
    version: SAVED_RUN_VERSION,
    savedAt: Date.now(),
    settings: runSettings,
    page: { lessonId: 'mixed-groups', lessonVariant: 1, backendPref: 'cpu' },
    steps: [metrics],
    evals: [e0, e1],
    trainer: { step: 1, numTokens: metrics.num_tokens, promptRng: prompts.getState() },
    checkpoint: encodeCheckpoint({ config, weights: await be.getWeights(), optimizer: await be.getOptimizerState(), metadata: { kind: 'rl', step: 1, createdBy: 'rlvr-lab autosave' } }),
    reference: encodeCheckpoint({ config, weights: reference, metadata: { kind: 'reference' } }),
    importedName: null,
  };
  return structuredClone(record);
}

const whole = (v: unknown, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const scalarMetric = (v: unknown) => typeof v === 'number' || typeof v === 'boolean';

/**
 * What the saved-run format allows at a path: 'accept', 'refuse', or 'either' (same kind, a value
 * whose validity depends on other fields). `p` is the path of the mutation, `v` the new value.
 */
function savedRunOracle(p: Seg[], v: unknown, original: unknown): 'accept' | 'refuse' | 'either' {
  const t = pathText(p);
  const missing = v === MISSING || v === undefined;
  const yes = (ok: boolean) => (ok ? 'accept' : 'refuse');
  if (p.length === 0) return 'refuse';
  if (/^(format|version)$/.test(t)) return yes(!missing && Object.is(v, original));
  if (t === 'savedAt') return yes(finite(v) && (v as number) >= 0 && (v as number) <= 8.64e15);
  if (t === 'settings') return kindOf(v) === 'object' ? 'either' : 'refuse';
  if (p[0] === 'settings' && p.length === 2) {
    const spec = SETTINGS_BY_KEY[p[1] as string];
    if (missing) return 'accept';
    const typeOk = spec.kind === 'bool' ? typeof v === 'boolean' : spec.kind === 'enum' ? typeof v === 'string' : finite(v);
    return yes(typeOk && parseSetting(spec, String(v)).ok);
  }
  // an id this version has no lesson for (or a variant it lacks) resumes the run without the lesson
  if (t === 'page.lessonId') return yes(v === null || (typeof v === 'string' && v.length >= 1 && v.length <= 100));
  if (t === 'page.lessonVariant') return yes(whole(v, 0, 63));
  if (t === 'page.backendPref') return yes(v === 'cpu' || v === 'auto' || v === 'webgpu');
  if (/^(steps|evals)$/.test(t)) return kindOf(v) === 'list' ? 'either' : 'refuse';
  if (/^(steps|evals)\[\d+\]$/.test(t)) return v === MISSING ? 'accept' : kindOf(v) === 'object' ? 'either' : 'refuse'; // MISSING: the item removed
  if (/^(steps|evals)\[\d+\]\.step$/.test(t)) return yes(whole(v, 0, 1e9));
  if (/^steps\[\d+\]\.reward$/.test(t) || /^evals\[\d+\]\.heldout_accuracy$/.test(t)) return yes(finite(v));
  if (/^steps\[\d+\]\.finite$/.test(t)) return yes(missing || typeof v === 'boolean');
  if (/^evals\[\d+\]\.(pass_at_k|by_difficulty)$/.test(t)) return missing ? 'accept' : kindOf(v) === 'object' ? 'either' : 'refuse';
  if (/^evals\[\d+\]\.(pass_at_k|by_difficulty)\./.test(t)) return yes(missing || typeof v === 'number');
  if (/^evals\[\d+\]\.samples$/.test(t)) return missing ? 'accept' : kindOf(v) === 'list' ? 'either' : 'refuse';
  if (/^evals\[\d+\]\.samples\[\d+\]$/.test(t)) return v === MISSING ? 'accept' : kindOf(v) === 'object' ? 'either' : 'refuse';
  if (/^evals\[\d+\]\.samples\[\d+\]\.(prompt|response)$/.test(t)) return yes(typeof v === 'string' && v.length <= 10_000);
  if (/^evals\[\d+\]\.samples\[\d+\]\.correct$/.test(t)) return yes(typeof v === 'boolean');
  if (/^(steps|evals)\[\d+\]\./.test(t)) return yes(missing || scalarMetric(v)); // any other metric: a number (NaN allowed) or true/false
  if (t === 'trainer') return kindOf(v) === 'object' ? 'either' : 'refuse';
  if (t === 'trainer.step') return yes(whole(v, 0, 1e9));
  if (t === 'trainer.numTokens') return yes(whole(v, 0, Number.MAX_SAFE_INTEGER));
  if (t === 'trainer.promptRng') return v === null ? 'accept' : kindOf(v) === 'object' ? 'either' : 'refuse';
  if (t === 'trainer.promptRng.state') return yes(whole(v, 0, 0xffffffff));
  if (t === 'trainer.promptRng.spare') return yes(v === null || finite(v));
  if (t === 'checkpoint' || t === 'reference') return kindOf(v) === 'bytes' ? 'either' : 'refuse';
  if (t === 'importedName') return yes(v === null || (typeof v === 'string' && v.length <= 200));
  if (t === 'page') return kindOf(v) === 'object' ? 'either' : 'refuse';
  throw new Error(`the oracle does not know the field ${t}: add it`);
}

/** Where an extra field may be added without changing anything: everywhere, but a metric record's extra field must be a metric. */
function extraOracle(p: Seg[], key: string, extra: unknown): 'accept' | 'refuse' {
  const t = pathText(p);
  const protoKey = key === '__proto__' || key === 'constructor' || key === 'prototype';
  if (/^(steps|evals)\[\d+\]$/.test(t) && !protoKey) return scalarMetric(extra) ? 'accept' : 'refuse';
  if (/^evals\[\d+\]\.(pass_at_k|by_difficulty)$/.test(t) && !protoKey) return typeof extra === 'number' ? 'accept' : 'refuse';
  return 'accept';
}

describe('decoders of outside data, structured fuzz from real inputs', () => {
  let record: SavedRunRecord;
  beforeAll(async () => {
    record = await realSavedRun();
  });

  it('settings files (as exported, and the run export): every field × every hostile value', () => {
    const cases: Case[] = [];
    const t0 = performance.now();
    const fileDoc = JSON.parse(settingsFileText({ ...defaultSettings(), numGenerations: 6, beta: 0.04, task: 'add', dynamicSampling: true }));
    let paths = fuzzSettingsFile('settings', fileDoc, cases);
    const exportDoc = JSON.parse(runJson({ ...defaultSettings(), beta: 0.02 }, record.steps, record.evals, { backend: 'cpu', startedFrom: 'fuzz' }));
    paths += fuzzSettingsFile('run-export', exportDoc, cases);
    const ms = performance.now() - t0;
    summarize('settings file fuzz', paths, cases, ms);
    expect(cases.length).toBeGreaterThan(3000);
    expect(cases.filter((c) => !c.accepted).length).toBeGreaterThan(1000);
  });

  it('settings files past the caps: refused unparsed past MAX_SETTINGS_FILE_BYTES, unknown keys named at most MAX_NAMED_UNKNOWN times', () => {
    const file = JSON.parse(settingsFileText(defaultSettings())) as Record<string, unknown>;
    // one byte over the cap (a real file with a long free-form field): refused by its size, before it is decoded or parsed
    const text = JSON.stringify({ ...file, note: '' });
    const big = new TextEncoder().encode(JSON.stringify({ ...file, note: 'x'.repeat(MAX_SETTINGS_FILE_BYTES - text.length + 1) }));
    expect(big.length).toBe(MAX_SETTINGS_FILE_BYTES + 1);
    resetWork();
    const r = parseSettingsFile('big.json', big);
    expect(r.ok ? 'loaded' : r.error).toBe(`big.json was not loaded: the file has ${MAX_SETTINGS_FILE_BYTES + 1} bytes, more than a settings file can have (${MAX_SETTINGS_FILE_BYTES}). Nothing was changed.`);
    expect(work.parses).toBe(0);
    // twenty thousand unknown settings: read once, named MAX_NAMED_UNKNOWN times and counted
    const many = { ...file, settings: { ...(file.settings as object), ...Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`zz${i}`, i])) } };
    const m = parseSettingsFile('many.json', new TextEncoder().encode(JSON.stringify(many)));
    if (!m.ok) expect.fail(m.error);
    expect(m.notices.filter((n) => /zz\d/.test(n))).toHaveLength(MAX_NAMED_UNKNOWN);
    expect(m.notices.join('\n')).toContain(`ignored ${20_000 - MAX_NAMED_UNKNOWN} more unknown settings`);
    expect(m.notices.length).toBeLessThanOrEqual(MAX_NAMED_UNKNOWN + 1);
  });

  it('saved runs (as the autosave writes them): every field × every hostile value, agreeing with the format', () => {
    const cases: Case[] = [];
    const hostile = cloneHostile();
    const expectVocab = { vocabSize: VOCAB_SIZE };
    expect(validateSavedRun(record, expectVocab).ok).toBe(true);
    const t0 = performance.now();
    const paths = allPaths(record);
    const decode = (name: string, p: Seg[], x: unknown, want: 'accept' | 'refuse' | 'either') => {
      const where = `${pathText(p)} ← ${name}`;
      const c0 = performance.now();
      let r: ReturnType<typeof validateSavedRun>;
      try {
        r = validateSavedRun(x, expectVocab); // its work is bounded by SAVED_RUN_LIMITS, checked below and in the next test
      } catch (e) {
        throw new Error(`${where}: threw ${String(e)}`);
      }
      const ms = performance.now() - c0;
      if (!r.ok) {
        checkSentence(r.error, where);
        if (!r.error.startsWith('the saved run cannot be resumed: ')) expect(r.error, where).toMatch(/^the saved run cannot be resumed: /);
      } else {
        // what comes out is clean: the histories the page keeps, the counters the trainer takes
        const rec = r.run.record;
        const clean = Array.isArray(rec.steps) && Array.isArray(rec.evals) && rec.evals.every((e) => isPlain(e.pass_at_k) && isPlain(e.by_difficulty) && Array.isArray(e.samples))
          && rec.steps.every((m) => Object.values(m).every(scalarMetric)) && Object.keys(rec.settings).sort().join() === ALL_KEYS;
        if (!clean) expect(rec, `${where}: the record that came out is not clean`).toBe('clean');
      }
      if (want !== 'either' && (r.ok ? 'accept' : 'refuse') !== want) expect(r.ok ? 'accept' : 'refuse', `${where}: ${r.ok ? 'accepted' : r.error}`).toBe(want);
      cases.push({ path: pathText(p), name, accepted: r.ok, error: r.ok ? undefined : r.error, ms });
    };
    for (const p of paths) {
      const original = p.length ? get(record, p) : record;
      for (const [name, value] of hostile) {
        const want = Object.is(value, original) ? 'accept' : savedRunOracle(p, value, original);
        decode(name, p, setAt(record, p, value), want);
      }
      if (isPlain(original)) {
        for (const [key, extra] of [['zzExtra', 1], ['zzNested', { a: [1, null] }], ['__proto__', { step: 'x', format: 'y' }], ['constructor', { junk: true }], ['toString', 5]] as const) {
          decode(`extra ${key}`, [...p, key], setAt(record, p, withKey(original, key, extra)), extraOracle(p, key, extra));
        }
      }
    }
    const ms = performance.now() - t0;
    summarize('saved run fuzz', paths.length, cases, ms);
    for (const must of ['trainer.promptRng.spare', 'steps[0].kl_exact', 'evals[1].pass_at_k', 'evals[0].samples[0].correct', 'page.lessonVariant', 'settings.numGenerations', 'checkpoint']) expect(paths.map(pathText)).toContain(must);
    expect(paths.length).toBeGreaterThan(80);
    expect(cases.length).toBeGreaterThan(4000);
    expect(cases.filter((c) => !c.accepted).length).toBeGreaterThan(2000);
    // bounded work, not time: where the record holds a list, a 20,000- or 10,000,000-item one is refused by its length (before an item is read)
    const lists = new Set(paths.filter((p) => Array.isArray(get(record, p))).map(pathText));
    const oversized = cases.filter((c) => lists.has(c.path) && (c.name === 'long list' || c.name === 'sparse huge list'));
    expect(oversized.length).toBeGreaterThanOrEqual(2 * 3); // steps, evals, evals[i].samples
    console.log(`saved run fuzz: oversized lists refused by their length at ${[...lists].join(', ')}`);
    for (const c of oversized) expect(c.error ?? 'accepted', `${c.path} ← ${c.name}`).toMatch(new RegExp(`${c.path.replace(/[.[\]]/g, '\\$&')} must be a list of at most (${SAVED_RUN_LIMITS.points}|${SAVED_RUN_LIMITS.samples}) items, got a list of ${c.name === 'long list' ? 20_000 : 10_000_000}`));
  });

  it('saved runs past the caps: a history or sample list one item too long is refused before its items are read', () => {
    const expectVocab = { vocabSize: VOCAB_SIZE };
    resetWork();
    expect(validateSavedRun(record, expectVocab).ok).toBe(true);
    const whole = work.objects; // objects read in the whole real record
    // real items, so that reading them would succeed: only the length cap stops the reader
    const over: [string, unknown, number][] = [
      ['steps', setAt(record, ['steps'], new Array(SAVED_RUN_LIMITS.points + 1).fill(record.steps[0])), SAVED_RUN_LIMITS.points],
      ['evals', setAt(record, ['evals'], new Array(SAVED_RUN_LIMITS.points + 1).fill(record.evals[0])), SAVED_RUN_LIMITS.points],
      ['evals[0].samples', setAt(record, ['evals', 0, 'samples'], new Array(SAVED_RUN_LIMITS.samples + 1).fill(record.evals[0].samples[0])), SAVED_RUN_LIMITS.samples],
    ];
    for (const [where, x, cap] of over) {
      resetWork();
      const r = validateSavedRun(x, expectVocab);
      expect(work.objects, `${where}: objects read`).toBeLessThanOrEqual(whole); // no more than the real record's: the items were not read
      expect(r.ok ? 'resumed' : r.error, where).toContain(`${where} must be a list of at most ${cap} items, got a list of ${cap + 1}`);
    }
  });

  it('saved runs: not a record at all, and damaged checkpoint bytes', () => {
    for (const x of [null, undefined, 0, 'run', [], new Map(), new Uint8Array(4), Object.create(null)]) {
      const r = validateSavedRun(x, { vocabSize: VOCAB_SIZE });
      expect(r.ok).toBe(false);
      if (!r.ok) checkSentence(r.error, String(typeof x));
    }
    const rng = new Rng(3);
    for (let i = 0; i < 200; i++) {
      const ck = record.checkpoint.slice();
      ck[rng.int(Math.min(ck.length, 600))] = rng.int(256);
      const r = validateSavedRun({ ...record, checkpoint: ck }, { vocabSize: VOCAB_SIZE });
      if (!r.ok) checkSentence(r.error, `damaged byte ${i}`);
    }
  });
});

/**
 * Structured fuzz of the checkpoint decoder. Start from a REAL checkpoint (encodeCheckpoint of a
 * small model with AdamW state and metadata), walk every field of its JSON header recursively
 * and replace it with hostile values (every wrong type, null, missing, huge, negative, fractional,
 * Infinity via 1e999, nested junk, long lists, prototype keys), re-encode the header and
 * recompute the checksum, and decode. Every case must either decode or be refused with a
 * CheckpointError whose message is a sentence — never a TypeError or a raw JavaScript message —
 * with bounded work. A mutated header may decode only where the format allows it (free-form metadata,
 * unknown extra fields, or a value equal to the original): that proves every field is checked.
 *
 * Bounded work is counted, not timed (a timed bound fails on a loaded machine; speed lives in
 * `npm run bench`): the layouts the decoder builds are recorded (a header beyond CHECKPOINT_LIMITS
 * must be refused before its layout is built), and an oversized list is refused by its length
 * cap and deep metadata by its depth cap, before they are walked. The times are still printed.
 */
import { describe, expect, it, vi } from 'vitest';
import { assemble, CHECKPOINT_LIMITS, CheckpointError, decodeCheckpoint, encodeCheckpoint, fnv1a32 } from './checkpoint.ts';
import type { ModelConfig } from './config.ts';
import { paramLayout } from './config.ts';
import { initWeights } from './init.ts';
import { Rng } from './rng.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';

/** Every config the decoder built a layout for (paramLayout: its only way to build one). */
const built = vi.hoisted(() => [] as ModelConfig[]);
vi.mock('./config.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('./config.ts')>();
  return { ...m, paramLayout: (c: ModelConfig) => (built.push({ ...c }), m.paramLayout(c)) };
});
/** A config beyond what a header may ask for: building its layout is the work CHECKPOINT_LIMITS prevents. */
const beyondLimits = (c: ModelConfig) => (['vocabSize', 'seqLen', 'dModel', 'nHeads', 'nLayers'] as const).filter((k) => !(c[k] >= 1 && c[k] <= CHECKPOINT_LIMITS[k]));

type Seg = string | number;
const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 4, dModel: 8, nHeads: 2, nLayers: 1 };
const layout = paramLayout(config);

function realCheckpoint(): Uint8Array {
  const rng = new Rng(9);
  const m = new Float32Array(layout.total).map(() => rng.normal() * 1e-3);
  const v = new Float32Array(layout.total).map(() => rng.next() * 1e-6);
  return encodeCheckpoint({
    config,
    weights: initWeights(layout, 3),
    optimizer: { step: 17, m, v },
    metadata: { kind: 'rl', step: 17, lesson: null, settings: { task: 'reverse', beta: 0.04 }, heldoutAccuracy: 0.5, tags: ['a', 'b'] },
  });
}

function split(bytes: Uint8Array): { header: Record<string, unknown>; data: Uint8Array } {
  const h = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  return { header: JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + h))), data: bytes.slice(16 + h) };
}

/** Every path in a JSON value, containers and leaves, the root ([]) included. */
function allPaths(v: unknown, p: Seg[] = []): Seg[][] {
  const out: Seg[][] = [p];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...allPaths(x, [...p, i])));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...allPaths(x, [...p, k]));
  return out;
}

const get = (root: unknown, p: Seg[]) => p.reduce<unknown>((o, s) => (o as Record<Seg, unknown>)[s], root);
const pathText = (p: Seg[]) => p.reduce<string>((a, s) => (typeof s === 'number' ? `${a}[${s}]` : a ? `${a}.${s}` : s), '');

/** The header with the value at `p` replaced (or deleted: MISSING). The hostile value's JSON text is spliced in by encodeHeader. */
const MISSING = Symbol('missing');
function mutate(header: unknown, p: Seg[], value: unknown): unknown {
  if (p.length === 0) return value === MISSING ? undefined : value;
  const copy = structuredClone(header);
  const parent = get(copy, p.slice(0, -1)) as Record<Seg, unknown> & unknown[];
  const last = p[p.length - 1];
  if (value !== MISSING) parent[last] = value;
  else if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/** JSON values of every kind, and out-of-range ones. RAW:… is spliced into the JSON text unquoted (1e999 parses to Infinity). */
const HOSTILE: [string, unknown][] = [
  ['string', 'x'], ['empty string', ''], ['"NaN"', 'NaN'], ['"Infinity"', 'Infinity'], ['numeric string', '16'], ['long string', 'z'.repeat(10_000)],
  ['zero', 0], ['-1', -1], ['fraction', 1.5], ['1e308', 1e308], ['-1e308', -1e308], ['2^53', 2 ** 53], ['2^32', 2 ** 32], ['1e6', 1e6],
  ['true', true], ['false', false], ['null', null],
  ['empty list', []], ['list', [1, 2, 3]], ['list of junk', [null, {}, 'x']], ['empty object', {}], ['nested object', { a: { b: [1, { c: null }] } }],
  ['deep list', `RAW:${'['.repeat(5_000)}${']'.repeat(5_000)}`], ['long list', `RAW:[${new Array(20_000).fill(0).join(',')}]`],
  ['Infinity (1e999)', 'RAW:1e999'], ['-Infinity (-1e999)', 'RAW:-1e999'], ['NaN literal', 'RAW:NaN'], ['-0', 'RAW:-0'],
  ['missing', MISSING],
];

const hostileText = (v: unknown) => (typeof v === 'string' && v.startsWith('RAW:') ? v.slice(4) : JSON.stringify(v));
const HOSTILE_TEXT = HOSTILE.map(([name, v]) => [name, v, v === MISSING ? undefined : hostileText(v)] as const);

type Kind = 'number' | 'string' | 'boolean' | 'null' | 'list' | 'object' | 'missing' | 'not JSON';
function kindOf(v: unknown): Kind {
  if (typeof v === 'string' && v.startsWith('RAW:')) return v.startsWith('RAW:[') ? 'list' : /^RAW:-?\d/.test(v) ? 'number' : 'not JSON';
  return v === MISSING || v === undefined ? 'missing' : v === null ? 'null' : Array.isArray(v) ? 'list' : (typeof v as Kind);
}

/** What a hostile number is once parsed (RAW:1e999 is Infinity, RAW:-0 is -0). */
const effective = (v: unknown): unknown => (kindOf(v) === 'number' && typeof v === 'string' ? Number(v.slice(4)) : v);

const BAD_WORDS = ['TypeError', 'RangeError', 'SyntaxError', 'undefined', 'Cannot read', 'is not a function', 'is not iterable', '[object Object]', 'Unexpected token'];
const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, '0');

/** The JSON text of each hostile value, made once (a case splices it into the header text). */
const MARK = 'HOSTILE-VALUE-MARK';

/** The data's checksum, recomputed for every forged header (the data bytes are the same in every case, so once is enough). */
const checksums = new WeakMap<Uint8Array, string>();
function encodeHeader(header: unknown, data: Uint8Array, recomputeChecksum: boolean, spliced?: string): Uint8Array {
  if (!checksums.has(data)) checksums.set(data, hex8(fnv1a32(data)));
  if (recomputeChecksum && header && typeof header === 'object' && !Array.isArray(header)) (header as Record<string, unknown>).checksum = checksums.get(data);
  let json = JSON.stringify(header) ?? '';
  if (spliced !== undefined) json = json.replace(`"${MARK}"`, () => spliced);
  return assemble(1, json, data);
}

interface Outcome { name: string; path: string; accepted: boolean; code?: string; message?: string; ms: number }

function run(name: string, path: Seg[], bytes: Uint8Array): Outcome {
  built.length = 0;
  const o = decodeOne(name, path, bytes);
  // bounded work: no layout was built for a config beyond the header's limits
  const beyond = built.filter((c) => beyondLimits(c).length);
  if (beyond.length) expect(beyond.map((c) => beyondLimits(c).map((k) => `${k}=${c[k]}`).join(', ')), `${o.path} ← ${name}: layouts built beyond CHECKPOINT_LIMITS`).toEqual([]);
  return o;
}

function decodeOne(name: string, path: Seg[], bytes: Uint8Array): Outcome {
  const t0 = performance.now();
  try {
    decodeCheckpoint(bytes);
    return { name, path: pathText(path), accepted: true, ms: performance.now() - t0 };
  } catch (e) {
    const ms = performance.now() - t0;
    expect(e, `${pathText(path)} ← ${name}: ${String(e)}`).toBeInstanceOf(CheckpointError);
    const message = (e as Error).message;
    for (const w of BAD_WORDS) expect(message, `${pathText(path)} ← ${name}`).not.toContain(w);
    expect(message, `${pathText(path)} ← ${name}`).toMatch(/^checkpoint: \S.{10,400}$/s);
    return { name, path: pathText(path), accepted: false, code: (e as CheckpointError).code, message, ms };
  }
}

describe('checkpoint decoder, structured fuzz from a real checkpoint', () => {
  const good = realCheckpoint();
  const { header, data } = split(good);

  it('every header field replaced by every hostile value: decoded or refused in a sentence, never accepted where the format forbids it', () => {
    expect(decodeCheckpoint(good).optimizer?.step).toBe(17); // the starting file is good
    const t0 = performance.now();
    const paths = allPaths(header);
    const outcomes: Outcome[] = [];
    for (const p of paths) {
      const original = p.length ? get(header, p) : header;
      const inMetadata = p[0] === 'metadata' && p.length > 1; // free-form: anything goes
      for (const [name, value, text] of HOSTILE_TEXT) {
        const mutated = mutate(header, p, value === MISSING ? MISSING : MARK);
        const o = run(name, p, encodeHeader(mutated, data, p[0] !== 'checksum', text));
        outcomes.push(o);
        const eff = effective(value);
        const same = name !== 'deep list' && kindOf(value) === kindOf(original) && (typeof eff === 'number' ? eff === original : JSON.stringify(eff) === JSON.stringify(original));
        if (o.accepted) expect(inMetadata || same || (p[0] === 'metadata' && p.length === 1 && kindOf(value) === 'object'), `accepted ${o.path} ← ${name}`).toBe(true);
        // a value of another kind is refused as a malformed header that names the field (a list item
        // removed is not a kind change: the shorter list is refused by the layout check)
        const removedItem = value === MISSING && typeof p.at(-1) === 'number';
        if (!inMetadata && p.length > 0 && !removedItem && kindOf(value) !== 'not JSON' && kindOf(value) !== kindOf(original) && !(p[0] === 'metadata' && kindOf(value) === 'object')) {
          expect(o.code, `${o.path} ← ${name}: ${o.message}`).toBe('header-malformed');
          expect(o.message, `${o.path} ← ${name}`).toContain(`header field ${pathText(p)} `);
        }
      }
      // unknown extra fields are ignored; prototype keys are plain unknown fields
      if (original && typeof original === 'object' && !Array.isArray(original)) {
        for (const [key, extra] of [['zzExtra', { a: [1, null] }], ['__proto__', { hasOptimizer: 'x', config: null }], ['constructor', 'x'], ['toString', 5]] as const) {
          const copy = structuredClone(header);
          const target = (p.length ? get(copy, p) : copy) as Record<string, unknown>;
          Object.defineProperty(target, key, { value: extra, enumerable: true, writable: true, configurable: true });
          const o = run(`extra ${key}`, [...p, key], encodeHeader(copy, data, true));
          outcomes.push(o);
          expect(o.accepted, `${o.path}: ${o.message}`).toBe(true);
        }
      }
    }
    const ms = performance.now() - t0;
    const refused = outcomes.filter((o) => !o.accepted);
    const groups = new Map<string, Outcome[]>();
    for (const o of refused) groups.set(o.code!, [...(groups.get(o.code!) ?? []), o]);
    const byCode = [...groups].map(([code, os]) => ({ code, cases: os.length, example: os[Math.floor(os.length / 2)].message!.slice(0, 130) }));
    console.log(`checkpoint header fuzz: ${paths.length} paths, ${outcomes.length} cases (${refused.length} refused, ${outcomes.length - refused.length} decoded) in ${ms.toFixed(0)} ms; slowest case ${Math.max(...outcomes.map((o) => o.ms)).toFixed(1)} ms (for information: speed lives in the bench)`);
    console.table(byCode);
    console.table([...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 8).map((o) => ({ path: o.path, name: o.name, ms: o.ms.toFixed(1) })));
    expect(paths.length).toBeGreaterThan(100);
    for (const must of ['config.nLayers', 'layout.tensors[16].offset', 'layout.tensors[0].shape[1]', 'layout.numParams', 'checksum', 'dataBytes', 'hasOptimizer', 'metadata.settings.beta']) expect(paths.map(pathText)).toContain(must);
    expect(outcomes.length).toBeGreaterThan(3000);
    expect(refused.length).toBeGreaterThan(2000);
    // bounded work, not time: run() saw no layout built beyond CHECKPOINT_LIMITS; every config value
    // beyond them (1e6, 2^32, 2^53, 1e308) was refused as a header field, before any layout…
    const bigConfig = outcomes.filter((o) => /^config\.\w+$/.test(o.path) && ['1e6', '2^32', '2^53', '1e308'].includes(o.name));
    expect(bigConfig.length).toBe(20);
    for (const o of bigConfig) expect(`${o.code}: ${o.message}`, `${o.path} ← ${o.name}`).toMatch(new RegExp(`^header-malformed: .*header field ${o.path.replace('.', '\\.')} must be a whole number between 1 and \\d+`));
    // …the 20,000-item list where the tensors or a shape go was refused by its length, before an item was read…
    const longLists = outcomes.filter((o) => /^layout\.tensors(\[\d+\]\.shape)?$/.test(o.path) && o.name === 'long list');
    expect(longLists.length).toBe(1 + (header as { layout: { tensors: unknown[] } }).layout.tensors.length); // the list, and each tensor's shape
    for (const o of longLists) expect(o.message ?? 'decoded', o.path).toMatch(new RegExp(`header field ${o.path.replace(/[.[\]]/g, '\\$&')} must be a list of (1 to ${CHECKPOINT_LIMITS.shapeRank}|at most ${CHECKPOINT_LIMITS.tensors}) items, got a list of 20000`));
    // …and the 5000-deep list in the free-form metadata by the depth cap
    const deep = outcomes.filter((o) => o.path.startsWith('metadata.') && o.name === 'deep list');
    expect(deep.length).toBeGreaterThan(5);
    for (const o of deep) expect(o.message ?? 'decoded', o.path).toMatch(/header field metadata must be nested at most 32 levels deep/);
  });

  it('random byte damage in the header (checksum kept valid): refused in a sentence or decoded, never a TypeError', () => {
    const h = new DataView(good.buffer).getUint32(12, true);
    const rng = new Rng(31);
    const t0 = performance.now();
    let refused = 0;
    const N = 1000;
    for (let i = 0; i < N; i++) {
      const b = good.slice();
      const k = 1 + rng.int(3);
      for (let j = 0; j < k; j++) b[16 + rng.int(h)] = [0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x30, 0x2d, 0x6e, 0xff, rng.int(256)][rng.int(12)];
      const o = run(`damage ${i}`, [], b);
      if (!o.accepted) refused++;
    }
    console.log(`header byte damage: ${N} cases, ${refused} refused, in ${(performance.now() - t0).toFixed(0)} ms`);
    expect(refused).toBeGreaterThan(N / 2);
  });

  it('the checksum covers the data, so the fuzz above reached field validation: a stale checksum is caught after it', () => {
    const stale = structuredClone(header) as Record<string, unknown>;
    (stale.config as Record<string, unknown>).nLayers = 'two';
    stale.checksum = '00000000';
    expect(() => decodeCheckpoint(encodeHeader(stale, data, false))).toThrow(/header field config\.nLayers must be a whole number between 1 and 64, got "two"/);
  });
});

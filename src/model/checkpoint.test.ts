import { describe, expect, it } from 'vitest';
import { assemble, CHECKPOINT_FORMAT_VERSION, CheckpointError, decodeCheckpoint, encodeCheckpoint, MAX_HEADER_BYTES } from './checkpoint.ts';
import type { CheckpointErrorCode } from './checkpoint.ts';
import type { ModelConfig } from './config.ts';
import { paramLayout } from './config.ts';
import { initWeights } from './init.ts';
import { Rng } from './rng.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 8, dModel: 16, nHeads: 2, nLayers: 1 };
const layout = paramLayout(config);

function contents(withOptimizer: boolean) {
  const weights = initWeights(layout, 3);
  const rng = new Rng(4);
  const m = new Float32Array(layout.total).map(() => rng.normal() * 1e-3);
  const v = new Float32Array(layout.total).map(() => rng.next() * 1e-6);
  weights[5] = -0; // signed zero and subnormals must survive too
  weights[6] = 1e-40;
  return { config, weights, optimizer: withOptimizer ? { step: 123, m, v } : undefined, metadata: { task: 'reverse', passRate: 0.64, seed: 3, note: 'ünïcode ✓' } };
}

const bitsEqual = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** Split a checkpoint into its header object and data, so a test can forge a variant. */
function split(bytes: Uint8Array) {
  const h = new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(16, 16 + h)));
  return { header, data: bytes.slice(16 + h) };
}

function expectCode(f: () => unknown, code: CheckpointErrorCode, message: RegExp): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CheckpointError);
    expect((e as CheckpointError).code).toBe(code);
    expect((e as Error).message).toMatch(message);
    return (e as Error).message;
  }
  throw new Error(`expected a CheckpointError ${code}, nothing was thrown`);
}

describe('checkpoint format', () => {
  it('round-trips weights, optimizer state and metadata bit-exactly', () => {
    for (const withOpt of [false, true]) {
      const c = contents(withOpt);
      const bytes = encodeCheckpoint(c);
      const d = decodeCheckpoint(bytes, { config });
      expect(bitsEqual(d.weights, c.weights)).toBe(true);
      expect(d.config).toEqual(config);
      expect(d.metadata).toEqual(c.metadata);
      expect(d.formatVersion).toBe(CHECKPOINT_FORMAT_VERSION);
      if (withOpt) {
        expect(d.optimizer!.step).toBe(123);
        expect(bitsEqual(d.optimizer!.m, c.optimizer!.m)).toBe(true);
        expect(bitsEqual(d.optimizer!.v, c.optimizer!.v)).toBe(true);
      } else expect(d.optimizer).toBeNull();
      // and re-encoding the decoded contents gives the same bytes
      const again = encodeCheckpoint({ config: d.config, weights: d.weights, optimizer: d.optimizer ?? undefined, metadata: d.metadata });
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it('every kind of damage gives its own clear error', () => {
    const good = encodeCheckpoint(contents(true));
    const messages: Record<string, string> = {};
    const at = (f: () => unknown, code: CheckpointErrorCode, re: RegExp) => (messages[code] = expectCode(f, code, re));

    // not a checkpoint at all
    at(() => decodeCheckpoint(new TextEncoder().encode('{"weights": [1, 2, 3]}')), 'not-a-checkpoint', /does not start with "RLVRCKPT"/);
    expectCode(() => decodeCheckpoint(new Uint8Array(0)), 'not-a-checkpoint', /not a checkpoint/);
    // truncated: in the data, and inside the header
    at(() => decodeCheckpoint(good.slice(0, good.length - 10)), 'truncated', /truncated: \d+ of \d+ data bytes/);
    expectCode(() => decodeCheckpoint(good.slice(0, 40)), 'truncated', /the header needs/);
    // one flipped bit in the data
    const flipped = good.slice();
    flipped[flipped.length - 100] ^= 0x04;
    at(() => decodeCheckpoint(flipped), 'checksum-mismatch', /checksum .* does not match/);
    // a newer format version
    const newer = good.slice();
    new DataView(newer.buffer).setUint32(8, CHECKPOINT_FORMAT_VERSION + 1, true);
    at(() => decodeCheckpoint(newer), 'unsupported-version', /unsupported format version 2 \(written by a newer version/);
    // header JSON broken
    const broken = good.slice();
    broken[16] = 'x'.charCodeAt(0);
    at(() => decodeCheckpoint(broken), 'header-malformed', /not valid UTF-8 JSON/);
    const { header, data } = split(good);
    expectCode(() => decodeCheckpoint(assemble(1, JSON.stringify({ ...header, checksum: undefined }), data)), 'header-malformed', /the header field checksum is missing \(it must be 8 lowercase hexadecimal digits\)/);
    // another tokenizer
    at(() => decodeCheckpoint(assemble(1, JSON.stringify({ ...header, tokenizerVersion: 99 }), data)), 'tokenizer-mismatch', /tokenizer version 99/);
    // layout disagreeing with the config: a missing tensor, a wrong shape, a config that needs other sizes
    at(() => decodeCheckpoint(assemble(1, JSON.stringify({ ...header, layout: { ...header.layout, tensors: header.layout.tensors.slice(1) } }), data)), 'layout-mismatch', /tensors in the header, the config has/);
    const reshaped = structuredClone(header);
    reshaped.layout.tensors[0].shape = [VOCAB_SIZE, 32];
    expectCode(() => decodeCheckpoint(assemble(1, JSON.stringify(reshaped), data)), 'layout-mismatch', /"wte" has shape/);
    expectCode(() => decodeCheckpoint(assemble(1, JSON.stringify({ ...header, config: { ...config, dModel: 32 } }), data)), 'layout-mismatch', /layout does not match/);
    // a good checkpoint of another config than the one asked for
    at(() => decodeCheckpoint(good, { config: { ...config, nLayers: 2 } }), 'config-mismatch', /nLayers \(checkpoint 1, expected 2\)/);
    // header length absurd
    const huge = good.slice();
    new DataView(huge.buffer).setUint32(12, 0xfffffff0, true);
    at(() => decodeCheckpoint(huge), 'header-too-large', new RegExp(`exceeds the limit of ${MAX_HEADER_BYTES}`));
    // extra bytes after the data
    const longer = new Uint8Array(good.length + 8);
    longer.set(good);
    at(() => decodeCheckpoint(longer), 'trailing-data', /8 unexpected bytes/);

    console.log('checkpoint errors:');
    console.table(Object.entries(messages).map(([code, message]) => ({ code, message })));
    expect(new Set(Object.values(messages)).size).toBe(Object.keys(messages).length);
    expect(Object.keys(messages).length).toBeGreaterThanOrEqual(10);
  });

  it('a malformed header with a valid checksum is refused naming the field, never with a TypeError', () => {
    const { header, data } = split(encodeCheckpoint(contents(false)));
    const forge = (f: (h: Record<string, any>) => void) => {
      const h = structuredClone(header);
      f(h);
      return assemble(1, JSON.stringify(h), data); // the checksum covers the data, which is unchanged: it stays valid
    };
    const cases: [string, (h: Record<string, any>) => void, RegExp][] = [
      ['a tensor is null', (h) => { h.layout.tensors[3] = null; }, /the header field layout\.tensors\[3\] must be an object, got null/],
      ['a shape is null', (h) => { h.layout.tensors[0].shape = null; }, /layout\.tensors\[0\]\.shape must be a list of 1 to 4 items, got null/],
      ['a shape holds text', (h) => { h.layout.tensors[2].shape = ['16']; }, /layout\.tensors\[2\]\.shape\[0\] must be a whole number between 1 and 2147483647, got "16"/],
      ['the config is a list', (h) => { h.config = [8, 16]; }, /the header field config must be an object, got a list of 2 items/],
      ['nLayers is null', (h) => { h.config.nLayers = null; }, /config\.nLayers must be a whole number between 1 and 64, got null/],
      ['nLayers is huge', (h) => { h.config.nLayers = 1e9; }, /config\.nLayers must be a whole number between 1 and 64, got 1000000000/],
      ['dModel is nested junk', (h) => { h.config.dModel = { x: [1] }; }, /config\.dModel must be a whole number between 1 and 4096, got an object/],
      ['nHeads does not divide dModel', (h) => { h.config.nHeads = 3; }, /config\.nHeads must be a divisor of config\.dModel \(16\), got 3/],
      ['metadata is null', (h) => { h.metadata = null; }, /the header field metadata must be an object, got null/],
      ['the tensor list is huge', (h) => { h.layout.tensors = new Array(5000).fill(h.layout.tensors[0]); }, /layout\.tensors must be a list of at most 773 items, got a list of 5000 items/],
      ['the checksum is a number', (h) => { h.checksum = 12345678; }, /the header field checksum must be 8 lowercase hexadecimal digits, got 12345678/],
      ['the name is missing', (h) => { delete h.layout.tensors[1].name; }, /layout\.tensors\[1\]\.name is missing \(it must be a text of 1 to 64 characters\)/],
    ];
    const table = cases.map(([name, f, want]) => ({ name, message: expectCode(() => decodeCheckpoint(forge(f)), 'header-malformed', want) }));
    console.table(table);
  });

  it('refuses to encode weights that do not fit the config', () => {
    expectCode(() => encodeCheckpoint({ config, weights: new Float32Array(10) }), 'invalid-input', /weights have 10 floats/);
  });
});

/**
 * Checkpoints: a versioned binary file of the model's weights (and optionally the AdamW state).
 * Pure TS, the same in Node and the browser.
 *
 * Layout (all integers little-endian):
 *   bytes 0..7    magic "RLVRCKPT"
 *   bytes 8..11   u32 format version (CHECKPOINT_FORMAT_VERSION)
 *   bytes 12..15  u32 header length h in bytes (a multiple of 4, at most MAX_HEADER_BYTES)
 *   bytes 16..    h bytes of UTF-8 JSON (CheckpointHeader), padded with spaces
 *   then          dataBytes of data: weights f32[layout.total] (the flat buffer of the offset
 *                 table, padding included); if hasOptimizer: m f32[total], v f32[total], step u32
 * The header's checksum is FNV-1a (32-bit) of the data bytes.
 *
 * decodeCheckpoint checks everything and throws a CheckpointError whose `code` names what is
 * wrong and whose message says it in words; a checkpoint is refused under another tokenizer
 * version, because its token ids would silently mean other characters. Every header field is
 * read through the typed readers of ./validate.ts (type, null, absence, range, list lengths
 * and elements; config sizes bounded by CHECKPOINT_LIMITS before any layout is built), so a
 * malformed header is refused as 'header-malformed' naming the field, never with a TypeError.
 * Unknown extra header fields are ignored; `metadata` is free-form and returned as parsed.
 */
import type { OptimizerState } from './backend.ts';
import type { ModelConfig, ParamLayout } from './config.ts';
import { paramLayout } from './config.ts';
import { TOKENIZER_VERSION } from '../tasks/tokenizer.ts';
import { arr, at, bool, describeValue, FieldError, isBytes, isRecord, jsonProblem, num, obj, shallow, str } from './validate.ts';

export const CHECKPOINT_MAGIC = 'RLVRCKPT';
export const CHECKPOINT_FORMAT_VERSION = 1;
/** Headers are small (config, layout summary, metadata); anything larger is not ours. */
export const MAX_HEADER_BYTES = 1 << 20;
const PREAMBLE_BYTES = 16;

export type CheckpointErrorCode =
  | 'not-a-checkpoint'
  | 'unsupported-version'
  | 'header-too-large'
  | 'truncated'
  | 'header-malformed'
  | 'tokenizer-mismatch'
  | 'layout-mismatch'
  | 'config-mismatch'
  | 'trailing-data'
  | 'checksum-mismatch'
  | 'invalid-input';

export class CheckpointError extends Error {
  readonly code: CheckpointErrorCode;
  constructor(code: CheckpointErrorCode, message: string) {
    super(`checkpoint: ${message}`);
    this.name = 'CheckpointError';
    this.code = code;
  }
}

/** One tensor of the layout summary in the header. */
export interface CheckpointTensor {
  name: string;
  shape: number[];
  offset: number;
}

/** The JSON header. */
export interface CheckpointHeader {
  formatVersion: number;
  config: ModelConfig;
  tokenizerVersion: number;
  /** The offset table the data was written with; must equal paramLayout(config). */
  layout: { total: number; numParams: number; tensors: CheckpointTensor[] };
  /** Free-form: task, pass rate, seed, step, date… */
  metadata: Record<string, unknown>;
  hasOptimizer: boolean;
  dataBytes: number;
  /** FNV-1a 32-bit of the data bytes, 8 lowercase hex digits. */
  checksum: string;
}

export interface CheckpointContents {
  config: ModelConfig;
  /** [layout.total] flat weights. */
  weights: Float32Array;
  optimizer?: OptimizerState;
  metadata?: Record<string, unknown>;
}

export interface DecodedCheckpoint extends Required<Omit<CheckpointContents, 'optimizer'>> {
  optimizer: OptimizerState | null;
  formatVersion: number;
  tokenizerVersion: number;
  layout: ParamLayout;
}

/** FNV-1a, 32-bit: h = (h ^ byte) · 16777619 mod 2³², from 2166136261. */
export function fnv1a32(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

const hex8 = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function dataBytesFor(layout: ParamLayout, hasOptimizer: boolean): number {
  return layout.total * 4 * (hasOptimizer ? 3 : 1) + (hasOptimizer ? 4 : 0);
}

function layoutSummary(layout: ParamLayout): CheckpointHeader['layout'] {
  return { total: layout.total, numParams: layout.numParams, tensors: layout.tensors.map((t) => ({ name: t.name, shape: [...t.shape], offset: t.offset })) };
}

function writeF32(dst: Uint8Array, at: number, src: Float32Array): void {
  if (LITTLE_ENDIAN_HOST) dst.set(new Uint8Array(src.buffer, src.byteOffset, src.byteLength), at);
  else {
    const dv = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
    for (let i = 0; i < src.length; i++) dv.setFloat32(at + 4 * i, src[i], true);
  }
}

function readF32(src: Uint8Array, at: number, n: number): Float32Array {
  if (LITTLE_ENDIAN_HOST) return new Float32Array(src.slice(at, at + 4 * n).buffer); // slice copies and aligns
  const out = new Float32Array(n);
  const dv = new DataView(src.buffer, src.byteOffset, src.byteLength);
  for (let i = 0; i < n; i++) out[i] = dv.getFloat32(at + 4 * i, true);
  return out;
}

/** Serialise weights (+ optional AdamW state) and metadata. Throws CheckpointError('invalid-input') on sizes that disagree with the config. */
export function encodeCheckpoint(c: CheckpointContents): Uint8Array {
  let layout: ParamLayout;
  try {
    layout = paramLayout(c.config);
  } catch (e) {
    throw new CheckpointError('invalid-input', `cannot encode: ${(e as Error).message}`);
  }
  try {
    // what decodeCheckpoint would refuse is not written
    for (const k of ['vocabSize', 'seqLen', 'dModel', 'nHeads', 'nLayers'] as const) num(c.config, [k], { int: true, min: 1, max: CHECKPOINT_LIMITS[k] });
    if (c.metadata !== undefined) shallow({ metadata: c.metadata }, 'metadata', 32);
  } catch (e) {
    if (e instanceof FieldError) throw new CheckpointError('invalid-input', `cannot encode: ${e.sentence('the config field').replace('the config field metadata', 'the metadata')}`);
    throw e;
  }
  const n = layout.total;
  if (c.weights.length !== n) throw new CheckpointError('invalid-input', `cannot encode: weights have ${c.weights.length} floats, the config's layout needs ${n}`);
  const opt = c.optimizer;
  if (opt && (opt.m.length !== n || opt.v.length !== n)) throw new CheckpointError('invalid-input', `cannot encode: optimizer moments have ${opt.m.length}/${opt.v.length} floats, the layout needs ${n}`);
  if (opt && !(Number.isInteger(opt.step) && opt.step >= 0 && opt.step <= 0xffffffff)) throw new CheckpointError('invalid-input', `cannot encode: optimizer step ${opt.step} is not a u32`);

  const dataBytes = dataBytesFor(layout, !!opt);
  const data = new Uint8Array(dataBytes);
  writeF32(data, 0, c.weights);
  if (opt) {
    writeF32(data, 4 * n, opt.m);
    writeF32(data, 8 * n, opt.v);
    new DataView(data.buffer).setUint32(12 * n, opt.step, true);
  }
  const header: CheckpointHeader = {
    formatVersion: CHECKPOINT_FORMAT_VERSION,
    config: { vocabSize: c.config.vocabSize, seqLen: c.config.seqLen, dModel: c.config.dModel, nHeads: c.config.nHeads, nLayers: c.config.nLayers },
    tokenizerVersion: TOKENIZER_VERSION,
    layout: layoutSummary(layout),
    metadata: c.metadata ?? {},
    hasOptimizer: !!opt,
    dataBytes,
    checksum: hex8(fnv1a32(data)),
  };
  return assemble(CHECKPOINT_FORMAT_VERSION, JSON.stringify(header), data);
}

/** Magic + version + header length + header (space-padded to 4 bytes) + data. encodeCheckpoint's last step; exported for tools and tests that forge variants. */
export function assemble(version: number, headerJson: string, data: Uint8Array): Uint8Array {
  const raw = new TextEncoder().encode(headerJson);
  const h = Math.ceil(raw.length / 4) * 4;
  const out = new Uint8Array(PREAMBLE_BYTES + h + data.length);
  out.set(new TextEncoder().encode(CHECKPOINT_MAGIC), 0);
  const dv = new DataView(out.buffer);
  dv.setUint32(8, version, true);
  dv.setUint32(12, h, true);
  out.set(raw, PREAMBLE_BYTES);
  out.fill(0x20, PREAMBLE_BYTES + raw.length, PREAMBLE_BYTES + h);
  out.set(data, PREAMBLE_BYTES + h);
  return out;
}

/**
 * Parse and validate a checkpoint. `expect.config`, if given, must equal the checkpoint's
 * config (e.g. the config of the backend it is loaded into).
 */
export function decodeCheckpoint(bytes: Uint8Array, expect: { config?: ModelConfig } = {}): DecodedCheckpoint {
  if (!isBytes(bytes)) throw new CheckpointError('not-a-checkpoint', `not a checkpoint: expected the file's bytes, got ${describeValue(bytes)}`);
  const magic = new TextEncoder().encode(CHECKPOINT_MAGIC);
  for (let i = 0; i < magic.length; i++) {
    if (bytes[i] !== magic[i]) throw new CheckpointError('not-a-checkpoint', `not a checkpoint: the file does not start with "${CHECKPOINT_MAGIC}" (${bytes.length} bytes)`);
  }
  if (bytes.length < PREAMBLE_BYTES) throw new CheckpointError('truncated', `truncated: ${bytes.length} bytes, not even the ${PREAMBLE_BYTES}-byte preamble`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(8, true);
  if (version !== CHECKPOINT_FORMAT_VERSION) {
    const why = version > CHECKPOINT_FORMAT_VERSION ? 'written by a newer version of the lab' : 'not a valid version';
    throw new CheckpointError('unsupported-version', `unsupported format version ${version} (${why}); this build reads version ${CHECKPOINT_FORMAT_VERSION}`);
  }
  const h = dv.getUint32(12, true);
  if (h > MAX_HEADER_BYTES) throw new CheckpointError('header-too-large', `header length ${h} bytes exceeds the limit of ${MAX_HEADER_BYTES} bytes: corrupted preamble`);
  if (PREAMBLE_BYTES + h > bytes.length) throw new CheckpointError('truncated', `truncated: the header needs ${h} bytes, only ${bytes.length - PREAMBLE_BYTES} follow the preamble`);

  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREAMBLE_BYTES, PREAMBLE_BYTES + h));
  } catch {
    throw new CheckpointError('header-malformed', 'header is not valid UTF-8 JSON (it is not UTF-8 text)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new CheckpointError('header-malformed', `header is not valid UTF-8 JSON (${jsonProblem(e)})`);
  }
  const header = readHeader(parsed);
  if (header.formatVersion !== version) throw new CheckpointError('header-malformed', `header says format version ${header.formatVersion}, the preamble says ${version}`);
  if (header.tokenizerVersion !== TOKENIZER_VERSION) {
    throw new CheckpointError('tokenizer-mismatch', `written with tokenizer version ${header.tokenizerVersion}, this build uses version ${TOKENIZER_VERSION}: token ids would mean other characters`);
  }

  let layout: ParamLayout;
  try {
    layout = paramLayout(header.config);
  } catch (e) {
    throw new CheckpointError('layout-mismatch', `invalid config in header: ${(e as Error).message}`);
  }
  checkLayout(header.layout, layout);
  if (expect.config) {
    const keys: (keyof ModelConfig)[] = ['vocabSize', 'seqLen', 'dModel', 'nHeads', 'nLayers'];
    const diff = keys.filter((k) => expect.config![k] !== header.config[k]);
    if (diff.length) throw new CheckpointError('config-mismatch', `model config differs from the expected one in ${diff.map((k) => `${k} (checkpoint ${header.config[k]}, expected ${expect.config![k]})`).join(', ')}`);
  }
  const wantData = dataBytesFor(layout, header.hasOptimizer);
  if (header.dataBytes !== wantData) throw new CheckpointError('layout-mismatch', `header says ${header.dataBytes} data bytes, the config's layout${header.hasOptimizer ? ' with optimizer state' : ''} needs ${wantData}`);
  const start = PREAMBLE_BYTES + h;
  const have = bytes.length - start;
  if (have < wantData) throw new CheckpointError('truncated', `truncated: ${have} of ${wantData} data bytes present`);
  if (have > wantData) throw new CheckpointError('trailing-data', `${have - wantData} unexpected bytes after the data`);
  const data = bytes.subarray(start, start + wantData);
  const sum = hex8(fnv1a32(data));
  if (sum !== header.checksum) throw new CheckpointError('checksum-mismatch', `data checksum ${sum} does not match the header's ${header.checksum}: the data is corrupted`);

  const n = layout.total;
  const weights = readF32(data, 0, n);
  let optimizer: OptimizerState | null = null;
  if (header.hasOptimizer) {
    optimizer = { m: readF32(data, 4 * n, n), v: readF32(data, 8 * n, n), step: new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(12 * n, true) };
  }
  return { formatVersion: version, tokenizerVersion: header.tokenizerVersion, config: header.config, layout, weights, optimizer, metadata: header.metadata };
}

/**
 * Bounds of a header the lab will read. They are far above any model the lab trains (the
 * largest shipped config is D=128, L=4) and keep a hostile header from making the page build a
 * huge layout before the data's size is checked.
 */
export const CHECKPOINT_LIMITS = { vocabSize: 1 << 16, seqLen: 4096, dModel: 4096, nHeads: 64, nLayers: 64, tensors: 12 * 64 + 5, shapeRank: 4, nameLength: 64 } as const;

/** Every field of the header, read with its type and range checked (src/model/validate.ts); extra fields are ignored. */
function readHeader(x: unknown): CheckpointHeader {
  if (!isRecord(x)) throw new CheckpointError('header-malformed', `header is not a JSON object (it is ${describeValue(x)})`);
  const L = CHECKPOINT_LIMITS;
  const whole = (min: number, max: number) => ({ int: true, min, max });
  try {
    const formatVersion = num(x, 'formatVersion', whole(0, 0xffffffff));
    const tokenizerVersion = num(x, 'tokenizerVersion', whole(0, 0xffffffff));
    obj(x, 'config');
    const config: ModelConfig = {
      vocabSize: num(x, 'config.vocabSize', whole(1, L.vocabSize)),
      seqLen: num(x, 'config.seqLen', whole(1, L.seqLen)),
      dModel: num(x, 'config.dModel', whole(1, L.dModel)),
      nHeads: num(x, 'config.nHeads', whole(1, L.nHeads)),
      nLayers: num(x, 'config.nLayers', whole(1, L.nLayers)),
    };
    if (config.dModel % config.nHeads !== 0) throw new FieldError('config.nHeads', `a divisor of config.dModel (${config.dModel})`, String(config.nHeads), false);
    obj(x, 'layout');
    const layout: CheckpointHeader['layout'] = {
      total: num(x, 'layout.total', whole(0, Number.MAX_SAFE_INTEGER)),
      numParams: num(x, 'layout.numParams', whole(0, Number.MAX_SAFE_INTEGER)),
      tensors: arr(x, 'layout.tensors', { max: L.tensors }, (p) => {
        obj(x, p);
        return {
          name: str(x, at(p, 'name'), { min: 1, max: L.nameLength }),
          shape: arr(x, at(p, 'shape'), { min: 1, max: L.shapeRank }, (q) => num(x, q, whole(1, 0x7fffffff))),
          offset: num(x, at(p, 'offset'), whole(0, Number.MAX_SAFE_INTEGER)),
        };
      }),
    };
    const metadata = obj(x, 'metadata');
    shallow(x, 'metadata', 32);
    const hasOptimizer = bool(x, 'hasOptimizer');
    const dataBytes = num(x, 'dataBytes', whole(0, Number.MAX_SAFE_INTEGER));
    const checksum = str(x, 'checksum', { pattern: /^[0-9a-f]{8}$/, patternText: '8 lowercase hexadecimal digits' });
    return { formatVersion, config, tokenizerVersion, layout, metadata, hasOptimizer, dataBytes, checksum };
  } catch (e) {
    if (e instanceof FieldError) throw new CheckpointError('header-malformed', e.sentence('the header field'));
    throw e;
  }
}

function checkLayout(got: CheckpointHeader['layout'], want: ParamLayout): void {
  const mism = (msg: string) => new CheckpointError('layout-mismatch', `layout does not match the config: ${msg}`);
  if (got.tensors.length !== want.tensors.length) throw mism(`${got.tensors.length} tensors in the header, the config has ${want.tensors.length}`);
  for (let i = 0; i < want.tensors.length; i++) {
    const g = got.tensors[i];
    const w = want.tensors[i];
    if (g.name !== w.name) throw mism(`tensor ${i} is "${g.name}", expected "${w.name}"`);
    if (!Array.isArray(g.shape) || g.shape.join(',') !== w.shape.join(',')) throw mism(`tensor "${w.name}" has shape [${g.shape}], the config gives [${w.shape}]`);
    if (g.offset !== w.offset) throw mism(`tensor "${w.name}" at offset ${g.offset}, the config puts it at ${w.offset}`);
  }
  if (got.total !== want.total) throw mism(`total ${got.total} floats, the config gives ${want.total}`);
  if (got.numParams !== want.numParams) throw mism(`${got.numParams} parameters in the header, the config has ${want.numParams}`);
}

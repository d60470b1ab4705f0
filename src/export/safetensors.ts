/**
 * The safetensors format, written and read by hand (Hugging Face's weight file, no library):
 *
 *   bytes 0..7   u64 little-endian N, the header's length in bytes
 *   bytes 8..    N bytes of UTF-8 JSON: { "__metadata__"?: {str: str}, name: { dtype, shape, data_offsets: [begin, end] } }
 *                (padded with spaces so the data starts on an 8-byte boundary, as the reference writer does)
 *   then         the raw tensors, row-major, little-endian, back to back: data_offsets are relative to
 *                the start of this block, and together they cover it exactly (no gaps, no overlaps)
 *
 * Only F32 is written (the lab's weights are f32). readSafetensors checks everything the
 * reference loader checks (header length, JSON, dtype, shape × dtype size = byte span, offsets
 * contiguous and covering the data) and throws a SafetensorsError naming the problem.
 */

export interface F32Tensor {
  name: string;
  shape: number[];
  data: Float32Array;
}

export class SafetensorsError extends Error {}

const DTYPE_BYTES: Record<string, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1 };

/** One safetensors file of F32 tensors, in the given order. Little-endian on every platform. */
export function writeSafetensors(tensors: F32Tensor[], metadata: Record<string, string> = { format: 'pt' }): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  const seen = new Set<string>();
  for (const t of tensors) {
    if (seen.has(t.name) || t.name === '__metadata__') throw new SafetensorsError(`duplicate or reserved tensor name ${t.name}`);
    seen.add(t.name);
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.data.length) throw new SafetensorsError(`${t.name}: shape [${t.shape.join(', ')}] holds ${n} values, the data has ${t.data.length}`);
    header[t.name] = { dtype: 'F32', shape: t.shape, data_offsets: [offset, offset + 4 * n] };
    offset += 4 * n;
  }
  let json = JSON.stringify(header);
  const enc = new TextEncoder();
  while ((8 + enc.encode(json).length) % 8 !== 0) json += ' ';
  const head = enc.encode(json);
  const out = new Uint8Array(8 + head.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const t of tensors) {
    for (let i = 0; i < t.data.length; i++, at += 4) view.setFloat32(at, t.data[i], true);
  }
  return out;
}

export interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  /** [begin, end) in bytes, relative to the data block. */
  offsets: [number, number];
}

export interface ParsedSafetensors {
  metadata: Record<string, string> | null;
  /** Tensors in the order of their data. */
  entries: Map<string, SafetensorsEntry>;
  /** Byte offset of the data block in the file. */
  dataStart: number;
  bytes: Uint8Array;
}

/** Parses and checks a safetensors file (any dtype; readF32 reads F32 tensors). */
export function readSafetensors(bytes: Uint8Array): ParsedSafetensors {
  if (bytes.length < 8) throw new SafetensorsError('file shorter than the 8-byte header length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = view.getBigUint64(0, true);
  if (n > BigInt(bytes.length - 8)) throw new SafetensorsError(`header length ${n} exceeds the file (${bytes.length} bytes)`);
  const dataStart = 8 + Number(n);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, dataStart)));
  } catch {
    throw new SafetensorsError('header is not UTF-8 JSON');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new SafetensorsError('header is not a JSON object');
  let metadata: Record<string, string> | null = null;
  const list: [string, SafetensorsEntry][] = [];
  for (const [name, v] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (typeof v !== 'object' || v === null || Object.values(v).some((x) => typeof x !== 'string')) throw new SafetensorsError('__metadata__ must map strings to strings');
      metadata = v as Record<string, string>;
      continue;
    }
    const e = v as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof e !== 'object' || e === null || typeof e.dtype !== 'string' || !(e.dtype in DTYPE_BYTES)) throw new SafetensorsError(`${name}: unknown dtype`);
    if (!Array.isArray(e.shape) || e.shape.some((d) => !Number.isInteger(d) || d < 0)) throw new SafetensorsError(`${name}: shape must be a list of natural numbers`);
    const o = e.data_offsets;
    if (!Array.isArray(o) || o.length !== 2 || !o.every((x) => Number.isInteger(x) && x >= 0) || o[1] < o[0]) throw new SafetensorsError(`${name}: data_offsets must be [begin, end] with begin ≤ end`);
    const size = (e.shape as number[]).reduce((a, b) => a * b, 1) * DTYPE_BYTES[e.dtype];
    if (o[1] - o[0] !== size) throw new SafetensorsError(`${name}: shape × ${e.dtype} is ${size} bytes, data_offsets span ${o[1] - o[0]}`);
    list.push([name, { dtype: e.dtype, shape: e.shape as number[], offsets: [o[0], o[1]] }]);
  }
  list.sort((a, b) => a[1].offsets[0] - b[1].offsets[0]);
  let expect = 0;
  for (const [name, e] of list) {
    if (e.offsets[0] !== expect) throw new SafetensorsError(`${name}: data starts at ${e.offsets[0]}, expected ${expect} (gap or overlap)`);
    expect = e.offsets[1];
  }
  if (dataStart + expect !== bytes.length) throw new SafetensorsError(`the tensors cover ${expect} bytes of data, the file has ${bytes.length - dataStart}`);
  return { metadata, entries: new Map(list), dataStart, bytes };
}

/** The values of one F32 tensor of a parsed file. */
export function readF32(p: ParsedSafetensors, name: string): Float32Array {
  const e = p.entries.get(name);
  if (!e) throw new SafetensorsError(`no tensor ${name}`);
  if (e.dtype !== 'F32') throw new SafetensorsError(`${name} is ${e.dtype}, not F32`);
  const view = new DataView(p.bytes.buffer, p.bytes.byteOffset + p.dataStart + e.offsets[0], e.offsets[1] - e.offsets[0]);
  const out = new Float32Array((e.offsets[1] - e.offsets[0]) / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true);
  return out;
}

/**
 * The completion log's pages checked before hyparquet decodes them. hyparquet trusts a page's
 * run lengths: an RLE run that claims 2^31 values makes it write past the page's array (the
 * structured fuzz found one byte of a real log that hung the reader). So every data page is read
 * here first, as hyparquet will read it — levels and dictionary indices are RLE/bit-packed
 * hybrid runs — and refused if a run claims more values than the page has, a count or size is
 * out of range, or the page uses an encoding or type that pandas does not write for TRL's
 * completion logs. What passes is bounded: at most the page's own value count is written.
 */
import type { FileMetaData } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { getMaxDefinitionLevel, getMaxRepetitionLevel, getSchemaPath } from 'hyparquet/src/schema.js';

export class Refusal extends Error {}
export const refuse = (why: string): never => {
  throw new Refusal(why);
};

export const MAX_VALUES = 1_000_000;
export const MAX_PAGE_BYTES = 32 << 20;
const MAX_UNCOMPRESSED_BYTES = 128 << 20;
const MAX_PAGES = 100_000;
const TYPES = new Set(['BOOLEAN', 'INT32', 'INT64', 'FLOAT', 'DOUBLE', 'BYTE_ARRAY']);
const VALUE_ENCODINGS = new Set(['PLAIN', 'PLAIN_DICTIONARY', 'RLE_DICTIONARY', 'RLE']);

const num = (x: unknown): number => (typeof x === 'bigint' ? Number(x) : typeof x === 'number' ? x : NaN);
const bitWidth = (max: number) => 32 - Math.clz32(max);
/** A count from the file in words (a missing or non-numeric field is not 'undefined' or 'NaN'). */
export const amount = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? String(x) : 'an unreadable number of');
/** A name from the file, safe to show (an unknown code is not 'undefined'). */
const named = (x: unknown, what: string) => (typeof x === 'string' && /^[A-Z0-9_]{1,30}$/.test(x) ? `the ${x} ${what}` : `an unknown ${what}`);

/** A reader over one page's bytes that refuses instead of reading past them. */
class Bytes {
  o: number;
  constructor(readonly b: Uint8Array, o = 0, readonly end = b.length) {
    this.o = o;
  }
  byte(): number {
    if (this.o >= this.end) refuse('a page ends in the middle of its values');
    return this.b[this.o++];
  }
  u32(): number {
    if (this.o + 4 > this.end) refuse('a page ends in the middle of its values');
    const v = this.b[this.o] | (this.b[this.o + 1] << 8) | (this.b[this.o + 2] << 16) | (this.b[this.o + 3] << 24);
    this.o += 4;
    return v >>> 0;
  }
  varint(): number {
    let v = 0, shift = 0, b: number;
    do {
      if (shift > 28) refuse('a page has a run header out of range');
      b = this.byte();
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  }
}

/**
 * Walk RLE/bit-packed hybrid runs as hyparquet does (until n values are seen), refusing any run
 * past n. Returns how many of the values equal `count` (the definition levels' non-nulls).
 */
function scanHybrid(r: Bytes, width: number, n: number, count = -1): number {
  if (!(width >= 0 && width <= 32)) refuse(`a page's bit width is ${amount(width)}`);
  let seen = 0, matches = 0;
  while (seen < n) {
    const header = r.varint();
    if (header % 2) {
      const groups = Math.floor(header / 2);
      if (groups * 8 > n - seen + 7) refuse('a bit-packed run claims more values than its page has');
      if (count < 0) {
        if (r.o + groups * width > r.end) refuse('a page ends in the middle of its values');
        r.o += groups * width;
      } else {
        // the values themselves (the definition levels: how many are not null), least significant bit first
        let bits = 0, acc = 0, got = 0;
        for (let g = 0; g < groups * width; g++) {
          acc |= r.byte() << bits;
          bits += 8;
          while (bits >= width && got < groups * 8) {
            if (seen + got < n && (acc & ((1 << width) - 1)) === count) matches++;
            acc >>>= width;
            bits -= width;
            got++;
          }
        }
      }
      seen += groups * 8;
    } else {
      const run = Math.floor(header / 2);
      if (run > n - seen) refuse('a run-length run claims more values than its page has');
      let v = 0;
      for (let i = 0; i < (width + 7) >> 3; i++) v |= r.byte() << (i * 8);
      if (v === count) matches += run;
      seen += run;
    }
  }
  return matches;
}

/** Whether RLE/bit-packed hybrid runs hold no more than n values (the check on every page; exported for its test). */
export function hybridRunsFit(bytes: Uint8Array, width: number, n: number): boolean {
  try {
    scanHybrid(new Bytes(bytes), width, n);
    return true;
  } catch (e) {
    if (e instanceof Refusal) return false;
    throw e;
  }
}

/** One data page's levels and values, as hyparquet will read them. */
function scanDataPage(page: Uint8Array, h: ReturnType<typeof parquetHeader>, type: string, maxRep: number, maxDef: number, pathLength: number, decompress: (b: Uint8Array, size: number) => Uint8Array): void {
  let r: Bytes, n: number, nValues: number, encoding: string, v2 = false;
  if (h.data_page_header) {
    const d = h.data_page_header;
    n = d.num_values;
    encoding = d.encoding as string;
    r = new Bytes(decompress(page, h.uncompressed_page_size));
    if (pathLength > 1 && maxRep) {
      const len = r.u32(), start = r.o;
      scanHybrid(r, bitWidth(maxRep), n);
      r.o = start + len;
    }
    nValues = n;
    if (maxDef) {
      const len = r.u32(), start = r.o;
      nValues = scanHybrid(r, bitWidth(maxDef), n, maxDef);
      r.o = start + len;
    }
  } else if (h.data_page_header_v2) {
    const d = h.data_page_header_v2;
    v2 = true;
    n = d.num_values;
    encoding = d.encoding as string;
    const rl = d.repetition_levels_byte_length, dl = d.definition_levels_byte_length;
    if (!(rl >= 0 && dl >= 0 && rl + dl <= page.length && d.num_nulls >= 0 && d.num_nulls <= n)) refuse('a page has impossible level lengths or null counts');
    if (maxRep) scanHybrid(new Bytes(page, 0, rl), bitWidth(maxRep), n);
    if (maxDef) scanHybrid(new Bytes(page, rl, rl + dl), bitWidth(maxDef), n);
    const size = h.uncompressed_page_size - rl - dl;
    const body = page.subarray(rl + dl);
    r = new Bytes(d.is_compressed !== false && size ? decompress(body, size) : body);
    nValues = n - d.num_nulls;
  } else return; // an index page: not read
  if (!(n >= 0 && n <= MAX_VALUES)) refuse(`a page claims ${amount(n)} values`);
  if (!VALUE_ENCODINGS.has(encoding)) refuse(`it uses ${named(encoding, 'encoding')}, which pandas does not write for TRL's completion logs`);
  if (encoding === 'PLAIN') return; // read value by value, each bounded by the page's bytes
  if (type === 'BOOLEAN') {
    const len = r.u32();
    scanHybrid(new Bytes(r.b, r.o, Math.min(r.end, r.o + len)), 1, nValues);
  } else if (encoding !== 'RLE') {
    const width = r.byte();
    if (width || v2) scanHybrid(r, width, nValues); // hyparquet skips the runs of a version-1 page of width 0, not of a version-2 one
  } else refuse('a column of numbers or text is RLE-encoded');
}

/** Every column chunk's pages, headers and bodies, against the caps. */
export function checkPages(md: FileMetaData, bytes: Uint8Array, decompress: (b: Uint8Array, size: number) => Uint8Array): void {
  let total = 0, pages = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const rg of md.row_groups) {
    for (const col of rg.columns) {
      const m = col.meta_data;
      if (!m || col.file_path) return refuse('a column chunk lies in another file or has no metadata');
      if (m.codec !== 'SNAPPY' && m.codec !== 'UNCOMPRESSED') refuse(`it is compressed with ${named(m.codec, 'codec')}; the lab reads snappy (pandas' default) and uncompressed files`);
      if (!TYPES.has(String(m.type))) refuse(`a column has ${named(m.type, 'type')}, which TRL's completion logs do not use`);
      const values = num(m.num_values), size = num(m.total_uncompressed_size);
      if (!(values >= 0 && values <= MAX_VALUES)) refuse(`a column claims ${amount(values)} values`);
      if (!(size >= 0 && size <= MAX_UNCOMPRESSED_BYTES)) refuse(`a column claims ${amount(size)} bytes uncompressed`);
      total += size;
      if (total > MAX_UNCOMPRESSED_BYTES) refuse(`its columns hold more than ${MAX_UNCOMPRESSED_BYTES >> 20} MiB uncompressed`);
      const path = getSchemaPath(md.schema, m.path_in_schema);
      const maxRep = getMaxRepetitionLevel(path), maxDef = getMaxDefinitionLevel(path);
      const start = num(m.dictionary_page_offset ?? m.data_page_offset);
      const end = start + num(m.total_compressed_size);
      if (!(start >= 4 && end <= bytes.length - 8 && end >= start)) refuse('a column chunk points outside the file');
      const reader = { view, offset: start };
      while (reader.offset < end) {
        if (++pages > MAX_PAGES) refuse(`it has more than ${MAX_PAGES} pages`);
        const h = parquetHeader(reader);
        const comp = h.compressed_page_size, unc = h.uncompressed_page_size;
        const n = h.data_page_header?.num_values ?? h.dictionary_page_header?.num_values ?? h.data_page_header_v2?.num_values ?? 0;
        if (!(comp >= 0 && reader.offset + comp <= end)) refuse('a page runs past its column chunk');
        if (!(unc >= 0 && unc <= MAX_PAGE_BYTES)) refuse(`a page claims ${amount(unc)} bytes uncompressed`);
        if (!(n >= 0 && n <= MAX_VALUES)) refuse(`a page claims ${amount(n)} values`);
        const body = bytes.subarray(reader.offset, reader.offset + comp);
        const dec = m.codec === 'SNAPPY' ? decompress : (b: Uint8Array) => b;
        scanDataPage(body, h, String(m.type), maxRep, maxDef, path.length, dec);
        reader.offset += comp;
      }
    }
  }
}

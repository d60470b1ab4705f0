/**
 * A ZIP archive of files, stored without compression (method 0): what the page downloads for
 * "Export as a TRL project" (exportTrlProject's files in one .zip). Pure TS, no DOM.
 *
 * Layout (PKWARE APPNOTE, little-endian): for each file a local header (signature 0x04034b50,
 * version 20, flags 0x0800 = UTF-8 names, method 0, DOS time/date, CRC-32, sizes, name) and its
 * bytes; then the central directory (0x02014b50 per file) and its end record (0x06054b50).
 * No ZIP64: at most 65,535 files and 4 GiB, far above a project's size.
 */
import type { ExportFile } from './trlProject.ts';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The files as one stored .zip under `folder/` (e.g. "rlvr-add-trl/"). */
export function zipFiles(files: ExportFile[], folder = '', date = new Date(2026, 0, 1)): Uint8Array {
  const enc = new TextEncoder();
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const entries = files.map((f) => {
    const data = f.bytes ?? enc.encode(f.text ?? '');
    return { name: enc.encode(folder + f.path), data, crc: crc32(data), offset: 0 };
  });
  const size = entries.reduce((n, e) => n + 30 + e.name.length + e.data.length + 46 + e.name.length, 22);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  let at = 0;
  const u16 = (x: number) => { v.setUint16(at, x, true); at += 2; };
  const u32 = (x: number) => { v.setUint32(at, x >>> 0, true); at += 4; };
  const header = (e: (typeof entries)[number], central: boolean) => {
    u32(central ? 0x02014b50 : 0x04034b50);
    if (central) u16(20); // version made by
    u16(20); u16(0x0800); u16(0); u16(time); u16(day);
    u32(e.crc); u32(e.data.length); u32(e.data.length);
    u16(e.name.length); u16(0);
    if (central) { u16(0); u16(0); u16(0); u32(0); u32(e.offset); }
    out.set(e.name, at);
    at += e.name.length;
  };
  for (const e of entries) {
    e.offset = at;
    header(e, false);
    out.set(e.data, at);
    at += e.data.length;
  }
  const dirStart = at;
  for (const e of entries) header(e, true);
  const dirSize = at - dirStart;
  u32(0x06054b50); u16(0); u16(0); u16(entries.length); u16(entries.length); u32(dirSize); u32(dirStart); u16(0);
  return out;
}

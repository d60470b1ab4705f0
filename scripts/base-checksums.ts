/**
 * npm run base-checksums — writes src/rl/records/bases.json: each shipped base checkpoint's FNV-1a
 * (32-bit) of its whole file. A lesson's contract hash covers its base's checksum (lessonContract.ts),
 * so a rebuilt base un-records every lesson that starts from it until the fresh seeds run again.
 * `npm run pretrain` runs it after writing the checkpoints; bases.test.ts fails when a file and
 * this table disagree. Never edited by hand.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fnv1a32 } from '../src/model/checkpoint.ts';
import { BASES } from '../src/rl/bases.ts';

export const BASE_CHECKSUMS_FILE = 'src/rl/records/bases.json';

/** Each base's checksum, read from public/checkpoints/. */
export function baseChecksums(): Record<string, string> {
  return Object.fromEntries(BASES.map((b) => [b.file, fnv1a32(new Uint8Array(readFileSync(`public/checkpoints/${b.file}`))).toString(16).padStart(8, '0')]));
}

export function writeBaseChecksums(): void {
  writeFileSync(BASE_CHECKSUMS_FILE, `${JSON.stringify(baseChecksums(), null, 1)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeBaseChecksums();
  process.stderr.write(`wrote ${BASE_CHECKSUMS_FILE}\n`);
}

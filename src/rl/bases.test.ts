// The shipped bases and the checksums a lesson's contract hash covers (records/bases.json,
// written by `npm run base-checksums`): a rebuilt base must change the hash of every lesson on it.
import { describe, expect, it } from 'vitest';
import { baseChecksums } from '../../scripts/base-checksums.ts';
import recorded from './records/bases.json';
import { BASES } from './bases.ts';
import { contractHash } from './lessonContract.ts';
import { LESSONS } from './lessons.ts';

describe('base checksums', () => {
  it('records/bases.json is each shipped checkpoint\'s checksum, read from the file (npm run base-checksums rewrites it)', () => {
    expect(Object.keys(recorded).sort()).toEqual(BASES.map((b) => b.file).sort());
    expect(recorded).toEqual(baseChecksums());
  });

  it('a lesson\'s contract hash changes with its base\'s bytes and with its claims\' wreck flag', () => {
    const lesson = LESSONS.find((l) => l.id === 'mixed-groups')!;
    const before = contractHash(lesson);
    const table = recorded as Record<string, string>;
    const file = 'add-d2.ckpt';
    const kept = table[file];
    try {
      table[file] = '00000000';
      expect(contractHash(lesson)).not.toBe(before);
    } finally {
      table[file] = kept;
    }
    expect(contractHash(lesson)).toBe(before);
    const claim = lesson.variants[1].claim;
    const flipped = { ...lesson, variants: lesson.variants.map((v, i) => (i === 1 ? { ...v, claim: { ...claim, promisesWreck: !claim.promisesWreck } } : v)) };
    expect(contractHash(flipped)).not.toBe(before);
  });
});

/**
 * The share code's explain choice (e) and concept answers (q, 3·before + after): they round-trip,
 * a code without them (made before they existed) decodes as it did and is written byte for byte as
 * before, the code stays within 20 % of today's length, and a malformed e or q is refused by name
 * (the decoder's hostile-input rules, code.fuzz.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { contractHash } from '../rl/lessonContract.ts';
import { APP_VERSION, crc32Hex, decodeResult, encodeResult, type ResultCode } from './code.ts';
import { lessonConcepts } from './concepts.ts';
import { sample } from './testSample.ts';

const forged = (json: string) => {
  const payload = Buffer.from(json, 'utf8').toString('base64').replace(/=+$/, '');
  return `rlvr1.${payload}.${crc32Hex(`rlvr1.${payload}`)}`;
};
/** A code as the encoder wrote it before e and q existed: these fields, in this order. */
const oldBody = (o: Record<string, unknown> = {}) => ({ a: APP_VERSION, l: 'mixed-groups', v: 1, s: 4127, w: '0123456789abcdef', h: 1, k: contractHash(getLesson('mixed-groups')!), n: 40, x: 0.0625, c: 0.8214, p: 2, ...o });

function refused(json: string, why: RegExp) {
  const d = decodeResult(forged(json));
  expect(d.ok, json).toBe(false);
  if (!d.ok) expect(d.why).toMatch(why);
}

describe('explain choice and concept answers in the share code', () => {
  it('round-trip: every reason of every lesson, and every before/after combination', () => {
    for (const l of LESSONS) {
      const reasons = lessonConcepts(l.id)!.explain.reasons.length;
      for (let e = 0; e < reasons; e++) {
        const r = sample({ lessonId: l.id, variant: 0, held: false, claim: NaN, explain: e, concept: { pre: e % 2 === 0, post: true } });
        const d = decodeResult(encodeResult(r));
        expect(d.ok, `${l.id} ${e}: ${d.ok ? '' : d.why}`).toBe(true);
        if (d.ok) expect([d.result.explain, d.result.concept]).toEqual([e, { pre: e % 2 === 0, post: true }]);
      }
    }
    for (const pre of [null, false, true]) for (const post of [null, false, true]) {
      const d = decodeResult(encodeResult(sample({ concept: { pre, post } })));
      expect(d.ok).toBe(true);
      if (d.ok) expect(d.result.concept).toEqual(pre === null && post === null ? undefined : { pre, post });
    }
  });

  it('an old code (no e, no q) still decodes, and a result without answers is written exactly as before', () => {
    const old = forged(JSON.stringify(oldBody()));
    expect(encodeResult(sample())).toBe(old); // byte for byte: what the encoder wrote before this change
    expect(encodeResult(sample({ explain: null, concept: null }))).toBe(old);
    const d = decodeResult(old);
    expect(d.ok).toBe(true);
    if (d.ok) {
      expect(d.result).not.toHaveProperty('explain');
      expect(d.result).not.toHaveProperty('concept');
      expect(d.result.prediction).toBe(2);
    }
  });

  it('at most 20 % longer than today\'s code for the same run (test sample: 183 → 199 characters)', () => {
    const before = encodeResult(sample());
    const after = encodeResult(sample({ explain: 3, concept: { pre: false, post: true } }));
    console.log('share code length: today', before.length, 'with explain and concept answers', after.length);
    expect(before.length).toBe(183);
    expect(after.length).toBeLessThanOrEqual(Math.floor(before.length * 1.2));
    // the longest code the fuzz test writes, with both new fields: still under the decoder's bound
    const longest: ResultCode = sample({ lessonId: 'grpo-vs-best-of-n', seed: 2147483647, claim: -0.000123456, contrast: -12345.678, steps: getLesson('grpo-vs-best-of-n')!.variants[1].claim.steps, held: false, explain: 3, concept: { pre: true, post: false } });
    const code = encodeResult(longest);
    expect(code.length).toBeLessThanOrEqual(240);
    expect(decodeResult(code).ok).toBe(true);
  });

  it('a malformed explain choice or concept answers is refused by name', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ e: 4 }, /its explain choice must be a whole number from 0 to 3 for this lesson, got 4/],
      [{ e: -1 }, /explain choice must be/],
      [{ e: 1.5 }, /explain choice must be/],
      [{ e: '1' }, /explain choice must be/],
      [{ e: null }, /explain choice must be/],
      [{ e: true }, /explain choice must be/],
      [{ q: 0 }, /its concept answers must be a whole number from 1 to 8/],
      [{ q: 9 }, /concept answers must be/],
      [{ q: 4.5 }, /concept answers must be/],
      [{ q: '4' }, /concept answers must be/],
      [{ q: null }, /concept answers must be/],
      [{ q: [2, 2] }, /concept answers must be/],
      [{ q: { pre: 1 } }, /concept answers must be/],
    ];
    for (const [o, why] of cases) refused(JSON.stringify(oldBody(o)), why);
    // well-formed ones beside the old fields decode
    const d = decodeResult(forged(JSON.stringify(oldBody({ e: 0, q: 5 }))));
    expect(d.ok && [d.result.explain, d.result.concept]).toEqual([0, { pre: false, post: true }]);
  });
});

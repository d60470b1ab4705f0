/**
 * The result code's decoder, fuzzed: every code is decoded, or refused with one sentence (never a
 * throw, never a raw JavaScript message). Truncation at every length, every single-bit flip of
 * every character, hostile JSON behind a valid checksum (so the content checks are what refuses
 * it, not the checksum), extra and missing fields, other versions, values out of range.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { contractHash } from '../rl/lessonContract.ts';
import { Rng } from '../model/rng.ts';
import { APP_VERSION, crc32Hex, decodeResult, encodeResult, findCodes, MAX_PASTE } from './code.ts';
import { sample } from './testSample.ts';

const BAD_WORDS = ['TypeError', 'RangeError', 'SyntaxError', 'undefined', 'Cannot read', 'is not a function', '[object Object]', 'Unexpected token', 'Symbol('];

/** A code around any payload text, with a valid checksum: what only a deliberate forger makes. */
const forged = (json: string, version = 1) => {
  const payload = Buffer.from(json, 'utf8').toString('base64').replace(/=+$/, '');
  return `rlvr${version}.${payload}.${crc32Hex(`rlvr${version}.${payload}`)}`;
};
const body = (o: Record<string, unknown> = {}) => ({ a: APP_VERSION, l: 'mixed-groups', v: 1, s: 4127, w: '0123456789abcdef', h: 1, k: contractHash(getLesson('mixed-groups')!), n: 40, x: 0.0625, c: 0.8214, p: 2, ...o });

function expectRefusal(code: string, why?: RegExp) {
  const d = decodeResult(code);
  expect(d.ok, code).toBe(false);
  if (d.ok) return;
  expect(d.why.length).toBeGreaterThan(5);
  for (const w of BAD_WORDS) expect(d.why, `${code}: ${d.why}`).not.toContain(w);
  if (why) expect(d.why).toMatch(why);
}

describe('result code', () => {
  it('round-trips, under 220 characters, rounded to 4 significant digits; the app version is package.json\'s', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    const longest = sample({ lessonId: 'grpo-vs-best-of-n', seed: 2147483647, claim: -0.000123456, contrast: -12345.678, steps: getLesson('grpo-vs-best-of-n')!.variants[1].claim.steps, held: false });
    for (const r of [sample(), sample({ prediction: null, contrast: NaN, held: false }), longest]) {
      const code = encodeResult(r);
      expect(code.length).toBeLessThanOrEqual(220); // with the contract's hash (8 hex digits): about 200
      expect(code).toMatch(/^rlvr1\.[A-Za-z0-9+/]+\.[0-9a-f]{8}$/);
      const d = decodeResult(code);
      expect(d.ok, d.ok ? '' : d.why).toBe(true);
      if (!d.ok) continue;
      expect(d.result).toEqual({ ...r, claim: Number(r.claim.toPrecision(4)), contrast: Number.isFinite(r.contrast) ? Number(r.contrast.toPrecision(4)) : NaN });
    }
    console.log('code length: typical', encodeResult(sample()).length, 'longest', encodeResult(longest).length);
  });

  it('a held claim whose number sits just above its threshold is not refused after rounding (the code keeps the digits that keep it above)', () => {
    // lesson 1 at G = 8: held-out pass@1 gain above 0.03; 0.030004 rounds to 0.03 at 4 digits, which is not above
    const r = sample({ claim: 0.030004, held: true });
    const d = decodeResult(encodeResult(r));
    expect(d.ok, d.ok ? '' : d.why).toBe(true);
    if (d.ok) expect(d.result.claim).toBe(0.030004);
    // a number rounding cannot move across the threshold keeps 4 digits
    const e = decodeResult(encodeResult(sample({ claim: 0.0612345 })));
    expect(e.ok && e.result.claim).toBe(0.06123);
  });

  it('every lesson and variant encodes and decodes', () => {
    for (const l of LESSONS) l.variants.forEach((v, i) => {
      const d = decodeResult(encodeResult(sample({ lessonId: l.id, variant: i, steps: v.claim.steps, held: false, claim: NaN })));
      expect(d.ok, `${l.id} ${i}: ${d.ok ? '' : d.why}`).toBe(true);
    });
  });

  it('truncated at every length: refused, by name', () => {
    const code = encodeResult(sample());
    for (let n = 0; n < code.length; n++) {
      const d = decodeResult(code.slice(0, n));
      expect(d.ok, `cut at ${n}`).toBe(false);
      if (n > 7 && !d.ok) expect(d.why).toMatch(/truncated|damaged|base64/);
    }
    expectRefusal(code.slice(0, -3), /truncated/);
  });

  it('every single-bit flip of every character: refused (the checksum catches what the alphabet does not)', () => {
    const code = encodeResult(sample());
    let n = 0;
    for (let i = 0; i < code.length; i++) {
      for (let b = 0; b < 7; b++) {
        const ch = String.fromCharCode(code.charCodeAt(i) ^ (1 << b));
        const bad = code.slice(0, i) + ch + code.slice(i + 1);
        if (bad.toLowerCase() === code.toLowerCase() && i < 5) continue; // "RLVR1" is the same prefix, read in any case
        if (i >= code.length - 8 && bad.toLowerCase() === code.toLowerCase()) continue; // the checksum's hex in capitals is the same checksum
        const d = decodeResult(bad);
        expect(d.ok, `bit ${b} of char ${i}: ${bad}`).toBe(false);
        n++;
      }
    }
    expect(n).toBeGreaterThan(code.length * 6);
  });

  it('random damage (swaps, drops, insertions, repeats): never accepted, never a raw error', () => {
    const rng = new Rng(31);
    const code = encodeResult(sample());
    for (let t = 0; t < 3000; t++) {
      const i = Math.floor(rng.next() * code.length);
      const j = Math.floor(rng.next() * code.length);
      const c = 'Aa0+/.xZ9'[Math.floor(rng.next() * 9)];
      const kind = t % 4;
      const bad = kind === 0 ? code.slice(0, i) + code.slice(i + 1)
        : kind === 1 ? code.slice(0, i) + c + code.slice(i)
        : kind === 2 ? (i === j || code[i] === code[j] ? code.slice(0, i) + (code[i] === 'Q' ? 'R' : 'Q') + code.slice(i + 1) : code.slice(0, Math.min(i, j)) + code[Math.max(i, j)] + code.slice(Math.min(i, j) + 1, Math.max(i, j)) + code[Math.min(i, j)] + code.slice(Math.max(i, j) + 1))
        : code.slice(0, i) + code.slice(i, j + 1) + code.slice(i);
      if (bad === code || (i < 5 && bad.toLowerCase() === code.toLowerCase())) continue;
      expectRefusal(bad);
    }
  });

  it('hostile JSON behind a valid checksum: refused by its content, with the reason', () => {
    const cases: [string, RegExp][] = [
      ['[1,2,3]', /not a result/],
      ['"rlvr"', /not a result/],
      ['null', /not a result/],
      ['{', /not readable JSON/],
      ['{"a":"0.1.0",}', /not readable JSON/],
      ['1e999', /not a result/], // Infinity: no object,
      ['['.repeat(60) + ']'.repeat(60), /not a result/],
      [JSON.stringify(body()).replace('{', '{"__proto__":{"held":true},'), /field this version does not have \("__proto__"\)/],
      [JSON.stringify(body({ constructor: 1 })), /\("constructor"\)/],
      [JSON.stringify(body({ name: 'Ada' })), /\("name"\)/],
      [JSON.stringify(body({ x: '<img src=x onerror=alert(1)>' })), /claim number must be a number/],
      [JSON.stringify(body({ l: '<script>alert(1)</script>' })), /not one of this page's lessons/],
      [JSON.stringify(body({ l: 'toString' })), /not one of this page's lessons/],
      [JSON.stringify(body({ l: 'constructor' })), /not one of this page's lessons/],
      [JSON.stringify(body({ x: 1e300 })), /within ±/],
      [JSON.stringify(body({ c: { valueOf: 1 } })), /contrast number must be/],
      [JSON.stringify(body({ v: 3 })), /variant must be a whole number from 0 to 2/],
      [JSON.stringify(body({ v: 0.5 })), /variant/],
      [JSON.stringify(body({ v: '1' })), /variant/],
      [JSON.stringify(body({ s: -1 })), /seed/],
      [JSON.stringify(body({ s: 2 ** 31 })), /seed/],
      [JSON.stringify(body({ w: '0123456789ABCDEF' })), /16 hex digits/],
      [JSON.stringify(body({ w: 12 })), /16 hex digits/],
      [JSON.stringify(body({ h: true })), /verdict must be 0 \(fails\), 1 \(holds\) or 2 \(unclear\)/],
      [JSON.stringify(body({ h: 3 })), /verdict must be 0 \(fails\)/],
      [JSON.stringify(body({ k: '00000000' })), /judged under another version of this lesson/],
      [JSON.stringify(body({ k: 'zz' })), /contract must be 8 hex digits/],
      [JSON.stringify(body({ n: 3 })), /never reached the verdict step: it stopped at step 3, and this lesson's verdict comes at step 40/],
      [JSON.stringify(body({ n: 41 })), /judged at step 41, not at this lesson's verdict step 40/],
      [JSON.stringify(body({ n: 1e9 })), /verdict step must be/],
      [JSON.stringify(body({ p: 3 })), /prediction must be 0, 1 or 2/],
      [JSON.stringify(body({ p: null })), /prediction/],
      [JSON.stringify(body({ a: '0.1.0' })), /made by rlvr-lab 0\.1\.0; this page is 0\.4\.0/], // a code from before lesson 1's G ≥ 8 verdict moved to step 50
      [JSON.stringify(body({ a: '0.2.0' })), /made by rlvr-lab 0\.2\.0; this page is 0\.4\.0/], // from before lesson 4's verdicts moved to step 30
      [JSON.stringify(body({ a: '0.3.0' })), /made by rlvr-lab 0\.3\.0; this page is 0\.4\.0/], // from before the lessons' verdicts got their intervals
      [JSON.stringify(body({ a: '1' })), /app version must read like/],
      [JSON.stringify(body({ h: 1, x: -0.5 })), /says the claim held, yet its claim number/],
      [JSON.stringify({ ...body(), s: undefined }), /seed is missing/],
    ];
    for (const [json, why] of cases) expectRefusal(forged(json), why);
    // invalid UTF-8 and a payload too long
    const raw = Buffer.from([0xff, 0xfe, 0x7b]).toString('base64').replace(/=+$/, '');
    expectRefusal(`rlvr1.${raw}.${crc32Hex(`rlvr1.${raw}`)}`, /not text/);
    expectRefusal(forged(JSON.stringify(body({ pad: 'x'.repeat(300) }))), /too long|truncated/);
  });

  it('other format versions are refused by name; the prefix is read in any case', () => {
    expectRefusal(forged(JSON.stringify(body()), 2), /version 2 code; this page reads version 1/);
    expectRefusal(forged(JSON.stringify(body()), 0), /version 0/);
    const code = encodeResult(sample());
    expect(decodeResult(`RLVR1${code.slice(5)}`).ok).toBe(true);
  });

  it('finds codes in chat text, with their lines; bounded at 1 MB', () => {
    const a = encodeResult(sample({ seed: 7 })), b = encodeResult(sample({ seed: 8 }));
    const chat = `[10:02] Ada: here is mine ${a}!\n[10:03] Bo: rlvr is fun\n[10:04] Bo: mine: "${b}"\n[10:05] Cy: ${a.slice(0, 40)}`;
    const { found } = findCodes(chat);
    expect(found.map((f) => [f.line, f.decoded.ok])).toEqual([[1, true], [3, true], [4, false]]);
    const big = findCodes(`${'x'.repeat(MAX_PASTE)}${a}`);
    expect(big.cut.chars).toBe(true);
    expect(big.found).toHaveLength(0);
  });
});

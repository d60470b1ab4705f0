// A share code carries the lesson's contrast judged on the student's seed (d: asked − against, t:
// its outcome) and whether the run started from the lesson's shipped base (b); a code made before
// these fields existed still decodes, and a half-carried contrast is refused by name.
import { describe, expect, it } from 'vitest';
import { crc32Hex, decodeResult, encodeResult } from './code.ts';
import { sample } from './testSample.ts';

const recode = (body: Record<string, unknown>) => {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64').replace(/=+$/, '');
  return `rlvr1.${payload}.${crc32Hex(`rlvr1.${payload}`)}`;
};
const bodyOf = (code: string) => JSON.parse(Buffer.from(code.split('.')[1], 'base64').toString()) as Record<string, unknown>;

describe('the share code\'s contrast and base', () => {
  it('round-trips the judged contrast (an unclear one too) and the shipped base; 16 % longer at most', () => {
    const plain = encodeResult(sample({}));
    const full = encodeResult(sample({ pairedContrast: { value: 0.41234567, outcome: null }, shippedBase: true }));
    const d = decodeResult(full);
    expect(d.ok && d.result.pairedContrast).toEqual({ value: 0.4123, outcome: null });
    expect(d.ok && d.result.shippedBase).toBe(true);
    const higher = decodeResult(encodeResult(sample({ pairedContrast: { value: -0.2, outcome: 2 } })));
    expect(higher.ok && higher.result.pairedContrast).toEqual({ value: -0.2, outcome: 2 });
    expect(full.length).toBeLessThanOrEqual(Math.ceil(plain.length * 1.2));
  });

  it('a code without them (as every code before) still decodes, with neither', () => {
    const old = bodyOf(encodeResult(sample({})));
    expect(Object.keys(old).sort()).toEqual(['a', 'c', 'h', 'k', 'l', 'n', 'p', 's', 'v', 'w', 'x']);
    const d = decodeResult(recode(old));
    expect(d.ok).toBe(true);
    expect(d.ok && 'pairedContrast' in d.result).toBe(false);
    expect(d.ok && 'shippedBase' in d.result).toBe(false);
  });

  it('refuses a contrast without its outcome, an outcome out of range, a base other than 1, a contrast on a lesson that compares nothing', () => {
    const body = bodyOf(encodeResult(sample({ pairedContrast: { value: 0.3, outcome: 0 } })));
    const { t: _t, ...noOutcome } = body;
    expect(decodeResult(recode(noOutcome))).toEqual({ ok: false, why: 'it has a paired contrast without its outcome, or an outcome without its contrast' });
    expect(decodeResult(recode({ ...body, t: 4 }))).toEqual({ ok: false, why: 'its contrast outcome must be 0, 1, 2 or 3, got 4' });
    expect(decodeResult(recode({ ...body, b: 0 }))).toEqual({ ok: false, why: 'its base must be 1 where given, got 0' });
    const l5 = bodyOf(encodeResult(sample({ lessonId: 'grpo-vs-best-of-n', variant: 0, contrast: NaN })));
    expect(decodeResult(recode({ ...l5, d: 0.1, t: 0 }))).toEqual({ ok: false, why: 'it carries a paired contrast, yet this lesson compares no variants' });
  });
});

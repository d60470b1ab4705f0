// One format for a number everywhere (issue 48.5): the typographic minus, never the hyphen.
import { describe, expect, it } from 'vitest';
import { fmt2, signed } from './format.ts';

describe('numbers in sentences', () => {
  it('fmt2 writes a negative with the typographic minus, as signed does, and a rounded zero as 0.00', () => {
    expect(fmt2(-0.28)).toBe('−0.28');
    expect(fmt2(0.28)).toBe('0.28');
    expect(fmt2(-0.001)).toBe('0.00');
    expect(fmt2(NaN)).toBe('–');
    expect(signed(-0.28)).toBe('−0.28');
    for (const x of [-1.5, -0.05, -0.3]) expect(fmt2(x)).not.toContain('-');
  });
});

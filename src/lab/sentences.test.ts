// Engine errors as the page shows them: no internal function names, never cut mid-word.
import { describe, expect, it } from 'vitest';
import { clip, engineErrorSentence } from './sentences.ts';

describe('engine error sentences', () => {
  it('drops the internal name that prefixes an engine message', () => {
    expect(engineErrorSentence(new Error('groupAdvantages: 7 rewards are not whole groups of G=2'))).toBe('7 rewards are not whole groups of G=2');
    expect(engineErrorSentence(new Error('trainStep: temperature must be > 0, got 0'))).toBe('temperature must be > 0, got 0');
    expect(engineErrorSentence(new Error('The device was lost.'))).toBe('The device was lost.'); // a sentence keeps its first word
  });
  it('clips a long message at a word boundary with an ellipsis, never mid-word', () => {
    const long = 'checkpoint: layout does not match the config: tensor 8 is "h0.ln2.b", expected "h0.ln2.g" and the rest of a very long explanation follows here';
    const out = clip(long, 80);
    expect(out.length).toBeLessThanOrEqual(81);
    expect(out.endsWith('…')).toBe(true);
    expect(long.startsWith(out.slice(0, -1))).toBe(true);
    expect(long[out.length - 1]).toBe(' '); // the cut fell between words
    expect(clip('short', 80)).toBe('short');
  });
});

import { describe, expect, it } from 'vitest';
import { ANS, BOS, EOS, PAD, TOKENIZER_VERSION, TokenizerError, VOCAB, VOCAB_SIZE, decode, encode, encodePrompt, isEncodable } from './tokenizer.ts';

describe('tokenizer', () => {
  it('has the fixed, versioned vocabulary the issue asks for', () => {
    expect(TOKENIZER_VERSION).toBe(1);
    for (const ch of '0123456789abcdefghijklmnopqrstuvwxyz+-*/=(),?: |') expect(isEncodable(ch)).toBe(true);
    expect(new Set(VOCAB).size).toBe(VOCAB_SIZE);
    expect([PAD, BOS, EOS, ANS]).toEqual([0, 1, 2, 3]);
    expect(VOCAB_SIZE).toBe(51);
  });

  it('round-trips every character and realistic prompts', () => {
    const all = VOCAB.slice(4).join('') + '|';
    expect(decode(encode(all))).toBe(all);
    for (const s of ['12+34=', 'r:abc=', '7,12,20|23', 'c:a:banana=', '(3+4)*2/7-1=?']) expect(decode(encode(s))).toBe(s);
    expect(encode('7|2')[1]).toBe(ANS);
  });

  it('drops BOS and PAD and stops at EOS when decoding', () => {
    expect(decode([BOS, ...encode('ab'), EOS, ...encode('zz'), PAD])).toBe('ab');
    expect(encodePrompt('ab')).toEqual([BOS, ...encode('ab')]);
  });

  it('names the unknown character and its position', () => {
    expect(() => encode('ab<c')).toThrow(TokenizerError);
    expect(() => encode('ab<c')).toThrow(/"<".*U\+003C.*position 2/);
    expect(() => encode('AB')).toThrow(/"A"/);
    expect(() => encode('١')).toThrow(/U\+0661/); // Arabic-Indic digit one is not the digit 1
    expect(() => decode([99])).toThrow(/outside the vocabulary/);
  });
});

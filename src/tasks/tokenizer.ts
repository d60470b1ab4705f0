/**
 * The lab's character-level tokenizer: one token per character, a fixed vocabulary.
 *
 * Special tokens: PAD (padding, never predicted), BOS (starts every sequence), EOS (ends a
 * response), and the answer separator ANS, written `|` in text: a response may think before
 * it ("7,12,20|23") and only the part after the last-required separator is graded.
 *
 * The vocabulary is versioned: a checkpoint records TOKENIZER_VERSION and refuses to load
 * under a different one, because token ids would silently mean other characters.
 */

export const TOKENIZER_VERSION = 1;

export const PAD = 0;
export const BOS = 1;
export const EOS = 2;
export const ANS = 3;

/** Text form of the answer separator inside prompts and responses. */
export const ANSWER_SEPARATOR = '|';

const SPECIAL_NAMES = ['<pad>', '<bos>', '<eos>', ANSWER_SEPARATOR] as const;
/** The characters a response may contain besides the separator "|" (one token each). */
export const CHARS = '0123456789abcdefghijklmnopqrstuvwxyz+-*/=(),?: ';

/** Every token's text, indexed by id. Specials first, then the characters. */
export const VOCAB: readonly string[] = [...SPECIAL_NAMES, ...CHARS.split('')];
export const VOCAB_SIZE = VOCAB.length;

const CHAR_TO_ID = new Map<string, number>();
CHARS.split('').forEach((c, i) => CHAR_TO_ID.set(c, SPECIAL_NAMES.length + i));
CHAR_TO_ID.set(ANSWER_SEPARATOR, ANS);

export class TokenizerError extends Error {}

/** True when every character of `text` has a token. */
export function isEncodable(text: string): boolean {
  for (const ch of text) if (!CHAR_TO_ID.has(ch)) return false;
  return true;
}

/**
 * Characters to token ids. Throws a TokenizerError naming the first character outside the
 * vocabulary and its position. `|` becomes ANS; BOS/EOS are never produced from text.
 */
export function encode(text: string): number[] {
  const ids: number[] = [];
  let pos = 0;
  for (const ch of text) {
    const id = CHAR_TO_ID.get(ch);
    if (id === undefined) {
      const shown = JSON.stringify(ch);
      throw new TokenizerError(
        `cannot encode character ${shown} (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}) at position ${pos}: ` +
          `the vocabulary has only digits, a-z, "+-*/=(),?:", space and "${ANSWER_SEPARATOR}"`,
      );
    }
    ids.push(id);
    pos++;
  }
  return ids;
}

/**
 * Token ids to text. BOS and PAD are dropped, decoding stops at the first EOS (what follows
 * it is not part of the response). Ids outside the vocabulary throw.
 */
export function decode(ids: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (!Number.isInteger(id) || id < 0 || id >= VOCAB_SIZE) {
      throw new TokenizerError(`token id ${id} at position ${i} is outside the vocabulary (0..${VOCAB_SIZE - 1})`);
    }
    if (id === EOS) break;
    if (id === BOS || id === PAD) continue;
    out += VOCAB[id];
  }
  return out;
}

/** A prompt as the model sees it: BOS followed by the prompt's characters. */
export function encodePrompt(prompt: string): number[] {
  return [BOS, ...encode(prompt)];
}

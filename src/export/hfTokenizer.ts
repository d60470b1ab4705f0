/**
 * The lab's character tokenizer (src/tasks/tokenizer.ts) in Hugging Face's formats:
 * tokenizer.json (the `tokenizers` library), tokenizer_config.json and special_tokens_map.json
 * (transformers' PreTrainedTokenizerFast).
 *
 *   model          WordLevel: the vocabulary, one token per character, ids exactly the lab's
 *                  (<pad> 0, <bos> 1, <eos> 2, "|" 3, then the characters). Its unk_token "<unk>"
 *                  is deliberately NOT in the vocabulary: text outside it fails to encode, as the
 *                  lab's encode() throws, instead of turning into a token the model never saw.
 *   pre_tokenizer  Split on the regex "." with behavior Isolated: every character is its own piece
 *                  (nothing in the vocabulary is a newline, the one character "." skips).
 *   added_tokens   <pad>, <bos>, <eos> as special tokens (decode(skip_special_tokens) drops them);
 *                  "|", the answer separator, is an ordinary character: responses contain it.
 *   decoder        Fuse: tokens joined with nothing between them (WordLevel's default joins with
 *                  spaces), and clean_up_tokenization_spaces is off (it would eat the space of " ,").
 *   post_processor none: the lab puts <bos> before a prompt; here train_grpo.py writes it in front of
 *                  each prompt (TRL tokenizes prompts without adding special tokens).
 */
import { BOS, EOS, PAD, VOCAB } from '../tasks/tokenizer.ts';

const SPECIAL = [PAD, BOS, EOS];

export function tokenizerJson(): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  VOCAB.forEach((t, i) => { vocab[t] = i; });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((id) => ({ id, content: VOCAB[id], single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: null,
    pre_tokenizer: { type: 'Split', pattern: { Regex: '.' }, behavior: 'Isolated', invert: false },
    post_processor: null,
    decoder: { type: 'Fuse' },
    model: { type: 'WordLevel', vocab, unk_token: '<unk>' },
  };
}

export function tokenizerConfig(modelMaxLength: number): Record<string, unknown> {
  const decoder: Record<string, unknown> = {};
  for (const id of SPECIAL) decoder[String(id)] = { content: VOCAB[id], single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    added_tokens_decoder: decoder,
    bos_token: VOCAB[BOS],
    eos_token: VOCAB[EOS],
    pad_token: VOCAB[PAD],
    model_max_length: modelMaxLength,
    padding_side: 'left',
    clean_up_tokenization_spaces: false,
    model_input_names: ['input_ids', 'attention_mask'],
  };
}

export function specialTokensMap(): Record<string, string> {
  return { bos_token: VOCAB[BOS], eos_token: VOCAB[EOS], pad_token: VOCAB[PAD] };
}

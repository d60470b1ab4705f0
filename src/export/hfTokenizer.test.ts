/**
 * tokenizer.json encodes and decodes like the lab's tokenizer, checked with a library that reads
 * Hugging Face's tokenizer.json (@huggingface/tokenizers, the pure-JS tokenizers of transformers.js)
 * on every prompt and answer (direct and with a scratchpad) of the exported split, for every task
 * at every difficulty.
 */
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { TASKS } from '../tasks/registry.ts';
import { BOS, EOS, decode, encode, encodePrompt } from '../tasks/tokenizer.ts';
import { tokenizerConfig, tokenizerJson } from './hfTokenizer.ts';
import { exportPrompts } from './trlProject.ts';

type Json = ConstructorParameters<typeof Tokenizer>[0];
const make = (tok = tokenizerJson(), cfg = tokenizerConfig(24)) => new Tokenizer(tok as unknown as Json, cfg as unknown as ConstructorParameters<typeof Tokenizer>[1]);

/** Every prompt, answer and scratchpad answer of the exported split of every task and difficulty. */
function splitTexts(): { prompts: string[]; answers: string[] } {
  const prompts = new Set<string>();
  const answers = new Set<string>();
  for (const task of TASKS) {
    for (const d of task.difficulties) {
      const { train, heldout } = exportPrompts(task, d, 1, 2000, 200);
      for (const r of [...train, ...heldout]) {
        prompts.add(r.prompt);
        answers.add(r.answer);
        answers.add(task.referenceResponse(r.prompt, { think: true }));
      }
    }
  }
  return { prompts: [...prompts], answers: [...answers] };
}

/** Mismatches between the HF tokenizer and the lab's on these texts (first 5), and how many texts were checked. */
function mismatches(tk: Tokenizer, texts: { prompts: string[]; answers: string[] }): { bad: string[]; checked: number } {
  const bad: string[] = [];
  const same = (a: unknown, b: unknown, what: string) => { if (JSON.stringify(a) !== JSON.stringify(b) && bad.length < 5) bad.push(`${what}: ${JSON.stringify(a)} vs the lab's ${JSON.stringify(b)}`); };
  for (const p of texts.prompts) {
    same(tk.encode(`<bos>${p}`).ids, encodePrompt(p), `encode <bos>${p}`);
    same(tk.encode(p).ids, encode(p), `encode ${p}`);
  }
  for (const a of texts.answers) {
    const ids = encode(a);
    same(tk.encode(a).ids, ids, `encode ${a}`);
    same(tk.decode(ids), a, `decode ${a}`);
    same(tk.decode([BOS, ...ids, EOS], { skip_special_tokens: true }), decode([BOS, ...ids, EOS]), `decode <bos>${a}<eos>`);
  }
  return { bad, checked: texts.prompts.length + texts.answers.length };
}

describe('tokenizer.json (read by @huggingface/tokenizers)', () => {
  const texts = splitTexts();

  it('encodes and decodes every prompt and answer of the split like the lab', () => {
    const r = mismatches(make(), texts);
    expect(r.bad).toEqual([]);
    expect(r.checked).toBeGreaterThan(10_000);
    console.log(`tokenizer.json agrees with the lab's tokenizer on ${texts.prompts.length} distinct prompts and ${texts.answers.length} distinct answers (${TASKS.length} tasks, every difficulty): encode, <bos> + prompt, decode, decode with specials skipped`);
  });

  it('names the special tokens and maps every vocabulary character to the lab\'s id', () => {
    const tk = make();
    expect([tk.token_to_id('<pad>'), tk.token_to_id('<bos>'), tk.token_to_id('<eos>'), tk.token_to_id('|')]).toEqual([0, 1, 2, 3]);
    const json = tokenizerJson() as { added_tokens: { content: string; special: boolean }[] };
    expect(json.added_tokens.map((t) => [t.content, t.special])).toEqual([['<pad>', true], ['<bos>', true], ['<eos>', true]]);
    expect(tokenizerConfig(24)).toMatchObject({ bos_token: '<bos>', eos_token: '<eos>', pad_token: '<pad>', padding_side: 'left', clean_up_tokenization_spaces: false });
  });

  it('can fail: without the Fuse decoder, or with clean-up of tokenization spaces, decoding differs', () => {
    const noFuse = { ...tokenizerJson(), decoder: null };
    expect(mismatches(make(noFuse), texts).bad.length).toBeGreaterThan(0);
    const cleanUp = { ...tokenizerConfig(24), clean_up_tokenization_spaces: true };
    expect(make(tokenizerJson(), cleanUp).decode(encode('7 ,8'))).not.toBe('7 ,8');
  });
});

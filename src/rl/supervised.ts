/**
 * Supervised fine-tuning on (prompt, answer) text pairs: the cold start before RL, the
 * "fine-tune on verified samples" baseline, and the first page's demo all use these two
 * functions, on either backend.
 */
import type { AdamWSettings, Backend, TrainStepResult } from '../model/backend.ts';
import { packBatch } from '../model/batch.ts';
import { EOS, decode, encode, encodePrompt } from '../tasks/tokenizer.ts';

export interface TextPair {
  prompt: string;
  /** The target response text (without EOS; EOS is appended so the model learns to stop). */
  response: string;
}

/** One AdamW step on mean cross-entropy over the response tokens (and the EOS) of `pairs`. */
export function supervisedStep(backend: Backend, pairs: TextPair[], opt: AdamWSettings): Promise<TrainStepResult> {
  const batch = packBatch(
    pairs.map((p) => ({ prompt: encodePrompt(p.prompt), response: [...encode(p.response), EOS] })),
    backend.config.seqLen,
    { trim: true },
  );
  return backend.trainStep(batch, { kind: 'ce' }, opt);
}

/** Greedy decoding of every prompt; returns the decoded responses in order. */
export async function greedyResponses(backend: Backend, prompts: string[], maxNewTokens: number): Promise<string[]> {
  const res = await backend.sample({
    prompts: prompts.map(encodePrompt),
    numGenerations: 1,
    temperature: 0,
    maxNewTokens,
    seed: 0,
    stream: 0,
  });
  return res.tokens.map((t) => decode(t));
}

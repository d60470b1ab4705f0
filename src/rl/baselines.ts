/**
 * Cheaper baselines than GRPO, at matched compute (generated tokens):
 *
 *   rejection-sampling fine-tuning (RFT, "SFT on verified samples"): the trainer's
 *     `algorithm: 'rft'` (src/rl/trainer.ts): the same rollout as GRPO, then one cross-entropy
 *     step on the answers the verifier accepts. No advantages, no negative signal, no ratio.
 *   best-of-N at inference: sample N answers per held-out prompt and return a verified one if
 *     any exists. With an exact verifier its accuracy is pass@N, and it costs N× the tokens of
 *     one answer per question — every time, not once at training time.
 *
 * Every result reports generated tokens so one chart can put GRPO, RFT and best-of-N on the
 * same x-axis. The lab's chart (lesson 5, matchedTokens.ts) reads best-of-N from the held-out
 * evaluation's own G samples (pass@N) at step 0; bestOfN here draws fresh samples (tests).
 */
import type { Backend } from '../model/backend.ts';
import { decode, encodePrompt } from '../tasks/tokenizer.ts';
import type { Task } from '../tasks/types.ts';

export interface BestOfNResult {
  n: number;
  /** Share of prompts where at least one of the N answers is correct (the verifier picks it). */
  accuracy: number;
  /** Generated tokens per prompt (N answers). */
  tokens_per_prompt: number;
}

/** Best-of-N accuracy on `prompts` for each N in `ns` (one sampling pass at max N, nested prefixes). */
export async function bestOfN(backend: Backend, task: Task, prompts: string[], ns: number[], temperature: number, maxNewTokens: number, seed: number): Promise<BestOfNResult[]> {
  const N = Math.max(...ns);
  const res = await backend.sample({ prompts: prompts.map(encodePrompt), numGenerations: N, temperature, maxNewTokens, seed, stream: 0x0b0f });
  return ns.map((n) => {
    let solved = 0, tokens = 0;
    prompts.forEach((p, i) => {
      let ok = false;
      for (let g = 0; g < n; g++) {
        const t = res.tokens[i * N + g];
        tokens += t.length;
        if (!ok && task.verify(p, decode(t)).correct) ok = true;
      }
      if (ok) solved++;
    });
    return { n, accuracy: solved / prompts.length, tokens_per_prompt: tokens / prompts.length };
  });
}

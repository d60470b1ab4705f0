/**
 * Cheaper baselines than GRPO, at matched compute (generated tokens):
 *
 *   rejection-sampling fine-tuning (RFT, "SFT on verified samples"): sample G answers per
 *     prompt exactly like GRPO's rollout, keep the ones the verifier accepts, and take one
 *     cross-entropy step on them. No advantages, no negative signal, no ratio.
 *   best-of-N at inference: sample N answers per held-out prompt and return a verified one if
 *     any exists. With an exact verifier its accuracy is pass@N, and it costs N× the tokens of
 *     one answer per question — every time, not once at training time.
 *
 * Every result reports generated tokens so one chart can put GRPO, RFT and best-of-N on the
 * same x-axis.
 */
import type { Backend } from '../model/backend.ts';
import { packBatch } from '../model/batch.ts';
import { decode, encodePrompt } from '../tasks/tokenizer.ts';
import type { Task } from '../tasks/types.ts';
import type { GrpoTrainer } from './trainer.ts';

export interface RftStepResult {
  step: number;
  /** Share of sampled answers the (strict) verifier accepted: the data RFT keeps. */
  accuracy: number;
  /** The verified answers the step trained on, as text (prompt → answer). */
  kept: { prompt: string; response: string }[];
  loss: number;
  tokens_generated: number;
  num_tokens: number;
}

/** One RFT step on the trainer's rollout machinery (same prompts, sampling and verifier as GRPO). */
export async function rftStep(trainer: GrpoTrainer): Promise<RftStepResult> {
  const rollout = await trainer.rollout();
  const keep = rollout.groups.flatMap((g) => g.tokens.map((t, i) => ({ g, t, i })).filter(({ g, i }) => g.correct[i] && g.finished[i]));
  const pairs = keep.map(({ g, t }) => ({ prompt: g.promptTokens, response: t }));
  const s = trainer.settings;
  let loss = NaN;
  if (pairs.length > 0) {
    const r = await trainer.backend.trainStep(packBatch(pairs, trainer.backend.config.seqLen, { trim: true }), { kind: 'ce' }, { lr: s.learningRate, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0, gradClip: s.maxGradNorm });
    loss = r.loss;
  }
  const n = rollout.groups.reduce((a, g) => a + g.responses.length, 0);
  const correct = rollout.groups.reduce((a, g) => a + g.correct.filter(Boolean).length, 0);
  const result = { step: trainer.step, accuracy: correct / Math.max(1, n), kept: keep.map(({ g, i }) => ({ prompt: g.prompt, response: g.responses[i] })), loss, tokens_generated: rollout.tokensGenerated, num_tokens: trainer.numTokens };
  trainer.step++;
  return result;
}

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

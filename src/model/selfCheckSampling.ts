/**
 * The self-check's sampling (src/gpu/selfCheck.ts): what it asks both engines to sample —
 * greedy, and a temperature other than 1 with fixed draws — and the CPU reference's log-probs
 * over the vocabulary after each sampled prefix (teacher-forced, at the request's τ), which the
 * Comparer holds each GPU token against.
 */
import type { ModelConfig } from './config.ts';
import type { SampleRequest, SampleResult } from './backend.ts';
import { ReferenceModel } from './reference/model.ts';

/**
 * The sampled temperature: not 1, where dividing the logits by τ changes nothing, so a kernel that
 * ignored τ would pass; the page's slider runs from 0.1 to 2, and the rollouts' branch is the same.
 */
export const SAMPLE_CHECK_TEMPERATURE = 0.7;

/** The sampling requests: greedy and τ = SAMPLE_CHECK_TEMPERATURE (the rollouts' branch) with fixed draws. */
export function sampleRequests(prompts: number[][], seqLen: number): SampleRequest[] {
  const maxNewTokens = seqLen - Math.max(...prompts.map((p) => p.length));
  return [
    { prompts, numGenerations: 2, temperature: 0, maxNewTokens, seed: 1, stream: 0 },
    { prompts, numGenerations: 4, temperature: SAMPLE_CHECK_TEMPERATURE, maxNewTokens, seed: 11, stream: 3 },
  ];
}

/** The reference's log-probs over the vocabulary at each response position of each sampled row (teacher-forced). */
export function sampleDists(config: ModelConfig, weights: Float32Array, req: SampleRequest, out: SampleResult): Float64Array[][] {
  const model = new ReferenceModel(config, 'f32', weights);
  const V = config.vocabSize;
  const tau = req.temperature > 0 ? req.temperature : 1;
  return out.tokens.map((tokens, r) => {
    const prompt = req.prompts[Math.floor(r / req.numGenerations)];
    const row = Int32Array.from([...prompt, ...tokens].slice(0, config.seqLen));
    const logits = model.forward(row, 1, row.length);
    return Array.from(tokens, (_, i) => {
      const z = logits.subarray((prompt.length - 1 + i) * V, (prompt.length + i) * V);
      let m = -Infinity;
      for (let j = 0; j < V; j++) m = Math.max(m, z[j] / tau);
      let S = 0;
      for (let j = 0; j < V; j++) S += Math.exp(z[j] / tau - m);
      return Float64Array.from({ length: V }, (_, j) => z[j] / tau - m - Math.log(S));
    });
  });
}

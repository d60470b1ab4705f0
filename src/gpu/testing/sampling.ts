/**
 * Browser-side body of e2e/gpu-sampling.spec.ts.
 *  - greedy: the GPU's KV-cache decoder against ReferenceBackend.sample (full recompute per
 *    token) on prompts of different lengths, token for token;
 *  - temperature 1: the same draws (uniform4(seed, stream, row, i)) on both, token agreement
 *    reported; and a chi-square test of the GPU's first-token frequencies over many rows
 *    against softmax(logits) from the reference model.
 */
import { CONFIGS, paramLayout } from '../../model/config.ts';
import type { ModelConfig } from '../../model/config.ts';
import { initWeights } from '../../model/init.ts';
import { ReferenceBackend } from '../../model/reference/backend.ts';
import { ReferenceModel } from '../../model/reference/model.ts';
import { encodePrompt, VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { createWebGPUBackend } from '../backend.ts';

/** Upper tail P(X ≥ x) of chi-square with k degrees of freedom (Wilson–Hilferty; fine for k ≥ 3). */
export function chiSquareSurvival(x: number, k: number): number {
  const z = (Math.cbrt(x / k) - (1 - 2 / (9 * k))) / Math.sqrt(2 / (9 * k));
  // standard normal upper tail via erfc (Abramowitz–Stegun 7.1.26)
  const t = 1 / (1 + 0.3275911 * Math.abs(z / Math.SQRT2));
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-(z * z) / 2);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

export async function runSamplingParity() {
  const config: ModelConfig = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const layout = paramLayout(config);
  // init × 5: peakier logits than a fresh init, so greedy choices are not near-ties
  const w = initWeights(layout, 7);
  for (const t of layout.tensors) if (t.init === 'normal') for (let i = t.offset; i < t.offset + t.size; i++) w[i] *= 5;
  const gpu = await createWebGPUBackend(config, { seed: 7, weights: w });
  const cpu = new ReferenceBackend(config, w);

  const prompts = ['abc=', 'hello world=', 'x=', '12+34=', 'reverse: qwerty='].map(encodePrompt);
  // greedy, G = 2 (identical rows), maxNewTokens 12; the longest prompt also hits seqLen
  const greedyReq = { prompts, numGenerations: 2, temperature: 0, maxNewTokens: 12, seed: 3, stream: 0 };
  const [g0, c0] = [await gpu.sample(greedyReq), await cpu.sample(greedyReq)];
  const greedy = g0.tokens.map((t, r) => ({
    row: r,
    promptLen: prompts[Math.floor(r / 2)].length,
    gpu: Array.from(t).join(' '),
    ref: Array.from(c0.tokens[r]).join(' '),
    equal: t.length === c0.tokens[r].length && t.every((x, i) => x === c0.tokens[r][i]) && g0.finished[r] === c0.finished[r],
    maxLogprobDiff: Math.max(0, ...Array.from(t, (_, i) => Math.abs(g0.logprobs[r][i] - c0.logprobs[r][i]))),
  }));

  // temperature 1, same draws on both: how many tokens agree (they can differ only at bin edges)
  const t1Req = { prompts, numGenerations: 4, temperature: 1, maxNewTokens: 12, seed: 11, stream: 5 };
  const [g1, c1] = [await gpu.sample(t1Req), await cpu.sample(t1Req)];
  let agree = 0;
  let total = 0;
  g1.tokens.forEach((t, r) => {
    const c = c1.tokens[r];
    for (let i = 0; i < Math.min(t.length, c.length); i++) {
      total++;
      if (t[i] !== c[i]) break; // after a disagreement the rows see different contexts
      agree++;
    }
  });

  // chi-square: the first response token of 4000 rows of one prompt at temperature 1
  const prompt = encodePrompt('ab=');
  const rows = 4000;
  const gs = await gpu.sample({ prompts: [prompt], numGenerations: rows, temperature: 1, maxNewTokens: 1, seed: 99, stream: 1 });
  const counts = new Float64Array(config.vocabSize);
  for (const t of gs.tokens) counts[t[0]]++;
  const model = new ReferenceModel(config, 'f64', w);
  const logits = model.forward(Int32Array.from(prompt), 1, prompt.length);
  const last = logits.subarray((prompt.length - 1) * config.vocabSize, prompt.length * config.vocabSize);
  const mx = Math.max(...last);
  const e = Array.from(last, (z) => Math.exp(z - mx));
  const Z = e.reduce((a, b) => a + b, 0);
  const probs = e.map((x) => x / Z);
  // merge bins with expected count < 5 into one
  let chi2 = 0;
  let bins = 0;
  let restObs = 0;
  let restExp = 0;
  const table = [];
  for (let v = 0; v < config.vocabSize; v++) {
    const expct = probs[v] * rows;
    if (expct >= 5) {
      chi2 += (counts[v] - expct) ** 2 / expct;
      bins++;
      table.push({ token: v, expected: +expct.toFixed(1), observed: counts[v] });
    } else {
      restObs += counts[v];
      restExp += expct;
    }
  }
  if (restExp > 0) {
    chi2 += (restObs - restExp) ** 2 / restExp;
    bins++;
    table.push({ token: -1, expected: +restExp.toFixed(1), observed: restObs });
  }
  const df = bins - 1;
  gpu.dispose();
  return { greedy, agree, total, chi2, df, pValue: chiSquareSurvival(chi2, df), table };
}

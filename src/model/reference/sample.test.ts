/**
 * The reference sampler: frequencies match softmax probabilities (chi-square), draws are fixed
 * by (seed, stream, sample, position), greedy is argmax, responses are capped at seqLen, and
 * the log-probs reported at sampling time equal the ones training computes.
 */
import { describe, expect, it } from 'vitest';
import type { ModelConfig } from '../config.ts';
import { encodePrompt, EOS, VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { ReferenceBackend } from './backend.ts';

const config: ModelConfig = { vocabSize: VOCAB_SIZE, seqLen: 12, dModel: 16, nHeads: 2, nLayers: 1 };

/** A backend whose logits are scaled up (lm_head × 60) so the next-token distribution is far from flat. */
async function peakedBackend(): Promise<ReferenceBackend> {
  const be = ReferenceBackend.create(config, 3);
  const w = await be.getWeights();
  const lm = be.layout.byName['lm_head'];
  for (let i = lm.offset; i < lm.offset + lm.size; i++) w[i] *= 60;
  await be.setWeights(w);
  return be;
}

/** softmax(logits/tau) of the next token after `prompt`, in float64. */
function nextTokenProbs(be: ReferenceBackend, prompt: number[], tau: number): number[] {
  const V = config.vocabSize;
  const T = prompt.length;
  const logits = be.model.forward(Int32Array.from(prompt), 1, T);
  const row = Array.from(logits.subarray((T - 1) * V, T * V), (z) => z / tau);
  const m = Math.max(...row);
  const e = row.map((u) => Math.exp(u - m));
  const S = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / S);
}

/** Regularized lower incomplete gamma P(a, x) (series below a+1, continued fraction above). */
function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const lnGammaA = lnGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-15) break;
    }
    return sum * Math.exp(-x + a * Math.log(x) - lnGammaA);
  }
  // Lentz's continued fraction for Q(a, x)
  let b = x + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return 1 - Math.exp(-x + a * Math.log(x) - lnGammaA) * h;
}

function lnGamma(z: number): number {
  // Lanczos (g = 7, n = 9)
  const g = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (z < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * z)) - lnGamma(1 - z);
  z -= 1;
  let x = g[0];
  for (let i = 1; i < 9; i++) x += g[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(x);
}

/** The q-quantile of chi-square with k degrees of freedom, by bisection on P(k/2, x/2). */
function chiSquareQuantile(q: number, k: number): number {
  let lo = 0;
  let hi = k + 50 * Math.sqrt(2 * k) + 100;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (gammaP(k / 2, mid / 2) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Pearson's statistic of counts against probabilities, merging bins with expected count < 5 into one. */
function chiSquare(counts: number[], probs: number[], n: number): { stat: number; df: number } {
  let stat = 0;
  let bins = 0;
  let restObs = 0;
  let restExp = 0;
  for (let j = 0; j < probs.length; j++) {
    const e = n * probs[j];
    if (e < 5) {
      restObs += counts[j];
      restExp += e;
      continue;
    }
    stat += (counts[j] - e) ** 2 / e;
    bins++;
  }
  if (restExp > 0) {
    stat += (restObs - restExp) ** 2 / restExp;
    bins++;
  }
  return { stat, df: bins - 1 };
}

describe('reference sampler', () => {
  it('chi-square quantile helper matches known values', () => {
    // tables: χ²_{0.999}(1) = 10.828, (10) = 29.588, (30) = 59.703
    expect(chiSquareQuantile(0.999, 1)).toBeCloseTo(10.828, 2);
    expect(chiSquareQuantile(0.999, 10)).toBeCloseTo(29.588, 2);
    expect(chiSquareQuantile(0.999, 30)).toBeCloseTo(59.703, 2);
  });

  it('temperature-1 frequencies of the first response token match softmax (chi-square, 20k draws)', async () => {
    const be = await peakedBackend();
    const prompt = encodePrompt('12+3=');
    const probs = nextTokenProbs(be, prompt, 1);
    const n = 20000;
    const res = await be.sample({ prompts: [prompt], numGenerations: n, temperature: 1, maxNewTokens: 1, seed: 42, stream: 0 });
    const counts = new Array(config.vocabSize).fill(0);
    for (const t of res.tokens) counts[t[0]]++;
    const { stat, df } = chiSquare(counts, probs, n);
    const q = chiSquareQuantile(0.999, df);
    const pmax = Math.max(...probs);
    // and the same draws against a wrong distribution (temperature 1.3): the test must be able to fail
    const wrong = chiSquare(counts, nextTokenProbs(be, prompt, 1.3), n);
    console.log(`sampler chi-square: stat ${stat.toFixed(2)} on ${df} df, 0.999 quantile ${q.toFixed(2)} (max p ${pmax.toFixed(3)}); vs tau=1.3 probs: ${wrong.stat.toFixed(1)} on ${wrong.df} df`);
    expect(pmax).toBeGreaterThan(0.1); // not flat
    expect(df).toBeGreaterThanOrEqual(5);
    expect(stat).toBeLessThan(q);
    expect(wrong.stat).toBeGreaterThan(chiSquareQuantile(0.999, wrong.df));
  });

  it('same seed and stream → identical samples; another stream → different ones', async () => {
    const be = await peakedBackend();
    const req = { prompts: [encodePrompt('ab'), encodePrompt('7*8=')], numGenerations: 4, temperature: 1, maxNewTokens: 6, seed: 7, stream: 3 };
    const a = await be.sample(req);
    const b = await be.sample(req);
    const c = await be.sample({ ...req, stream: 4 });
    expect(a.tokens.map((t) => Array.from(t))).toEqual(b.tokens.map((t) => Array.from(t)));
    expect(a.logprobs.map((t) => Array.from(t))).toEqual(b.logprobs.map((t) => Array.from(t)));
    expect(a.tokens.map((t) => Array.from(t))).not.toEqual(c.tokens.map((t) => Array.from(t)));
  });

  it('greedy (temperature 0) is argmax at every step, ties to the lowest id, with temperature-1 log-probs', async () => {
    const be = await peakedBackend();
    const prompts = [encodePrompt('1+1='), encodePrompt('xyz')];
    const res = await be.sample({ prompts, numGenerations: 2, temperature: 0, maxNewTokens: 5, seed: 1, stream: 0 });
    for (let p = 0; p < prompts.length; p++) {
      const seq = [...prompts[p]];
      const want: number[] = [];
      const wantLogp: number[] = [];
      for (let i = 0; i < 5; i++) {
        const pr = nextTokenProbs(be, seq, 1);
        let best = 0;
        for (let j = 1; j < pr.length; j++) if (pr[j] > pr[best]) best = j;
        want.push(best);
        wantLogp.push(Math.log(pr[best]));
        seq.push(best);
        if (best === EOS) break;
      }
      for (let g = 0; g < 2; g++) {
        expect(Array.from(res.tokens[p * 2 + g])).toEqual(want);
        res.logprobs[p * 2 + g].forEach((lp, i) => expect(lp).toBeCloseTo(wantLogp[i], 5));
      }
    }
  });

  it('prompt + response never exceeds seqLen', async () => {
    const be = await peakedBackend();
    const long = encodePrompt('123456789'); // 10 tokens of seqLen 12
    const full = encodePrompt('12345678901'); // 12 tokens
    const res = await be.sample({ prompts: [long, full], numGenerations: 3, temperature: 1, maxNewTokens: 8, seed: 5, stream: 0 });
    for (let g = 0; g < 3; g++) {
      expect(res.tokens[g].length).toBeLessThanOrEqual(2);
      expect(res.tokens[3 + g].length).toBe(0);
      expect(res.finished[3 + g]).toBe(false);
    }
    await expect(be.sample({ prompts: [encodePrompt('1234567890123')], numGenerations: 1, temperature: 1, maxNewTokens: 2, seed: 5, stream: 0 })).rejects.toThrow(/longer than seqLen/);
  });

  it('sampling log-probs equal the log-probs training computes for the same tokens (temperature 0.8)', async () => {
    const be = await peakedBackend();
    const prompt = encodePrompt('3-1=');
    const res = await be.sample({ prompts: [prompt], numGenerations: 3, temperature: 0.8, maxNewTokens: 6, seed: 11, stream: 2 });
    for (let g = 0; g < 3; g++) {
      const resp = Array.from(res.tokens[g]);
      const seq = [...prompt, ...resp];
      const T = seq.length - 1;
      const inputs = Int32Array.from(seq.slice(0, T));
      const targets = Int32Array.from(seq.slice(1));
      const mask = new Float32Array(T).map((_, t) => (t >= prompt.length - 1 ? 1 : 0));
      const { logprobs } = await be.logprobs({ B: 1, T, inputs, targets, mask }, { temperature: 0.8 });
      resp.forEach((_, i) => expect(logprobs[prompt.length - 1 + i]).toBeCloseTo(res.logprobs[g][i], 4));
    }
  });
});

describe('KV-cached decoding', () => {
  it('decodeStep logits equal the full forward bit for bit (f32), position by position', async () => {
    const be = await peakedBackend();
    const V = config.vocabSize;
    const R = 3;
    const T = config.seqLen;
    const seqs = Int32Array.from({ length: R * T }, (_, i) => (i * 13 + 5) % V);
    const full = Float32Array.from(be.model.forward(seqs, R, T));
    be.model.beginDecode(R, T);
    for (let pos = 0; pos < T; pos++) {
      const feed = Int32Array.from({ length: R }, (_, r) => seqs[r * T + pos]);
      const step = be.model.decodeStep(feed, pos);
      for (let r = 0; r < R; r++) {
        const want = full.subarray((r * T + pos) * V, (r * T + pos + 1) * V);
        expect(Array.from(step.subarray(r * V, (r + 1) * V))).toEqual(Array.from(want));
      }
    }
  });

  it('sample() with the cache gives exactly what sampleRecompute() gives (mixed prompt lengths, EOS, greedy, cap)', async () => {
    const be = await peakedBackend();
    // make EOS likely so some rows stop early and others run to the cap
    const w = await be.getWeights();
    const lm = be.layout.byName['lm_head'];
    for (let d = 0; d < config.dModel; d++) w[lm.offset + d * config.vocabSize + EOS] += 0.02 * (d % 2 ? 1 : -1) * 60;
    await be.setWeights(w);
    const prompts = [encodePrompt('1'), encodePrompt('12+34='), encodePrompt('abcdefgh')];
    let eos = 0;
    let capped = 0;
    for (const temperature of [1, 0.7, 0]) {
      const req = { prompts, numGenerations: 4, temperature, maxNewTokens: 6, seed: 21, stream: 1 };
      const a = await be.sample(req);
      const b = await be.sampleRecompute(req);
      expect(a.tokens.map((t) => Array.from(t))).toEqual(b.tokens.map((t) => Array.from(t)));
      expect(a.logprobs.map((t) => Array.from(t))).toEqual(b.logprobs.map((t) => Array.from(t)));
      expect(a.finished).toEqual(b.finished);
      eos += a.finished.filter(Boolean).length;
      capped += a.finished.filter((f) => !f).length;
    }
    expect(eos).toBeGreaterThan(0);
    expect(capped).toBeGreaterThan(0);
  });
});

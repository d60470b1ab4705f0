import { describe, expect, it } from 'vitest';
import { policyObjective, type PolicyObjectiveInput } from './objective.ts';
import type { PolicyLossSettings } from './backend.ts';
import { Rng } from './rng.ts';

const S: PolicyLossSettings = {
  epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3', lossType: 'grpo',
  importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 4, temperature: 1,
};

function input(over: Partial<PolicyObjectiveInput> & { B: number; T: number }): PolicyObjectiveInput {
  const N = over.B * over.T;
  return { logprobs: new Float64Array(N), entropy: new Float64Array(N), mask: new Float64Array(N).fill(1), oldLogprobs: null, refLogprobs: null, advantages: new Float64Array(over.B), ...over };
}

describe('policyObjective: hand cases', () => {
  it('on-policy GRPO is the plain policy gradient −A·w per token, loss −mean A', () => {
    const r = policyObjective(input({ B: 2, T: 3, mask: [1, 1, 0, 1, 0, 0], advantages: [1, -1] }), S);
    expect(Array.from(r.gradLogprob)).toEqual([-0.25, -0.25, 0, 0.5, 0, 0]);
    expect(r.loss).toBeCloseTo(0, 12);
    expect(r.metrics.ratio_mean).toBe(1);
    expect(r.metrics['clip_ratio/region_mean']).toBe(0);
  });

  it('clips: the gradient vanishes exactly where the clipped branch is the min', () => {
    const logprobs = [Math.log(1.5), Math.log(0.5), Math.log(0.5), Math.log(1.1)];
    const r = policyObjective(input({ B: 4, T: 1, logprobs, oldLogprobs: [0, 0, 0, 0], advantages: [1, 1, -1, 1] }), S);
    // w = 1/4 per response (one token each)
    expect(r.gradLogprob[0]).toBe(0); // ρ=1.5 > 1.2 with A>0: clipped
    expect(r.gradLogprob[1]).toBeCloseTo(-0.25 * 0.5, 12); // ρ=0.5 with A>0: the unclipped branch is smaller
    expect(r.gradLogprob[2]).toBe(0); // ρ=0.5 < 0.8 with A<0: clipped
    expect(r.gradLogprob[3]).toBeCloseTo(-0.25 * 1.1, 12); // inside the region
    // losses: −min(1.5,1.2)=−1.2; −min(0.5,0.8)=−0.5; −min(−0.5,−0.8)=0.8; −1.1
    expect(r.loss).toBeCloseTo((-1.2 - 0.5 + 0.8 - 1.1) / 4, 12);
    expect(r.metrics['clip_ratio/high_mean']).toBe(0.25);
    expect(r.metrics['clip_ratio/low_mean']).toBe(0.25);
    expect(r.metrics['clip_ratio/region_mean']).toBe(0.5);
    expect(r.metrics.ratio_min).toBeCloseTo(0.5, 12);
    expect(r.metrics.ratio_max).toBeCloseTo(1.5, 12);
  });

  it('at the sequence level (GSPO) the clip shares count each answer once, over all B answers, as TRL logs them', () => {
    // row 0: 4 tokens, s = 1.5 with A > 0 (clipped high); row 1: 1 token, s = 0.5 with A < 0 (clipped low);
    // row 2: 2 tokens, s = 1.05 (inside); row 3: no tokens (masked): counted in B, never clipped
    const T = 4;
    const lp = (x: number, n: number) => [...Array(n).fill(Math.log(x)), ...Array(T - n).fill(0)];
    const mask = [1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0];
    const r = policyObjective(input({ B: 4, T, mask, logprobs: [...lp(1.5, 4), ...lp(0.5, 1), ...lp(1.05, 2), ...lp(1, 0)], oldLogprobs: new Float64Array(16), advantages: [1, -1, 1, 1] }), { ...S, importanceSamplingLevel: 'sequence' });
    expect(r.metrics['clip_ratio/high_mean']).toBe(1 / 4); // token-weighted it was 4/7
    expect(r.metrics['clip_ratio/low_mean']).toBe(1 / 4); // token-weighted 1/7
    expect(r.metrics['clip_ratio/region_mean']).toBe(2 / 4);
  });

  it('clip-higher: ε_high widens only the upper side', () => {
    const r = policyObjective(input({ B: 1, T: 1, logprobs: [Math.log(1.25)], oldLogprobs: [0], advantages: [1] }), { ...S, epsilonHigh: 0.28 });
    expect(r.gradLogprob[0]).toBeCloseTo(-1.25, 12);
  });

  it('GSPO: one length-normalised ratio per response, clipped as a unit', () => {
    const lr = [Math.log(2), 0];
    const seq = { ...S, importanceSamplingLevel: 'sequence' as const, epsilon: 0.5, epsilonHigh: 0.5 };
    const r = policyObjective(input({ B: 1, T: 2, logprobs: lr, oldLogprobs: [0, 0], advantages: [1] }), seq);
    expect(r.metrics.ratio_mean).toBeCloseTo(Math.SQRT2, 12); // exp(mean(ln2, 0)) = √2
    expect(r.loss).toBeCloseTo(-Math.SQRT2, 12);
    // d/dlogp_t of −s·A (weight Σw = 1) = −s·A/|o| for each token
    expect(r.gradLogprob[0]).toBeCloseTo(-Math.SQRT2 / 2, 12);
    expect(r.gradLogprob[1]).toBeCloseTo(-Math.SQRT2 / 2, 12);
    const clipped = policyObjective(input({ B: 1, T: 2, logprobs: lr, oldLogprobs: [0, 0], advantages: [1] }), { ...seq, epsilonHigh: 0.2 });
    expect(clipped.loss).toBeCloseTo(-1.2, 12);
    expect(Array.from(clipped.gradLogprob)).toEqual([0, 0]);
  });

  it('the three aggregations weigh tokens as documented', () => {
    const base = { B: 2, T: 4, mask: [1, 1, 1, 1, 1, 0, 0, 0], advantages: [1, 1] };
    const grpo = policyObjective(input(base), S);
    const dapo = policyObjective(input(base), { ...S, lossType: 'dapo' });
    const dr = policyObjective(input(base), { ...S, lossType: 'dr_grpo', maxCompletionLength: 8 });
    expect(grpo.gradLogprob[0]).toBeCloseTo(-1 / 8, 12); // 1/(B·|o_0|) = 1/(2·4)
    expect(grpo.gradLogprob[4]).toBeCloseTo(-1 / 2, 12); // 1/(2·1): a short answer's token weighs 4× more
    expect(dapo.gradLogprob[0]).toBeCloseTo(-1 / 5, 12); // 1/Σm
    expect(dapo.gradLogprob[4]).toBeCloseTo(-1 / 5, 12);
    expect(dr.gradLogprob[0]).toBeCloseTo(-1 / 16, 12); // 1/(B·max_len)
    expect(dr.gradLogprob[4]).toBeCloseTo(-1 / 16, 12);
  });

  it('k1 and k3 on a hand case: logp = −1, logp_ref = −2', () => {
    const mk = (k: 'k1' | 'k3') => policyObjective(input({ B: 1, T: 1, logprobs: [-1], refLogprobs: [-2], advantages: [0] }), { ...S, beta: 0.5, klEstimator: k });
    const k1 = mk('k1'), k3 = mk('k3');
    expect(k1.metrics.kl).toBeCloseTo(1, 12); // log π/π_ref = −1 − (−2)
    expect(k3.metrics.kl).toBeCloseTo(Math.exp(-1) + 1 - 1, 12); // e^d − d − 1 with d = −1
    expect(k1.loss).toBeCloseTo(0.5, 12);
    expect(k1.gradLogprob[0]).toBeCloseTo(0.5, 12);
    expect(k3.gradLogprob[0]).toBeCloseTo(0.5 * (1 - Math.exp(-1)), 12);
    expect(() => policyObjective(input({ B: 1, T: 1 }), { ...S, beta: 0.1 })).toThrow(/reference/);
  });

  it('entropy bonus lowers the loss and pushes entropy up', () => {
    const r = policyObjective(input({ B: 1, T: 2, entropy: [2, 1], advantages: [0] }), { ...S, entropyCoef: 0.1 });
    expect(r.loss).toBeCloseTo(-0.1 * 1.5, 12);
    expect(Array.from(r.gradEntropy)).toEqual([-0.05, -0.05]);
  });
});

describe('policyObjective: gradients equal finite differences on random inputs', () => {
  const cases: [string, Partial<PolicyLossSettings>][] = [
    ['token/grpo/k3', {}],
    ['token/dapo/k1+entropy', { lossType: 'dapo', klEstimator: 'k1', entropyCoef: 0.05 }],
    ['sequence/dr_grpo/k3', { importanceSamplingLevel: 'sequence', lossType: 'dr_grpo', maxCompletionLength: 6, epsilon: 0.03, epsilonHigh: 0.03 }],
  ];
  for (const [name, over] of cases) {
    it(name, () => {
      const rng = new Rng(7);
      const B = 4, T = 6, N = B * T;
      const mask = Array.from({ length: N }, (_, i) => (i % T < 2 + (Math.floor(i / T) % 4) ? 1 : 0));
      const logprobs = Array.from({ length: N }, () => -0.3 - rng.next());
      const oldLogprobs = logprobs.map((l) => l + 0.3 * (rng.next() - 0.5));
      const refLogprobs = logprobs.map((l) => l + 0.5 * (rng.next() - 0.5));
      const entropy = Array.from({ length: N }, () => rng.next() * 2);
      const advantages = [1.2, -0.7, 0.4, -1.1];
      const s: PolicyLossSettings = { ...S, beta: 0.04, epsilon: 0.1, epsilonHigh: 0.12, ...over };
      const f = (lp: number[], ent: number[]) => policyObjective({ B, T, logprobs: lp, entropy: ent, mask, oldLogprobs, refLogprobs, advantages }, s);
      const r = f(logprobs, entropy);
      const h = 1e-6;
      let worst = 0;
      for (let i = 0; i < N; i++) {
        const up = [...logprobs]; up[i] += h;
        const dn = [...logprobs]; dn[i] -= h;
        const num = (f(up, entropy).loss - f(dn, entropy).loss) / (2 * h);
        worst = Math.max(worst, Math.abs(num - r.gradLogprob[i]));
        const eu = [...entropy]; eu[i] += h;
        const ed = [...entropy]; ed[i] -= h;
        const numE = (f(logprobs, eu).loss - f(logprobs, ed).loss) / (2 * h);
        worst = Math.max(worst, Math.abs(numE - r.gradEntropy[i]));
      }
      console.log(`policyObjective ${name}: max |analytic − numeric| = ${worst.toExponential(2)}, clip region ${r.metrics['clip_ratio/region_mean'].toFixed(3)}`);
      expect(worst).toBeLessThan(1e-7);
      expect(r.metrics['clip_ratio/region_mean']).toBeGreaterThan(0); // the case exercises clipping
    });
  }
});

// Lesson 5's matched-tokens chart: a trained policy at T + Q·L̄ with pass@1, best-of-N on the base at
// Q·N·L̄₀ with pass@N — from the run's own records, and from a real evaluation of the shipped base.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { encodePrompt } from '../tasks/tokenizer.ts';
import { getTask } from '../tasks/registry.ts';
import { baseCheckpointPath } from './bases.ts';
import { evaluatePolicy, heldoutPrompts } from './evaluation.ts';
import { getLesson, lessonSettings } from './lessons.ts';
import { bestOfNPoints, breakEvenQuestions, matchedTokensSummary, samplesToMatch, trainedPoints, trainingTokensAt, type EvalPoint } from './matchedTokens.ts';
import type { StepMetrics } from './metrics.ts';
import { maxNewTokens } from './rollout.ts';
import { defaultSettings } from './settings.ts';

const steps = [1, 2, 3, 4, 5, 6].map((i) => ({ step: i - 1, num_tokens: 1000 * i })); // steps 0..5, cumulative tokens
const evals: (EvalPoint & { pass_at_k: Record<string, number> })[] = [
  { step: 0, pass_at_k: { '1': 0.25, '2': 0.4, '4': 0.6, '8': 0.7 }, mean_length: 4 },
  { step: 3, pass_at_k: { '1': 0.3, '2': 0.5 }, mean_length: 5 },
  { step: 6, pass_at_k: { '1': 0.5, '2': 0.6 }, mean_length: 3 },
];

describe('matched tokens', () => {
  it('a trained policy sits at x = T + Q·L̄ (T: the rollouts\' tokens before the evaluation), y = pass@1', () => {
    expect(trainingTokensAt(steps, 0)).toBe(0);
    expect(trainingTokensAt(steps, 3)).toBe(3000); // steps 0, 1, 2 ran before the evaluation at step 3
    expect(trainedPoints(steps, evals, 1000)).toEqual([
      { step: 0, training_tokens: 0, answer_tokens: 4, tokens: 4000, pass: 0.25 },
      { step: 3, training_tokens: 3000, answer_tokens: 5, tokens: 3000 + 1000 * 5, pass: 0.3 },
      { step: 6, training_tokens: 6000, answer_tokens: 3, tokens: 6000 + 1000 * 3, pass: 0.5 },
    ]);
    // an evaluation without the answers' length (an older saved run) is left out, not guessed
    expect(trainedPoints(steps, [{ step: 0, pass_at_k: { '1': 0.2 } }], 10)).toEqual([]);
  });

  it('best-of-N on the base: x = Q·N·L̄₀, y = pass@N for each measured N; none without a step-0 evaluation', () => {
    const b = bestOfNPoints(evals, 100)!;
    expect(b.map((p) => p.n)).toEqual([1, 2, 4, 8]);
    expect(b.map((p) => p.tokens)).toEqual([400, 800, 1600, 3200]);
    expect(b.map((p) => p.pass)).toEqual([0.25, 0.4, 0.6, 0.7]);
    expect(b[0].tokens).toBe(trainedPoints(steps, evals, 100)[0].tokens); // both curves start at the base's best-of-1
    expect(bestOfNPoints(evals.slice(1), 100)).toBeNull();
  });

  it('the N best-of-N needs to match a pass rate (linear between measured N: a mix of the two), and the break-even workload', () => {
    const base = evals[0].pass_at_k;
    expect(samplesToMatch(base, 0.2)).toBe(1);
    expect(samplesToMatch(base, 0.4)).toBe(2);
    expect(samplesToMatch(base, 0.5)).toBeCloseTo(3, 10);
    expect(samplesToMatch(base, 0.65)).toBeCloseTo(6, 10);
    expect(samplesToMatch(base, 0.9)).toBeNaN();
    expect(breakEvenQuestions(6000, 3, 4, 3)).toBe(6000 / (3 * 4 - 3)); // T + Q·3 = Q·3·4
    expect(breakEvenQuestions(6000, 1, 4, 5)).toBe(Infinity);
  });

  it('the run\'s summary (lesson 5\'s verdict): trained pass@1 = mean of the last two evaluations, N to match it on the base, break-even', () => {
    const run = { steps: steps as StepMetrics[], evals: evals.map((e) => ({ ...e, heldout_accuracy: 0 })) };
    const e = matchedTokensSummary(run);
    // a = (0.3 + 0.5) / 2 = 0.4 = pass@2 of the base; L̄ from the same two evaluations, (5 + 3) / 2 = 4;
    // T = 6000, the tokens up to the last of them (step 6: steps 0..5); L₀ = 4
    expect(e).toEqual({ training_tokens: 6000, pass1_base: 0.25, pass1_trained: 0.4, G: 8, passG_base: 0.7, samples_to_match: 2, answer_tokens_base: 4, answer_tokens_trained: 4, break_even_questions: 6000 / (2 * 4 - 4) });
    // a run that did not beat the base has not paid for anything, even if its answers got shorter
    const worse = matchedTokensSummary({ ...run, evals: [run.evals[0], { ...run.evals[1], pass_at_k: { '1': 0.2, '2': 0.3 }, mean_length: 2 }, { ...run.evals[2], pass_at_k: { '1': 0.2, '2': 0.3 }, mean_length: 2 }] });
    expect(worse.pass1_trained).toBeLessThan(worse.pass1_base);
    expect(worse.break_even_questions).toBeNaN();
    // no step-0 evaluation: nothing is invented
    const noBase = matchedTokensSummary({ ...run, evals: run.evals.slice(1) });
    expect(noBase.samples_to_match).toBeNaN();
    expect(noBase.break_even_questions).toBeNaN();
  });

  it('from a real evaluation of the shipped base: L̄ is the mean length of its τ-samples, pass@N rises with N at N× the tokens', async () => {
    const l = getLesson('grpo-vs-best-of-n')!;
    const s = { ...lessonSettings(l, defaultSettings()), seed: 3 };
    const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty)!)));
    const be = new ReferenceBackend(ck.config, ck.weights);
    const e = await evaluatePolicy(be, s, { size: 12, difficulties: [s.difficulty], passAtK: true, step: 0 });
    // the same samples, drawn again (same seed and stream): their mean length in tokens
    const prompts = heldoutPrompts(getTask(s.task), s.difficulty, 12, s.seed).map(encodePrompt);
    const again = await be.sample({ prompts, numGenerations: s.numGenerations, temperature: s.temperature, maxNewTokens: maxNewTokens(be, Math.max(...prompts.map((p) => p.length)), s), seed: s.seed ^ 0x5eed, stream: 0 });
    const L = again.tokens.reduce((a, t) => a + t.length, 0) / again.tokens.length;
    expect(e.mean_length).toBeCloseTo(L, 10);
    const b = bestOfNPoints([e], 1000)!;
    expect(b.map((p) => p.n)).toEqual([1, 2, 4, 8]);
    for (let i = 1; i < b.length; i++) {
      expect(b[i].pass).toBeGreaterThanOrEqual(b[i - 1].pass);
      expect(b[i].tokens / b[0].tokens).toBeCloseTo(b[i].n, 10);
    }
    expect(b.at(-1)!.pass).toBeGreaterThan(b[0].pass);
    expect(b[0].pass).toBe(e.pass_at_k['1']);
  });
});

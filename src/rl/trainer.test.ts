import { describe, expect, it } from 'vitest';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { getTask } from '../tasks/registry.ts';
import { defaultSettings, type Settings } from './settings.ts';
import { GrpoTrainer, overlongPenalty, type StepPhase } from './trainer.ts';
import { rolloutWithAdvantages } from './testing/phases.ts';
import { bestOfN } from './baselines.ts';
import { packBatch, sumPerRow } from '../model/batch.ts';
import { supervisedStep } from './supervised.ts';
import { samplePrompts } from '../tasks/split.ts';
import { Rng } from '../model/rng.ts';
import { DEFAULT_ADAMW } from '../model/backend.ts';
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { baseCheckpointPath } from './bases.ts';

const config = { vocabSize: VOCAB_SIZE, seqLen: 16, dModel: 16, nHeads: 2, nLayers: 1 };
const small: Settings = { ...defaultSettings(), task: 'reverse', promptsPerStep: 3, numGenerations: 4, maxCompletionLength: 5, numIterations: 1, learningRate: 1e-3 };

async function run(settings: Settings, steps: number) {
  const be = ReferenceBackend.create(config, 7);
  await be.snapshotReference();
  const tr = new GrpoTrainer(be, settings, { evalSize: 4 });
  const out = [];
  for (let i = 0; i < steps; i++) out.push((await tr.trainStep()).metrics);
  return out.map(({ rollout_ms, verify_ms, update_ms, ...m }) => m); // timings differ run to run
}

describe('GrpoTrainer', () => {
  it('the same seed gives identical metrics twice; another seed does not', async () => {
    const s = { ...small, beta: 0.04, numIterations: 2 };
    const a = await run(s, 3);
    const b = await run(s, 3);
    expect(b).toEqual(a);
    const c = await run({ ...s, seed: 2 }, 3);
    expect(c).not.toEqual(a);
  });

  it('a lesson\'s evaluations all read its contract\'s held-out set, so the held-out line joins figures of the same prompts; in full only at step 0 and the verdict step', async () => {
    const be = ReferenceBackend.create(config, 7);
    await be.snapshotReference();
    const greedyPrompts: number[] = []; // prompts in each greedy (temperature 0) call: one per evaluation of this task
    const sample = be.sample.bind(be);
    be.sample = (req) => { if (req.temperature === 0) greedyPrompts.push(req.prompts.length); return sample(req); };
    const tr = new GrpoTrainer(be, { ...small, evalEvery: 2 }, { evalSize: 4, contract: { steps: 4, size: 12 } });
    const evals = [await tr.evaluate()];
    for (let i = 0; i < 4; i++) { const e = (await tr.trainStep()).evaluation; if (e) evals.push(e); }
    expect(evals.map((e) => [e.step, e.contract ?? false, e.per_prompt?.greedy.length ?? null])).toEqual([[0, true, 12], [2, false, null], [4, true, 12]]);
    expect(greedyPrompts).toEqual([12, 12, 12]);
  });

  it('a settings change in the middle of a step applies from the next step', async () => {
    const be = ReferenceBackend.create(config, 1);
    const tr = new GrpoTrainer(be, small, { evalSize: 4 });
    const live = { ...small }; // the lab's settings object
    const phases = [];
    for await (const ph of tr.runStep(live)) {
      phases.push(ph);
      if (ph.kind === 'rollout') live.numGenerations = 7; // the lab moves the G slider now
    }
    expect(phases.map((p) => p.kind)).toEqual(['rollout', 'verdicts', 'advantages', 'update', 'metrics']);
    const [rollout] = phases.flatMap((p) => (p.kind === 'rollout' ? [p.rollout] : []));
    const [update] = phases.flatMap((p) => (p.kind === 'update' ? [p.update] : []));
    expect(update.finite).toBe(true);
    expect(rollout.groups[0].advantages.length).toBe(4);
    expect(tr.settings.numGenerations).toBe(4);
    expect(tr.step).toBe(1);
    const { rollout: next } = await rolloutWithAdvantages(tr, live);
    expect(next.groups[0].responses.length).toBe(7);
  });

  it('the step-through sees the objective term by term: its metrics are the engine\'s first inner epoch', async () => {
    for (const level of ['token', 'sequence'] as const) {
      const be = ReferenceBackend.create(config, 5);
      const s = { ...small, beta: 0.04, numIterations: 2, importanceSamplingLevel: level, promptsPerStep: 4 };
      const tr = new GrpoTrainer(be, s, { evalSize: 4 });
      await tr.trainStep(); // π_θ ≠ π_ref from here on
      let seen: Extract<StepPhase, { kind: 'update' }> | null = null;
      for await (const ph of tr.runStep(s, { inspect: true })) if (ph.kind === 'update') seen = ph;
      const { update, inspection } = seen!;
      for (const k of ['kl', 'entropy', 'ratio_mean', 'clip_ratio/region_mean', 'policy_loss']) {
        expect(inspection!.metrics![k], `${level} ${k}`).toBeCloseTo(update.epochs[0][k], 9);
      }
      const answers = inspection!.answers.flat();
      expect(answers.length).toBe(4 * s.numGenerations);
      // µ = 2: the second epoch trains against π_old, so ratios move and the "after" ratios are not all 1
      expect(answers.some((a) => a.ratioAfter.some((r) => Math.abs(r - 1) > 1e-4))).toBe(true);
      // each token's contributions add up to the loss the engine computed
      const total = answers.reduce((acc, a) => acc + a.tokens!.reduce((x, t) => x + t.loss, 0), 0);
      expect(total).toBeCloseTo(update.epochs[0].policy_loss, 9);
      if (level === 'sequence') {
        for (const a of answers) {
          expect(a.sequence).not.toBeNull(); // GSPO: one ratio and one clip side per answer, none per token
          expect(a.tokens!.every((t) => t.clip === 0)).toBe(true);
        }
      } else {
        expect(answers.every((a) => a.sequence === null)).toBe(true);
      }
    }
  });

  it('records TRL-named metrics that add up', async () => {
    const [m] = await run({ ...small, measureKl: false }, 1);
    expect(m.frac_all_pass + m.frac_all_fail + m.frac_mixed).toBeCloseTo(1, 12);
    expect(m.tokens_generated).toBeGreaterThan(0);
    expect(m.num_tokens).toBe(m.tokens_generated);
    expect(m.ratio_mean).toBeCloseTo(1, 5); // on-policy, µ = 1
    // β = 0 and KL not measured: π_ref is not evaluated at all, and the KL is not reported as a measured 0
    expect(m.kl).toBeNaN();
    expect(m.kl_exact).toBeNaN();
    // measured (the lab's default), the KL shows π_θ's drift from π_ref once it has moved
    const ms = await run({ ...small, measureKl: true, learningRate: 3e-3, warmupSteps: 0 }, 3);
    expect(ms[0].kl).toBeLessThan(1e-6); // step 0: π_θ = π_ref
    expect(ms[2].kl).toBeGreaterThan(1e-4);
    expect(ms[2].kl_exact).toBeGreaterThan(1e-4);
  });

  it('DAPO overlong soft penalty', () => {
    expect(overlongPenalty(5, 10, 3)).toBe(0);
    expect(overlongPenalty(7, 10, 3)).toBe(0);
    expect(overlongPenalty(8, 10, 3)).toBeCloseTo(-1 / 3, 12);
    expect(overlongPenalty(10, 10, 3)).toBe(-1);
  });

  it('RFT (algorithm rft) trains only on verified answers; best-of-N solves more questions than one answer, at N× the tokens', async () => {
    // A few supervised steps on yes/no palindromes make a model that is right about half the time.
    const be = ReferenceBackend.create(config, 3);
    const rng = new Rng(4);
    for (let i = 0; i < 30; i++) {
      const inst = samplePrompts(getTask('palindrome'), rng, 1, 'train', 16);
      await supervisedStep(be, inst.map((x) => ({ prompt: x.prompt, response: x.answer })), { ...DEFAULT_ADAMW, lr: 3e-3 });
    }
    const tr = new GrpoTrainer(be, { ...small, task: 'palindrome', promptsPerStep: 8, maxCompletionLength: 4, algorithm: 'rft', learningRate: 3e-3 }, { evalSize: 4 });
    const gen = tr.runStep();
    const { rollout } = (await gen.next()).value as Extract<StepPhase, { kind: 'rollout' }>;
    const verified = rollout.groups.flatMap((g) => g.tokens.filter((_, i) => g.correct[i] && g.finished[i]).map((t) => ({ prompt: g.promptTokens, response: t })));
    const wrong = rollout.groups.flatMap((g) => g.tokens.filter((_, i) => !g.correct[i] && g.finished[i]).map((t) => ({ prompt: g.promptTokens, response: t })));
    expect(verified.length).toBeGreaterThan(0);
    expect(wrong.length).toBeGreaterThan(0);
    const mean = async (pairs: typeof verified) => {
      const b = packBatch(pairs, config.seqLen);
      const lp = await be.logprobs(b);
      return sumPerRow(lp.logprobs, b).reduce((a, x) => a + x, 0) / pairs.length;
    };
    const [v0, w0] = [await mean(verified), await mean(wrong)];
    for await (const ph of gen) if (ph.kind === 'update') expect(ph.update.finite).toBe(true); // the rest of the step: advantages, the RFT update
    const [v1, w1] = [await mean(verified), await mean(wrong)];
    console.log(`RFT step: verified answers' log-prob ${v0.toFixed(3)} → ${v1.toFixed(3)}, rejected answers' ${w0.toFixed(3)} → ${w1.toFixed(3)}`);
    expect(v1).toBeGreaterThan(v0);
    expect(v1 - v0).toBeGreaterThan(w1 - w0); // it learned the verified ones, not everything it sampled

    // best-of-N on lesson 5's base (add d2): N answers per question, a verified one kept — it solves more questions
    // than one answer, at N× the tokens
    const add = getTask('add');
    const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath('add', 2)!)));
    const base = new ReferenceBackend(ck.config, ck.weights);
    const prompts = samplePrompts(add, new Rng(9), 2, 'heldout', 32).map((x) => x.prompt);
    const bon = await bestOfN(base, add, prompts, [1, 8], 1, 8, 1);
    console.log(`best-of-N: N = 1 ${bon[0].accuracy.toFixed(3)} (${bon[0].tokens_per_prompt.toFixed(1)} tokens), N = 8 ${bon[1].accuracy.toFixed(3)} (${bon[1].tokens_per_prompt.toFixed(1)} tokens)`);
    expect(bon[1].accuracy).toBeGreaterThan(bon[0].accuracy + 0.15);
    expect(bon[1].tokens_per_prompt / bon[0].tokens_per_prompt).toBeGreaterThan(6);
    expect(bon[1].tokens_per_prompt / bon[0].tokens_per_prompt).toBeLessThan(10);
  });
});

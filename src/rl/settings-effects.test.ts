/**
 * Every setting that changes what a step does has a trainer-level test that fails when the
 * setting is ignored: KL placement, mask truncated, reward mode and process weight, the overlong buffer, warm-up,
 * dynamic sampling, and RFT's verifier. CPU reference, from shipped base checkpoints.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { getTask } from '../tasks/registry.ts';
import { baseCheckpointPath } from './bases.ts';
import { defaultSettings, type Settings } from './settings.ts';
import { rolloutWithAdvantages } from './testing/phases.ts';
import { GrpoTrainer, overlongPenalty, type StepPhase } from './trainer.ts';
import { maxNewTokens } from './rollout.ts';
import { mixProcessReward, stepFraction } from './processReward.ts';

function fromBase(s: Settings): { be: ReferenceBackend; tr: GrpoTrainer } {
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty)!)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  return { be, tr: new GrpoTrainer(be, s, { evalSize: 4, evalPassAtK: false }) };
}
const reverse: Settings = { ...defaultSettings(), task: 'reverse', difficulty: 2, promptsPerStep: 8, numGenerations: 8, numIterations: 1 };
/** Σ over each answer's tokens of a [B*T] per-position array, answer by answer. */
function perAnswer(values: Float32Array, T: number, rollout: { groups: { promptTokens: number[]; tokens: Int32Array[] }[] }): number[] {
  const out: number[] = [];
  let b = 0;
  for (const g of rollout.groups) for (const t of g.tokens) {
    let x = 0;
    for (let j = 0; j < t.length; j++) x += values[b * T + g.promptTokens.length - 1 + j];
    out.push(x);
    b++;
  }
  return out;
}

describe('settings change what the trainer does', () => {
  it('KL placement "reward": r_i − β Σ_t (log π_old − log π_ref) before the advantages; "loss" leaves rewards alone', async () => {
    const s = { ...reverse, beta: 0.5, learningRate: 3e-3, warmupSteps: 0 };
    const { be, tr } = fromBase({ ...s, klMode: 'reward' });
    await tr.trainStep(); // π_θ moves away from π_ref
    const { rollout, batch } = await rolloutWithAdvantages(tr);
    const ref = perAnswer((await be.logprobs(batch, { reference: true })).logprobs, batch.T, rollout);
    const old = rollout.groups.flatMap((g) => g.logprobs.map((lp) => lp.reduce((a, x) => a + x, 0)));
    const verdict = rollout.groups.flatMap((g) => g.verdicts.map((v) => v.reward));
    const shaped = rollout.groups.flatMap((g) => g.rewards);
    shaped.forEach((r, i) => expect(r).toBeCloseTo(verdict[i] - s.beta * (old[i] - ref[i]), 4));
    expect(shaped.some((r, i) => Math.abs(r - verdict[i]) > 1e-3)).toBe(true); // the shaping is not nothing

    const loss = fromBase({ ...s, klMode: 'loss' });
    await loss.tr.trainStep();
    const l = await rolloutWithAdvantages(loss.tr);
    expect(l.rollout.groups.flatMap((g) => g.rewards)).toEqual(l.rollout.groups.flatMap((g) => g.verdicts.map((v) => v.reward)));
  });

  it('KL in the reward with truncated answers masked: truncated answers are shaped by their real KL, not by log π_ref = 0', async () => {
    // step 0: π_θ = π_ref, so every answer's KL is ~0 and shaping must leave every reward where the verifier put it
    const s = { ...reverse, beta: 0.5, klMode: 'reward' as const, maskTruncated: true, maxCompletionLength: 2 };
    const { tr } = fromBase(s);
    const { rollout, batch } = await rolloutWithAdvantages(tr);
    const truncated = rollout.groups.flatMap((g) => g.finished).filter((f) => !f).length;
    expect(truncated).toBeGreaterThan(0);
    const verdict = rollout.groups.flatMap((g) => g.verdicts.map((v) => v.reward));
    rollout.groups.flatMap((g) => g.rewards).forEach((r, i) => expect(Math.abs(r - verdict[i]), `answer ${i}`).toBeLessThan(1e-4));
    // …and the update still leaves the truncated answers out of the loss
    const finished = rollout.groups.flatMap((g) => g.finished);
    finished.forEach((f, b) => expect(batch.mask.subarray(b * batch.T, (b + 1) * batch.T).some((m) => m !== 0)).toBe(f));
  });

  it('mask truncated: off, truncated answers stay in the loss', async () => {
    const { tr } = fromBase({ ...reverse, maskTruncated: false, maxCompletionLength: 2 });
    const { rollout, batch } = await rolloutWithAdvantages(tr);
    const finished = rollout.groups.flatMap((g) => g.finished);
    expect(finished.some((f) => !f)).toBe(true);
    finished.forEach((_, b) => expect(batch.mask.subarray(b * batch.T, (b + 1) * batch.T).some((m) => m !== 0)).toBe(true));
  });

  it('reward mode: process mixes the share of correct scratchpad steps into the outcome, by w; direct answers keep the outcome', async () => {
    const s: Settings = { ...defaultSettings(), task: 'digitsum', difficulty: 1, promptsPerStep: 6, numGenerations: 6, maxCompletionLength: 14, rewardMode: 'process', processWeight: 0.5 };
    const task = getTask('digitsum');
    const proc = await rolloutWithAdvantages(fromBase(s).tr);
    const answers = proc.rollout.groups.flatMap((g) => g.responses.map((r, i) => ({ r, reward: g.rewards[i], outcome: g.verdicts[i].reward, f: stepFraction(task, g.prompt, r) })));
    answers.forEach((a) => expect(a.reward, a.r).toBeCloseTo(a.f === null ? a.outcome : 0.5 * a.outcome + 0.5 * a.f, 12));
    expect(answers.some((a) => a.f === null && a.outcome === 1)).toBe(true); // correct direct answers, paid 1
    expect(answers.some((a) => a.f !== null && Math.abs(a.reward - a.outcome) > 0.1)).toBe(true); // the step credit is not nothing
    const out = await rolloutWithAdvantages(fromBase({ ...s, rewardMode: 'outcome' }).tr);
    expect(out.rollout.groups.flatMap((g) => g.rewards)).toEqual(out.rollout.groups.flatMap((g) => g.verdicts.map((v) => v.reward)));
    // on a task without steps, process reward runs as outcome reward
    const add = await rolloutWithAdvantages(fromBase({ ...defaultSettings(), task: 'add', difficulty: 2, promptsPerStep: 4, numGenerations: 4, rewardMode: 'process' }).tr);
    expect(add.rollout.groups.flatMap((g) => g.rewards)).toEqual(add.rollout.groups.flatMap((g) => g.verdicts.map((v) => v.reward)));
  });

  it('process reward with a weak verifier and the overlong penalty: the weak verdict is mixed, the penalty added on top', async () => {
    const s: Settings = { ...defaultSettings(), task: 'digitsum', difficulty: 1, promptsPerStep: 6, numGenerations: 6, maxCompletionLength: 14, rewardMode: 'process', processWeight: 0.3, weakVerifier: 'anywhere', formatReward: 0, overlongPenalty: true, overlongBuffer: 6 };
    const task = getTask('digitsum');
    const { be, tr } = fromBase(s);
    const { rollout } = await rolloutWithAdvantages(tr);
    let penalised = 0, weakPaid = 0;
    for (const g of rollout.groups) g.responses.forEach((r, i) => {
      const f = stepFraction(task, g.prompt, r);
      const pen = overlongPenalty(g.tokens[i].length, maxNewTokens(be, g.promptTokens.length, s), s.overlongBuffer);
      expect(g.rewards[i], r).toBeCloseTo(mixProcessReward(g.verdicts[i].reward, f, 0.3) + pen, 12);
      if (pen < 0) penalised++;
      if (g.verdicts[i].reward === 1 && !g.correct[i]) weakPaid++;
    });
    expect(penalised).toBeGreaterThan(0);
    expect(weakPaid).toBeGreaterThan(0);
  });

  it('overlong penalty: answers in the last L_cache tokens lose (L − (L_max − L_cache)) / L_cache; the buffer size matters', async () => {
    const s = { ...reverse, overlongPenalty: true, maxCompletionLength: 8 }; // reverse d2: 5 letters + EOS
    const penalties = [];
    for (const buffer of [1, 3]) {
      const { be, tr } = fromBase({ ...s, overlongBuffer: buffer });
      const { rollout } = await rolloutWithAdvantages(tr);
      const p = rollout.groups.flatMap((g) => g.tokens.map((t, i) => g.rewards[i] - g.verdicts[i].reward));
      rollout.groups.forEach((g) => g.tokens.forEach((t, i) => expect(g.rewards[i] - g.verdicts[i].reward).toBeCloseTo(overlongPenalty(t.length, maxNewTokens(be, g.promptTokens.length, s), buffer), 12)));
      penalties.push(p);
    }
    expect(penalties[1].some((x) => x < 0)).toBe(true);
    expect(penalties[1]).not.toEqual(penalties[0]);
  });

  it('warm-up: the first update moves the weights about 1/N as far as without warm-up', async () => {
    const moved = [];
    for (const warmupSteps of [0, 10]) {
      const { be, tr } = fromBase({ ...reverse, warmupSteps, learningRate: 1e-3 });
      const w0 = await be.getWeights();
      await tr.trainStep();
      const w1 = await be.getWeights();
      let d = 0;
      for (let i = 0; i < w0.length; i++) d += Math.abs(w1[i] - w0[i]);
      moved.push(d / w0.length);
    }
    const ratio = moved[1] / moved[0];
    console.log(`mean |Δw| of the first update: no warm-up ${moved[0].toExponential(3)}, warm-up 10 ${moved[1].toExponential(3)} (ratio ${ratio.toFixed(3)})`);
    expect(ratio).toBeGreaterThan(0.07);
    expect(ratio).toBeLessThan(0.13); // AdamW's first step moves each weight by ~η·sign(g): the ratio is the learning rates'
  });

  it('dynamic sampling refills the batch with groups that teach; without it one rollout, P prompts', async () => {
    const runs = [];
    for (const dynamicSampling of [false, true]) {
      const { tr } = fromBase({ ...reverse, dynamicSampling, maxResample: 3 });
      runs.push((await tr.trainStep()).metrics);
    }
    const [a, b] = runs;
    console.log(`dynamic sampling off: ${a.prompts_drawn} prompts, zero-std groups ${a.frac_reward_zero_std}; on: ${b.prompts_drawn} prompts, zero-std groups ${b.frac_reward_zero_std}`);
    expect(a.prompts_drawn).toBe(reverse.promptsPerStep);
    expect(a.frac_reward_zero_std).toBeGreaterThan(0); // there is something to drop
    expect(b.prompts_drawn).toBeGreaterThan(reverse.promptsPerStep);
    expect(b.frac_reward_zero_std).toBeLessThan(a.frac_reward_zero_std);
  });

  it('dynamic sampling under RFT keeps the groups RFT learns from (a verified answer, all-pass ones too) and drops those without one', async () => {
    const verified = (g: { verdicts: { correct: boolean }[]; finished: boolean[] }) => g.verdicts.some((v, i) => v.correct && g.finished[i]);
    const out = [];
    // G = 2 on the reverse base: all-pass groups are common, and under GRPO dynamic sampling drops them
    for (const [algorithm, dynamicSampling] of [['rft', false], ['rft', true], ['grpo', true]] as const) {
      const s: Settings = { ...reverse, numGenerations: 2, promptsPerStep: 16, algorithm, dynamicSampling, maxResample: 3 };
      const { tr } = fromBase(s);
      let groups: Extract<StepPhase, { kind: 'rollout' }>['rollout']['groups'] = [];
      let drawn = 0;
      for await (const ph of tr.runStep(s)) if (ph.kind === 'rollout') { groups = ph.rollout.groups; drawn = ph.rollout.promptsDrawn; }
      out.push({ drawn, withVerified: groups.filter(verified).length, allPass: groups.filter((g) => g.correct.every(Boolean)).length, n: groups.length });
    }
    console.log('RFT without and with dynamic sampling, GRPO with it:', JSON.stringify(out));
    const [off, on, grpo] = out;
    expect(off.withVerified).toBeLessThan(off.n); // there are groups with nothing to imitate
    expect(on.drawn).toBeGreaterThan(off.drawn); // resampled
    expect(on.withVerified).toBeGreaterThan(off.withVerified);
    // the same prompts and samples (same seed): GRPO's rule drops the all-pass groups too, RFT's keeps them
    expect(on.withVerified).toBeGreaterThan(grpo.withVerified);
  });

  it('RFT fine-tunes on what the run\'s verifier accepts: a weak verifier\'s paid-wrong answers too', async () => {
    const s: Settings = { ...defaultSettings(), task: 'digitsum', difficulty: 1, promptsPerStep: 8, numGenerations: 8, maxCompletionLength: 14, algorithm: 'rft', weakVerifier: 'anywhere', formatReward: 0 };
    const { tr } = fromBase(s);
    let update: Extract<StepPhase, { kind: 'update' }>['update'] | null = null;
    let groups: Extract<StepPhase, { kind: 'rollout' }>['rollout']['groups'] = [];
    for await (const ph of tr.runStep(s)) {
      if (ph.kind === 'rollout') groups = ph.rollout.groups;
      if (ph.kind === 'update') update = ph.update;
    }
    const accepted = groups.reduce((a, g) => a + g.verdicts.filter((v, i) => v.correct && g.finished[i]).length, 0);
    const strict = groups.reduce((a, g) => a + g.correct.filter((c, i) => c && g.finished[i]).length, 0);
    expect(accepted).toBeGreaterThan(strict); // the weak verifier accepts some wrong answers
    expect(update!.answers).toBe(accepted);
  });
});

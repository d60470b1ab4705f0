/**
 * Lessons: every lesson is valid data (settings inside the table's ranges, a real task and
 * base, variants), and — on the micro model from the shipped base checkpoint, CPU reference —
 * the effect it teaches appears. Each effect check is a few steps or one rollout.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { getTask } from '../tasks/registry.ts';
import { decode } from '../tasks/tokenizer.ts';
import { scratchpadSteps } from '../tasks/common.ts';
import { maxNewTokens } from './rollout.ts';
import { LESSONS, getLesson, lessonSettings } from './lessons.ts';
import { settingsChangedFrom } from './lessonContract.ts';
import { contractHash, lessonContract } from './lessonContract.ts';
import { PINNED } from './contract.ts';
import { SETTINGS_BY_KEY, defaultSettings, parseSetting, type Settings } from './settings.ts';
import { baseCheckpointPath } from './bases.ts';
import { rolloutWithAdvantages } from './testing/phases.ts';
import { GrpoTrainer, heldoutPrompts, type StepMetrics } from './trainer.ts';
import { policyObjective } from '../model/objective.ts';
import { bestOfN } from './baselines.ts';

const CHARTS = ['reward', 'groups', 'advantages', 'entropy', 'length', 'thinking', 'kl', 'passk', 'theory', 'tokens'];

async function trainerFor(s: Settings) {
  const path = baseCheckpointPath(s.task, s.difficulty, s.watchTask)!;
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(path)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  await be.snapshotReference();
  return new GrpoTrainer(be, s, { evalSize: 16, evalPassAtK: false });
}

async function steps(t: GrpoTrainer, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await t.trainStep()).metrics);
  return out;
}

describe('lessons as data', () => {
  it('a lesson that steps faster than the lab\'s default η keeps its warm-up: fresh AdamW moments move every weight by ~η in each first update, whatever its gradient', () => {
    const d = defaultSettings();
    // Lesson 11's β = 0 claim is the drift itself, on a base whose add greedy accuracy is low (0.09–0.25 on seeds 7–11):
    // with the warm-up its claim held on 2 of seeds 7–11 (reverse barely fell); without it seeds 8 and 9 held too, add's greedy +0.03, +0.09, +0.09.
    const driftIsTheLesson = new Set(['forgetting']);
    for (const l of LESSONS.filter((x) => !driftIsTheLesson.has(x.id))) {
      l.variants.forEach((_, i) => {
        const s = lessonSettings(l, d, i);
        // measured on lesson 9's settings (η = 1e-3), seeds 2–6: two steps in, held-out accuracy (greedy) moved −0.20 on average without the warm-up, +0.04 with it
        if (s.learningRate > d.learningRate) expect(s.warmupSteps, `${l.id} #${i} at η = ${s.learningRate}`).toBeGreaterThanOrEqual(d.warmupSteps);
      });
    }
  });

  it('has at least seven lessons, each with valid settings, base, variants and charts', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(7);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS) {
      expect(() => getTask(l.base.task)).not.toThrow();
      expect(l.variants.length, l.id).toBeGreaterThanOrEqual(2);
      expect(l.watch.length, l.id).toBeGreaterThan(100);
      for (const c of l.charts) expect(CHARTS, `${l.id}: ${c}`).toContain(c);
      for (const v of [{ settings: l.settings }, ...l.variants]) {
        for (const [k, value] of Object.entries(v.settings)) {
          const spec = SETTINGS_BY_KEY[k];
          expect(spec, `${l.id}: ${k}`).toBeDefined();
          expect(parseSetting(spec, String(value)).ok, `${l.id}: ${k}=${value}`).toBe(true);
        }
      }
      expect(lessonSettings(l, defaultSettings()).task).toBe(l.base.task);
      // The seed is the teacher's (the page keeps it across lessons and variants): no lesson sets it.
      for (const v of [l.settings, ...l.variants.map((x) => x.settings ?? {})]) expect(Object.keys(v), l.id).not.toContain('seed');
      // Every variant (a variant may switch task, e.g. lesson 6's control) starts from a shipped base.
      l.variants.forEach((_, i) => {
        const s = lessonSettings(l, defaultSettings(), i);
        expect(baseCheckpointPath(s.task, s.difficulty, s.watchTask), `${l.id} #${i}`).toBeDefined();
      });
    }
  });
});

describe('lessons as experiments on equal terms (contract.ts)', () => {
  it('every lesson pins the settings that move results, and its variants differ only in what the lesson varies and run the same steps', () => {
    for (const l of LESSONS) {
      for (const k of PINNED) {
        const pinned = k in l.settings || l.variants.every((v) => k in v.settings);
        expect(pinned, `${l.id} does not pin ${k}`).toBe(true);
      }
      const varied = Object.keys(l.variants[0].settings).sort();
      l.variants.forEach((v, i) => {
        expect(Object.keys(v.settings).sort(), `${l.id} #${i} sets other knobs than #0`).toEqual(varied);
        expect(v.claim.steps, `${l.id} #${i}'s verdict step`).toBe(lessonContract(l).steps);
      });
      // and what they vary, they vary: no two variants are the same run
      const runs = l.variants.map((_, i) => JSON.stringify(lessonSettings(l, defaultSettings(), i)));
      expect(new Set(runs).size, l.id).toBe(runs.length);
    }
  });

  it('the contract is named by a hash of what decides the verdict: a changed setting, threshold or step changes it', () => {
    const l = getLesson('mixed-groups')!;
    const h = contractHash(l);
    expect(h).toMatch(/^[0-9a-f]{8}$/);
    expect(contractHash({ ...l, settings: { ...l.settings, learningRate: 1e-3 } })).not.toBe(h);
    expect(contractHash({ ...l, variants: l.variants.map((v, i) => (i === 1 ? { ...v, claim: { ...v.claim, number: { ...v.claim.number, threshold: 0.05 } } } : v)) })).not.toBe(h);
    expect(contractHash({ ...l, variants: l.variants.map((v) => ({ ...v, claim: { ...v.claim, steps: 60 } })) })).not.toBe(h);
    expect(contractHash(getLesson('mixed-groups')!)).toBe(h);
  });
});

describe('a lesson on a task of one\'s own', () => {
  it('lesson 1 (ownTask) is judged on a spec: task; a lesson without ownTask, or a built-in task, still says which knob moved', () => {
    const l1 = getLesson('mixed-groups')!;
    const own = { ...lessonSettings(l1, defaultSettings(), 1), task: 'spec:times7', difficulty: 1 } as Settings;
    expect(settingsChangedFrom(l1, 1, own)).toEqual([]);
    expect(settingsChangedFrom(l1, 1, { ...own, numGenerations: 4 })).toEqual(['numGenerations']);
    expect(settingsChangedFrom(l1, 1, { ...own, task: 'reverse' })).toContain('task');
    const l3 = getLesson('entropy-collapse')!;
    expect(settingsChangedFrom(l3, 0, { ...lessonSettings(l3, defaultSettings(), 0), task: 'spec:times7' } as Settings)).toContain('task');
  });
});

// Every check below: the lesson's shipped base, CPU reference, seed 1 (the default), so the same
// run every time; the figures it judges are printed. Costs are per check, uncontended CPU.
describe('lesson effects on the micro base model (CPU reference)', () => {
  it('1. mixed groups: the observed share is within sampling noise of the per-prompt prediction; the batch-rate formula over-predicts (Jensen)', async () => {
    const l = getLesson('mixed-groups')!;
    const rows = [];
    for (const [v, G] of [[0, 2], [1, 8], [2, 16]] as const) {
      const s = { ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 32 };
      expect(s.numGenerations).toBe(G);
      const t = await trainerFor(s);
      const { rollout } = await rolloutWithAdvantages(t);
      // Each prompt's own pass rate from M independent samples (another stream): the unbiased chance that a group of G
      // of its answers mixes is 1 − C(c, G)/C(M, G) − C(M − c, G)/C(M, G) (hypergeometric, c of M correct).
      const M = 64;
      const task = getTask(s.task);
      const prompts = rollout.groups.map((g) => g.promptTokens);
      const longest = Math.max(...prompts.map((p) => p.length));
      const res = await t.backend.sample({ prompts, numGenerations: M, temperature: s.temperature, maxNewTokens: maxNewTokens(t.backend, longest, s), seed: s.seed ^ 0x1e55, stream: 7 });
      const allOf = (c: number) => { let x = 1; for (let j = 0; j < G; j++) x *= Math.max(0, c - j) / (M - j); return x; };
      const f = rollout.groups.map((g, i) => {
        let c = 0;
        for (let k = 0; k < M; k++) if (task.verify(g.prompt, decode(res.tokens[i * M + k])).correct) c++;
        return { c, mixed: 1 - allOf(c) - allOf(M - c) };
      });
      const P = f.length;
      const perPrompt = f.reduce((a, x) => a + x.mixed, 0) / P;
      const se = Math.sqrt(f.reduce((a, x) => a + x.mixed * (1 - x.mixed), 0)) / P; // the observed share is a mean of P Bernoullis
      const pBar = f.reduce((a, x) => a + x.c, 0) / (P * M);
      const batchRate = 1 - pBar ** G - (1 - pBar) ** G;
      const observed = rollout.groups.filter((g) => g.correct.some(Boolean) && !g.correct.every(Boolean)).length / P;
      rows.push({ G, observed, per_prompt_prediction: perPrompt, se, batch_rate_prediction: batchRate, batch_rate_over_by: batchRate - perPrompt });
    }
    console.table(rows);
    for (const r of rows) {
      expect(Math.abs(r.observed - r.per_prompt_prediction), `G = ${r.G}`).toBeLessThanOrEqual(3 * r.se + 1 / 32);
      expect(r.batch_rate_prediction, `G = ${r.G}`).toBeGreaterThanOrEqual(r.per_prompt_prediction); // Jensen: the formula is concave
    }
    expect(rows[2].observed).toBeGreaterThan(rows[0].observed + 0.3); // G = 16 mixes far more groups than G = 2
    expect(rows[2].batch_rate_over_by).toBeGreaterThan(0.02); // and the batch formula's over-prediction is visible there
  });

  it('2. length bias: GRPO pushes a long wrong answer less per token than a short one; Dr. GRPO pushes them equally', async () => {
    // Mechanism on a real rollout: the objective's dL/dlogp per answer token, on-policy (ratio 1).
    const l = getLesson('length-bias')!;
    const rows = [];
    const pairs: { grpo: number[]; dr: number[] } = { grpo: [], dr: [] };
    for (const [name, v] of [['grpo', 0], ['dr_grpo', 1]] as const) {
      const s = { ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 16, numGenerations: 8 };
      const t = await trainerFor(s);
      const { rollout: r, batch } = await rolloutWithAdvantages(t); // same seed: the same answers under both variants
      const lp = await t.backend.logprobs(batch);
      const out = policyObjective(
        { B: batch.B, T: batch.T, logprobs: lp.logprobs, entropy: lp.entropy, mask: batch.mask, oldLogprobs: null, refLogprobs: null, advantages: Float32Array.from(r.groups.flatMap((g) => g.advantages)) },
        { epsilon: s.epsilon, epsilonHigh: s.epsilonHigh, beta: 0, klEstimator: 'k3', lossType: s.lossType, importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: s.maxCompletionLength, temperature: 1 },
      );
      // Per-token push on each answer: mean |dL/dlogp| over its tokens.
      const perToken = (b: number) => { let s = 0, n = 0; for (let t2 = 0; t2 < batch.T; t2++) if (batch.mask[b * batch.T + t2]) { s += Math.abs(out.gradLogprob[b * batch.T + t2]); n++; } return s / n; };
      let b = 0;
      const short: number[] = [], long: number[] = [];
      for (const g of r.groups) {
        const wrong = g.tokens.map((tk, i) => ({ len: tk.length, w: perToken(b + i), ok: g.correct[i] })).filter((x) => !x.ok);
        if (g.correct.some(Boolean) && wrong.length >= 2) {
          const lo = wrong.reduce((a, x) => (x.len < a.len ? x : a)), hi = wrong.reduce((a, x) => (x.len > a.len ? x : a));
          if (hi.len > lo.len) { short.push(lo.w); long.push(hi.w); (name === 'grpo' ? pairs.grpo : pairs.dr).push(hi.w / lo.w); }
        }
        b += g.tokens.length;
      }
      const mean = (x: number[]) => x.reduce((a, c) => a + c, 0) / x.length;
      rows.push({ loss_type: name, groups_with_a_pair: short.length, short_wrong_push_per_token: mean(short), long_wrong_push_per_token: mean(long), long_over_short: mean(long) / mean(short) });
    }
    console.table(rows);
    expect(pairs.grpo.length).toBeGreaterThanOrEqual(3);
    // GRPO: 1/|o_i| per token, so the longer wrong answer of the same group is pushed down less.
    for (const q of pairs.grpo) expect(q).toBeLessThan(1);
    // Dr. GRPO: the same constant 1/(B·L_max) for every token, so equal pushes within a group.
    for (const q of pairs.dr) expect(q).toBeCloseTo(1, 6);
  });

  it('3. entropy: with β = 0 and a wide ε the entropy falls further and KL grows more than with a KL leash', async () => {
    const l = getLesson('entropy-collapse')!;
    const rows = [];
    for (const v of [0, 1]) {
      const t = await trainerFor({ ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 8, numGenerations: 8 });
      const ms = await steps(t, 8);
      const last = ms.slice(-3);
      const avg = (k: 'entropy' | 'kl' | 'clip_ratio/region_mean' | 'accuracy') => last.reduce((a, m) => a + m[k], 0) / last.length;
      rows.push({ variant: l.variants[v].label, entropy_step0: ms[0].entropy, entropy_last3: avg('entropy'), kl_last3: avg('kl'), clip_last3: avg('clip_ratio/region_mean'), accuracy_last3: avg('accuracy') });
    }
    console.table(rows);
    const [free, leash] = rows;
    expect(free.entropy_last3).toBeLessThan(free.entropy_step0);
    expect(free.entropy_last3).toBeLessThan(leash.entropy_last3);
    expect(free.kl_last3).toBeGreaterThan(leash.kl_last3);
  });

  it('4. reward hacking: the weak verifier pays wrong answers at every step, the paid-wrong share grows, and answers get longer than under the strict verifier', async () => {
    const l = getLesson('reward-hacking')!;
    const arms = [];
    for (const v of [0, 1]) {
      const t = await trainerFor({ ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 8, numGenerations: 8 });
      arms.push(await steps(t, 8));
    }
    console.table(arms.flatMap((ms, v) => ms.map((m) => ({ verifier: l.variants[v].label, step: m.step, reward: m.reward, strict_accuracy: m.accuracy, mean_length: m.mean_length }))));
    const [weak, strict] = arms;
    const last3 = (ms: typeof weak, f: (m: (typeof weak)[number]) => number) => ms.slice(-3).reduce((a, m) => a + f(m), 0) / 3;
    // formatReward is 0, so reward − strict accuracy is exactly what the weak verifier pays wrong answers: at every step…
    for (const m of weak) expect(m.reward).toBeGreaterThan(m.accuracy);
    for (const m of strict) expect(m.reward).toBe(m.accuracy);
    // …and more of it after training on it than at the start; answers grow longer than under the strict verifier.
    expect(last3(weak, (m) => m.reward - m.accuracy)).toBeGreaterThan(weak[0].reward - weak[0].accuracy);
    expect(last3(weak, (m) => m.mean_length)).toBeGreaterThan(last3(strict, (m) => m.mean_length));
  });

  it('5. GRPO vs RFT vs best-of-N: matched generated tokens; best-of-N pays N× per question; RFT learns from the verified answers only', async () => {
    const l = getLesson('grpo-vs-best-of-n')!;
    const rows = [];
    for (const v of [0, 1]) {
      const t = await trainerFor({ ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 8, numGenerations: 8 });
      const ms = await steps(t, 3);
      const { rollout: r } = await rolloutWithAdvantages(t);
      const answers = r.groups.reduce((a, g) => a + g.tokens.length, 0);
      const taught = l.variants[v].settings.algorithm === 'rft'
        ? r.groups.reduce((a, g) => a + g.correct.filter((c, i) => c && g.finished[i]).length, 0)
        : r.groups.reduce((a, g) => a + g.advantages.filter((x) => x !== 0).length, 0);
      rows.push({ arm: l.variants[v].label, num_tokens_after_3_steps: ms[2].num_tokens, answers_in_step: answers, answers_with_a_gradient: taught });
    }
    console.table(rows);
    const [grpo, rft] = rows;
    expect(Math.abs(grpo.num_tokens_after_3_steps - rft.num_tokens_after_3_steps) / grpo.num_tokens_after_3_steps).toBeLessThan(0.1);
    expect(rft.answers_with_a_gradient).toBeLessThan(grpo.answers_with_a_gradient); // GRPO also learns from failures

    // Best-of-N on held-out prompts at the base: accuracy pass@N above pass@1, at N× the tokens.
    const s = lessonSettings(l, defaultSettings());
    const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty, s.watchTask)!)));
    const be = new ReferenceBackend(ck.config, ck.weights);
    const bon = await bestOfN(be, getTask(s.task), heldoutPrompts(getTask(s.task), s.difficulty, 32, s.seed), [1, 8], 1, s.maxCompletionLength, s.seed);
    console.table(bon);
    expect(bon[1].accuracy).toBeGreaterThan(bon[0].accuracy + 0.2);
    expect(bon[1].tokens_per_prompt / bon[0].tokens_per_prompt).toBeGreaterThan(6);
  });
  it('6. scratchpad: where thinking pays it spreads and answers grow; where it does not pay it recedes', async () => {
    const l = getLesson('scratchpad')!;
    const arms: StepMetrics[][] = [];
    for (const [v, n] of [[0, 16], [1, 12]] as const) {
      const t = await trainerFor(lessonSettings(l, defaultSettings(), v));
      arms.push(await steps(t, n));
    }
    console.table(arms.flatMap((ms, v) => ms.map((m) => ({ variant: l.variants[v].settings.task, step: m.step, think_fraction: m.think_fraction, accuracy_think: m.accuracy_think, accuracy_direct: m.accuracy_direct, mean_length: m.mean_length, accuracy: m.accuracy }))));
    const mean = (ms: StepMetrics[], f: (m: StepMetrics) => number) => ms.reduce((a, m) => a + f(m), 0) / ms.length;
    const [pays, control] = arms;
    const [early, late] = [pays.slice(0, 3), pays.slice(-3)];
    // It pays: over the first steps (both forms still common), thinking answers are right more often than direct ones…
    expect(mean(early, (m) => m.accuracy_think)).toBeGreaterThan(mean(early, (m) => m.accuracy_direct) + 0.1);
    // …so thinking spreads, answers grow, and accuracy rises with them.
    expect(mean(late, (m) => m.think_fraction)).toBeGreaterThan(mean(early, (m) => m.think_fraction) + 0.3);
    expect(mean(late, (m) => m.mean_length)).toBeGreaterThan(mean(early, (m) => m.mean_length) + 2);
    expect(mean(late, (m) => m.accuracy)).toBeGreaterThan(mean(early, (m) => m.accuracy) + 0.15);
    // The control: whole digit sums, where this model's running sums do not pay; the thinking share falls.
    expect(mean(control.slice(-3), (m) => m.think_fraction)).toBeLessThan(mean(control.slice(0, 3), (m) => m.think_fraction) - 0.1);
  });
  it('7. KL estimators: k1 and k3 agree with the exact KL on sampled tokens; k3 ≥ 0, k1 sometimes < 0; k3 has the lower variance while π_θ stays close to π_ref', async () => {
    const l = getLesson('kl-estimators')!;
    const rows = [];
    // Two drifts from the base: the lesson's learning rate (π_θ close to π_ref) and 3× it (farther).
    for (const lr of [l.settings.learningRate!, 3 * l.settings.learningRate!]) {
      const t = await trainerFor({ ...lessonSettings(l, defaultSettings()), learningRate: lr, promptsPerStep: 16, numGenerations: 8 });
      const ms = await steps(t, 2);
      // what the KL chart plots beside the estimator: the exact KL of each step (β > 0 evaluates π_ref)
      for (const m of ms) expect(m.kl_exact).toBeGreaterThanOrEqual(0);
      expect(ms[1].kl_exact).toBeGreaterThan(ms[0].kl_exact);
      const { batch } = await rolloutWithAdvantages(t); // tokens sampled from the drifted π_θ, as the estimators assume
      const be = t.backend as ReferenceBackend;
      const lp = await be.logprobs(batch), ref = await be.logprobs(batch, { reference: true });
      const exact = be.exactKlToReference(batch);
      const k1: number[] = [], k3: number[] = [], ex: number[] = [];
      for (let i = 0; i < batch.B * batch.T; i++) {
        if (!batch.mask[i]) continue;
        const d = ref.logprobs[i] - lp.logprobs[i];
        k1.push(-d); k3.push(Math.exp(d) - d - 1); ex.push(exact[i]);
      }
      const mean = (x: number[]) => x.reduce((a, c) => a + c, 0) / x.length;
      const sd = (x: number[]) => Math.sqrt(x.reduce((a, c) => a + (c - mean(x)) ** 2, 0) / (x.length - 1));
      rows.push({ lr, tokens: k1.length, exact: mean(ex), k1: mean(k1), k1_se: sd(k1) / Math.sqrt(k1.length), k3: mean(k3), k3_se: sd(k3) / Math.sqrt(k3.length), k1_sd: sd(k1), k3_sd: sd(k3), k1_negative: k1.filter((x) => x < 0).length / k1.length, k3_min: Math.min(...k3) });
    }
    console.table(rows);
    for (const r of rows) {
      expect(r.k3_min).toBeGreaterThanOrEqual(0);
      expect(r.k1_negative).toBeGreaterThan(0);
      // Unbiased: each mean lies within 3 standard errors of the exact KL over the same positions.
      expect(Math.abs(r.k1 - r.exact)).toBeLessThan(3 * r.k1_se);
      expect(Math.abs(r.k3 - r.exact)).toBeLessThan(3 * r.k3_se);
    }
    expect(rows[0].k3_sd).toBeLessThan(rows[0].k1_sd); // close policies: k3 is the quieter estimator
    expect(rows[1].k3_sd).toBeGreaterThan(rows[1].k1_sd); // farther apart: e^d's tail makes k3 the noisier
  });
  it('8. process vs outcome reward: on the same answers, the step credit pays scratchpads with wrong answers, so thinking answers get larger advantages', async () => {
    const l = getLesson('process-reward')!;
    const arms = [];
    for (const v of [0, 1]) {
      const s = { ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 8, numGenerations: 8 };
      const { rollout } = await rolloutWithAdvantages(await trainerFor(s));
      arms.push(rollout.groups.flatMap((g) => g.responses.map((r, i) => ({ r, think: scratchpadSteps(r) !== null, correct: g.correct[i], reward: g.rewards[i], advantage: g.advantages[i] }))));
    }
    const [outcome, process] = arms;
    expect(process.map((a) => a.r)).toEqual(outcome.map((a) => a.r)); // same seed, same base: the same answers
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const thinkAdv = (arm: typeof outcome) => mean(arm.filter((a) => a.think).map((a) => a.advantage));
    const paidWrong = process.filter((a, i) => a.think && !a.correct && a.reward > 0 && outcome[i].reward === 0).length;
    console.table([{ answers: outcome.length, thinking: outcome.filter((a) => a.think).length, wrong_scratchpads_paid_by_steps: paidWrong, think_advantage_outcome: thinkAdv(outcome), think_advantage_process: thinkAdv(process) }]);
    expect(paidWrong).toBeGreaterThan(0);
    process.forEach((a, i) => { if (!a.think) expect(a.reward).toBe(outcome[i].reward); }); // direct answers keep their outcome reward
    expect(thinkAdv(process)).toBeGreaterThan(thinkAdv(outcome) + 0.1);
  });
  it('9. dynamic sampling: the kept groups are all mixed, at the price of more prompts drawn; without it some groups teach nothing', async () => {
    const l = getLesson('dynamic-sampling')!;
    const rows = [];
    for (const v of [0, 1]) {
      const s = { ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 8 };
      const { rollout } = await rolloutWithAdvantages(await trainerFor(s));
      const mixed = rollout.groups.filter((g) => !g.rewards.every((r) => r === g.rewards[0])).length;
      rows.push({ variant: l.variants[v].short, kept: rollout.groups.length, mixed, prompts_drawn: rollout.promptsDrawn, rollouts: rollout.rollouts });
    }
    console.table(rows);
    const [on, off] = rows;
    expect(on.prompts_drawn).toBeGreaterThan(on.kept); // it paid for its mixed groups in prompts drawn
    expect(on.mixed).toBeGreaterThanOrEqual(on.kept - 1); // the last rollout fills the batch whatever it holds
    expect(off.prompts_drawn).toBe(off.kept);
    expect(off.mixed).toBeLessThan(off.kept);
  });
  it('10. small pool: every step trains on the same 16 prompts (each seen many times in a few steps); the whole split brings new ones', async () => {
    const l = getLesson('small-pool')!;
    const seen = [];
    for (const v of [0, 1]) {
      const s = { ...lessonSettings(l, defaultSettings(), v), promptsPerStep: 8, numGenerations: 2, maxCompletionLength: 4 };
      const t = await trainerFor(s);
      const prompts: string[] = [];
      for (let i = 0; i < 4; i++) prompts.push(...(await rolloutWithAdvantages(t)).rollout.groups.map((g) => g.prompt));
      seen.push({ variant: l.variants[v].short, prompts: prompts.length, distinct: new Set(prompts).size });
    }
    console.table(seen);
    expect(seen[0].distinct).toBeLessThanOrEqual(16);
    expect(seen[1].distinct).toBeGreaterThan(seen[0].distinct + 8);
  });
  it('11. forgetting: the two-task base solves both; every evaluation also measures reverse, which no batch contains', async () => {
    const l = getLesson('forgetting')!;
    const s = { ...lessonSettings(l, defaultSettings(), 0), promptsPerStep: 8, numGenerations: 4 };
    const t = new GrpoTrainer((await trainerFor(s)).backend, s, { evalSize: 16, evalPassAtK: true });
    const ev = await t.evaluate();
    console.table([{ add_pass1: ev.pass_at_k['1'], reverse_pass1: ev.watch?.pass1, reverse_greedy: ev.watch?.heldout_accuracy }]);
    expect(ev.watch).toMatchObject({ task: 'reverse', difficulty: 2 });
    expect(ev.watch!.pass1).toBeGreaterThan(0.5); // the base solves reverse…
    expect(ev.pass_at_k['1']).toBeLessThan(0.5); // …and sits at add's capability boundary
    const { rollout } = await rolloutWithAdvantages(t);
    expect(rollout.groups.every((g) => getTask('add').solve(g.prompt).length > 0)).toBe(true); // only add in the batch
  });
});

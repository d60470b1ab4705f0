// A lesson's claim is judged on the run's own numbers: pending before its steps, fails when the
// run is wrecked (unless the variant exists to show a failure), and names its evidence.
import { describe, expect, it } from 'vitest';
import { claim, type RunRecord } from './claims.ts';
import { LESSONS, getLesson, lessonSettings, settingsChangedFrom } from './lessons.ts';
import { defaultSettings } from './settings.ts';
import type { StepMetrics } from './metrics.ts';

const step = (i: number, m: Partial<StepMetrics>) => ({ step: i, accuracy: 0.3, think_fraction: 0.4, ...m }) as StepMetrics;
const run = (n: number, f: (i: number) => Partial<StepMetrics>, evals: RunRecord['evals'] = []): RunRecord => ({ steps: Array.from({ length: n }, (_, i) => step(i, f(i))), evals });
const rising = claim({
  text: 'the share rises', steps: 6,
  measure: (r) => ({ a: r.steps[0].think_fraction, b: r.steps.at(-1)!.think_fraction }),
  holds: (e) => e.b > e.a + 0.15,
  sentence: (e) => `share ${e.a.toFixed(2)} → ${e.b.toFixed(2)}`,
  hint: 'run longer',
});

describe('claims', () => {
  it('pending before its steps, then holds or fails on the run\'s own numbers', () => {
    expect(rising.judge(run(3, (i) => ({ think_fraction: 0.4 + 0.1 * i }))).state).toBe('pending');
    const ok = rising.judge(run(6, (i) => ({ think_fraction: 0.4 + 0.1 * i })));
    expect(ok.state).toBe('holds');
    expect(ok.sentence).toBe('In this run: share 0.40 → 0.90 in 6 steps ✓');
    expect(ok.evidence).toMatchObject({ a: 0.4, b: 0.9 });
    const no = rising.judge(run(6, () => ({ think_fraction: 0.4 })));
    expect(no.state).toBe('fails');
    expect(no.hint).toBe('run longer');
  });

  it('pending says only "pending" until every number it quotes exists (never "0.24 → –"), then quotes them as "so far"', () => {
    const needsLate = claim({ text: 'x rises', steps: 6, measure: (r) => ({ a: r.steps[0].think_fraction, b: r.steps.length >= 4 ? r.steps[3].think_fraction : NaN }), holds: (e) => e.b > e.a, sentence: (e) => `x ${e.a.toFixed(2)} → ${Number.isFinite(e.b) ? e.b.toFixed(2) : '–'}`, hint: '' });
    const early = needsLate.judge(run(2, () => ({})));
    expect(early.state).toBe('pending');
    expect(early.sentence).toBe('Pending — the verdict comes at step 6 (now 2).');
    const mid = needsLate.judge(run(4, () => ({})));
    expect(mid.sentence).toBe('Pending — the verdict comes at step 6 (now 4). So far: x 0.40 → 0.40 in 4 steps.');
  });

  it('a claim about training fails when the policy never left π_ref (KL exactly 0, as in a null run), whatever its numbers say', () => {
    const moved = rising.judge(run(6, (i) => ({ think_fraction: 0.4 + 0.1 * i, kl_exact: 0.01 * i })));
    expect(moved.state).toBe('holds');
    const still = rising.judge(run(6, (i) => ({ think_fraction: 0.4 + 0.1 * i, kl_exact: 0 })));
    expect(still.state).toBe('fails');
    expect(still.sentence).toMatch(/the policy never moved from π_ref \(KL 0e\+0\): nothing was learned ✗$/);
    // where π_ref was not evaluated (no KL measured) the check cannot speak and the claim is judged on its evidence
    expect(rising.judge(run(6, (i) => ({ think_fraction: 0.4 + 0.1 * i, kl_exact: NaN }))).state).toBe('holds');
  });

  it('a wrecked run fails its claim: sampled accuracy down by more than 0.1, or held-out pass@1 by more than 0.15', () => {
    const good = (i: number) => ({ think_fraction: 0.4 + 0.1 * i });
    expect(rising.judge(run(6, (i) => ({ ...good(i), accuracy: 0.4 - 0.05 * i }))).sentence).toMatch(/sampled accuracy fell 0\.35 → 0\.20 ✗/);
    const evals = [{ step: 0, heldout_accuracy: 0.5, pass_at_k: { '1': 0.4 } }, { step: 3, heldout_accuracy: 0.5, pass_at_k: { '1': 0.2 } }, { step: 6, heldout_accuracy: 0.5, pass_at_k: { '1': 0.2 } }];
    const v = rising.judge(run(6, good, evals));
    expect(v.state).toBe('fails');
    expect(v.sentence).toMatch(/held-out pass@1 \(sampled\) fell 0\.40 → 0\.20/);
    const failureDemo = claim({ text: 'it hacks', steps: 6, mayWreck: true, measure: () => ({}), holds: () => true, sentence: () => 'hacked', hint: '' });
    expect(failureDemo.judge(run(6, (i) => ({ accuracy: 0.4 - 0.05 * i }), evals)).state).toBe('holds');
  });

  it('lesson 10\'s small pool is judged on the gap between the rises (reward\'s minus held-out\'s), not on held-out staying flat', () => {
    const [small, whole] = getLesson('small-pool')!.variants.map((v) => v.claim);
    const pool = (r0: number, r1: number, h: number[]) => run(30, (i) => ({ reward: r0 + ((r1 - r0) * i) / 29, accuracy: r0 + ((r1 - r0) * i) / 29 }), h.map((p, k) => ({ step: 10 * k, heldout_accuracy: 0.5, pass_at_k: { '1': p } })));
    // seed 8 out of sample: held-out crept up 0.26 → 0.31 while the reward climbed 0.21 → 0.68 (the stop signal stays silent)
    const memorised = small.judge(pool(0.21, 0.68, [0.26, 0.28, 0.31, 0.31]));
    expect(memorised.state, memorised.sentence).toBe('holds');
    expect(memorised.evidence).toMatchObject({ signal_fired: 0 });
    expect(memorised.sentence).toMatch(/reward's rise minus held-out's 0\.39; the stop signal did not fire/);
    // reward and held-out rising together: the gap stays small, so the small-pool claim fails and the whole split's holds
    expect(small.judge(pool(0.25, 0.4, [0.26, 0.3, 0.36, 0.36])).state).toBe('fails');
    expect(whole.judge(pool(0.25, 0.4, [0.26, 0.3, 0.36, 0.36])).state).toBe('holds');
    // the whole split on the same gap, from the other side: neither rising holds (WebGPU seed 8: reward 0.27 → 0.30, held-out 0.26 → 0.26), the reward running ahead fails
    expect(whole.judge(pool(0.27, 0.3, [0.26, 0.26, 0.26, 0.26])).state).toBe('holds');
    expect(whole.judge(pool(0.25, 0.5, [0.26, 0.27, 0.27, 0.27])).state).toBe('fails');
    expect(whole.control).toBe(true); // a null run has no gap either: judged only on a run that moved
  });

  it('lesson 9\'s no-resampling variant is a control: unmixed groups kept and nothing discarded, its held-out gain reported, not required', () => {
    const [dynamic, plain] = getLesson('dynamic-sampling')!.variants.map((v) => v.claim);
    const sampled = (mixed: number, drawn: number, h: number[]) =>
      run(30, () => ({ frac_mixed: mixed, prompts_drawn: drawn, tokens_generated: 450, kl_exact: 0.05 }), h.map((p, k) => ({ step: 10 * k, heldout_accuracy: 0.5, pass_at_k: { '1': p } })));
    // seed 8 out of sample (CPU): plain GRPO gained nothing in 30 steps (0.26 → 0.26); the control still shows what it is about
    const flat = plain.judge(sampled(0.75, 16, [0.26, 0.26, 0.27, 0.26]));
    expect(flat.state, flat.sentence).toBe('holds');
    expect(flat.sentence).toMatch(/mixed share 0\.75, 16\.00 prompts drawn and 0\.00 answers discarded a step, 13,500 tokens generated; held-out pass@1 \(sampled\) 0\.26 → 0\.27/);
    expect(plain.judge(sampled(0.98, 21, [0.26, 0.26, 0.3, 0.32])).state).toBe('fails'); // resampled: not this variant
    expect(plain.control).toBe(true);
    // dynamic sampling must gain: flat held-out fails it, whatever the mixed share
    expect(dynamic.judge(sampled(0.98, 21, [0.26, 0.26, 0.27, 0.26])).state).toBe('fails');
    expect(dynamic.judge(sampled(0.98, 21, [0.26, 0.28, 0.31, 0.32])).state).toBe('holds');
    expect(dynamic.control).toBe(false);
  });

  it('every lesson variant has a claim, and no lesson text quotes a figure from another run', () => {
    for (const l of LESSONS) {
      for (const v of l.variants) {
        expect(v.claim.steps, `${l.id}: ${v.label}`).toBeGreaterThan(0);
        expect(v.claim.text.length).toBeGreaterThan(30);
      }
      for (const text of [l.watch, ...l.variants.map((v) => v.claim.text)]) expect(text, l.id).not.toMatch(/\b0\.\d\d\b|\d+ steps of/);
    }
  });

  it('a run whose lesson knobs were moved is not judged against the variant\'s claim; the seed and other knobs may change', () => {
    const l = getLesson('mixed-groups')!;
    const s = lessonSettings(l, defaultSettings(), 0);
    expect(settingsChangedFrom(l, 0, s)).toEqual([]);
    expect(settingsChangedFrom(l, 0, { ...s, seed: 7, temperature: 0.9 })).toEqual([]);
    expect(settingsChangedFrom(l, 0, { ...s, numGenerations: 8 })).toEqual(['numGenerations']);
    expect(settingsChangedFrom(l, 1, { ...s, numGenerations: 8 })).toEqual([]);
    expect(settingsChangedFrom(l, 0, { ...s, task: 'reverse' })).toEqual(['task']);
  });
});

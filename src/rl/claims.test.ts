// A lesson's claim is an experiment judged once at its verdict step: its number's 90 % interval
// against its threshold gives holds, fails or unclear; a policy that never moved fails; a lesson
// that promises no wreck fails when held-out accuracy fell; and every claim can fail.
import { describe, expect, it } from 'vitest';
import { claim, resampleRun, type RunRecord } from './claims.ts';
import { LESSONS, getLesson, lessonSettings } from './lessons.ts';
import { settingsChangedFrom } from './lessonContract.ts';
import { defaultSettings } from './settings.ts';
import type { StepMetrics } from './metrics.ts';
import { Rng } from '../model/rng.ts';
import { contractEval } from './testing/contractEval.ts';

// a step as the trainer numbers it: the updates before it (0 for the first)
const step = (i: number, m: Partial<StepMetrics>) => ({ step: i, accuracy: 0.3, think_fraction: 0.4, kl_exact: 0.01, ...m }) as StepMetrics;
const run = (n: number, f: (i: number) => Partial<StepMetrics>, evals: RunRecord['evals'] = []): RunRecord => ({ steps: Array.from({ length: n }, (_, i) => step(i, f(i))), evals });
/** A share that rises by `rise` over the run, with ±`noise` per step (a fixed pattern: the same run every time). */
const share = (rise: number, noise: number, n = 12) => (i: number) => ({ think_fraction: 0.4 + (rise * i) / (n - 1) + noise * Math.sin(7.3 * i) });
const rising = claim({
  text: 'the share rises', steps: 12,
  measure: (r) => { const n = r.steps.length, w = Math.max(3, Math.floor(n / 4)); const m = (xs: readonly StepMetrics[]) => xs.reduce((a, x) => a + x.think_fraction, 0) / xs.length; return { a: m(r.steps.slice(0, w)), b: m(r.steps.slice(-w)) }; },
  number: { what: 'share, late − early', of: (e) => e.b - e.a, threshold: 0.15, side: 'above' },
  sentence: (e) => `share ${e.a.toFixed(2)} → ${e.b.toFixed(2)}`,
  hint: 'run longer',
});

describe('claims', () => {
  it('pending before its step; at it: holds, fails or unclear by where the 90 % interval lies against the threshold', () => {
    expect(rising.judge(run(6, share(0.5, 0.02))).state).toBe('pending');
    const ok = rising.judge(run(12, share(0.5, 0.02)));
    expect(ok.state).toBe('holds');
    expect(ok.number.lo).toBeGreaterThan(0.15);
    expect(ok.sentence).toMatch(/^At step 12: share 0\.4\d → 0\.8\d\. The claim's number, share, late − early: \+0\.\d\d \(90 % interval \+0\.\d\d to \+0\.\d\d; the claim puts it above 0\.15\) — holds ✓\.$/);
    const no = rising.judge(run(12, share(0, 0.02)));
    expect(no.state).toBe('fails');
    expect(no.number.hi).toBeLessThanOrEqual(0.15);
    expect(no.hint).toBe('run longer');
    // a rise near the threshold in noisy steps: the interval straddles it
    const close = rising.judge(run(12, share(0.25, 0.08)));
    expect(close.state, close.sentence).toBe('unclear');
    expect(close.number.lo).toBeLessThan(0.15);
    expect(close.number.hi).toBeGreaterThan(0.15);
    expect(close.settle).toMatch(/pool the class/);
    // the steps as the charts number them (a step at the updates before it: 0–11 in a 12-step run)
    expect(close.number.window).toBe('early = mean of steps 0–2, late = mean of steps 9–11');
  });

  it('is judged once, at its step: a run that plays on keeps the verdict it had there', () => {
    const at12 = rising.judge(run(12, share(0.5, 0.02)));
    const later = rising.judge(run(40, (i) => (i < 12 ? share(0.5, 0.02)(i) : { think_fraction: 0.1 })));
    expect(later).toEqual(at12);
  });

  it('a run that plays on past its verdict step is judged on exactly the run that stopped there, its verdict-step evaluation included', () => {
    // lesson 1 at G = 8: held-out pass@1 read at step 0 and at the verdict step (40) on the contract's
    // prompts, evaluations every 5 steps between them and after it (as the lab records them)
    const g8 = getLesson('mixed-groups')!.variants[1].claim;
    const N = g8.steps;
    const evals: RunRecord['evals'][number][] = [contractEval(0, 256, 0.45, 0.3, 1)];
    for (let k = 5; k < N; k += 5) evals.push({ step: k, heldout_accuracy: 0.45, pass_at_k: { 1: 0.3 } });
    evals.push(contractEval(N, 256, 0.5, 0.42, 2));
    const stopped = run(N, () => ({ frac_mixed: 0.6, mixed_predicted: 0.7 }), evals);
    const atVerdict = g8.judge(stopped);
    expect(atVerdict.state, atVerdict.sentence).toBe('holds');
    // five more steps, and a (non-contract) evaluation after them that reads lower
    const on = run(N + 5, () => ({ frac_mixed: 0.6, mixed_predicted: 0.7 }), [...evals, { step: N + 5, heldout_accuracy: 0.4, pass_at_k: { 1: 0.25 } }]);
    expect(g8.judge(on)).toEqual(atVerdict);
  });

  it('pending says only "pending" until every number it quotes exists, then quotes them as "so far"', () => {
    const needsLate = claim({ text: 'x rises', steps: 6, number: { what: 'x', of: (e) => e.b - e.a, threshold: 0, side: 'above' }, measure: (r) => ({ a: r.steps[0].think_fraction, b: r.steps.length >= 4 ? r.steps[3].think_fraction : NaN }), sentence: (e) => `x ${e.a.toFixed(2)} → ${Number.isFinite(e.b) ? e.b.toFixed(2) : '–'}`, hint: '' });
    expect(needsLate.judge(run(2, () => ({}))).sentence).toBe('Pending — the verdict comes at step 6 (now 2).');
    expect(needsLate.judge(run(4, () => ({}))).sentence).toBe('Pending — the verdict comes at step 6 (now 4). So far: x 0.40 → 0.40 in 4 steps.');
  });

  it('a claim about training fails when the policy never left π_ref (KL exactly 0, as in a null run), whatever its numbers say', () => {
    const still = rising.judge(run(12, (i) => ({ ...share(0.5, 0.02)(i), kl_exact: 0 })));
    expect(still.state).toBe('fails');
    expect(still.sentence).toMatch(/the policy never moved from π_ref \(KL 0e\+0\): nothing was learned ✗$/);
  });

  it('held-out numbers come from the contract\'s two evaluations, resampled in pairs: the same prompts at both ends', () => {
    const heldoutRise = claim({ text: 'held-out rises', steps: 12, number: { what: 'gain', of: (e) => e.heldout_pass1_end - e.heldout_pass1_start, threshold: 0.03, side: 'above' }, measure: () => ({}), sentence: () => 'held-out', hint: '' });
    const evals = (p1: number) => [contractEval(0, 256, 0.5, 0.3, 1), { step: 5, heldout_accuracy: 0.9, pass_at_k: { '1': 0.9 } }, contractEval(12, 256, 0.5, p1, 2)];
    const up = heldoutRise.judge(run(12, share(0, 0), evals(0.45)));
    expect(up.state, up.sentence).toBe('holds');
    expect(up.number.window).toMatch(/held-out: 256 prompts, the same prompts and draws at step 0 and step 12$/);
    expect(heldoutRise.judge(run(12, share(0, 0), evals(0.3))).state).not.toBe('holds'); // the step-5 reading (32 prompts, 0.9) is not read
    // resampling keeps the pairs: prompt i before and prompt i after are drawn together
    const r = resampleRun(run(12, share(0, 0), evals(0.45)), (n) => Int32Array.from({ length: n }, (_, i) => (i === 0 ? 0 : i)));
    expect(r.evals[0].heldout_accuracy).toBeCloseTo(evals(0.45)[0].heldout_accuracy, 10);
  });

  it('a lesson that promises no wreck fails when held-out accuracy (greedy, 256 prompts) fell by more than 0.1; one that shows the wreck does not', () => {
    const wrecked = [contractEval(0, 256, 0.56, 0.3, 1), contractEval(12, 256, 0.34, 0.3, 2)];
    const v = rising.judge(run(12, share(0.5, 0.02), wrecked));
    expect(v.state).toBe('fails');
    expect(v.sentence).toMatch(/held-out accuracy \(greedy\) fell 0\.\d\d → 0\.\d\d .*: the run wrecked the model ✗$/);
    const demo = claim({ text: 'it hacks', steps: 12, promisesWreck: true, number: { what: 'x', of: () => 1, threshold: 0, side: 'above' }, measure: () => ({}), sentence: () => 'hacked', hint: '' });
    expect(demo.judge(run(12, share(0.5, 0.02), wrecked)).state).not.toBe('fails');
  });

  it('every lesson claim can fail and can hold: on random runs its verdict follows its number\'s side, and both verdicts occur', () => {
    // Runs whose every step metric ramps between two random values (a Proxy answers any field a
    // measure reads) and whose contract evaluations have random rates: a claim that cannot fail (a
    // control that holds by construction) never shows ✗ here, and the test goes red.
    const rng = new Rng(2024);
    const klRng = new Rng(77); // its own stream: the other numbers are drawn as they were
    const randomRun = (n: number): RunRecord => {
      const ends = new Map<string, [number, number]>();
      const klExact = klRng.next() < 0.5 ? 0.05 : 0.5; // the policy's distance from π_ref: near (a leash holds it) or far
      const endsOf = (k: string) => { if (!ends.has(k)) { const a = 1.5 * rng.next() - 0.5, spread = rng.next() < 0.5 ? 0.05 : 1; ends.set(k, [a, Math.min(1.5, Math.max(-0.5, a + (rng.next() - 0.5) * spread))]); } return ends.get(k)!; };
      const steps = Array.from({ length: n }, (_, i) => new Proxy({} as StepMetrics, {
        get: (_t, k) => {
          if (k === 'step') return i + 1;
          if (k === 'kl_exact') return klExact;
          if (typeof k !== 'string') return undefined;
          const [a, b] = endsOf(k);
          const x = a + ((b - a) * i) / Math.max(1, n - 1) + 0.01 * Math.sin(13 * i + k.length);
          return k === 'kl' ? klExact * (0.5 + x) : x; // an estimate of kl_exact, within a factor of two or off
        },
      }));
      const g0 = 0.2 + 0.6 * rng.next(), p0 = 0.1 + 0.6 * rng.next(), dg = (rng.next() - 0.5) * 0.3, dp = (rng.next() - 0.5) * 0.4;
      const start = contractEval(0, 128, g0, p0, rng.int(1e6)), end = contractEval(n, 128, g0 + dg, Math.min(0.95, Math.max(0.02, p0 + dp)), rng.int(1e6));
      const watch = (e: typeof start, q: number) => { const w = Array.from({ length: 128 }, () => { let c = 0; for (let j = 0; j < 8; j++) if (rng.next() < q) c++; return c; }); e.per_prompt!.watch_correct = w; e.watch = { task: 'reverse', difficulty: 1, heldout_accuracy: 0.5, pass1: w.reduce((a, b) => a + b, 0) / (8 * w.length) }; };
      const q0 = 0.2 + 0.6 * rng.next();
      watch(start, q0); watch(end, Math.min(0.95, Math.max(0.02, q0 + (rng.next() - 0.5) * 0.4)));
      return { steps, evals: [start, end] };
    };
    for (const l of LESSONS) {
      l.variants.forEach((v, i) => {
        const seen = { holds: 0, fails: 0, unclear: 0, pending: 0 };
        for (let t = 0; t < 30; t++) {
          const verdict = v.claim.judge(randomRun(v.claim.steps), { reps: 100 });
          if (verdict.state !== 'fails') seen[verdict.state]++;
          const { value, threshold, side } = verdict.number;
          const onSide = side === 'above' ? value > threshold : value <= threshold;
          if (verdict.state === 'holds') expect(onSide, `${l.id} #${i}: holds with ${value} (${side} ${threshold})`).toBe(true);
          // failing on its own number, not on a run-level check (a wreck, a policy that never moved)
          if (verdict.state === 'fails' && !onSide) seen.fails++;
        }
        expect(seen.holds, `${l.id} #${i} (${v.label}): it can hold`).toBeGreaterThan(0);
        expect(seen.fails, `${l.id} #${i} (${v.label}): it can fail on its own number`).toBeGreaterThan(0);
      });
    }
  });

  it('every lesson variant has a claim, and no lesson text quotes a figure from another run', () => {
    for (const l of LESSONS) {
      for (const v of l.variants) {
        expect(v.claim.steps, `${l.id}: ${v.label}`).toBeGreaterThan(0);
        expect(v.claim.text.length).toBeGreaterThan(30);
      }
      for (const text of [l.watch, ...l.variants.map((v) => v.claim.text)]) expect(text, l.id).not.toMatch(/\b0\.\d\d\b|\d+ steps of/);
      // students read the lesson's language: no commands, code or field names on the card
      for (const text of [l.watch, l.title, ...l.variants.flatMap((v) => [v.label, v.claim.text, v.claim.number.what])]) expect(text, l.id).not.toMatch(/npm run|`|\b[a-z]{2,}_[a-z_]{2,}\b/);
    }
  });

  it('a run whose lesson knobs were moved is not judged against the variant\'s claim; the seed and other knobs may change', () => {
    const l = getLesson('mixed-groups')!;
    const s = lessonSettings(l, defaultSettings(), 0);
    expect(settingsChangedFrom(l, 0, s)).toEqual([]);
    expect(settingsChangedFrom(l, 0, { ...s, seed: 7, entropyCoef: 0.01 })).toEqual([]);
    expect(settingsChangedFrom(l, 0, { ...s, temperature: 0.9 })).toEqual(['temperature']); // pinned by the lesson (contract.ts PINNED)
    expect(settingsChangedFrom(l, 0, { ...s, numGenerations: 8 })).toEqual(['numGenerations']);
    expect(settingsChangedFrom(l, 1, { ...s, numGenerations: 8 })).toEqual([]);
    expect(settingsChangedFrom(l, 0, { ...s, task: 'reverse' })).toEqual(['task']);
  });
});

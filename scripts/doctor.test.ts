/**
 * npm run doctor and the run doctor (src/rl/doctor.ts): the lab's stop signals on imported TRL runs (e2e/fixtures/trl), step by step.
 * The fixtures are made to show the chapter's failures: the TRL 1.x run's entropy collapses and
 * its groups stop mixing once the prompts are mastered (held-out accuracy rises with training
 * reward, so that signal stays quiet); the TRL 0.14 run learns its format reward while accuracy
 * stays flat and its answers grow.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTrlFiles, type TrlFile } from '../src/persist/trlImport.ts';
import { accuracyFunc, diagnose, importedOptions, labHistories, type TrlRun } from '../src/rl/doctor.ts';
import { detectStopSignals } from '../src/rl/stopSignals.ts';
import { main } from './doctor.ts';

const DIR = join(import.meta.dirname, '../e2e/fixtures/trl');
const file = (p: string): TrlFile => ({ name: p, bytes: new Uint8Array(readFileSync(join(DIR, p))) });
async function load(...paths: string[]): Promise<TrlRun> {
  const r = await importTrlFiles(paths.map(file));
  if (!r.ok) throw new Error(r.error);
  return r.run;
}
const PARQUETS = ['00020', '00100', '00200'].map((s) => `grpo-output/completions/completions_${s}.parquet`);

describe('run doctor', () => {
  it('adapts a TRL run to the lab shapes: mixed = 1 − frac_reward_zero_std, accuracy and held-out from the pass/fail reward', async () => {
    const run = await load('grpo-output/trainer_state.json', ...PARQUETS);
    const h = labHistories(run);
    expect(h.accuracyKey).toBe('rewards/accuracy_reward/mean');
    expect(h.heldoutKey).toBe('eval_rewards/accuracy_reward/mean');
    const e = run.train.find((x) => x.step === 100)!.values;
    const m = h.steps.find((x) => x.step === 100)!;
    expect(m.frac_mixed).toBeCloseTo(1 - e.frac_reward_zero_std, 12);
    expect(m.accuracy).toBe(e['rewards/accuracy_reward/mean']);
    expect(m.mean_length).toBe(e['completions/mean_length']);
    expect(m.clipped_ratio).toBe(e['completions/clipped_ratio']);
    expect(m.entropy).toBe(e.entropy);
    expect(m.num_tokens).toBe(e.num_tokens);
    expect(m.length_correct_mean).toBeNaN(); // TRL does not log it: unknown, not 0
    // all-pass / all-fail only where a completion log says it (step 100), from its 0/1 rewards
    const c = run.completions.find((x) => x.step === 100)!;
    const pass = c.groups.filter((g) => g.answers.every((a) => a.rewards.accuracy_reward === 1)).length / c.groups.length;
    expect(m.frac_all_pass).toBeCloseTo(pass, 12);
    expect(h.steps.find((x) => x.step === 102)!.frac_all_pass).toBeNaN();
    expect(h.evals.length).toBe(10);
    expect(h.evals[0].heldout_accuracy).toBe(run.evals[0].values['rewards/accuracy_reward/mean']);
  });

  it('the pass/fail reward is chosen by name, format rewards aside', () => {
    expect(accuracyFunc({ rewardFuncs: ['match_format_exactly', 'match_format_approximately', 'check_answer', 'check_numbers'] })).toBe('check_answer');
    expect(accuracyFunc({ rewardFuncs: ['format_reward', 'accuracy_reward'] })).toBe('accuracy_reward');
    expect(accuracyFunc({ rewardFuncs: ['reward_fn'] })).toBe('reward_fn');
    expect(accuracyFunc({ rewardFuncs: ['a', 'b'] })).toBeNull();
  });

  it('TRL 1.x run: entropy collapses (step 90) and mixed groups disappear (step 120); held-out rose, so no reward-without-held-out', async () => {
    const run = await load('grpo-output/trainer_state.json', ...PARQUETS);
    const d = diagnose(run);
    expect(d.findings.map((f) => [f.id, f.firstStep, f.atEnd])).toEqual([['entropy-collapse', 90, true], ['mixed-groups-vanishing', 120, true]]);
    expect(d.checkedEvery).toBe(1);
    const mixed = d.findings[1];
    expect(mixed.message).toMatch(/1 − `frac_reward_zero_std`, valid for pass\/fail rewards/);
    expect(mixed.message).toMatch(/completion log of step 100, 88% of groups are all-pass/);
  });

  it('TRL 0.14 run: length grows without accuracy (step 140), training reward rises without held-out improvement (step 200)', async () => {
    const run = await load('trl0.14/trainer_state.json');
    const d = diagnose(run);
    expect(d.findings.map((f) => [f.id, f.firstStep])).toEqual([['length-without-accuracy', 140], ['reward-without-heldout', 200]]);
    expect(d.options.lengthRise).toBeCloseTo(18.7, 1); // a tenth of the first window's 187 tokens
    expect(d.findings[1].message).toMatch(/held-out `eval_rewards\/accuracy_reward\/mean` moved \+0\.01/);
    expect(d.findings[1].spans[0][0]).toBe(200);
  });

  it('first firing steps are exact: the signal is quiet on the run up to the logged step before, and fires at it', async () => {
    for (const path of ['grpo-output/trainer_state.json', 'trl0.14/trainer_state.json']) {
      const run = await load(path);
      const h = labHistories(run);
      const o = importedOptions(h);
      for (const f of diagnose(run).findings) {
        const i = h.steps.findIndex((s) => s.step === f.firstStep);
        const upTo = (j: number) => detectStopSignals(h.steps.slice(0, j + 1), h.evals.filter((e) => e.step <= h.steps[j].step), o).map((s) => s.id);
        expect(upTo(i)).toContain(f.id);
        for (let j = 0; j < i; j++) expect(upTo(j)).not.toContain(f.id);
      }
    }
  });

  it('a long log is checked every k-th logged step, the last one always', () => {
    const train = Array.from({ length: 4000 }, (_, i) => ({ step: i + 1, values: { reward: 0.5, entropy: i < 2000 ? 1 : 0.1 } }));
    const d = diagnose({ train, evals: [], rewardFuncs: [], completions: [] });
    expect(d.checkedEvery).toBe(3);
    expect(d.checks).toBe(1334); // indices 0, 3, …, 3999
    expect(d.findings.map((f) => [f.id, f.firstStep])).toEqual([['entropy-collapse', 2011]]); // fires from index 2008 (9 of the last 10 at 0.1: mean 0.19 < 0.25); the first check after is index 2010
    expect(d.findings[0].lastStep).toBe(4000);
  });

  it('npm run doctor prints one JSONL line per signal and a summary with the keys found and unknown; a bad file is one sentence, exit 2', async () => {
    const r = await main([join(DIR, 'grpo-output')]);
    expect(r.code).toBe(0);
    const lines = r.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, -1).map((l) => [l.signal, l.first_step])).toEqual([['entropy-collapse', 90], ['mixed-groups-vanishing', 120]]);
    const s = lines.at(-1)!;
    expect(s).toMatchObject({ summary: true, run: 'grpo-output', logged_steps: 100, evaluations: 10, completion_logs: [20, 100, 200], keys_unknown: ['sampling/importance_sampling_ratio/mean', 'sampling/sampling_logp_difference/mean'] });
    expect(s.keys_used).toEqual(expect.arrayContaining(['reward', 'frac_reward_zero_std', 'entropy']));
    const old = await main([join(DIR, 'trl0.14/trainer_state.json')]);
    expect(JSON.parse(old.out.at(-1)!).keys_renamed).toContain('completion_length → completions/mean_length');
    const bad = await main([join(DIR, 'grpo-output/completions/completions_00020.parquet'), join(DIR, 'README.md')]);
    expect(bad.code).toBe(0); // the README is skipped by name, the completion log alone is read
    const none = await main([join(DIR, 'README.md')]);
    expect(none).toMatchObject({ code: 2, out: [] });
    expect(none.err).toMatch(/^README\.md was not imported: it is not a trainer_state\.json, a JSONL of log entries or a completions parquet; the lab's own run is unchanged\.$/);
    expect((await main([join(DIR, 'nothing-here.json')])).code).toBe(2);
  });
});

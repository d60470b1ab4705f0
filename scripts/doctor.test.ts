/**
 * npm run doctor and the run doctor (src/rl/doctor.ts): the lab's stop signals on imported TRL runs (e2e/fixtures/trl), step by step.
 * The fixtures are made to show the chapter's failures: the TRL 1.x run's entropy collapses and
 * its groups stop mixing once the prompts are mastered (held-out accuracy rises with training
 * reward, so that signal stays quiet); the TRL 0.14 run learns its format reward while accuracy
 * stays flat and its answers grow.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTrlFiles, selectImportFiles, type TrlFile } from '../src/persist/trlImport.ts';
import { accuracyFunc, diagnose, importedOptions, labHistories, type TrlRun } from '../src/rl/doctor.ts';
import { detectStopSignals } from '../src/rl/stopSignals.ts';
import { collect, main } from './doctor.ts';

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

  it('TRL 1.x run: entropy collapses (step 90) and mixed groups disappear (step 132; single-step blips at 120 and 126 are not a trend); held-out rose, so no reward-without-held-out', async () => {
    const run = await load('grpo-output/trainer_state.json', ...PARQUETS);
    const d = diagnose(run);
    expect(d.findings.map((f) => [f.id, f.firstStep, f.atEnd])).toEqual([['entropy-collapse', 90, true], ['mixed-groups-vanishing', 132, true]]);
    expect(d.findings[1].spans).toEqual([[132, 200]]);
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

  it('first firing steps are exact: the signal fires there for at least minSpan logged steps, and before it only in shorter blips', async () => {
    for (const path of ['grpo-output/trainer_state.json', 'trl0.14/trainer_state.json']) {
      const run = await load(path);
      const h = labHistories(run);
      const o = importedOptions(h);
      const d = diagnose(run);
      for (const f of d.findings) {
        const i = h.steps.findIndex((s) => s.step === f.firstStep);
        const upTo = (j: number) => detectStopSignals(h.steps.slice(0, j + 1), h.evals.filter((e) => e.step <= h.steps[j].step), o).map((s) => s.id);
        for (let j = i; j < i + d.minSpan; j++) expect(upTo(j)).toContain(f.id);
        let stretch = 0;
        for (let j = 0; j < i; j++) {
          stretch = upTo(j).includes(f.id) ? stretch + 1 : 0;
          expect(stretch).toBeLessThan(d.minSpan);
        }
        if (i > 0) expect(upTo(i - 1)).not.toContain(f.id);
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
    expect(lines.slice(0, -1).map((l) => [l.signal, l.first_step])).toEqual([['entropy-collapse', 90], ['mixed-groups-vanishing', 132]]);
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

describe('run doctor: what it can and cannot say (issue 29)', () => {
  const entry = (step: number, values: Record<string, number>) => ({ step, values });

  it('a lone completion log: nothing was checked, and it says so (not "no signal fires")', async () => {
    const run = await load(PARQUETS[0]);
    expect(run.train).toEqual([]);
    const d = diagnose(run);
    expect(d.findings).toEqual([]);
    expect(d.notChecked).toMatch(/^Nothing was checked: /);
    const r = await main([join(DIR, PARQUETS[0])]);
    const s = JSON.parse(r.out.at(-1)!) as Record<string, unknown>;
    expect(s).toMatchObject({ checked: false, logged_steps: 0, signals_fired: [] });
    expect(s.not_checked).toMatch(/^Nothing was checked: /);
    // a full log is checked
    expect(diagnose(await load('grpo-output/trainer_state.json')).notChecked).toBeNull();
    expect(JSON.parse((await main([join(DIR, 'grpo-output')])).out.at(-1)!).checked).toBe(true);
  });

  it('too few logged steps for the windows: said, not "no signal fires"', () => {
    const train = Array.from({ length: 12 }, (_, i) => entry(i + 1, { reward: 0.5, entropy: 1 }));
    expect(diagnose({ train, evals: [], rewardFuncs: [], completions: [] }).notChecked).toMatch(/12 logged steps/);
  });

  it('one step is not a trend: a signal that fires at a single logged step is not a finding; a sustained one is', () => {
    // mean_length 200, a spike at step 21 that the next two steps take back: only the prefix ending at step 21 has a raised last window
    const length = (i: number) => (i === 20 ? 420 : i === 21 || i === 22 ? 90 : 200);
    const train = Array.from({ length: 40 }, (_, i) => entry(i + 1, { reward: 0.5, 'completions/mean_length': length(i) }));
    const run = { train, evals: [], rewardFuncs: [], completions: [] };
    const h = labHistories(run);
    const o = importedOptions(h);
    const fires = h.steps.map((_, j) => detectStopSignals(h.steps.slice(0, j + 1), [], o).some((s) => s.id === 'length-without-accuracy'));
    expect(fires.flatMap((f, j) => (f ? [j + 1] : []))).toEqual([21]); // the signal itself fires at step 21 alone
    expect(diagnose(run).findings).toEqual([]);
    // the same rise sustained: a finding, from the step where it first fires
    const grown = Array.from({ length: 40 }, (_, i) => entry(i + 1, { reward: 0.5, 'completions/mean_length': i < 20 ? 200 : 260 }));
    const d = diagnose({ train: grown, evals: [], rewardFuncs: [], completions: [] });
    expect(d.findings.map((f) => [f.id, f.firstStep, f.atEnd])).toEqual([['length-without-accuracy', 24, true]]);
    expect(d.minSpan).toBe(5);
  });

  it('only a reward in [0, 1] is read as an accuracy: a game score from −9.66 to 10.9 is not', () => {
    const score = (i: number) => -9.66 + (20.56 * i) / 39;
    const train = Array.from({ length: 40 }, (_, i) => entry(i + 1, { reward: score(i), 'rewards/game_score/mean': score(i), 'completions/mean_length': 100 + 3 * i }));
    const evals = [entry(10, { reward: -5 }), entry(20, { reward: 2 }), entry(30, { reward: 8 })];
    const h = labHistories({ train, evals, rewardFuncs: ['game_score'], completions: [] });
    expect(h.accuracyKey).toBeNull();
    expect(h.steps.every((m) => Number.isNaN(m.accuracy))).toBe(true);
    expect(h.accuracyNote).toMatch(/`rewards\/game_score\/mean` runs from −9\.66 to 10\.9/);
    expect(h.heldoutKey).toBeNull();
    expect(h.evals).toEqual([]);
    const d = diagnose({ train, evals, rewardFuncs: ['game_score'], completions: [] });
    expect(d.accuracyKey).toBeNull();
    expect(d.findings.map((f) => f.id)).not.toContain('length-without-accuracy');
    // a reward in [0, 1] still is (the only reward function, or `reward` itself)
    const unit = train.map((e, i) => entry(e.step, { reward: i / 39, 'rewards/game_score/mean': i / 39 }));
    expect(labHistories({ train: unit, evals: [], rewardFuncs: ['game_score'], completions: [] }).accuracyKey).toBe('rewards/game_score/mean');
    expect(labHistories({ train: unit.map((e) => entry(e.step, { reward: e.values.reward })), evals: [], rewardFuncs: [], completions: [] }).accuracyKey).toBe('reward');
  });
});

describe('npm run doctor on a folder of more than 1000 files: the page\'s rule', () => {
  it('lists the folder, reads only what selectImportFiles keeps (every k-th completion log and the last), and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctor-many-'));
    try {
      copyFileSync(join(DIR, 'grpo-output/trainer_state.json'), join(dir, 'trainer_state.json'));
      mkdirSync(join(dir, 'completions'));
      for (let s = 1; s <= 450; s++) copyFileSync(join(DIR, PARQUETS[0]), join(dir, `completions/completions_${String(s).padStart(5, '0')}.parquet`));
      mkdirSync(join(dir, 'runs'));
      for (let i = 0; i < 600; i++) writeFileSync(join(dir, `runs/events.${i}`), 'x');
      const { files } = collect([dir]);
      expect(files.length).toBe(1051);
      const read = files.filter((f) => f.bytes.length).map((f) => f.name);
      expect(read.sort()).toEqual(selectImportFiles(files.map((f) => ({ name: f.name, size: f.size! }))).read.map((f) => f.name).sort());
      expect(read.length).toBe(1 + 151); // every 3rd of 450 (150) and the last
      const r = await main([dir]);
      expect(r.code).toBe(0);
      const s = JSON.parse(r.out.at(-1)!) as { notices: string[]; completion_logs: number[] };
      expect(s.notices[0]).toMatch(/^Of 1051 files, read 1 log and 151 of 450 completion logs \(every 3rd, and the last\); skipped 600 files the lab does not read: /);
      expect(s.completion_logs.length).toBe(151);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

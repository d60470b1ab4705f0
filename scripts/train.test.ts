import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const train = (...args: string[]) => spawnSync('npx', ['tsx', 'scripts/train.ts', ...args], { encoding: 'utf8', timeout: 120_000 });

describe('npm run train (CPU reference)', () => {
  it('unknown flags and bad values: one sentence (plus usage) and exit 2', () => {
    for (const args of [['--bogus', '1'], ['--beta', 'lots'], ['--num_generations', '1'], ['--backend', 'tpu'], ['--steps']]) {
      const r = train(...args);
      expect(r.status, args.join(' ')).toBe(2);
      const first = r.stderr.split('\n')[0];
      expect(first.length, first).toBeGreaterThan(10);
      expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
      expect(r.stdout).toBe('');
    }
  });

  it('a short run writes JSONL: eval, step lines with TRL names, and a summary last', () => {
    const r = train('--task', 'reverse', '--difficulty', '2', '--steps', '2', '--seed', '3', '--promptsPerStep', '2', '--num_generations', '2', '--eval-size', '4', '--no-pass-at-k', '--evalEvery', '1');
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].type).toBe('eval');
    const steps = lines.filter((l) => l.type === 'step');
    expect(steps.length).toBe(2);
    for (const k of ['step', 'reward', 'reward_std', 'frac_reward_zero_std', 'entropy', 'kl', 'mean_length']) expect(steps[0], k).toHaveProperty(k);
    expect(lines.filter((l) => l.type === 'eval').every((e) => 'heldout_accuracy' in e && 'pass_at_k' in e)).toBe(true);
    const summary = lines.at(-1);
    expect(summary).toMatchObject({ type: 'summary', steps: 2, backend: 'cpu', task: 'reverse' });
    for (const k of ['heldout_before', 'heldout_after', 'seconds']) expect(summary, k).toHaveProperty(k);
    expect(r.stderr).toMatch(/from public\/checkpoints\/reverse-d2\.ckpt/); // progress on stderr
  });

  it('--epsilon alone sets ε_high too, as TRL does (said on stderr); with --epsilon_high both are kept', () => {
    const one = train('--task', 'add', '--steps', '0', '--eval-size', '2', '--no-pass-at-k', '--epsilon', '0.3');
    expect(one.status, one.stderr).toBe(0);
    expect(one.stderr).toContain('notice: --epsilon 0.3 without --epsilon_high: ε_high = ε = 0.3, as TRL sets it (clip range [0.70, 1.30])');
    const both = train('--task', 'add', '--steps', '0', '--eval-size', '2', '--no-pass-at-k', '--epsilon', '0.3', '--epsilon_high', '0.28');
    expect(both.status, both.stderr).toBe(0);
    expect(both.stderr).not.toContain('without --epsilon_high');
  });

  it('process reward on a task without checkable steps: a notice on stderr, and the run uses outcome reward', () => {
    const r = train('--task', 'add', '--rewardMode', 'process', '--steps', '0', '--eval-size', '4', '--no-pass-at-k');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('notice: rewardMode process needs a task with checkable scratchpad steps (chain, digitsum, modsum); task add has none, so the run uses outcome reward');
    expect(train('--task', 'chain', '--rewardMode', 'process', '--steps', '0', '--eval-size', '4', '--no-pass-at-k').stderr).not.toContain('notice:');
  });

  it('lessons headless: --list-lessons prints one JSON line each; --lesson runs one with its verdict in the summary; unknown ones exit 2', () => {
    const list = train('--list-lessons');
    expect(list.status, list.stderr).toBe(0);
    const lessons = list.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lessons.length).toBeGreaterThanOrEqual(7);
    for (const l of lessons) {
      expect(typeof l.id).toBe('string');
      expect(l.variants.length).toBeGreaterThanOrEqual(2);
      expect(l.steps).toBeGreaterThan(0);
    }
    const r = train('--lesson', 'kl-estimators', '--variant', '1', '--seed', '3', '--steps', '2', '--eval-size', '4', '--no-pass-at-k');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect(summary).toMatchObject({ type: 'summary', task: 'add', seed: 3, lesson: { id: 'kl-estimators', variant: 1, holds: false, state: 'pending' } });
    expect(summary.lesson.sentence).toMatch(/^Pending — the verdict comes at step 10 \(now 2\)\. So far: k1 /);
    expect(Object.keys(summary.lesson.evidence)).toContain('relative_error');
    for (const args of [['--lesson', 'no-such-lesson'], ['--lesson', 'kl-estimators', '--variant', '9'], ['--variant', '1']]) {
      const bad = train(...args);
      expect(bad.status, args.join(' ')).toBe(2);
      expect(bad.stderr.split('\n')[0]).toMatch(/lesson|variant/);
      expect(bad.stdout).toBe('');
    }
  });

  it('--task-file: a bad spec file is one sentence and exit 2; cold-start flags are checked', () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'spec-')), 'bad.json');
    writeFileSync(bad, JSON.stringify({ name: 'x', prompt: '{a}*7=', vars: { a: [9, 2] }, answer: 'a*7' }));
    const cases: [string[], string][] = [
      [['--task-file', bad], `task file ${bad} refused: vars.a: lo 9 is greater than hi 2.`],
      [['--task-file', 'no/such/spec.json'], 'cannot read the task file no/such/spec.json: no such readable file'],
      [['--task-file', 'public/tasks/times7.json', '--cold-start-steps', '5'], '--cold-start-target and --cold-start-steps need --cold-start'],
      [['--task-file', 'public/tasks/times7.json', '--cold-start', '--cold-start-target', '2'], '--cold-start-target must be a pass rate in (0, 1], got "2"'],
      [['--task-file', 'public/tasks/times7.json', '--task', 'add'], '--task-file names the task: drop --task and --lesson'],
    ];
    for (const [args, sentence] of cases) {
      const r = train(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(sentence);
      expect(r.stdout).toBe('');
    }
  });

  it('--task-file --cold-start: SFT of a fresh policy to the target, then GRPO; the summary names the file and the cold start', () => {
    const r = train('--task-file', 'public/tasks/vowels.json', '--cold-start', '--cold-start-target', '0.05', '--cold-start-steps', '40', '--steps', '2', '--seed', '1',
      '--promptsPerStep', '4', '--num_generations', '4', '--eval-size', '8', '--evalEvery', '1');
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const evals = lines.filter((l) => l.type === 'cold_start_eval');
    expect(evals.length).toBeGreaterThan(0);
    const cs = lines.find((l) => l.type === 'cold_start');
    expect(cs).toMatchObject({ reached: true, target: 0.05 });
    expect(cs.pass_at_1).toBeGreaterThanOrEqual(0.05);
    expect(cs.sentence).toMatch(/^Cold start reached the capability boundary: held-out sampled pass@1 \d+% ≥ 5% after \d+ supervised steps/);
    expect(lines.indexOf(cs)).toBeLessThan(lines.findIndex((l) => l.type === 'step')); // GRPO after the cold start
    expect(lines.filter((l) => l.type === 'step').length).toBe(2);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', task: 'spec:vowels', steps: 2, task_file: 'public/tasks/vowels.json', cold_start: { steps: cs.steps, reached: true } });
    expect(r.stderr).toMatch(/from fresh init \(then the cold start\)/);
  });

  it('--cold-start that misses its target says the task is too hard for this model size, and exits 1 before GRPO', () => {
    const r = train('--task-file', 'public/tasks/times7.json', '--cold-start', '--cold-start-target', '1', '--cold-start-steps', '10', '--steps', '5', '--eval-size', '4');
    expect(r.status, r.stderr).toBe(1);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ type: 'cold_start', reached: false, steps: 10 });
    expect(lines.some((l) => l.type === 'step' || l.type === 'summary')).toBe(false);
    expect(r.stderr).toContain('the task is too hard for this model size, so try a smaller range or shorter strings');
  });
});

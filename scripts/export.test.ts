/** npm run export: writes the project for a built-in task (from its shipped base) and for a custom task file; refuses bad flags in one sentence. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { decodeCheckpoint, encodeCheckpoint } from '../src/model/checkpoint.ts';
import { defaultSettings } from '../src/rl/settings.ts';
import { parseExportArgs } from './export.ts';

const tmp = mkdtempSync(join(tmpdir(), 'export-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const cli = (...args: string[]) => spawnSync('npx', ['tsx', 'scripts/export.ts', ...args], { encoding: 'utf8' });

describe('npm run export', () => {
  it('writes a TRL project for add from its shipped base, with settings flags by lab key or TRL name', () => {
    const out = join(tmp, 'add');
    const r = cli('--out', out, '--task', 'add', '--train-size', '30', '--heldout-size', '10', '--parity', '4', '--num_generations', '4', '--epsilon', '0.3', '--steps', '50');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.source).toBe('public/checkpoints/add-d2.ckpt');
    expect(summary.files).toContain('model.safetensors');
    for (const f of summary.files) expect(existsSync(join(out, f)), f).toBe(true);
    expect(readdirSync(join(out, 'data'))).toEqual(['heldout.jsonl', 'train.jsonl']);
    const train = readFileSync(join(out, 'train_grpo.py'), 'utf8');
    expect(train).toContain('    num_generations=4,');
    expect(train).toContain('    epsilon_high=0.3,'); // --epsilon alone sets ε_high, as TRL does
    expect(train).toContain('LAB_STEPS = 50');
    expect(r.stderr).toMatch(/ε_high = ε/);
    expect(readFileSync(join(out, 'data/train.jsonl'), 'utf8').trim().split('\n').length).toBe(30);
  });

  it('exports a custom task from --task-file (no base: a fresh initialisation, said so)', () => {
    const out = join(tmp, 'spec');
    const r = cli('--out', out, '--task-file', 'public/tasks/times7.json', '--train-size', '20', '--heldout-size', '10', '--parity', '2');
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.task).toBe('spec:times7');
    expect(summary.source).toMatch(/fresh initialisation/);
    expect(summary.files).toContain('task_spec.json');
    expect(readFileSync(join(out, 'reward.py'), 'utf8')).toContain('SPEC_KIND = "int"');
  });

  it('--from a saved run brings the run\'s own settings (flags override them)', () => {
    const base = decodeCheckpoint(new Uint8Array(readFileSync('public/checkpoints/add-d2.ckpt')));
    const ckpt = join(tmp, 'run.ckpt');
    writeFileSync(ckpt, encodeCheckpoint({ config: base.config, weights: base.weights, metadata: { trainedBy: 'grpo', settings: { ...defaultSettings(), task: 'add', numGenerations: 6, temperature: 0.7 } } }));
    const out = join(tmp, 'run');
    const r = cli('--out', out, '--from', ckpt, '--temperature', '0.9', '--train-size', '10', '--heldout-size', '5', '--parity', '0');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ task: 'add', source: ckpt });
    const train = readFileSync(join(out, 'train_grpo.py'), 'utf8');
    expect(train).toContain('    num_generations=6,');
    expect(train).toContain('    temperature=0.9,');
  });

  it('refuses an unknown flag, a bad value and a missing --out in one sentence, exit 2', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => { throw new Error(`exit ${code}`); });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const [args, sentence] of [
        [['--out', 'x', '--bogus', '1'], /^unknown flag --bogus$/],
        [['--out', 'x', '--numGenerations', '99'], /^numGenerations must be between 2 and 32, got 99$/],
        [['--task', 'add'], /^--out DIR is required$/],
        [['--out', 'x', '--train-size', '0'], /^--train-size must be a whole number ≥ 1/],
        [['--out', 'x', '--task-file', 'no/such.json'], /^cannot read the task file/],
      ] as [string[], RegExp][]) {
        err.mockClear();
        expect(() => parseExportArgs(args)).toThrow('exit 2');
        expect(String(err.mock.calls[0][0]).split('\n')[0]).toMatch(sentence);
      }
    } finally {
      exit.mockRestore();
      err.mockRestore();
    }
  });
});

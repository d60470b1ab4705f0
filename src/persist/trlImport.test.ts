/**
 * The TRL run import on the fixtures (e2e/fixtures/trl/README.md says where each format comes
 * from): TRL 1.x and 0.14 key names to one canonical form, Unsloth's duplicates, JSONL and W&B
 * names, completion logs, a TRL output folder, and refusals in one sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { parquetHeader } from 'hyparquet/src/column.js';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import type { TrlRun } from '../rl/doctor.ts';
import { decodeTrlLog, importTrlFiles, MAX_COMPLETION_FILES, pythonJsonToJson, selectImportFiles, wantedFile, type TrlFile } from './trlImport.ts';
import { decodeCompletionsParquet } from './trlParquet.ts';
import { hybridRunsFit } from './trlParquetGuard.ts';

const DIR = join(import.meta.dirname, '../../e2e/fixtures/trl');
const file = (p: string, name = p): TrlFile => ({ name, bytes: new Uint8Array(readFileSync(join(DIR, p))) });
const text = (s: string, name = 'log.json'): TrlFile => ({ name, bytes: new TextEncoder().encode(s) });
function run(r: Awaited<ReturnType<typeof importTrlFiles>>): TrlRun {
  if (!r.ok) throw new Error(r.error);
  return r.run;
}
const at = (run: TrlRun, step: number) => run.train.find((e) => e.step === step)!.values;
const PARQUETS = ['00020', '00100', '00200'].map((s) => `grpo-output/completions/completions_${s}.parquet`);

describe('TRL import: trainer_state.json and JSONL', () => {
  it('reads TRL 1.x keys as they are; lists the keys the lab does not know; NaN from Python json is missing', async () => {
    const r = run(await importTrlFiles([file('grpo-output/trainer_state.json')]));
    expect(r.train.length).toBe(100);
    expect(r.evals.length).toBe(10);
    expect(r.rewardFuncs).toEqual(['accuracy_reward']);
    expect(r.keys.unknown).toEqual(['sampling/importance_sampling_ratio/mean', 'sampling/sampling_logp_difference/mean']);
    expect(r.keys.renamed).toEqual([]);
    expect(r.keys.used).toEqual(expect.arrayContaining(['reward', 'reward_std', 'frac_reward_zero_std', 'entropy', 'kl', 'clip_ratio/low_mean', 'completions/clipped_ratio', 'num_tokens', 'eval_rewards/accuracy_reward/mean']));
    const raw = JSON.parse(pythonJsonToJson(readFileSync(join(DIR, 'grpo-output/trainer_state.json'), 'utf8'))!.text) as { log_history: Record<string, number>[] };
    const e50 = raw.log_history.find((e) => e.step === 50 && 'reward' in e)!;
    expect(at(r, 50).reward).toBe(e50.reward);
    expect(at(r, 50)['completions/mean_length']).toBe(e50['completions/mean_length']);
    expect(at(r, 96).grad_norm).toBeNaN();
    expect(r.notices.join(' ')).toMatch(/1 value written as NaN or Infinity/);
    expect(r.evals[0].values['rewards/accuracy_reward/mean']).toBe(raw.log_history.find((e) => 'eval_reward' in e)!['eval_rewards/accuracy_reward/mean']);
    expect(r.summary.train_runtime).toBe(402.3);
    expect(at(r, 200).train_runtime).toBeUndefined(); // the summary is not a step's metric
  });

  it('maps TRL 0.14 names (completion_length, rewards/<func>) to the canonical ones, on both sides', async () => {
    const r = run(await importTrlFiles([file('trl0.14/trainer_state.json')]));
    const raw = JSON.parse(readFileSync(join(DIR, 'trl0.14/trainer_state.json'), 'utf8')) as { log_history: Record<string, number>[] };
    const e = raw.log_history.find((x) => x.step === 250 && 'reward' in x)!;
    expect(at(r, 250)['completions/mean_length']).toBe(e.completion_length);
    expect(at(r, 250)['rewards/format_reward/mean']).toBe(e['rewards/format_reward']);
    expect(at(r, 250).completion_length).toBeUndefined();
    expect(r.keys.renamed).toEqual(expect.arrayContaining(['completion_length → completions/mean_length', 'rewards/accuracy_reward → rewards/accuracy_reward/mean', 'eval_completion_length → eval_completions/mean_length']));
    expect(r.rewardFuncs.sort()).toEqual(['accuracy_reward', 'format_reward']);
    expect(r.evals.map((x) => x.step)).toEqual([50, 100, 150, 200, 250, 300, 350, 400, 450, 500]);
    expect(r.keys.unknown).toEqual([]);
  });

  it("Unsloth: TRL's completions/mean_length wins over Unsloth's completion_length for the same step", async () => {
    const r = run(await importTrlFiles([file('unsloth/checkpoint-60/trainer_state.json')]));
    expect(r.rewardFuncs.sort()).toEqual(['check_answer', 'check_numbers', 'match_format_approximately', 'match_format_exactly']);
    expect(r.keys.renamed).toEqual(['completion_length → completions/mean_length']);
    const both = decodeTrlLog('x.jsonl', text('{"step": 1, "reward": 0.5, "completion_length": 99.0, "completions/mean_length": 42.0}\n{"step": 2, "reward": 0.6, "completion_length": 98.0}').bytes);
    expect(both.ok && at(both.run, 1)['completions/mean_length']).toBe(42);
    expect(both.ok && at(both.run, 2)['completions/mean_length']).toBe(98);
  });

  it('a JSONL of the same entries is the same run', async () => {
    const a = run(await importTrlFiles([file('grpo-output/trainer_state.json')]));
    const b = run(await importTrlFiles([file('jsonl/log_history.jsonl')]));
    expect(b.train).toEqual(a.train);
    expect(b.evals).toEqual(a.evals);
  });

  it("W&B history names (train/…, eval/…, train/global_step) and TRL 0.16's single clip_ratio", () => {
    const r = decodeTrlLog('wandb.jsonl', text('{"train/global_step": 5, "train/reward": 0.25, "train/clip_ratio": 0.01, "train/rewards/acc": 0.25}\n{"train/global_step": 10, "eval/reward": 0.3, "eval/loss": 0.1}\n').bytes);
    expect(r.ok ? '' : r.error).toBe('');
    if (!r.ok) return;
    expect(at(r.run, 5)).toEqual({ reward: 0.25, 'clip_ratio/region_mean': 0.01, 'rewards/acc/mean': 0.25 });
    expect(r.run.evals).toEqual([{ step: 10, values: { reward: 0.3, loss: 0.1 } }]);
    expect(r.run.keys.renamed.join()).toMatch(/W&B/);
  });

  it('a TRL output folder: the longest trainer_state.json, the completion logs, other files skipped by name', async () => {
    expect(wantedFile('out/model.safetensors', 1e9)).toBeNull();
    expect(wantedFile('out/config.json', 900)).toBeNull();
    expect(wantedFile('out/checkpoint-5/trainer_state.json', 900)).toBe('log');
    expect(wantedFile('out/completions/completions_00005.parquet', 900)).toBe('completions');
    const r = run(await importTrlFiles([
      file('grpo-output/checkpoint-100/trainer_state.json', 'grpo-output/checkpoint-100/trainer_state.json'),
      file('grpo-output/trainer_state.json', 'grpo-output/trainer_state.json'),
      ...PARQUETS.map((p) => file(p, p)),
      text('{"model_type": "gpt2"}', 'grpo-output/config.json'),
      { name: 'grpo-output/training_args.bin', bytes: new Uint8Array([0x80, 4, 0x95]) },
    ]));
    expect(r.name).toBe('grpo-output');
    expect(r.train.length).toBe(100);
    expect(r.completions.map((c) => c.step)).toEqual([20, 100, 200]);
    expect(r.notices.join(' ')).toMatch(/the longest of 2 trainer_state\.json files/);
    expect(r.notices.join(' ')).toMatch(/Skipped 2 files the lab does not read: "grpo-output\/config\.json", "grpo-output\/training_args\.bin"/);
  });
});

describe('TRL import: a folder of more than 1000 files (train_grpo.py --steps 500)', () => {
  // what `train_grpo.py --steps 500` leaves: one completion log a step, checkpoints with weights, TensorBoard events
  const state = file('grpo-output/trainer_state.json').bytes, older = file('grpo-output/checkpoint-100/trainer_state.json').bytes, parquet = file(PARQUETS[0]).bytes;
  const none = new Uint8Array(0);
  const folder: TrlFile[] = [
    { name: 'out/trainer_state.json', bytes: state },
    ...[125, 250, 375, 500].flatMap((c) => [
      { name: `out/checkpoint-${c}/trainer_state.json`, bytes: older },
      ...['model.safetensors', 'optimizer.pt', 'scheduler.pt', 'rng_state.pth', 'config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json', 'training_args.bin']
        .map((n) => ({ name: `out/checkpoint-${c}/${n}`, size: 5e8, bytes: none })),
    ]),
    // listed out of order, as a folder may list them
    ...Array.from({ length: 500 }, (_, i) => ({ name: `out/completions/completions_${String(((i * 7) % 500) + 1).padStart(5, '0')}.parquet`, bytes: parquet })),
    ...Array.from({ length: 600 }, (_, i) => ({ name: `out/runs/events.out.tfevents.${i}`, size: 1e4, bytes: none })),
  ];
  const listing = folder.map((f) => ({ name: f.name, size: f.size ?? f.bytes.length }));

  it('one rule keeps the logs and every k-th completion log and the last, and says so in one sentence', () => {
    expect(listing.length).toBe(1141);
    const sel = selectImportFiles(listing);
    const names = sel.read.map((f) => f.name);
    expect(names.slice(0, 5)).toEqual(['out/trainer_state.json', 'out/checkpoint-500/trainer_state.json', 'out/checkpoint-375/trainer_state.json', 'out/checkpoint-250/trainer_state.json', 'out/checkpoint-125/trainer_state.json']);
    const steps = names.slice(5).map((n) => Number(/(\d+)\.parquet$/.exec(n)![1]));
    expect(steps.length).toBeLessThanOrEqual(MAX_COMPLETION_FILES);
    expect(steps).toEqual([...Array.from({ length: 167 }, (_, i) => 1 + 3 * i), 500]); // every 3rd in step order, and the last
    expect(sel.kept).toMatch(/^Of 1141 files, read 5 logs and 168 of 500 completion logs \(every 3rd, and the last\); skipped 636 files the lab does not read: "out\/checkpoint-125\/config\.json", "out\/checkpoint-125\/generation_config\.json", .+ and 631 more\.$/);
    // many checkpoints: the output folder's log and the latest checkpoints' are read
    const many = selectImportFiles(Array.from({ length: 60 }, (_, i) => ({ name: `o/checkpoint-${(i + 1) * 10}/trainer_state.json`, size: 100 })));
    expect(many.read.length).toBe(50);
    expect(many.read[0].name).toBe('o/checkpoint-600/trainer_state.json');
    expect(many.kept).toBe("Of 60 files, read 50 of 60 logs (the output folder's, then the latest checkpoints') and 0 completion logs.");
    // a small folder: nothing thinned, the skipped files said as before
    expect(selectImportFiles([{ name: 'a/trainer_state.json', size: 9 }, { name: 'a/config.json', size: 9 }]).kept).toBe('Skipped 1 file the lab does not read: "a/config.json".');
    expect(selectImportFiles([{ name: 'a/trainer_state.json', size: 9 }]).kept).toBeNull();
  });

  it('the import reads the folder (it was refused at 1000 files) and its notices open with that sentence', async () => {
    const r = run(await importTrlFiles(folder));
    expect(r.name).toBe('out');
    expect(r.train.length).toBe(100);
    expect(r.completions.length).toBe(168);
    expect(r.notices[0]).toBe(selectImportFiles(listing).kept);
  });
});

describe('TRL import: completion logs (parquet)', () => {
  it('reads the G completions of each prompt, their rewards and advantages', async () => {
    const r = await decodeCompletionsParquet('completions_00020.parquet', file(PARQUETS[0]).bytes);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [c] = r.steps;
    expect(c.step).toBe(20);
    expect(c.groups.length).toBe(16);
    expect(c.groups.every((g) => g.answers.length === 8)).toBe(true);
    expect(c.rewardColumns).toEqual(['accuracy_reward']);
    expect(c.extraColumns).toEqual(['solution']);
    const g = c.groups[0];
    expect(g.prompt).toMatch(/^\d+\+\d+=$/);
    const rs = g.answers.map((a) => a.rewards.accuracy_reward);
    const mean = rs.reduce((a, b) => a + b, 0) / 8;
    const sd = Math.sqrt(rs.reduce((a, x) => a + (x - mean) ** 2, 0) / 7);
    g.answers.forEach((a) => expect(a.advantage).toBeCloseTo((a.rewards.accuracy_reward - mean) / (sd + 1e-4), 10));
    const [a, b] = g.prompt.slice(0, -1).split('+').map(Number);
    g.answers.forEach((x) => expect(x.rewards.accuracy_reward).toBe(x.completion === String(a + b) ? 1 : 0));
  });

  it("reads pyarrow's version-1 data pages (the fixtures) and version-2 pages (hyparquet-writer's) alike", async () => {
    const bytes = file(PARQUETS[1]).bytes;
    const md = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const col = md.row_groups[0].columns.find((c) => c.meta_data!.path_in_schema[0] === 'completion')!.meta_data!;
    const r = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: Number(col.dictionary_page_offset ?? col.data_page_offset) };
    const types: string[] = [];
    while (r.offset < Number(col.dictionary_page_offset ?? col.data_page_offset) + Number(col.total_compressed_size)) {
      const h = parquetHeader(r);
      types.push(h.type);
      r.offset += h.compressed_page_size;
    }
    expect(types).toEqual(['DICTIONARY_PAGE', 'DATA_PAGE']); // version 1, as pyarrow writes by default
    const v1 = await decodeCompletionsParquet('completions_00100.parquet', bytes);
    expect(v1.ok).toBe(true);
    if (!v1.ok) return;
    const answers = v1.steps[0].groups.flatMap((g) => g.answers);
    const v2 = parquetWriteBuffer({ columnData: [
      { name: 'step', data: answers.map(() => 100n), type: 'INT64' },
      { name: 'prompt', data: answers.map((a) => a.prompt), type: 'STRING' },
      { name: 'completion', data: answers.map((a) => a.completion), type: 'STRING' },
      { name: 'accuracy_reward', data: answers.map((a) => a.rewards.accuracy_reward), type: 'DOUBLE' },
      { name: 'solution', data: answers.map(() => 'x'), type: 'STRING' },
      { name: 'advantage', data: answers.map((a) => a.advantage), type: 'DOUBLE' },
    ] });
    const again = await decodeCompletionsParquet('completions_00100.parquet', new Uint8Array(v2));
    expect(again.ok && again.steps).toEqual(v1.steps);
  });

  it('older logs without rewards (step, prompt, completion), conversational prompts, and the step from the file name', async () => {
    const buf = parquetWriteBuffer({ columnData: [
      { name: 'prompt', data: [[{ role: 'user', content: '1+1=' }], [{ role: 'user', content: '1+1=' }]] },
      { name: 'completion', data: [[{ role: 'assistant', content: '2' }], [{ role: 'assistant', content: '3' }]] },
    ] });
    const r = await decodeCompletionsParquet('completions_00007.parquet', new Uint8Array(buf));
    expect(r.ok && r.steps[0]).toMatchObject({ step: 7, rewardColumns: [], groups: [{ prompt: 'user: 1+1=', answers: [{ completion: 'assistant: 2' }, { completion: 'assistant: 3' }] }] });
  });
});

describe('TRL import: the page guard', () => {
  it('refuses RLE/bit-packed runs that claim more values than the page has (hyparquet would write them all)', () => {
    expect(hybridRunsFit(new Uint8Array([0x80, 0x02, 0x01]), 1, 128)).toBe(true); // one run of 128 ones
    expect(hybridRunsFit(new Uint8Array([0x03, 0xff]), 1, 5)).toBe(true); // one bit-packed group of 8 (padding past 5 allowed)
    expect(hybridRunsFit(new Uint8Array([0xfe, 0xff, 0xff, 0xff, 0x07, 0x01]), 1, 128)).toBe(false); // a run of 2^33 − 1
    expect(hybridRunsFit(new Uint8Array([0x82, 0x02, 0x01]), 1, 128)).toBe(false); // 129 of 128
    expect(hybridRunsFit(new Uint8Array([0x05, 0xff]), 1, 8)).toBe(false); // two groups (16) of 8
    expect(hybridRunsFit(new Uint8Array([0x80, 0x01]), 1, 128)).toBe(false); // runs end before the values
  });
});

describe('TRL import: refusals are one sentence and never a throw', () => {
  const cases: [string, TrlFile[]][] = [
    ['empty', [text('')]],
    ['HTML', [text('<!doctype html><html><body>Not found</body></html>', 'trainer_state.json')]],
    ['binary', [{ name: 'trainer_state.json', bytes: new Uint8Array([0xff, 0xfe, 0, 0x7b]) }]],
    ['not JSON', [text('{"log_history": [', 'trainer_state.json')]],
    ['an SFT log (no GRPO metrics)', [text('{"log_history": [{"loss": 1.2, "learning_rate": 1e-5, "epoch": 0.1, "step": 10}]}', 'trainer_state.json')]],
    ['log_history not a list', [text('{"log_history": {"step": 1}}', 'trainer_state.json')]],
    ['an entry with 600 keys', [text(JSON.stringify({ log_history: [Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, i]))] }), 'trainer_state.json')]],
    ['a bad JSONL line', [text('{"step": 1, "reward": 0.5}\n{"step": 2, "reward": \n', 'log.jsonl')]],
    ['a truncated parquet', [{ name: 'completions_00020.parquet', bytes: file(PARQUETS[0]).bytes.slice(0, 900) }]],
    ['a parquet without PAR1', [{ name: 'completions_00020.parquet', bytes: new Uint8Array(64) }]],
    ['no file', []],
    ['a picture', [{ name: 'loss.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) }]],
  ];
  it.each(cases)('%s', async (_, files) => {
    const r = await importTrlFiles(files);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/^\S.{0,80} (was|were) not imported: .+; the lab's own run is unchanged\.$/);
    expect(r.error.split(/\.\s/).length).toBe(1); // one sentence
    expect(r.error).not.toMatch(/<|Error|undefined|Unexpected token|\[object/);
  });

  it('a bad completion log beside a good trainer_state.json is named in a notice; the run is imported', async () => {
    const r = run(await importTrlFiles([file('grpo-output/trainer_state.json'), { name: 'completions_00020.parquet', bytes: file(PARQUETS[0]).bytes.slice(0, 900) }]));
    expect(r.notices.join(' ')).toMatch(/Not read: completions_00020\.parquet \(/);
    expect(r.train.length).toBe(100);
  });
});

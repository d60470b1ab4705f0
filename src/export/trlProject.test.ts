/**
 * The exported project: model.safetensors parses (header, offsets, shapes) and holds the lab's
 * weights under GPT-2's names; config.json describes the model; the exported weights, read back by a
 * plain-Python GPT-2 (check_export.py, standard library only), give the lab's log-probabilities;
 * the file list is complete and the CLI writes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { CONFIGS, paramLayout, type ModelConfig } from '../model/config.ts';
import { initWeights } from '../model/init.ts';
import { LAYERNORM_EPS } from '../model/reference/ops.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { gpt2Tensors, labWeightsFromGpt2 } from './hfModel.ts';
import { readF32, readSafetensors, SafetensorsError, writeSafetensors } from './safetensors.ts';
import { exportTrlProject, type ExportFile } from './trlProject.ts';
import { crc32, zipFiles } from './zip.ts';

const tmp = mkdtempSync(join(tmpdir(), 'trl-export-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const base = decodeCheckpoint(new Uint8Array(readFileSync('public/checkpoints/add-d2.ckpt')));
const settings: Settings = { ...defaultSettings(), task: 'add', difficulty: 2 };
const small = { trainSize: 50, heldoutSize: 20, paritySequences: 8 };

function writeOut(files: ExportFile[], dir: string): string {
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true });
    writeFileSync(join(dir, f.path), f.bytes ?? f.text ?? '');
  }
  return dir;
}
const file = (files: ExportFile[], path: string) => files.find((f) => f.path === path)!;

describe('TRL export: the policy as a Hugging Face GPT-2', () => {
  const files = exportTrlProject({ settings, config: base.config, weights: base.weights, source: 'add-d2', ...small });

  it('writes the whole project', () => {
    expect(files.map((f) => f.path)).toEqual([
      'README.md', 'config.json', 'generation_config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json',
      'data/train.jsonl', 'data/heldout.jsonl', 'reward.py', 'train_grpo.py', 'ds_zero2.json', 'accelerate_zero2.yaml', 'requirements.txt',
      'check_export.py', 'parity/lab_logprobs.json', 'lab_run.json',
    ]);
    for (const f of files) expect(f.text !== undefined || f.bytes !== undefined, f.path).toBe(true);
    const readme = file(files, 'README.md').text!;
    for (const f of files) expect(readme, f.path).toContain(`\`${f.path}\``);
    expect(readme).toContain('pip install -r requirements.txt\npython train_grpo.py');
  });

  it('model.safetensors parses: header, contiguous offsets, F32, GPT-2 names and shapes, the lab\'s values', () => {
    const st = readSafetensors(file(files, 'model.safetensors').bytes!);
    expect(st.dataStart % 8).toBe(0);
    expect(st.metadata?.format).toBe('pt');
    const { vocabSize: V, seqLen: T, dModel: D, nLayers: L } = base.config;
    const want: Record<string, number[]> = { 'transformer.wte.weight': [V, D], 'transformer.wpe.weight': [T, D], 'transformer.ln_f.weight': [D], 'transformer.ln_f.bias': [D], 'lm_head.weight': [V, D] };
    for (let l = 0; l < L; l++) {
      Object.assign(want, {
        [`transformer.h.${l}.ln_1.weight`]: [D], [`transformer.h.${l}.ln_1.bias`]: [D], [`transformer.h.${l}.attn.c_attn.weight`]: [D, 3 * D], [`transformer.h.${l}.attn.c_attn.bias`]: [3 * D],
        [`transformer.h.${l}.attn.c_proj.weight`]: [D, D], [`transformer.h.${l}.attn.c_proj.bias`]: [D], [`transformer.h.${l}.ln_2.weight`]: [D], [`transformer.h.${l}.ln_2.bias`]: [D],
        [`transformer.h.${l}.mlp.c_fc.weight`]: [D, 4 * D], [`transformer.h.${l}.mlp.c_fc.bias`]: [4 * D], [`transformer.h.${l}.mlp.c_proj.weight`]: [4 * D, D], [`transformer.h.${l}.mlp.c_proj.bias`]: [D],
      });
    }
    expect(Object.fromEntries([...st.entries].map(([k, e]) => [k, e.shape]))).toEqual(want);
    for (const e of st.entries.values()) expect(e.dtype).toBe('F32');
    // every value comes back into the lab's layout unchanged (lm_head transposed there and back)
    const back = labWeightsFromGpt2(base.config, (n) => readF32(st, n));
    const layout = paramLayout(base.config);
    for (const t of layout.tensors) expect(Array.from(back.subarray(t.offset, t.offset + t.size)), t.name).toEqual(Array.from(base.weights.subarray(t.offset, t.offset + t.size)));
    // the head really is transposed: lm_head.weight[v, d] = lab lm_head[d, v]
    const head = readF32(st, 'lm_head.weight');
    const lab = base.weights.subarray(layout.byName.lm_head.offset);
    expect(head[7 * D + 3]).toBe(lab[3 * V + 7]);
    // Conv1D layout: c_attn.weight[i, o] = the lab's qkv.w[i, o] (both [in, out])
    expect(Array.from(readF32(st, 'transformer.h.1.attn.c_attn.weight'))).toEqual(Array.from(base.weights.subarray(layout.byName['h1.qkv.w'].offset, layout.byName['h1.qkv.w'].offset + 3 * D * D)));
  });

  it('the safetensors reader refuses what the format forbids', () => {
    const good = writeSafetensors([{ name: 'a', shape: [2, 2], data: new Float32Array([1, 2, 3, 4]) }]);
    expect(readF32(readSafetensors(good), 'a')).toEqual(new Float32Array([1, 2, 3, 4]));
    expect(() => readSafetensors(good.subarray(0, good.length - 4))).toThrow(SafetensorsError);
    const huge = good.slice();
    new DataView(huge.buffer).setBigUint64(0, 1n << 40n, true);
    expect(() => readSafetensors(huge)).toThrow(/header length/);
    const text = new TextDecoder().decode(good.subarray(8, 8 + Number(new DataView(good.buffer).getBigUint64(0, true))));
    const bad = (json: string) => { const h = new TextEncoder().encode(json); const b = new Uint8Array(8 + h.length + 16); new DataView(b.buffer).setBigUint64(0, BigInt(h.length), true); b.set(h, 8); return b; };
    expect(() => readSafetensors(bad(text.replace('[2,2]', '[2,3]')))).toThrow(/span/);
    expect(() => readSafetensors(bad(text.replace('"F32"', '"Q7"')))).toThrow(/dtype/);
    expect(() => writeSafetensors([{ name: 'a', shape: [3], data: new Float32Array(2) }])).toThrow(SafetensorsError);
  });

  it('config.json describes the model: GPT2LMHeadModel, its sizes, gelu_new (tanh GELU), eps, untied head, special ids, no dropout', () => {
    const c = JSON.parse(file(files, 'config.json').text!);
    const m = base.config;
    expect(c).toMatchObject({ architectures: ['GPT2LMHeadModel'], model_type: 'gpt2', vocab_size: m.vocabSize, n_positions: m.seqLen, n_embd: m.dModel, n_layer: m.nLayers, n_head: m.nHeads, n_inner: 4 * m.dModel, activation_function: 'gelu_new', layer_norm_epsilon: LAYERNORM_EPS, tie_word_embeddings: false, bos_token_id: 1, eos_token_id: 2, pad_token_id: 0, resid_pdrop: 0, embd_pdrop: 0, attn_pdrop: 0 });
    expect(m.vocabSize).toBe(VOCAB_SIZE);
    const st = readSafetensors(file(files, 'model.safetensors').bytes!);
    expect(st.entries.get('transformer.wte.weight')!.shape).toEqual([c.vocab_size, c.n_embd]);
    expect(st.entries.get('transformer.wpe.weight')!.shape).toEqual([c.n_positions, c.n_embd]);
    expect([...st.entries.keys()].filter((k) => k.endsWith('.ln_1.weight')).length).toBe(c.n_layer);
  });

  it('the exported weights, read by GPT-2\'s names in plain Python, give the lab\'s log-probabilities (a shipped base and a fresh init)', () => {
    const fresh: ModelConfig = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
    const runs = [
      { name: 'add-d2 base', dir: writeOut(files, join(tmp, 'add')) },
      { name: 'fresh init, reverse', dir: writeOut(exportTrlProject({ settings: { ...settings, task: 'reverse' }, config: fresh, weights: initWeights(paramLayout(fresh), 5), ...small }), join(tmp, 'fresh')) },
    ];
    for (const r of runs) {
      const out = JSON.parse(execFileSync('python3', [join(r.dir, 'check_export.py'), r.dir, '--engine', 'pure'], { encoding: 'utf8' }));
      expect(out.ok, JSON.stringify(out)).toBe(true);
      expect(out.tokens).toBeGreaterThan(40);
      expect(out.max_abs_diff).toBeLessThan(1e-4);
      console.log(`log-prob parity (${r.name}, plain-Python GPT-2 from model.safetensors): ${out.sequences} held-out sequences, ${out.tokens} tokens, worst |Δ log p| = ${out.max_abs_diff.toExponential(2)}`);
    }
  });

  it('can fail: a head not transposed, or the head tied to wte, is caught by the parity check', () => {
    const wrongHead = files.map((f) => {
      if (f.path !== 'model.safetensors') return f;
      const tensors = gpt2Tensors(base.config, base.weights).map((t) => (t.name === 'lm_head.weight' ? { ...t, data: base.weights.slice(paramLayout(base.config).byName.lm_head.offset, paramLayout(base.config).byName.lm_head.offset + t.data.length) } : t));
      return { ...f, bytes: writeSafetensors(tensors) };
    });
    const dir = writeOut(wrongHead, join(tmp, 'broken'));
    let failed = false;
    try {
      execFileSync('python3', [join(dir, 'check_export.py'), dir, '--limit', '2'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      failed = true;
      expect(JSON.parse((e as { stdout: string }).stdout).ok).toBe(false);
    }
    expect(failed).toBe(true);
  });

  it('a custom task needs its spec, which sets reward.py\'s answer kind and is written as task_spec.json', async () => {
    const { registerSpec } = await import('../tasks/spec/task.ts');
    const spec = JSON.parse(readFileSync('public/tasks/reverse.json', 'utf8'));
    const id = registerSpec(spec).id;
    const fresh: ModelConfig = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
    const input = { settings: { ...settings, task: id }, config: fresh, weights: initWeights(paramLayout(fresh), 1), ...small };
    expect(() => exportTrlProject(input)).toThrow(/pass its spec/);
    const out = exportTrlProject({ ...input, taskSpec: spec });
    expect(file(out, 'reward.py').text).toContain('SPEC_KIND = "letters"');
    expect(JSON.parse(file(out, 'task_spec.json').text!)).toEqual(spec);
  });

  it('zips into one archive that Python\'s zipfile reads back byte for byte (CRCs checked)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const zip = join(tmp, 'project.zip');
    writeFileSync(zip, zipFiles(files, 'rlvr-add-trl/'));
    const listing = JSON.parse(execFileSync('python3', ['-c', 'import hashlib, json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))', zip], { encoding: 'utf8' }));
    const sha = (b: Uint8Array) => execFileSync('python3', ['-c', 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())'], { input: b, encoding: 'utf8' }).trim();
    expect(Object.keys(listing)).toEqual(files.map((f) => `rlvr-add-trl/${f.path}`));
    const st = file(files, 'model.safetensors').bytes!;
    expect(listing['rlvr-add-trl/model.safetensors']).toBe(sha(st));
    expect(listing['rlvr-add-trl/reward.py']).toBe(sha(new TextEncoder().encode(file(files, 'reward.py').text!)));
  });

  it('the prompts are the lab\'s split: disjoint, held-out first lines = the lab\'s held-out set, answers = the task\'s', async () => {
    const { isHeldOut } = await import('../tasks/split.ts');
    const { heldoutPrompts } = await import('../rl/evaluation.ts');
    const { getTask } = await import('../tasks/registry.ts');
    const rows = (p: string) => file(files, p).text!.trim().split('\n').map((l) => JSON.parse(l) as { prompt: string; answer: string });
    const train = rows('data/train.jsonl');
    const heldout = rows('data/heldout.jsonl');
    expect(train.length).toBe(50);
    expect(heldout.length).toBe(20);
    expect(train.every((r) => !isHeldOut('add', r.prompt))).toBe(true);
    expect(heldout.every((r) => isHeldOut('add', r.prompt))).toBe(true);
    expect(heldout.slice(0, 8).map((r) => r.prompt)).toEqual(heldoutPrompts(getTask('add'), 2, 8, settings.seed));
    for (const r of [...train, ...heldout]) expect(r.answer).toBe(getTask('add').solve(r.prompt));
  });
});

describe('src/export is engine code', () => {
  it('imports neither React, the DOM-bound layers (store, lab, ui, persist) nor node: modules', () => {
    const dir = 'src/export';
    const bad = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).flatMap((f) => {
      const text = readFileSync(join(dir, f), 'utf8');
      return [...text.matchAll(/^import[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]).filter((m) => /^react|^node:|\/(store|lab|ui|persist)\//.test(m)).map((m) => `${f} imports ${m}`)
        .concat(/\b(document|window)\./.test(text) ? [`${f} touches the DOM`] : []);
    });
    expect(bad).toEqual([]);
  });
});

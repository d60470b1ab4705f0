import { describe, expect, it } from 'vitest';
import { CONFIGS, paramLayout } from '../model/config.ts';
import { encodeCheckpoint } from '../model/checkpoint.ts';
import { defaultSettings } from '../rl/settings.ts';
import { parseLabUrl } from '../store/url.ts';
import { TASKS, WEAK_VERIFIERS } from '../tasks/registry.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { Rng } from '../model/rng.ts';
import { SAVED_RUN_FORMAT, SAVED_RUN_VERSION, validateSavedRun } from './savedRun.ts';
import { MAX_SETTINGS_FILE_BYTES, parseSettingsFile, settingsFileText } from './settingsFile.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('settings files', () => {
  it('round-trip: the exported file restores every setting', () => {
    const s = { ...defaultSettings(), numGenerations: 5, beta: 0.04, task: 'add', dynamicSampling: true, seed: 42 };
    const r = parseSettingsFile('s.json', enc(settingsFileText(s)));
    expect(r).toEqual({ ok: true, settings: s, notices: [] });
  });

  it('refuses hostile files as a whole, in one sentence each', () => {
    const good = settingsFileText({ ...defaultSettings(), beta: 0.1 });
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty', new Uint8Array(0), /empty/],
      ['truncated', enc(good.slice(0, good.length / 2)), /not valid JSON, perhaps truncated/],
      ['oversized', new Uint8Array(MAX_SETTINGS_FILE_BYTES + 1).fill(32), /more than a settings file/],
      ['binary', new Uint8Array([0xff, 0xfe, 0x00, 0x80]), /not text/],
      ['newer version', enc(good.replace('"version": 1', '"version": 7')), /version 7 \(written by a newer lab\)/],
      ['wrong format', enc(good.replace('rlvr-lab-settings', 'something-else')), /the field format must be "rlvr-lab-settings", got "something-else"/],
      ['array', enc('[1,2]'), /not a JSON object/],
      ['no settings', enc('{"format":"rlvr-lab-settings","version":1}'), /the field settings is missing \(it must be an object\)/],
      ['bad values', enc('{"settings":{"numGenerations":"8","beta":99,"task":"<script>","dynamicSampling":"yes"}}'), /4 invalid values: numGenerations must be a number/],
      ['overflowing number', enc('{"settings":{"learningRate":1e999}}'), /learningRate must be a number, got Infinity/],
    ];
    const table = cases.map(([name, bytes, want]) => {
      const r = parseSettingsFile(`${name}.json`, bytes);
      expect(r.ok, name).toBe(false);
      const error = r.ok ? '' : r.error;
      expect(error, name).toMatch(want);
      expect(error, name).toMatch(/Nothing was changed\.$/);
      return { name, error: error.slice(0, 110) };
    });
    console.table(table);
  });

  it('prototype keys are unknown settings, not table entries', () => {
    const r = parseSettingsFile('p.json', enc('{"settings":{"constructor":5,"toString":1,"__proto__":{"beta":1},"beta":0.2}}'));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.settings.beta).toBe(0.2);
      expect(Object.keys(r.settings).sort()).toEqual(Object.keys(defaultSettings()).sort());
      expect(r.notices.join('; ')).toContain('ignored unknown setting "constructor"');
    }
    const u = parseLabUrl('?constructor=5&toString=1&__proto__=2&hasOwnProperty=3&hide=constructor,beta');
    expect(Object.keys(u.settings).sort()).toEqual(Object.keys(defaultSettings()).sort());
    expect(u.hidden).toEqual(['beta']);
    for (const k of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(u.notices.join('; '), k).toContain(`"${k}"`);
    expect(String(u.settings)).toBe('[object Object]');
  });
});

describe('saved runs', () => {
  const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
  const n = paramLayout(config).total;
  const w = new Float32Array(n).fill(0.01);
  const record = () => ({
    format: SAVED_RUN_FORMAT, version: SAVED_RUN_VERSION, savedAt: 1, settings: defaultSettings(),
    page: { lessonId: null, lessonVariant: 0, backendPref: 'cpu' },
    steps: [{ step: 0, reward: 0.5 }], evals: [{ step: 0, heldout_accuracy: 0.1 }],
    trainer: { step: 1, numTokens: 10, promptRng: { state: 123, spare: null } },
    checkpoint: encodeCheckpoint({ config, weights: w, optimizer: { step: 1, m: new Float32Array(n), v: new Float32Array(n) } }),
    reference: encodeCheckpoint({ config, weights: w }),
    importedName: null,
  });

  it('a valid record decodes with its checkpoints', () => {
    const r = validateSavedRun(record(), { vocabSize: VOCAB_SIZE });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.run.checkpoint.optimizer?.step).toBe(1);
  });

  it('an evaluation with a watched task (the forgetting lesson) is kept; a damaged one says where', () => {
    const watch = { task: 'reverse', difficulty: 2, heldout_accuracy: 0.3, pass1: 0.22 };
    const r = validateSavedRun({ ...record(), evals: [{ step: 0, heldout_accuracy: 0.1, watch }] }, { vocabSize: VOCAB_SIZE });
    expect(r.ok && r.run.record.evals[0].watch).toEqual(watch);
    const bad = validateSavedRun({ ...record(), evals: [{ step: 0, heldout_accuracy: 0.1, watch: { ...watch, pass1: 'x' } }] }, { vocabSize: VOCAB_SIZE });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/watch\.pass1/);
  });

  it('a run saved under a lesson this version does not have resumes without the lesson (the run is not lost)', () => {
    const known = { ...record(), page: { lessonId: 'mixed-groups', lessonVariant: 1, backendPref: 'cpu' } };
    const r0 = validateSavedRun(known, { vocabSize: VOCAB_SIZE });
    expect(r0.ok && r0.run.record.page).toEqual({ lessonId: 'mixed-groups', lessonVariant: 1, backendPref: 'cpu' });
    for (const page of [{ lessonId: 'renamed-lesson', lessonVariant: 0 }, { lessonId: 'mixed-groups', lessonVariant: 40 }]) {
      const r = validateSavedRun({ ...record(), page: { ...page, backendPref: 'cpu' } }, { vocabSize: VOCAB_SIZE });
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.run.record.page).toEqual({ lessonId: null, lessonVariant: 0, backendPref: 'cpu' });
    }
  });

  it('damaged records say why they cannot be resumed', () => {
    const damaged: [string, (x: Record<string, unknown>) => void, RegExp][] = [
      ['newer version', (x) => { x.version = 2; }, /format version 2/],
      ['settings', (x) => { x.settings = { ...defaultSettings(), numGenerations: 999 }; }, /numGenerations must be between/],
      ['history', (x) => { x.steps = 'lots'; }, /metric history/],
      ['checksum', (x) => { const c = (x.checkpoint as Uint8Array).slice(); c[c.length - 9] ^= 1; x.checkpoint = c; }, /checksum/],
      ['truncated', (x) => { x.checkpoint = (x.checkpoint as Uint8Array).slice(0, 100); }, /truncated/],
      ['no optimizer', (x) => { x.checkpoint = x.reference; }, /no optimizer state/],
      ['not an object', (x) => { for (const k of Object.keys(x)) delete x[k]; }, /unknown record format/],
    ];
    for (const [name, damage, want] of damaged) {
      const x = record() as unknown as Record<string, unknown>;
      damage(x);
      const r = validateSavedRun(x, { vocabSize: VOCAB_SIZE });
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error, name).toMatch(want);
    }
    expect(validateSavedRun(null, { vocabSize: VOCAB_SIZE }).ok).toBe(false);
  });
});

describe('verifiers cap hostile answers in length', () => {
  // The cost of these answers is measured by `npm run verify:bench` (a benchmark, not a timed test).
  it('every strict verifier refuses a 100 000-character response by the length cap, before parsing; weak verifiers return a verdict', () => {
    const hostile = ['9'.repeat(100_000), '('.repeat(50_000) + ')'.repeat(50_000), '|'.repeat(100_000), `${'1+'.repeat(50_000)}1`];
    for (const task of TASKS) {
      const prompt = task.generate(new Rng(1), task.difficulties[0]).prompt;
      for (const text of hostile) {
        const v = task.verify(prompt, text);
        expect(v.correct, task.id).toBe(false);
        expect(v.reason, task.id).toBe('answer too long');
        // A weak verifier scans the text (a dump containing the answer is one of its exploits), but never throws.
        for (const wv of WEAK_VERIFIERS) expect([0, 0.1, 1], `${task.id} ${wv.id}`).toContain(wv.verify(task, prompt, text).reward);
      }
    }
  });
});

// Where the CPU engine's workers cannot start (a content-security policy, an old browser), the
// engine runs on the page's thread and the session remembers it: the page's later runs (a reset,
// a lesson, a recovery) do not try again. Workers that start but answer too late (a busy machine)
// are tried again at the next run: one slow moment must not leave the page computing for good.
import { describe, expect, it, vi } from 'vitest';
import { CONFIGS } from '../model/config.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { CheckedAdapters, cpuEngine, fitRows, NO_WORKER_SENTENCE } from './engine.ts';
import type { SelfCheckReport } from '../gpu/selfCheck.ts';
import { WorkerGpuBackend } from '../worker/gpuEngine.ts';

const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };

describe('cpuEngine without workers', () => {
  it('runs on the page, says so each run, and tries the workers once a session', async () => {
    const g = globalThis as { Worker?: unknown };
    const had = g.Worker;
    const made = { n: 0 };
    g.Worker = class { constructor() { made.n++; throw new Error('blocked by the page\'s content-security policy'); } };
    try {
      const session = new CheckedAdapters();
      const first: string[] = [], second: string[] = [];
      const a = await cpuEngine(config, 1, null, first, session);
      expect(made.n).toBe(1);
      expect(session.workersFailed).toBe(true);
      const b = await cpuEngine(config, 1, null, second, session);
      expect(made.n).toBe(1); // not tried again
      expect([first, second]).toEqual([[NO_WORKER_SENTENCE], [NO_WORKER_SENTENCE]]);
      expect([a.name, b.name]).toEqual(['cpu', 'cpu']);
      await cpuEngine(config, 1, null, [], new CheckedAdapters()); // another page (session) tries again
      expect(made.n).toBe(2);
      a.dispose();
      b.dispose();
    } finally {
      g.Worker = had;
    }
  });

  it('workers that started but did not answer in time are tried again at the next run', async () => {
    const g = globalThis as { Worker?: unknown };
    const had = g.Worker;
    const made = { n: 0 };
    g.Worker = class { // starts, never answers
      constructor() { made.n++; }
      addEventListener() {}
      removeEventListener() {}
      postMessage() {}
      terminate() {}
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const session = new CheckedAdapters();
      const notices: string[] = [];
      const first = cpuEngine(config, 1, null, notices, session);
      await vi.advanceTimersByTimeAsync(20_001); // the start's time limit
      const a = await first;
      expect(a.name).toBe('cpu');
      expect(notices).toEqual([NO_WORKER_SENTENCE]);
      expect(session.workersFailed).toBe(false);
      const tried = made.n;
      const second = cpuEngine(config, 1, null, [], session);
      await vi.advanceTimersByTimeAsync(20_001);
      (await second).dispose();
      expect(made.n).toBeGreaterThan(tried); // tried again
      a.dispose();
    } finally {
      vi.useRealTimers();
      g.Worker = had;
    }
  });
});

describe('CheckedAdapters and fitRows: kernel forms per rows class', () => {
  const FORMS_32 = { matmul: 'tiled', reduction: 'subgroup', attention: 'tiled', decode: 'fused' } as const;
  const FORMS_256 = { matmul: 'direct', reduction: 'row', attention: 'row', decode: 'ops' } as const;
  const report = (forms: object, rows: number, autotuneForms = forms) => ({ ok: true, forms, kernels: 40, worstAbs: 1e-6, autotune: { forms: autotuneForms, rows, families: [], finished: true, source: 'timed', ms: 1, compileMs: 0, budgetMs: 2000, key: `k${rows}` } }) as unknown as SelfCheckReport;
  /** A WebGPU engine in its worker, as the lab holds it: the tune alone answers with FORMS_256 timed at the rows asked. */
  function engine() {
    const calls: { retune: [string, number][]; setForms: object[] } = { retune: [], setForms: [] };
    const gpu = Object.assign(Object.create(WorkerGpuBackend.prototype) as WorkerGpuBackend, {
      description: 'google swiftshader',
      config,
      retune: async (known: SelfCheckReport, rows: number) => { calls.retune.push([known.forms.matmul, rows]); return report(FORMS_256, rows); },
      setForms: async (f: object) => { calls.setForms.push(f); },
    });
    return { gpu, calls };
  }

  it('files a check by rows class: 24 and 32 rows share one, 256 rows do not', () => {
    const { gpu } = engine();
    const checked = new CheckedAdapters();
    const r32 = report(FORMS_32, 32);
    checked.remember(gpu, 32, r32);
    expect(checked.get(gpu, 24)).toBe(r32);
    expect(checked.get(gpu, 256)).toBeUndefined(); // a 256-row lesson does not reuse the 32-row choice
    expect(checked.shape(gpu)).toBe(r32); // its forms passed the check: the tune alone at 256 starts from them
    checked.forget(gpu); // a lost device: every rows class checked again
    expect([checked.get(gpu, 32), checked.shape(gpu)]).toEqual([undefined, undefined]);
  });

  it('a run of another rows class gets the tune alone at its rows, once; a known rows class reuses its forms', async () => {
    const { gpu, calls } = engine();
    const checked = new CheckedAdapters();
    expect(await fitRows(gpu, 32, checked)).toBeNull(); // never checked here: the caller runs the whole check
    checked.remember(gpu, 32, report(FORMS_32, 32));
    const said = await fitRows(gpu, 256, checked);
    expect(calls.retune).toEqual([['tiled', 256]]); // from the forms that passed at 32, timed at 256
    expect(said).toMatch(/^Self-check: passed on this GPU earlier in this session .*not run again\./);
    expect(checked.get(gpu, 200)?.forms).toEqual(FORMS_256);
    await fitRows(gpu, 200, checked); // the same rows class: nothing timed, its forms set
    await fitRows(gpu, 24, checked); // back to 32's class: its forms set
    expect(calls.retune.length).toBe(1);
    expect(calls.setForms).toEqual([FORMS_256, FORMS_32]);
  });

  it('an idle-time choice not checked yet (the record chose other forms than the run uses): checked and taken as the next run starts', async () => {
    const { gpu, calls } = engine();
    const checked = new CheckedAdapters();
    checked.remember(gpu, 256, report(FORMS_32, 256, FORMS_256));
    await fitRows(gpu, 256, checked);
    expect(calls.retune).toEqual([['tiled', 256]]);
    expect(checked.get(gpu, 256)?.forms).toEqual(FORMS_256);
  });
});

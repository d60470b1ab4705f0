// The autotune's timing loop and its cache record, on a scripted clock that each step advances by
// what it costs: compiling is not charged to the budget, every form is warmed up before it is
// timed, the fastest form is chosen and a slow one dropped, the budget stops it between families;
// a tune cut short is cached as unfinished and completed by the next visit's, and the record is
// filed by rows class (a lesson at 256 rows does not read one timed at 32).
import { describe, expect, it } from 'vitest';
import { autotuneKey, autotuneSentence, parseCachedReport, retuneWithCache, runTune, timeForms, tuneRowsClass, tuneWithCache, type AutotuneReport, type TuneHooks } from './autotune.ts';
import { sameForms, type FormFamily, type Forms } from './forms.ts';
import type { WebGPUBackend } from './backend.ts';

/**
 * A clock that each step advances by its cost: a run by its form's cost (`cold` more for the first
 * run after the form is set), setting a form by `compile[form]` the first time (its pipelines), the
 * up-front compiling by `upfront`. Counts runs per form and per family, and keeps the order of events.
 */
function fake(costs: Record<string, number>, o: { deadline?: number; cold?: number; compile?: Record<string, number>; upfront?: number } = {}) {
  let t = 0;
  let current = '';
  let fresh = false;
  const compiled = new Set<string>();
  const runs: Record<string, number> = {};
  const familyRuns: Record<string, number> = {};
  const chosen: Record<string, string> = {};
  const events: string[] = [];
  const h: TuneHooks & { deadline: number } = {
    compile: async () => { t += o.upfront ?? 0; events.push('compile'); },
    prepare: async (_family, form) => {
      if (!compiled.has(form)) t += o.compile?.[form] ?? 0;
      compiled.add(form);
      [current, fresh] = [form, true];
      events.push(`set ${form}`);
    },
    run: async (family) => {
      t += costs[current] + (fresh ? o.cold ?? 0 : 0);
      fresh = false;
      runs[current] = (runs[current] ?? 0) + 1;
      familyRuns[family] = (familyRuns[family] ?? 0) + 1;
      events.push(`run ${current}`);
    },
    chosen: (family, form) => { chosen[family] = form; },
    now: () => t,
    deadline: o.deadline ?? Infinity,
  };
  return { h, runs, familyRuns, chosen, events, time: () => t };
}

const MATMUL = { family: 'matmul' as FormFamily, forms: ['tiled', 'direct', 'plain'], work: 'w' };
const DECODE = { family: 'decode' as FormFamily, forms: ['fused', 'ops'], work: 'w' };
const PASSED: Forms = { matmul: 'tiled', reduction: 'workgroup', attention: 'tiled', decode: 'fused' };
const SPECS = [MATMUL, { family: 'reduction' as FormFamily, forms: ['workgroup', 'row'], work: 'w' }, { family: 'attention' as FormFamily, forms: ['tiled', 'row'], work: 'w' }, DECODE];

describe('autotune: timeForms', () => {
  it('keeps the fastest form of each family and drops a slow one after one timed run', async () => {
    const f = fake({ fused: 10, ops: 3, tiled: 5, direct: 4, plain: 40 });
    const out = await timeForms([DECODE, MATMUL], f.h);
    expect(out.map((x) => x.chosen)).toEqual(['ops', 'direct']);
    expect(f.chosen).toEqual({ decode: 'ops', matmul: 'direct' });
    expect(out[0].candidates).toEqual([{ form: 'fused', ms: 10 }, { form: 'ops', ms: 3 }]);
    expect(f.runs.fused).toBe(4); // one untimed warm-up, then three timed
    expect(f.runs.plain).toBe(2); // its warm-up, then 40 > 1.5 × 4 after its first timed run: out
  });

  it('warms every form up before timing it: a cold first run neither counts nor drops the form', async () => {
    // each form's first run after it is set costs 50 more (bind groups, buffers, the first dispatch)
    const f = fake({ tiled: 5, direct: 4, plain: 40 }, { cold: 50 });
    const [m] = await timeForms([MATMUL], f.h);
    expect(m.candidates).toEqual([{ form: 'tiled', ms: 5 }, { form: 'direct', ms: 4 }, { form: 'plain', ms: 40 }]);
    expect(m.chosen).toBe('direct');
    // every form: set, then an untimed run, then its timed runs
    for (const form of MATMUL.forms) expect(f.events[f.events.indexOf(`set ${form}`) + 1]).toBe(`run ${form}`);
    expect([f.runs.tiled, f.runs.direct]).toEqual([4, 4]);
  });

  it('does not charge compiling a form to the budget', async () => {
    // each form's pipelines take 1 s to compile when it is first set; the budget is 100 ms of runs
    const f = fake({ fused: 10, ops: 3, tiled: 5, direct: 4, plain: 40 }, { deadline: 100, compile: { fused: 1000, ops: 1000, tiled: 1000, direct: 1000, plain: 1000 } });
    const out = await timeForms([DECODE, MATMUL], f.h);
    expect(out.flatMap((x) => x.candidates)).toEqual([{ form: 'fused', ms: 10 }, { form: 'ops', ms: 3 }, { form: 'tiled', ms: 5 }, { form: 'direct', ms: 4 }, { form: 'plain', ms: 40 }]);
    expect(out.map((x) => x.timed)).toEqual([true, true]);
  });

  it('stops at the budget between forms: one started gets its warm-up and a timed run, none starts after, a family not fully timed keeps its first form', async () => {
    const f = fake({ fused: 10, ops: 3, tiled: 5, direct: 4 }, { deadline: 35 });
    const out = await timeForms([DECODE, { ...MATMUL, forms: ['tiled', 'direct'] }], f.h);
    expect(out[0]).toMatchObject({ candidates: [{ form: 'fused', ms: 10 }, { form: 'ops', ms: null }], chosen: 'fused', timed: false });
    expect(out[1]).toMatchObject({ candidates: [{ form: 'tiled', ms: null }, { form: 'direct', ms: null }], chosen: 'tiled', timed: false });
    expect([f.runs.ops, f.runs.tiled]).toEqual([undefined, undefined]);
    expect(f.chosen).toEqual({});
    expect(f.time()).toBe(40); // fused's warm-up and three timed runs (the third started at 30, before the deadline)
  });
});

describe('autotune: runTune', () => {
  it('compiles the candidates before the clock starts: a compile longer than the budget times every form', async () => {
    const f = fake({ tiled: 5, direct: 4, plain: 40, workgroup: 2, row: 1, fused: 10, ops: 3 }, { upfront: 5000 });
    const r = await runTune(SPECS, f.h, { budgetMs: 2000, resume: null });
    expect(r.families.flatMap((x) => x.candidates).filter((c) => c.ms === null)).toEqual([]);
    expect(r.finished).toBe(true);
    expect(f.events[0]).toBe('compile');
    expect(r.compileMs).toBe(5000);
    expect(r.ms).toBeLessThan(2000);
  });
});

/**
 * A visit's self-check tune: the cache read as selfCheck reads it (its forms checked first: here they
 * pass), the forms timed within `budgetMs` on a fresh scripted clock.
 */
async function visit(store: Map<string, unknown>, budgetMs: number, key = 'k') {
  const f = fake({ tiled: 50, direct: 40, plain: 400, workgroup: 20, row: 10, fused: 100, ops: 30 });
  let timedNow = false;
  const cached = parseCachedReport(store.get(key) ?? null, key);
  const passed = cached?.forms ?? PASSED;
  const { report } = await tuneWithCache(passed, cached, {
    key,
    cache: { get: async (k) => store.get(k), put: async (k, r) => { store.set(k, JSON.parse(JSON.stringify(r))); } },
    time: async (resume) => {
      timedNow = true;
      const r = await runTune(SPECS, f.h, { budgetMs, resume });
      // the forms the families chose (the ones kept from `resume` chose theirs on the visit that timed them)
      const forms = { ...passed, ...Object.fromEntries(r.families.filter((x) => x.timed).map((x) => [x.family, x.chosen])) } as Forms;
      return { ...r, forms, budgetMs, rows: 32, source: 'timed', key };
    },
    check: async () => null, // every choice passes the CPU reference here
  });
  return { report, runs: f.familyRuns, timedNow, stored: parseCachedReport(store.get(key) ?? null, key) };
}

describe('autotune: a tune cut short', () => {
  it('is cached as unfinished with the families it timed, resumed by the next visit for the others, then final', async () => {
    const store = new Map<string, unknown>();
    // visit 1: the matmul family alone costs 4·50 + 4·40 + 2·400 = 1160 ms, past a 1 s budget
    const v1 = await visit(store, 1000);
    expect(v1.report.families.map((x) => [x.family, x.timed])).toEqual([['matmul', true], ['reduction', false], ['attention', false], ['decode', false]]);
    expect(v1.stored).toMatchObject({ finished: false, forms: { ...PASSED, matmul: 'direct' } });
    expect(autotuneSentence(v1.report)).toMatch(/\. The reductions, the attention and the decode were not timed within the budget: they keep their defaults \(the workgroup-tree reductions, the tiled attention .* and the fused decode block\) until they are timed, in the lab's idle time or on the next visit\.$/);
    // visit 2: the matmul is kept as timed, the other three are timed now; the record is final
    const v2 = await visit(store, 1000);
    expect(v2.timedNow).toBe(true);
    expect(v2.runs.matmul).toBeUndefined(); // the matmul: not timed again
    expect(v2.runs.decode).toBe(8); // each decode form: its warm-up and three timed runs
    expect(v2.report.families.map((x) => [x.family, x.timed, !!x.earlier])).toEqual([['matmul', true, true], ['reduction', true, false], ['attention', true, false], ['decode', true, false]]);
    expect(v2.stored).toMatchObject({ finished: true, forms: { matmul: 'direct', reduction: 'row', attention: 'row', decode: 'ops' } });
    expect(autotuneSentence(v2.report)).toMatch(/^Kernel forms timed on this GPU for 32 rows \(the matmul on an earlier visit; this visit: \d+ ms of timing, budget 1\.0 s\), the fastest that passed kept: the direct matmul .*; the op-by-op decode \(30 ms; fused 100 ms\)\.$/);
    // visit 3: a final record for the forms that passed: nothing timed
    const v3 = await visit(store, 1000);
    expect(v3.timedNow).toBe(false);
    expect(v3.report.source).toBe('cache');
  });
});

describe('autotune: a family cut short', () => {
  it('keeps its first form; the next visit times only its forms without a time, then chooses among all', async () => {
    const store = new Map<string, unknown>();
    // visit 1: tiled (warm-up and 3 × 50), direct from 200 ms (warm-up and 2 × 40: the third would start past 300 ms); plain does not start
    const v1 = await visit(store, 300);
    expect(v1.report.families[0]).toMatchObject({ family: 'matmul', timed: false, chosen: 'tiled', candidates: [{ form: 'tiled', ms: 50 }, { form: 'direct', ms: 40 }, { form: 'plain', ms: null }] });
    expect(v1.stored).toMatchObject({ finished: false, forms: PASSED });
    expect(autotuneSentence(v1.report)).toMatch(/^Kernel forms: no family fully timed on this GPU for 32 rows yet \(320 ms of timing, budget 300 ms\)\. The matmul \(so far tiled 50 ms, direct 40 ms\), the reductions, the attention and the decode were not timed within the budget: they keep their defaults \(the tiled matmul/);
    // visit 2: plain alone (its warm-up and one timed run: 400 > 1.5 × 40), then the matmul chooses direct
    const v2 = await visit(store, 300);
    expect(v2.report.families[0]).toMatchObject({ timed: true, chosen: 'direct', candidates: [{ form: 'tiled', ms: 50 }, { form: 'direct', ms: 40 }, { form: 'plain', ms: 400 }] });
    expect(v2.runs.matmul).toBe(2);
    expect(v2.stored?.forms.matmul).toBe('direct');
  });
});

describe('autotune: the cached record', () => {
  const report: AutotuneReport = {
    families: [{ family: 'decode', candidates: [{ form: 'fused', ms: 4.5 }, { form: 'ops', ms: 3.1 }], chosen: 'ops', work: 'a rollout', timed: true }],
    forms: { matmul: 'tiled', reduction: 'subgroup', attention: 'tiled', decode: 'ops' }, ms: 300, compileMs: 80, budgetMs: 500, rows: 32, finished: false, source: 'timed', key: 'k1',
  };
  const stored = JSON.parse(JSON.stringify(report));

  it('is read back for its own key, marked as from the cache', () => {
    expect(parseCachedReport(stored, 'k1')).toMatchObject({ forms: report.forms, families: report.families, source: 'cache', ms: 0, finished: false });
  });

  it('reads a record from before families said whether they were timed: one with forms never timed is unfinished', () => {
    const old = { ...stored, families: [{ family: 'matmul', candidates: [{ form: 'direct', ms: 25 }, { form: 'tiled', ms: 80 }], chosen: 'direct', work: 'w' },
      { family: 'reduction', candidates: [{ form: 'row', ms: 3.2 }, { form: 'subgroup', ms: 258 }, { form: 'workgroup', ms: null }], chosen: 'row', work: 'w' }] };
    for (const k of ['timed', 'finished', 'rows', 'compileMs']) delete old[k];
    const r = parseCachedReport(old, 'k1')!;
    expect(r.families.map((f) => f.timed)).toEqual([true, false]);
    expect(r.finished).toBe(false);
  });

  it('is ignored for another key (another adapter, browser version, model or rows class) or when it is not a report', () => {
    expect(parseCachedReport(stored, 'k2')).toBeNull();
    for (const bad of [null, 'x', { ...stored, forms: { ...stored.forms, decode: 'turbo' } }, { ...stored, forms: undefined }, { ...stored, families: [{ family: 'decode', candidates: [{ form: 'ops', ms: -1 }], chosen: 'ops' }] }]) {
      expect(parseCachedReport(bad, 'k1')).toBeNull();
    }
  });

  it('is filed by rows class: 32 and 256 rows have different keys, rows of one class share theirs', () => {
    const be = { ctx: { device: { adapterInfo: { vendor: 'google', architecture: 'swiftshader', device: '', description: '' } }, description: 'SwiftShader' }, config: { vocabSize: 51, seqLen: 24, dModel: 32, nHeads: 4, nLayers: 2 } } as unknown as WebGPUBackend;
    const key = (rows?: number) => autotuneKey(be, { rows, browser: 'Chrome/156' });
    expect(key(256)).not.toBe(key(32));
    expect(key(200)).toBe(key(256));
    expect(key(24)).toBe(key(32));
    expect(key()).toBe(key(32));
    expect([1, 24, 32, 33, 256].map(tuneRowsClass)).toEqual([1, 32, 32, 64, 256]);
    expect(parseCachedReport({ ...stored, key: key(32) }, key(256))).toBeNull(); // a lesson at 256 rows does not read the choice timed at 32
  });
});

describe('autotune: a tune finished in idle time, one family a slice', () => {
  it('times only the first family not timed yet; the others keep what the record had of them; slices resume until final', async () => {
    const f = fake({ tiled: 50, direct: 40, plain: 400, workgroup: 20, row: 10, fused: 100, ops: 30 });
    // the visit's own tune, cut short in the matmul: tiled and direct timed, plain not
    let rec: AutotuneReport = { ...(await runTune(SPECS, f.h, { budgetMs: 300, resume: null })), forms: PASSED, budgetMs: 300, rows: 32, source: 'timed', key: 'k' };
    expect(rec.families[0].candidates.map((c) => c.ms)).toEqual([50, 40, null]);
    const slices: string[][] = [];
    for (let i = 0; i < 8 && !rec.finished; i++) {
      const before = { ...f.familyRuns };
      rec = { ...rec, ...(await runTune(SPECS, f.h, { budgetMs: 300, resume: rec, families: 1 })) };
      slices.push(Object.keys(f.familyRuns).filter((k) => f.familyRuns[k] !== before[k]));
      // one family at most per slice; a family not reached keeps its untimed record, its first form
      expect(rec.families.filter((x) => !x.timed).every((x) => x.chosen === SPECS.find((s) => s.family === x.family)!.forms[0])).toBe(true);
    }
    // the decode's fused form spends its slice (warm-up and two timed runs of 100 ms): op-by-op in the next
    expect(slices).toEqual([['matmul'], ['reduction'], ['attention'], ['decode'], ['decode']]);
    expect(f.familyRuns.matmul).toBe(4 + 3 + 2); // tiled and direct on the visit, plain alone in its slice (warm-up, one timed run)
    expect(rec.finished).toBe(true);
    expect(rec.families.map((x) => x.chosen)).toEqual(['direct', 'row', 'row', 'ops']);
    expect(rec.families.map((x) => !!x.earlier)).toEqual([true, true, true, false]); // each slice keeps what earlier slices timed
    expect(autotuneSentence({ ...rec, source: 'idle' })).toMatch(/^Kernel forms timed on this GPU for 32 rows with the latest of them in the lab's idle time, the fastest that passed kept: the direct matmul/);
  });

  it('a slice cut short in its family keeps the forms it timed for the next slice', async () => {
    const f = fake({ tiled: 50, direct: 40, plain: 400, workgroup: 20, row: 10, fused: 100, ops: 30 });
    const first = await runTune(SPECS, f.h, { budgetMs: 100, resume: null, families: 1 });
    expect(first.families[0]).toMatchObject({ timed: false, candidates: [{ form: 'tiled', ms: 50 }, { form: 'direct', ms: null }, { form: 'plain', ms: null }] });
    expect(Object.keys(f.familyRuns)).toEqual(['matmul']);
    const rec = { ...first, forms: PASSED, budgetMs: 100, rows: 32, source: 'timed' as const, key: 'k' };
    const second = await runTune(SPECS, f.h, { budgetMs: 100, resume: rec, families: 1 });
    expect(second.families[0].candidates.map((c) => c.ms)).toEqual([50, 40, null]);
    expect(f.runs.tiled).toBe(2); // its warm-up and one timed run in the first slice, not timed again
  });
});

describe('autotune: an idle-time slice that a step waits for', () => {
  it('starts no run once stop says so: the step waits for the run under way only; a form stopped after its warm-up stays untimed', async () => {
    const f = fake({ tiled: 50, direct: 40, plain: 400 });
    let wanted = false;
    // a step is pressed during direct's warm-up (the 4th run of the family: tiled's warm-up and 3 timed runs came first)
    const h = { ...f.h, run: async (family: FormFamily) => { await f.h.run(family); if (f.familyRuns.matmul === 5) wanted = true; }, stop: () => wanted };
    const [m] = await timeForms([MATMUL], h);
    expect(m).toMatchObject({ timed: false, chosen: 'tiled', candidates: [{ form: 'tiled', ms: 50 }, { form: 'direct', ms: null }, { form: 'plain', ms: null }] });
    expect([f.runs.tiled, f.runs.direct, f.runs.plain]).toEqual([4, 1, undefined]); // direct: its warm-up, no timed run
    expect(f.chosen).toEqual({});
  });
});

describe('autotune: the tune for a run of other rows (retuneWithCache)', () => {
  const KNOWN: Forms = PASSED;
  const CACHED: Forms = { matmul: 'direct', reduction: 'row', attention: 'row', decode: 'ops' };
  const record = (forms: Forms, finished: boolean): AutotuneReport => ({
    families: SPECS.map((s) => ({ family: s.family, candidates: s.forms.map((form) => ({ form, ms: 1 })), chosen: forms[s.family], work: 'w', timed: finished })),
    forms, ms: 0, compileMs: 0, budgetMs: 2000, rows: 256, finished, source: 'cache', key: 'k256',
  });
  async function run(cached: AutotuneReport | null, failing: Forms[] = []) {
    const checked: Forms[] = [];
    let timed = 0;
    const put: AutotuneReport[] = [];
    const r = await retuneWithCache(KNOWN, cached, {
      key: 'k256',
      cache: { get: async () => null, put: async (_k, x) => { put.push(x); } },
      time: async (resume) => { timed++; return { ...record(CACHED, true), source: 'timed', ms: 10, families: record(CACHED, true).families.map((x) => ({ ...x, earlier: !!resume })) }; },
      check: async (f) => { checked.push(f); return failing.some((x) => sameForms(x, f)) ? { forms: f, what: 'loss', worst: 9 } : null; },
    });
    return { ...r, checked, timed, put };
  }

  it('a final record cached for these rows in other forms: those forms checked, then used as they are (nothing timed)', async () => {
    const r = await run(record(CACHED, true));
    expect(r.checked).toEqual([CACHED]);
    expect(r.timed).toBe(0);
    expect(r.report.forms).toEqual(CACHED);
    expect(r.cachedFailed).toBeNull();
  });

  it('cached forms that fail the check: the forms that passed stay, and the tune starts over from them', async () => {
    const r = await run(record(CACHED, true), [CACHED]);
    expect(r.cachedFailed).toMatchObject({ forms: CACHED });
    expect(r.timed).toBe(1);
    expect(r.report.forms).toEqual(KNOWN); // the timed choice is CACHED again, and fails again
    expect(r.failed).toMatchObject({ forms: CACHED });
  });

  it('no record for these rows: timed from the forms that passed, the choice checked and cached', async () => {
    const r = await run(null);
    expect(r.timed).toBe(1);
    expect(r.checked).toEqual([CACHED]);
    expect(r.report.forms).toEqual(CACHED);
    expect(r.put.map((x) => x.forms)).toEqual([CACHED]);
  });

  it('an unfinished record in the forms that passed: resumed, no extra check before', async () => {
    const r = await run(record(KNOWN, false));
    expect(r.checked).toEqual([CACHED]); // the tuned choice only
    expect(r.timed).toBe(1);
  });
});

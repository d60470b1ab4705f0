// The autotune's timing loop (with a clock that advances by each form's cost) and its cache
// record: the fastest form is chosen, a slow one is dropped after one run, the budget stops the
// loop, and a cached record is used only for its own key and only when it names real forms.
import { describe, expect, it } from 'vitest';
import { parseCachedReport, timeForms, type AutotuneReport } from './autotune.ts';

/** A clock that each run advances by its form's cost; counts runs per form. */
function fake(costs: Record<string, number>, deadline = Infinity) {
  let t = 0;
  let current = '';
  const runs: Record<string, number> = {};
  const chosen: Record<string, string> = {};
  const h = {
    prepare: async (_family: string, form: string) => { current = form; },
    run: async () => { t += costs[current]; runs[current] = (runs[current] ?? 0) + 1; },
    chosen: (family: string, form: string) => { chosen[family] = form; },
    now: () => t,
    deadline,
  };
  return { h, runs, chosen, time: () => t };
}

describe('autotune: timeForms', () => {
  it('keeps the fastest form of each family and drops a slow one after one run', async () => {
    const f = fake({ fused: 10, ops: 3, tiled: 5, direct: 4, plain: 40 });
    const out = await timeForms([{ family: 'decode', forms: ['fused', 'ops'], work: 'w' }, { family: 'matmul', forms: ['tiled', 'direct', 'plain'], work: 'w' }], f.h);
    expect(out.map((x) => x.chosen)).toEqual(['ops', 'direct']);
    expect(f.chosen).toEqual({ decode: 'ops', matmul: 'direct' });
    expect(out[0].candidates).toEqual([{ form: 'fused', ms: 10 }, { form: 'ops', ms: 3 }]);
    expect(f.runs.fused).toBe(4); // the family's first form: one untimed warm-up, then three timed
    expect(f.runs.plain).toBe(1); // 40 > 1.5 × 4 after its first run: out
  });

  it('stops at the deadline: forms not reached have no time and the family keeps its first form', async () => {
    const f = fake({ fused: 10, ops: 3, tiled: 5, direct: 4 }, 35);
    const out = await timeForms([{ family: 'decode', forms: ['fused', 'ops'], work: 'w' }, { family: 'matmul', forms: ['tiled', 'direct'], work: 'w' }], f.h);
    expect(out[0].candidates).toEqual([{ form: 'fused', ms: 10 }, { form: 'ops', ms: null }]);
    expect(out[1].candidates).toEqual([{ form: 'tiled', ms: null }, { form: 'direct', ms: null }]);
    expect(out.map((x) => x.chosen)).toEqual(['fused', 'tiled']);
    expect(f.time()).toBeLessThanOrEqual(40); // a run under way at the deadline finishes, none starts
  });
});

describe('autotune: the cached record', () => {
  const report: AutotuneReport = {
    families: [{ family: 'decode', candidates: [{ form: 'fused', ms: 4.5 }, { form: 'ops', ms: 3.1 }], chosen: 'ops', work: 'a rollout' }],
    forms: { matmul: 'tiled', reduction: 'subgroup', attention: 'tiled', decode: 'ops' }, ms: 300, budgetMs: 500, source: 'timed', key: 'k1',
  };
  const stored = JSON.parse(JSON.stringify(report));

  it('is read back for its own key, marked as from the cache', () => {
    expect(parseCachedReport(stored, 'k1')).toMatchObject({ forms: report.forms, families: report.families, source: 'cache', ms: 0 });
  });

  it('is ignored for another key (another adapter, browser version or model) or when it is not a report', () => {
    expect(parseCachedReport(stored, 'k2')).toBeNull();
    for (const bad of [null, 'x', { ...stored, forms: { ...stored.forms, decode: 'turbo' } }, { ...stored, forms: undefined }, { ...stored, families: [{ family: 'decode', candidates: [{ form: 'ops', ms: -1 }], chosen: 'ops' }] }]) {
      expect(parseCachedReport(bad, 'k1')).toBeNull();
    }
  });
});

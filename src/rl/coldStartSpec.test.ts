// The cold start as an engine module (what the page drives): progress after each evaluation, a
// stop signal polled before every step, the target and the step budget, one sentence for each end.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SampleRequest } from '../model/backend.ts';
import { CONFIGS } from '../model/config.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { getTask } from '../tasks/registry.ts';
import { validateSpec } from '../tasks/spec/spec.ts';
import { taskFromSpec } from '../tasks/spec/task.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { COLD_START_TARGET, coldStartTask, type ColdStartProgress } from './coldStartSpec.ts';

const spec = validateSpec({ name: 'cs-test', prompt: 'v:{w}=', vars: { w: { string: { alphabet: 'abcdeiou', length: [3, 6] } } }, answer: 'count(w, "a") + count(w, "e")' });
const fresh = () => ReferenceBackend.create({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, 1);

describe('coldStartTask', () => {
  it('stops when asked, reports progress per evaluation, and registers the custom task', async () => {
    if (!spec.ok) throw new Error(spec.error);
    const task = taskFromSpec(spec.spec);
    const seen: ColdStartProgress[] = [];
    let polls = 0;
    const r = await coldStartTask(task, fresh(), { evalEvery: 2, evalSize: 4, batchSize: 8, onProgress: (p) => seen.push(p), shouldStop: () => ++polls > 5 });
    expect(r).toMatchObject({ steps: 5, stopped: true, reached: false, target: COLD_START_TARGET });
    expect(seen.map((p) => p.step)).toEqual([2, 4]);
    expect(seen[0]).toMatchObject({ maxSteps: 1500, target: 0.3 });
    expect(r.sentence).toMatch(/^Cold start stopped at step 5 with held-out sampled pass@1 \d+% \(target 30%\)\.$/);
    expect(getTask('spec:cs-test')).toBe(task);
  });

  it('ends at its step budget with the "too hard for this model size" sentence, or at the target', async () => {
    if (!spec.ok) throw new Error(spec.error);
    const task = taskFromSpec(spec.spec);
    const hard = await coldStartTask(task, fresh(), { maxSteps: 3, evalEvery: 10, evalSize: 4, batchSize: 8, targetPassRate: 1 });
    expect(hard).toMatchObject({ steps: 3, reached: false, stopped: false });
    expect(hard.sentence).toMatch(/after 3 supervised steps, short of 100%; the task is too hard for this model size, so try a smaller range or shorter strings\.$/);
    const easy = await coldStartTask(task, fresh(), { maxSteps: 50, evalEvery: 1, evalSize: 4, batchSize: 8, targetPassRate: 0.01 });
    expect(easy.reached).toBe(true);
    expect(easy.passRate).toBeGreaterThanOrEqual(0.01);
    expect(easy.sentence).toMatch(/^Cold start reached the capability boundary: held-out sampled pass@1 \d+% ≥ 1% after \d+ supervised steps/);
  });

  it('measures the pass rate at the run\'s Max response length, the one GRPO then samples (not a longer one of its own)', async () => {
    const ds = validateSpec(JSON.parse(readFileSync('public/tasks/digitsum.json', 'utf8')));
    if (!ds.ok) throw new Error(ds.error);
    const task = taskFromSpec(ds.spec);
    for (const length of [8, 11]) {
      const lengths: number[] = [];
      const be = fresh();
      const spy = new Proxy(be, { get: (t, k) => (k === 'sample' ? (req: SampleRequest) => { lengths.push(req.maxNewTokens); return t.sample(req); } : Reflect.get(t, k, t)) });
      const r = await coldStartTask(task, spy, { settings: { maxCompletionLength: length }, maxSteps: 1, evalEvery: 1, evalSize: 4, batchSize: 4 });
      expect(r.responseLength).toBe(length);
      expect(Math.max(...lengths)).toBe(length);
    }
  });
});

// Every lesson verdict can fail: the null form of each variant — its own settings from its own base,
// with the learning rate η = 0 (the same rollouts, graded and fed through the update, but the weights
// never change) — must be judged ✗ (the run-level check that the policy moved: every lesson pins
// measureKl, so the KL to π_ref is read). That each claim can also fail on its own number is
// claims.test.ts's random-run test. Short runs (6 steps, evaluated at 0, 3 and 6) on the CPU
// reference, at most 8 prompts a step; the verdict is taken at 6 steps. `npm run lessons -- --null`
// runs the full-length form.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { baseCheckpointPath } from './bases.ts';
import { HELDOUT_WRECK, type RunRecord } from './claims.ts';
import { unpromisedWrecks } from '../../scripts/lessons-table.ts';
import { LESSONS, lessonSettings } from './lessons.ts';
import type { EvalMetrics, StepMetrics } from './metrics.ts';
import { defaultSettings } from './settings.ts';
import { GrpoTrainer } from './trainer.ts';

const STEPS = 6;

async function nullRun(lessonIndex: number, variant: number): Promise<RunRecord> {
  const lesson = LESSONS[lessonIndex];
  const own = lessonSettings(lesson, defaultSettings(), variant);
  // at most 8 prompts a step (the null test's budget; each variant keeps its G, µ, β, task and verifier)
  const s = { ...own, seed: 1, learningRate: 0, evalEvery: 3, promptsPerStep: Math.min(own.promptsPerStep, 8) };
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty, s.watchTask)!)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  const t = new GrpoTrainer(be, s, { evalSize: 8, evalPassAtK: true });
  await t.takeReference();
  const steps: StepMetrics[] = [];
  const evals: EvalMetrics[] = [await t.evaluate()];
  for (let i = 0; i < STEPS; i++) {
    const r = await t.trainStep(s);
    steps.push(r.metrics);
    if (r.evaluation) evals.push(r.evaluation);
  }
  return { steps, evals };
}

describe('null runs (η = 0): every lesson verdict says ✗', () => {
  for (const [li, lesson] of LESSONS.entries()) {
    lesson.variants.forEach((v, vi) => {
      it(`${lesson.title} · ${v.label}`, async () => {
        const run = await nullRun(li, vi);
        expect(run.steps.every((m) => m.kl === 0 || !Number.isFinite(m.kl))).toBe(true); // nothing moved: the null is a null
        const verdict = v.claim.judge(run, { steps: STEPS });
        expect(verdict.state, verdict.sentence).toBe('fails');
        // where the KL to π_ref is read (every GRPO lesson pins measureKl; RFT has no π_ref), the run-level check says why
        if (run.steps.some((m) => Number.isFinite(m.kl_exact))) expect(verdict.sentence).toMatch(/the policy never moved from π_ref/);
        // the lesson's contrast (contrast.ts) reads only numbers this variant's claim measures on a real run
        if (lesson.contrast) {
          const read = new Set<string>();
          lesson.contrast.of(new Proxy(verdict.evidence, { get: (t, k) => { read.add(String(k)); return t[k as string]; } }));
          expect([...read].filter((k) => !(k in verdict.evidence)), JSON.stringify(verdict.evidence)).toEqual([]);
        }
      });
    });
  }
});

// `npm run lessons`' wreck rule (scripts/lessons-table.ts): the verdict's own (claims.ts heldoutWreck), firing only where the claim promises no wreck.
describe('the table names a run that wrecks held-out accuracy where the claim promises no wreck', () => {
  const run = (lesson: string, variant: number, start: number, end: number, hi: number) => ({ lesson, variant, seed: 7, greedy: { start, end }, wreck: { lo: end - start - 0.05, hi } });
  it('fires where the whole 90 % interval of the change is below −HELDOUT_WRECK, the rule the verdict fails a run on, and not on a claim that promises the wreck', () => {
    const promising = LESSONS.flatMap((l) => l.variants.flatMap((v, i) => (v.claim.promisesWreck ? [`${l.id}#${i}`] : [])));
    // G = 2, no leash, the weak verifier, the small pool, and both forgetting runs: their claims say accuracy falls
    expect(promising).toEqual(['mixed-groups#0', 'entropy-collapse#0', 'reward-hacking#0', 'small-pool#0', 'forgetting#0', 'forgetting#1']);
    expect(unpromisedWrecks([run('reward-hacking', 1, 0.56, 0.38, -0.12)])).toEqual(['reward-hacking#1 seed 7 (held-out accuracy (greedy) 0.56 → 0.38, change -0.23 to -0.12)']);
    expect(unpromisedWrecks([run('entropy-collapse', 1, 0.47, 0.31, -0.101), run('dynamic-sampling', 1, 0.5, 0.36, -0.09)])).toHaveLength(1); // −0.101 fires, −0.09 does not
    expect(unpromisedWrecks([run('reward-hacking', 0, 0.56, 0.1, -0.4), run('mixed-groups', 0, 0.5, 0.2, -0.25), run('small-pool', 0, 0.5, 0.2, -0.25)])).toEqual([]);
    expect(unpromisedWrecks([run('reward-hacking', 1, 0.5, 0.35, -HELDOUT_WRECK)])).toEqual([]); // exactly the limit is allowed
    expect(unpromisedWrecks([{ lesson: 'reward-hacking', variant: 1, seed: 7, greedy: { start: 0.5, end: 0.2 } }])).toEqual([]); // an old row without the interval is not read
  });
});

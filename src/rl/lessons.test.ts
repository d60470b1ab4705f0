/**
 * Lessons: every lesson is valid data (settings inside the table's ranges, a real task and
 * base, variants), and — on the micro model from the shipped base checkpoint, CPU reference —
 * the effect it teaches appears. Each effect check is a few steps or one rollout.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../model/checkpoint.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { getTask } from '../tasks/registry.ts';
import { LESSONS, getLesson, lessonSettings } from './lessons.ts';
import { SETTINGS_BY_KEY, defaultSettings, parseSetting, type Settings } from './settings.ts';
import { baseCheckpointPath } from './bases.ts';
import { GrpoTrainer, stepMetrics } from './trainer.ts';

const CHARTS = ['reward', 'groups', 'advantages', 'entropy', 'length', 'kl', 'passk', 'theory'];

async function trainerFor(s: Settings) {
  const path = baseCheckpointPath(s.task, s.difficulty)!;
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(path)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  await be.snapshotReference();
  return new GrpoTrainer(be, s, { evalSize: 16, evalPassAtK: false });
}

async function steps(t: GrpoTrainer, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push((await t.trainStep()).metrics);
  return out;
}

describe('lessons as data', () => {
  it('has at least seven lessons, each with valid settings, base, variants and charts', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(7);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS) {
      expect(() => getTask(l.base.task)).not.toThrow();
      expect(l.variants.length, l.id).toBeGreaterThanOrEqual(2);
      expect(l.watch.length, l.id).toBeGreaterThan(100);
      for (const c of l.charts) expect(CHARTS, `${l.id}: ${c}`).toContain(c);
      for (const v of [{ settings: l.settings }, ...l.variants]) {
        for (const [k, value] of Object.entries(v.settings)) {
          const spec = SETTINGS_BY_KEY[k];
          expect(spec, `${l.id}: ${k}`).toBeDefined();
          expect(parseSetting(spec, String(value)).ok, `${l.id}: ${k}=${value}`).toBe(true);
        }
      }
      l.variants.forEach((_, i) => expect(lessonSettings(l, defaultSettings(), i).task).toBe(l.base.task));
    }
  });
});

// Lessons 2, 3, 5, 6 and 7 have no effect check yet. Lesson 3 was tried (5 steps, β = 0, ε = 0.5,
// µ = 4, lr 3e-3 on add-d1): entropy ROSE from 1.05 to 1.53 nats, so its collapse is not shown at
// that scale and the check is not claimed here.
describe('lesson effects on the micro base model (CPU reference)', () => {
  it('1. mixed groups: a larger G mixes more groups, close to 1 − p^G − (1 − p)^G', async () => {
    const l = getLesson('mixed-groups')!;
    const rows = [];
    for (const G of [2, 16]) {
      const t = await trainerFor({ ...lessonSettings(l, defaultSettings()), numGenerations: G, promptsPerStep: 16 });
      const r = await t.rollout();
      const m = stepMetrics(r, { loss: 0, gradNorm: 0, finite: true, metrics: {}, updateMs: 0 }, G, 0, () => undefined);
      rows.push({ G, pass_rate: m.accuracy, frac_mixed: m.frac_mixed, mixed_predicted: m.mixed_predicted });
    }
    console.table(rows);
    expect(rows[1].frac_mixed).toBeGreaterThan(rows[0].frac_mixed);
    expect(rows[1].mixed_predicted).toBeGreaterThan(rows[0].mixed_predicted);
  });

  it('4. reward hacking: the weak verifier pays answers the strict one rejects', async () => {
    const l = getLesson('reward-hacking')!;
    const t = await trainerFor({ ...lessonSettings(l, defaultSettings(), 0), promptsPerStep: 12, numGenerations: 8 });
    const ms = await steps(t, 4);
    console.table(ms.map((m) => ({ step: m.step, weak_reward: m.reward, strict_accuracy: m.accuracy })));
    // formatReward is 0 in this lesson, so any reward above strict accuracy is paid to wrong answers.
    const gap = ms.reduce((a, m) => a + (m.reward - m.accuracy), 0) / ms.length;
    expect(gap).toBeGreaterThan(0);
  });
});

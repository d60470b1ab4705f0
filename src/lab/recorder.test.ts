// The run loop's writes through the frame batch: a step's phases reach the store as one update
// per frame, in order, with nothing lost between frames.
import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { defaultSettings } from '../rl/settings.ts';
import type { EvalMetrics, StepMetrics } from '../rl/metrics.ts';
import { useLab, type LabState } from '../store/labStore.ts';
import { FrameBatch } from './frameBatch.ts';
import { StepRecorder } from './recorder.ts';
import { asRollout, type RecordedRollout } from './replay.ts';

const settings = defaultSettings();
const metrics = (step: number) => ({ step, reward: step / 10, accuracy: 0.5, entropy: 1, kl: 0, finite: true }) as unknown as StepMetrics;
const evaluation = (step: number) => ({ step, heldout_accuracy: 0.25, pass_at_k: { 1: 0.25 }, by_difficulty: {}, samples: [] }) as EvalMetrics;
const rollout = (step: number): RecordedRollout => ({ step, groups: [{ prompt: 'rev:ab=', responses: ['ba', 'ab'], tokens: [[1, 2], [2, 1]], finished: [true, true], verdicts: [{ reason: 'correct', formatOk: true }, { reason: 'wrong', formatOk: true }], correct: [true, false], rewards: [1, 0.1], advantages: [0.7, -0.7] }] });

function setup() {
  const store = createStore<LabState>()(() => ({ ...useLab.getState(), settings }));
  const frames: (() => void)[] = [];
  const batch = new FrameBatch<LabState>(store, (f) => frames.push(f));
  const commits: LabState[] = [];
  store.subscribe((s) => commits.push(s));
  const recorder = new StepRecorder({ frames: batch, trainer: () => ({ settings, step: 0 }), stop: () => {}, stepRecorded: () => {} });
  const frame = () => frames.splice(0).forEach((f) => f());
  const step = async (i: number) => {
    recorder.started();
    await recorder.record({ kind: 'metrics', step: i, metrics: metrics(i), rollout: asRollout(rollout(i)), accepted: true, evaluationFollows: false });
    recorder.ended();
  };
  return { store, commits, frame, step, recorder };
}

describe('StepRecorder through the frame batch', () => {
  it('three whole steps in one frame are one store update, in order', async () => {
    const { store, commits, frame, step } = setup();
    await step(0);
    await step(1);
    await step(2);
    expect(commits).toHaveLength(0);
    frame();
    expect(commits).toHaveLength(1);
    const s = store.getState();
    expect(s.steps.map((m) => m.step)).toEqual([0, 1, 2]);
    expect(s.lastRollout?.step).toBe(2);
    expect(s.lastRollout?.groups[0].answers.map((a) => a.text)).toEqual(['ba', 'ab']);
    expect([s.stepsStarted, s.stepsCompleted, s.inStep]).toEqual([3, 3, false]);
  });

  it('steps split over frames lose nothing: each frame one update, the history in order', async () => {
    const { store, commits, frame, step } = setup();
    await step(0);
    frame();
    await step(1);
    await step(2);
    frame();
    await step(3);
    frame();
    expect(commits.map((c) => c.steps.length)).toEqual([1, 3, 4]);
    expect(store.getState().steps.map((m) => m.step)).toEqual([0, 1, 2, 3]);
  });

  it('an evaluation lands after the step it follows, with the "Evaluating" notice cleared', async () => {
    const { store, frame, step, recorder } = setup();
    recorder.started();
    await recorder.record({ kind: 'metrics', step: 9, metrics: metrics(9), rollout: asRollout(rollout(9)), accepted: true, evaluationFollows: true });
    expect(store.getState().progress?.label).toMatch(/Evaluating/); // said before the evaluation runs
    await recorder.record({ kind: 'evaluation', step: 9, evaluation: evaluation(10) });
    recorder.ended();
    await step(10);
    frame();
    const s = store.getState();
    expect(s.progress).toBeNull();
    expect(s.evals.map((e) => e.step)).toEqual([10]);
    expect(s.steps.map((m) => m.step)).toEqual([9, 10]);
  });
});

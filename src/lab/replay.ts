/**
 * Replaying a recorded run through the store, for the page bench (scripts/page-bench.ts): the
 * recording (scripts/record-page-run.ts) holds a real run's StepMetrics, EvalMetrics and a few
 * rollouts in the fields the page shows; fill() puts a history in the store as a resumed run
 * would, step() records one more step through the same recorder the run loop uses (step
 * started, metrics and rollout, an evaluation when there is one, step ended).
 */
import type { EvalMetrics, StepMetrics } from '../rl/metrics.ts';
import type { Settings } from '../rl/settings.ts';
import { detectStopSignals } from '../rl/stopSignals.ts';
import type { Rollout } from '../rl/trainer.ts';
import type { LabState } from '../store/labStore.ts';
import { rolloutView } from '../store/views.ts';
import type { FrameBatch } from './frameBatch.ts';
import type { StepRecorder } from './recorder.ts';

/** A rollout in the fields rolloutView reads (src/store/views.ts), tokens as plain arrays. */
export interface RecordedRollout {
  step: number;
  groups: { prompt: string; responses: string[]; tokens: number[][]; finished: boolean[]; verdicts: { reason: string; formatOk: boolean }[]; correct: boolean[]; rewards: number[]; advantages: number[] }[];
}

export interface RecordedRun {
  what: string;
  settings: Settings;
  steps: StepMetrics[];
  evals: EvalMetrics[];
  rollouts: RecordedRollout[];
}

export function compactRollout(r: Rollout): RecordedRollout {
  return {
    step: r.step,
    groups: r.groups.map((g) => ({
      prompt: g.prompt,
      responses: g.responses,
      tokens: g.tokens.map((t) => Array.from(t)),
      finished: g.finished,
      verdicts: g.verdicts.map((v) => ({ reason: v.reason, formatOk: v.formatOk })),
      correct: g.correct,
      rewards: g.rewards,
      advantages: g.advantages,
    })),
  };
}

/** JSON has no NaN or ±Infinity (metrics use NaN for "none"): written as "NaN", "Infinity", "-Infinity", read back here. */
export const keepNonFinite = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v);
const NON_FINITE: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
export function readRecordedRun(json: string): RecordedRun {
  return JSON.parse(json, (_k, v) => (typeof v === 'string' && v in NON_FINITE ? NON_FINITE[v] : v)) as RecordedRun;
}

/** The recorded rollout as the trainer hands it over (the fields the page does not show are empty). */
export function asRollout(r: RecordedRollout): Rollout {
  return {
    step: r.step,
    groups: r.groups.map((g) => ({
      ...g,
      tokens: g.tokens.map((t) => Int32Array.from(t)),
      promptTokens: [],
      logprobs: [],
      verdicts: g.verdicts.map((v, i) => ({ ...v, reward: g.rewards[i], correct: g.correct[i], verifierVersion: '' })),
    })),
    promptsDrawn: r.groups.length,
    rollouts: 1,
    tokensGenerated: 0,
    rolloutMs: 0,
    verifyMs: 0,
  };
}

export function replayHooks(frames: FrameBatch<LabState>, recorder: StepRecorder) {
  return {
    /** A history in the store, as a resumed run has it (the page renders it once). */
    fill(steps: StepMetrics[], evals: EvalMetrics[], rollout: RecordedRollout, G: number): void {
      const n = steps.length;
      frames.set({ steps, evals, signals: detectStopSignals(steps, evals), lastRollout: rolloutView(asRollout(rollout), G), stepsStarted: n, stepsCompleted: n });
      frames.flush();
    },
    /** One more step, through the run loop's recorder, as a playing run makes it (status 'running'). */
    async step(metrics: StepMetrics, rollout: RecordedRollout, evaluation: EvalMetrics | null): Promise<void> {
      if (frames.view().status !== 'running') frames.set({ status: 'running' });
      recorder.started();
      await recorder.record({ kind: 'metrics', step: metrics.step, metrics, rollout: asRollout(rollout), accepted: true, evaluationFollows: evaluation !== null });
      if (evaluation) await recorder.record({ kind: 'evaluation', step: metrics.step, evaluation });
      recorder.ended();
    },
    /** The replayed run pauses now, as the Pause button does (the cards off screen catch up). */
    pause(): void {
      frames.set({ status: 'paused' });
      frames.flush();
    },
  };
}

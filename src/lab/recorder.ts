/**
 * What a step writes into the store, phase by phase (the session's run loop and the
 * step-through call it): the step started, its metrics and rollout into the bounded history
 * with the stop signals, an evaluation, the step ended. Every write goes through the frame
 * batch (frameBatch.ts), so however many phases arrive in a frame the page commits once.
 *
 * A rejected (non-finite) step is not recorded at all — the trainer rolled it back — and the run
 * pauses and says why.
 */
import { detectStopSignals } from '../rl/stopSignals.ts';
import type { Settings } from '../rl/settings.ts';
import type { EvalMetrics, StepMetrics } from '../rl/metrics.ts';
import type { Rollout, StepPhase } from '../rl/trainer.ts';
import { pushBounded } from '../store/history.ts';
import type { LabState } from '../store/labStore.ts';
import { rolloutView } from '../store/views.ts';
import { lazy, type FrameBatch } from './frameBatch.ts';
import { rejectionSentence } from './sentences.ts';

export interface RecorderHost {
  frames: FrameBatch<LabState>;
  /** The run's trainer: its settings (G for the rollout view) and step (where a rejected update rolled back to). */
  trainer(): { settings: Settings; step: number };
  /** A rejected update: the run stops after this step. */
  stop(): void;
  /** An accepted step was recorded (autosave counts them). */
  stepRecorded(): void;
}

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

export class StepRecorder {
  constructor(private readonly host: RecorderHost) {}

  private get frames(): FrameBatch<LabState> {
    return this.host.frames;
  }

  started(): void {
    this.frames.set((s) => ({ stepsStarted: s.stepsStarted + 1, inStep: true }));
  }

  ended(): void {
    this.frames.set((s) => ({ inStep: false, stepsCompleted: s.stepsCompleted + 1 }));
  }

  /** Record one phase of a step (only the metrics and the evaluation write anything). */
  async record(ph: StepPhase): Promise<void> {
    if (ph.kind === 'metrics') {
      if (!ph.accepted) {
        this.host.stop();
        const { step: back, settings } = this.host.trainer();
        this.frames.set({ error: rejectionSentence(ph.step, back, settings), rejected: { step: ph.step, rolledBackTo: back } });
        return;
      }
      this.metrics(ph.metrics, ph.rollout);
      this.host.stepRecorded();
      if (ph.evaluationFollows) {
        this.frames.setNow({ progress: { label: 'Evaluating on held-out prompts…' } }); // said before the evaluation starts (the charts wait)
        await tick();
      }
    } else if (ph.kind === 'evaluation') {
      this.evaluation(ph.evaluation);
    }
  }

  private metrics(m: StepMetrics, rollout: Rollout): void {
    const G = this.host.trainer().settings.numGenerations;
    // made when they land: of the steps merged into one frame only the last one's are drawn
    this.frames.set((s) => {
      const steps = pushBounded(s.steps, m);
      const evals = s.evals;
      return { steps, lastRollout: lazy(() => rolloutView(rollout, G)), signals: lazy(() => detectStopSignals(steps, evals)) };
    });
  }

  private evaluation(e: EvalMetrics): void {
    this.frames.set((s) => {
      const evals = pushBounded(s.evals, e);
      const steps = s.steps;
      return { evals, progress: null, signals: lazy(() => detectStopSignals(steps, evals)) };
    });
  }
}

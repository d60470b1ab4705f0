/**
 * A headless training run: the loop behind `npm run train`, used in Node (CPU reference) and
 * in the browser (WebGPU engine) — the same code on both, so a CLI run and the page agree.
 *
 * Emits JSONL-ready records: {"type":"step", …metrics}, {"type":"eval", step, heldout_accuracy,
 * pass_at_k, …}, and a final {"type":"summary", heldout_before, heldout_after, steps, seconds,
 * backend}.
 */
import type { Backend } from '../model/backend.ts';
import type { Settings } from './settings.ts';
import { GrpoTrainer } from './trainer.ts';
import type { EvalMetrics, StepMetrics } from './metrics.ts';
import { heldoutWreck, truncateRun, type Claim, type ClaimVerdict, type RunRecord } from './claims.ts';
import type { EvalContract } from './contract.ts';
import { HELDOUT_SIZE } from './evaluation.ts';

export interface RunOptions {
  steps: number;
  emit: (record: Record<string, unknown>) => void;
  /** Progress sentences (stderr in the CLI). */
  progress?: (message: string) => void;
  evalSize?: number;
  evalPassAtK?: boolean;
  /**
   * A lesson variant's claim: judged once at its verdict step on the run's own metrics (the
   * evaluations follow the lesson's contract), its verdict goes into the summary.
   */
  lesson?: { id: string; variant: number; claim: Claim; contract?: EvalContract; hash?: string };
  /** The run's record (its accepted steps and evaluations, per-prompt results included), at the end. */
  onRecord?: (record: RunRecord) => void;
}

export interface RunSummary {
  type: 'summary';
  heldout_before: number;
  heldout_after: number;
  reward_first: number;
  reward_last: number;
  steps: number;
  seconds: number;
  backend: string;
  task: string;
  seed: number;
  /** The lesson's verdict on this run (when run as a lesson). */
  lesson?: {
    id: string; variant: number; holds: boolean; state: ClaimVerdict['state'];
    /** holds | fails | unclear (pending where the run stopped before its verdict step). */
    verdict: ClaimVerdict['state'];
    /** The claim number's 90 % interval, its value, threshold and side. */
    interval: [number, number]; value: number; threshold: number; side: 'above' | 'below'; what: string; step: number; contract?: string;
    sentence: string; evidence: Record<string, number>; measured: Record<string, number>;
    /** Held-out accuracy (greedy, the contract's prompts) from step 0 to the verdict step: the 90 % interval of its change, read by the one wreck rule (claims.ts heldoutWreck). */
    wreck?: { start: number; end: number; lo: number; hi: number };
  };
}

export function evalRecord(e: EvalMetrics): Record<string, unknown> {
  return { type: 'eval', step: e.step, heldout_accuracy: e.heldout_accuracy, pass_at_k: e.pass_at_k, by_difficulty: e.by_difficulty, mean_length: e.mean_length, ...(e.watch ? { watch: e.watch } : {}) };
}

export async function runTraining(backend: Backend, settings: Settings, o: RunOptions): Promise<RunSummary> {
  const t0 = Date.now();
  const trainer = new GrpoTrainer(backend, settings, { evalSize: o.evalSize ?? HELDOUT_SIZE, evalPassAtK: o.evalPassAtK ?? true, contract: o.lesson?.contract ?? null });
  await trainer.takeReference(); // π_ref = the starting (base) policy
  const first = await trainer.evaluate();
  o.emit(evalRecord(first));
  o.progress?.(`step 0: held-out accuracy ${first.heldout_accuracy.toFixed(3)}`);
  let last: EvalMetrics = first;
  const rewards: number[] = [];
  const record: { steps: StepMetrics[]; evals: EvalMetrics[] } = { steps: [], evals: [first] };
  for (let i = 0; i < o.steps; i++) {
    let metrics: StepMetrics | null = null;
    for await (const ph of trainer.runStep(settings)) {
      if (ph.kind === 'metrics') {
        metrics = ph.metrics;
        rewards.push(metrics.reward);
        if (ph.accepted) record.steps.push(metrics);
        o.emit({ type: 'step', ...metrics });
      } else if (ph.kind === 'evaluation') {
        last = ph.evaluation;
        record.evals.push(last);
        o.emit(evalRecord(last));
        o.progress?.(`step ${trainer.step}: reward ${metrics!.reward.toFixed(3)}, held-out accuracy ${last.heldout_accuracy.toFixed(3)}`);
      }
    }
    if (!metrics!.finite) {
      o.progress?.(`step ${metrics!.step}: the update produced NaN/Inf and was rejected; stopping (try a lower learning rate)`);
      break;
    }
    if (i === o.steps - 1 && last.step !== trainer.step) {
      last = await trainer.evaluate();
      record.evals.push(last);
      o.emit(evalRecord(last));
      o.progress?.(`step ${trainer.step}: reward ${metrics!.reward.toFixed(3)}, held-out accuracy ${last.heldout_accuracy.toFixed(3)}`);
    }
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const k = Math.max(1, Math.floor(rewards.length / 5));
  const summary: RunSummary = {
    type: 'summary',
    heldout_before: first.heldout_accuracy,
    heldout_after: last.heldout_accuracy,
    reward_first: mean(rewards.slice(0, k)),
    reward_last: mean(rewards.slice(-k)),
    steps: trainer.step,
    seconds: (Date.now() - t0) / 1000,
    backend: backend.name,
    task: settings.task,
    seed: settings.seed,
  };
  if (o.lesson) {
    const v = o.lesson.claim.judge(record);
    const n = v.number;
    const w = heldoutWreck(truncateRun(record, v.step));
    summary.lesson = {
      id: o.lesson.id, variant: o.lesson.variant, holds: v.state === 'holds', state: v.state, verdict: v.state,
      interval: [n.lo, n.hi], value: n.value, threshold: n.threshold, side: n.side, what: n.what, step: v.step, ...(o.lesson.hash ? { contract: o.lesson.hash } : {}),
      sentence: v.sentence, evidence: v.evidence, measured: v.measured,
      ...(w ? { wreck: { start: w.start, end: w.end, lo: w.lo, hi: w.hi } } : {}),
    };
  }
  o.onRecord?.(record);
  o.emit(summary as unknown as Record<string, unknown>);
  return summary;
}

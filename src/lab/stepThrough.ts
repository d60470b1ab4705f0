/**
 * The step-through of one GRPO update: the trainer's own step (GrpoTrainer.runStep, with its
 * inspection) pulled one phase at a time, each shown before the next is computed.
 *
 *   page phase     trainer phase it shows
 *   prompts        rollout (the prompts drawn)
 *   answers        rollout (the G sampled answers)
 *   verdicts       verdicts
 *   advantages     advantages
 *   ratios         update: the objective term by term at the start of the update
 *   update         update: log π before and after, the ratios the next inner epoch would see
 *
 * The stepped update is a real step: the lab records it like any other (metrics, evaluation).
 * Between the advantages and the update, compare() applies the same batch under GRPO, Dr. GRPO,
 * DAPO and GSPO from the same weights (the trainer puts them back after each): the update the
 * step then applies is the run's own objective's.
 */
import type { TokenBatch } from '../model/backend.ts';
import type { GrpoTrainer, Rollout, StepPhase } from '../rl/trainer.ts';
import { PHASES, type InspectorState, type LabState } from '../store/labStore.ts';
import { groupTeaches, rolloutView } from '../store/views.ts';

/** What the step-through needs from the session. */
export interface StepThroughHost {
  get(): LabState;
  set(patch: Partial<LabState> | ((s: LabState) => Partial<LabState>)): void;
  /** Make sure a model is loaded (false: none could be). */
  ready(): Promise<boolean>;
  /** The run's trainer (a model is loaded: ready() said so). */
  trainer(): GrpoTrainer;
  /** Record a phase the lab's loop would record (metrics, evaluation). */
  record(phase: StepPhase): Promise<void>;
  /** The stepped update's last phase is recorded (autosave may save now). */
  stepEnded(): void;
}

const PAGE_PHASES_AFTER: Partial<Record<StepPhase['kind'], number>> = { rollout: 2, verdicts: 3, advantages: 4, update: PHASES.length };

export class StepThrough {
  private step: AsyncGenerator<StepPhase> | null = null;
  /** The batch of the step in progress, from its advantages phase until its update is applied. */
  private pending: { rollout: Rollout; batch: TokenBatch } | null = null;
  /** A forward pressed while a phase computed (the engine runs off the page's thread): shown once that one is in. */
  private queued = false;

  constructor(private readonly host: StepThroughHost) {}

  /** True while an update is being stepped through and has not been applied yet. */
  get open(): boolean {
    return this.step !== null;
  }

  /** Leave: an update not applied yet is dropped (its rollout is discarded). */
  async abandon(): Promise<void> {
    const step = this.step;
    this.step = null;
    this.pending = null;
    this.queued = false;
    const ins = this.host.get().inspector;
    if (step) {
      await step.return(undefined);
      if (ins && ins.computed < PHASES.length) this.host.set({ inspector: null });
    }
  }

  /** Show the next phase, computing it if needed. After the last phase, a new update begins. */
  async forward(): Promise<void> {
    const ins = this.host.get().inspector;
    if (ins?.busy) { this.queued = true; return; } // the page answers while the engine computes: one press is kept for then
    this.queued = false;
    if (ins && ins.phase + 1 < ins.computed) {
      this.host.set({ inspector: { ...ins, phase: ins.phase + 1 } });
      return;
    }
    if (!(await this.host.ready())) return;
    const fresh = !ins || ins.computed >= PHASES.length;
    if (fresh) {
      this.step = this.host.trainer().runStep(this.host.get().settings, { inspect: true });
      this.host.set((s) => ({ stepsStarted: s.stepsStarted + 1 }));
    }
    const base: InspectorState = fresh ? { phase: ins?.phase ?? 0, computed: 0, busy: true, rollout: ins?.rollout ?? null, details: null, settings: null } : { ...ins!, busy: true };
    this.host.set({ inspector: base, inStep: true });
    try {
      this.host.set({ inspector: await this.pull(base, fresh) });
    } finally {
      this.host.set({ inStep: false });
      const now = this.host.get().inspector;
      if (now?.busy) this.host.set({ inspector: { ...now, busy: false } });
    }
    if (this.queued) await this.forward();
  }

  /** Show group `p` in full (the strip above the phases picks it). */
  focus(p: number): void {
    const ins = this.host.get().inspector;
    if (ins?.rollout && p >= 0 && p < ins.rollout.groups.length) this.host.set({ inspector: { ...ins, focus: p } });
  }

  /** True when the batch can be compared under the four objectives: its advantages are in, its update is not applied yet. */
  get canCompare(): boolean {
    return this.pending !== null;
  }

  /** The counterfactual update of the pending batch (one engine update per objective; the weights are put back). */
  async compare(): Promise<void> {
    const ins = this.host.get().inspector;
    if (!ins || ins.busy || !this.pending) return;
    this.host.set({ inspector: { ...ins, busy: true }, inStep: true });
    try {
      const comparison = await this.host.trainer().compareObjectives(this.pending.rollout, this.pending.batch);
      this.host.set({ inspector: { ...this.host.get().inspector!, comparison } });
    } finally {
      this.host.set({ inspector: { ...this.host.get().inspector!, busy: false }, inStep: false });
    }
  }

  back(): void {
    const ins = this.host.get().inspector;
    if (ins && !ins.busy && ins.phase > 0) this.host.set({ inspector: { ...ins, phase: ins.phase - 1 } });
  }

  /** Pull trainer phases until the next page phase can be shown; after the update, finish the step. */
  private async pull(ins: InspectorState, fresh: boolean): Promise<InspectorState> {
    let next = { ...ins };
    for (;;) {
      const r = await this.step!.next();
      if (r.done) {
        this.step = null;
        this.host.stepEnded();
        return { ...next, busy: false };
      }
      const ph = r.value;
      // a new rollout opens on its first group whose rewards differ (it teaches under every estimator), if any
      if (ph.kind === 'rollout') {
        const view = rolloutView(ph.rollout, ph.settings.numGenerations);
        next = { ...next, settings: ph.settings, rollout: view, focus: Math.max(0, view.groups.findIndex((g) => groupTeaches(g) === 'spread')) };
      }
      else if (ph.kind === 'verdicts' || ph.kind === 'advantages') next = { ...next, rollout: rolloutView(ph.rollout, next.settings!.numGenerations) };
      else if (ph.kind === 'update') next = { ...next, details: ph.inspection?.answers ?? null, stepGeometry: ph.inspection?.step ?? null };
      else {
        await this.host.record(ph); // metrics and evaluation: the stepped update counts like any other
        continue;
      }
      this.pending = ph.kind === 'advantages' ? { rollout: ph.rollout, batch: ph.batch } : null;
      const computed = PAGE_PHASES_AFTER[ph.kind]!;
      if (ph.kind === 'update') {
        // the update is applied: record it (metrics, evaluation when due) before showing it
        for await (const rest of this.step!) await this.host.record(rest);
        this.step = null;
        this.host.set((s) => ({ stepsCompleted: s.stepsCompleted + 1 }));
        this.host.stepEnded();
        return { ...next, busy: false, computed, phase: PHASES.indexOf('ratios') };
      }
      return { ...next, busy: false, computed, phase: fresh ? 0 : ins.computed };
    }
  }
}

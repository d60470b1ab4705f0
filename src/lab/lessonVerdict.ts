/**
 * A lesson run's verdict in the session: judged once at its step on the run's record, frozen in the
 * store (the card, the share code and the saved run read it; nothing judges the run again), and
 * the step Play stops at until the student continues past it. Engine-free: the session hands it
 * the store and its trainer's step.
 */
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { settingsChangedFrom, stepOffVariant } from '../rl/lessonContract.ts';
import type { Settings } from '../rl/settings.ts';
import type { LabState } from '../store/labStore.ts';
import { judgeLiveContrast } from '../store/lessonContrast.ts';

export interface VerdictHost {
  get(): LabState;
  set(patch: Partial<LabState>): void;
  /** The trainer's completed steps and the settings its last step ran with (null: no trainer). */
  trainer(): { step: number; settings: Settings } | null;
  requestSave(): void;
  /**
   * Evaluate the policy now, at the trainer's step, and record the evaluation: the verdict-step
   * evaluation an engine loss skipped (the recovery redoes a step whose update was lost, not the
   * evaluation after a committed one), re-run from the committed weights before the verdict is judged.
   */
  evaluate(): Promise<void>;
}

export class LessonVerdict {
  private judging: Promise<void> | null = null;
  constructor(private readonly host: VerdictHost) {}

  /** The live run's lesson variant and its claim (null: not a lesson run). */
  live() {
    const o = this.host.get().liveOrigin;
    const lesson = o?.lessonId ? getLesson(o.lessonId) : undefined;
    const claim = lesson?.variants[o!.variant]?.claim;
    return lesson && claim ? { lesson, variant: o!.variant, claim } : null;
  }

  /** The step Play stops at: the live lesson run's verdict step, unless the student continued past it (null: no stop). */
  stop(): number | null {
    if (this.host.get().verdict?.continued) return null;
    return this.live()?.claim.steps ?? null;
  }

  /** The live lesson run is at its verdict step and was not continued past it: no step may be added to it now. */
  reached(): boolean {
    const stop = this.stop();
    return stop !== null && (this.host.trainer()?.step ?? 0) >= stop;
  }

  /** A judgement under way, if any (a step-through waits for it). */
  settled(): Promise<void> {
    return this.judging ?? Promise.resolve();
  }

  /**
   * At the verdict step, once: judge the claim on the run's record and freeze the verdict. Not judged
   * when the run's settings differ from the variant's (the claim is not about it).
   */
  judgeIfDue(): Promise<void> {
    const live = this.live();
    const t = this.host.trainer();
    if (!live || this.host.get().verdict || !t || t.step < live.claim.steps) return this.settled();
    const run = async () => {
      const { lesson, variant, claim } = live;
      const current = this.host.trainer()?.settings ?? this.host.get().settings;
      // the variant throughout: its knobs now, and every step's settings (a knob moved and back, or one the lesson does not show, is not the variant)
      const off = stepOffVariant(lesson, variant, current, this.host.get().steps.slice(0, claim.steps));
      const changed = settingsChangedFrom(lesson, variant, current).length > 0 || off !== null;
      const offVariant = off !== null ? `step ${off} ran with settings other than the variant's (a knob was moved during the run)` : undefined;
      // judged with its verdict-step evaluation, never without it: one an engine loss skipped is
      // re-run from the committed state (the trainer is at the verdict step: Play stops there)
      const missing = !this.host.get().evals.some((e) => e.step === live.claim.steps && e.contract);
      if (!changed && missing && this.host.trainer()?.step === live.claim.steps) await this.host.evaluate();
      const now = this.host.get();
      const judged = changed ? null : claim.judge({ steps: now.steps, evals: now.evals });
      // the question's contrast, judged at the same step against a comparable run of its other variant (none yet: null)
      const contrast = judged ? judgeLiveContrast(now, lesson, variant, { steps: now.steps, evals: now.evals }) : null;
      this.host.set({ verdict: { lessonId: lesson.id, variant, step: claim.steps, judged, continued: false, contrast, ...(offVariant ? { offVariant } : {}) } });
      this.host.requestSave();
    };
    return (this.judging ??= run().finally(() => { this.judging = null; }));
  }

  /** The sentence for a step refused at the verdict. */
  notice(): string {
    return `The verdict is in at step ${this.stop()}, judged once. “Continue past the verdict” trains on; later steps are marked as after it.`;
  }

  /** Mark the verdict as continued past (true) — the verdict stays as judged; false: no verdict to continue past. */
  continuePast(): boolean {
    const v = this.host.get().verdict;
    if (!v) return false;
    this.host.set({ verdict: { ...v, continued: true }, lessonNotice: null });
    this.host.requestSave();
    return true;
  }

  /**
   * The step-through on a lesson run at its frozen verdict would add steps to it: the run is kept
   * (under Runs, with its verdict) and a new run outside the lesson (`reset`), with the same settings, is stepped through.
   */
  async leaveForStepThrough(reset: () => Promise<void>): Promise<void> {
    await this.settled();
    if (!this.reached()) return;
    const live = this.live()!;
    const n = LESSONS.indexOf(live.lesson) + 1;
    await reset();
    const s = this.host.get();
    this.host.set({ stepMode: true, leftLesson: { n, step: live.claim.steps }, engineNotices: [...s.engineNotices, `Stepping through an update started a new run outside the lesson: lesson ${n}'s run keeps its verdict at step ${live.claim.steps} (under Runs).`] });
  }
}

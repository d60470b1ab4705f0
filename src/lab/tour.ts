/**
 * The class tour's controller: which stop is open (its one piece of state, `state`: the session
 * owns the tour and keeps tour=N in the address), moving the page to what a stop talks about,
 * and running a stop's action through the session's own calls. The stops themselves are data
 * (src/store/tour.ts); the card is src/ui/ClassTour.tsx.
 *
 * Moving to a stop computes nothing: in the presenter view it shows the stop's chart (or the
 * step-through), and it turns the step-through to the stop's phase when that phase is computed
 * already. Anything new (a batch sampled, an update applied, a lesson loaded, steps played) comes
 * only from the stop's button.
 */
import { createStore } from 'zustand/vanilla';
import { PHASES, type LabState, type LabStoreApi } from '../store/labStore.ts';
import { presenterItems } from '../store/presenterView.ts';
import { TOUR, tourIndex, type TourAction } from '../store/tour.ts';

export interface TourUiState {
  /** The stop shown (index into TOUR), or null when the tour is closed. */
  stop: number | null;
  /** The label of the action running now. */
  busy: string | null;
}

/** What the tour needs from the session (LabSession has all of it). */
export interface TourHost {
  applyLesson(id: string, variant?: number): Promise<void>;
  setStepMode(on: boolean): Promise<void>;
  play(opts?: { untilStep?: number }): Promise<void>;
  pause(): void;
  readonly stepThrough: { forward(): Promise<void>; back(): void; compare(): Promise<void>; readonly canCompare: boolean };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** At most this many phases are pulled by one action (a whole update is six). */
const MAX_PULLS = 16;

export class Tour {
  /** The open stop and the running action (the card reads it; the session puts the stop in the address). */
  readonly state = createStore<TourUiState>()(() => ({ stop: null, busy: null }));

  constructor(private readonly lab: TourHost, private readonly store: LabStoreApi) {}

  /** From the address: open at `stop` (or stay closed); `moved` is called whenever the stop changes. */
  init(stop: number | null, moved: () => void): void {
    if (stop !== null) this.state.setState({ stop: tourIndex(stop) });
    this.state.subscribe((t, prev) => { if (t.stop !== prev.stop) moved(); });
  }

  /** The lab's state now. */
  private get now(): LabState {
    return this.store.getState();
  }

  get stop(): number | null {
    return this.state.getState().stop;
  }

  open(stop = 0): void {
    this.state.setState({ stop: tourIndex(stop) });
    void this.arrange();
  }

  close(): void {
    this.state.setState({ stop: null });
  }

  async go(stop: number): Promise<void> {
    if (this.stop === null) return;
    this.state.setState({ stop: tourIndex(stop) });
    await this.arrange();
  }

  next(): Promise<void> {
    return this.stop === null || this.stop >= TOUR.length - 1 ? Promise.resolve() : this.go(this.stop + 1);
  }

  back(): Promise<void> {
    return this.stop === null || this.stop === 0 ? Promise.resolve() : this.go(this.stop - 1);
  }

  /**
   * Show what the stop talks about: in the presenter view its chart (when the lesson has it) or
   * the step-through; the step-through at the stop's phase if that phase is computed already.
   */
  async arrange(): Promise<void> {
    if (this.stop === null) return;
    const view = TOUR[this.stop].view;
    const s = this.now;
    if (s.presenter) {
      const items = presenterItems(s);
      const i = items.findIndex((it) => (view.kind === 'chart' ? it.kind === 'chart' && it.chart === view.chart : it.kind === 'step'));
      if (i >= 0 && i !== s.presenter.item) this.store.setState({ presenter: { item: i } });
    }
    if (view.kind === 'step') await this.showPhase(PHASES.indexOf(view.phase));
  }

  /** The step-through at phase `target`, if computed (no new computation). */
  private async showPhase(target: number): Promise<void> {
    for (let n = 0; n < PHASES.length; n++) {
      const ins = this.now.stepMode ? this.now.inspector : null;
      if (!ins?.rollout || ins.busy || ins.computed <= target || ins.phase === target) return;
      if (ins.phase > target) this.lab.stepThrough.back();
      else await this.lab.stepThrough.forward(); // phase + 1 < computed: only turns the page
    }
  }

  /** Run a stop's action (its button); the card shows `busy` meanwhile. */
  async act(a: TourAction): Promise<void> {
    if (this.state.getState().busy) return;
    this.state.setState({ busy: a.label });
    try {
      if (a.kind === 'lesson') await this.lab.applyLesson(a.lesson);
      else if (a.kind === 'play-until') await this.playUntil(a.step);
      else if (a.kind === 'step-to') await this.stepTo(PHASES.indexOf(a.phase), !!a.fresh);
      else await this.compare(!!a.fresh);
    } finally {
      this.state.setState({ busy: null });
    }
    await this.arrange();
  }

  /** Play; the run loop itself stops once `steps` steps are done (a pause pressed before stops it too). */
  private async playUntil(steps: number): Promise<void> {
    if (this.now.stepsCompleted >= steps) return;
    await this.lab.play({ untilStep: steps }); // not a pause from a store listener: the store hears of a step a frame (or a paced wait) late, after the next has begun
  }

  /**
   * The step-through on to phase `target` of a batch: the open one, or a new one when `fresh` or
   * when the open one is past it (its update applied). An update left open is dropped for a new batch
   * (as unticking "Step through one update" does).
   */
  private async stepTo(target: number, fresh: boolean): Promise<void> {
    const ins = this.now.stepMode ? this.now.inspector : null;
    const applied = !!ins && ins.computed >= PHASES.length;
    if (ins && fresh && !applied) await this.lab.setStepMode(false);
    await this.lab.setStepMode(true);
    if (applied) await this.newBatch(); // every phase of it is computed: the button asks for a new batch
    await this.pullTo(target);
  }

  /** From an applied update, the next batch's first phase. */
  private async newBatch(): Promise<void> {
    await this.showPhase(PHASES.length - 1);
    const before = this.now.inspector;
    if (before && before.computed >= PHASES.length && before.phase === PHASES.length - 1) await this.lab.stepThrough.forward();
  }

  /** forward() until phase `target` is computed and shown. */
  private async pullTo(target: number): Promise<void> {
    for (let pulls = 0; pulls < MAX_PULLS;) {
      const ins = this.now.inspector;
      if (ins?.busy) { await sleep(50); continue; }
      if (ins?.rollout && ins.computed > target) return this.showPhase(target);
      await this.lab.stepThrough.forward();
      pulls++;
      if (!this.now.inspector) return; // no model could be loaded
    }
  }

  /** A batch at its advantages, its update not applied yet (a new one when `fresh`), then the four objectives on it. */
  private async compare(fresh: boolean): Promise<void> {
    if (fresh && this.lab.stepThrough.canCompare) await this.lab.setStepMode(false); // drops the open update, as unticking step-through does
    await this.lab.setStepMode(true);
    const adv = PHASES.indexOf('advantages');
    if (!this.lab.stepThrough.canCompare) {
      const ins = this.now.inspector;
      if (ins && ins.computed >= PHASES.length) await this.newBatch();
      await this.pullTo(adv);
    }
    if (this.lab.stepThrough.canCompare && !this.now.inspector?.comparison) await this.lab.stepThrough.compare();
    await this.showPhase(adv);
  }
}

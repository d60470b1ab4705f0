/**
 * The presenter view for classroom demos: one item at a time, full screen — the lesson's charts
 * in order, then the step-through of one real update of the lesson's own run (src/store/presenterView.ts lists them).
 * Keys (src/ui/Presenter.tsx): → next, ← back, a lesson's number (readLessonKey), Space play/pause, C the
 * class results (← or Esc back from them), T the class tour (T or Esc leaves it), Esc leave.
 *
 * Nothing here leaves the lesson shown: on a lesson run at its verdict the step-through does not
 * start a new run outside the lesson (as the page's step-through does, lessonVerdict.leaveForStepThrough);
 * its title says the run is at its verdict, and the next → steps through the lesson's own run past
 * its verdict (the verdict stays as judged, as the lesson card's "Continue past the verdict").
 *
 * It drives the session as the page's own controls do: a lesson through applyLesson (the
 * Lessons panel's call), a phase through the step-through's forward()/back(), play through
 * togglePlay. Its one piece of state, open and at which item, is the store's `presenter`
 * (the address carries it as present=1: the session keeps the address in sync).
 */
import { LESSONS } from '../rl/lessons.ts';
import type { LabState, LabStoreApi } from '../store/labStore.ts';
import { beginsUpdate, presenterIndex, presenterItems, verdictAhead } from '../store/presenterView.ts';

/** What the presenter needs from the session (LabSession has all of it). */
export interface PresenterHost {
  applyLesson(id: string, variant?: number): Promise<void>;
  setStepMode(on: boolean): Promise<void>;
  togglePlay(): void;
  readonly stepThrough: { forward(): Promise<void>; back(): void };
  /** The live lesson run's verdict (lessonVerdict.ts): at it (no step may be added now), continue past it (false: no verdict yet), a judgement under way. */
  readonly verdicts: { reached(): boolean; continuePast(): boolean; settled(): Promise<void> };
  /** The class tour (src/lab/tour.ts): its card takes the caption's place in the view. */
  readonly tour: { readonly stop: number | null; open(stop?: number): void; close(): void };
}

export class Presenter {
  constructor(private readonly lab: PresenterHost, private readonly store: LabStoreApi) {}

  private get(): LabState {
    return this.store.getState();
  }

  /** Open at the first chart — or at the step-through when one is on the page. */
  open(): void {
    const s = this.get();
    if (s.presenter) return;
    const items = presenterItems(s);
    this.store.setState({ presenter: { item: s.stepMode && s.inspector ? items.length - 1 : 0 } });
  }

  close(): void {
    this.store.setState({ presenter: null });
  }

  /**
   * The class results in the view, in place of the item (the item stays where it was). From the
   * page (its Class results panel): the view opens on them, and leaving them leaves the view.
   */
  openClass(): void {
    const p = this.get().presenter;
    this.store.setState({ presenter: p ? { item: p.item, classResults: p.classResults ?? 'item', classLesson: p.classLesson } : { item: 0, classResults: 'page' } });
  }

  /**
   * The class results show one lesson a screen: the next (+1) or the previous (−1) of `ids` (the
   * pooled lessons, in order) from the one shown. False where there is none that way.
   */
  classLesson(ids: readonly string[], by: 1 | -1): boolean {
    const p = this.get().presenter;
    if (!p?.classResults || !ids.length) return false;
    const at = Math.max(0, ids.indexOf(p.classLesson ?? ids[0]));
    const next = ids[at + by];
    if (next === undefined) return false;
    this.store.setState({ presenter: { ...p, classLesson: next } });
    return true;
  }

  /** The class results: show this lesson (a pooled lesson's id). */
  showClassLesson(id: string): void {
    const p = this.get().presenter;
    if (p?.classResults) this.store.setState({ presenter: { ...p, classLesson: id } });
  }

  /** Back from the class results: to the item they were opened over, or to the page. */
  closeClass(): void {
    const p = this.get().presenter;
    if (!p?.classResults) return;
    if (p.classResults === 'page') this.close();
    else this.store.setState({ presenter: { item: p.item, classLesson: p.classLesson } });
  }

  /**
   * The next chart; on the step-through, the next phase of the update (computed by the trainer).
   * Into the step-through its first phase is computed at once — unless that would add a step to a
   * lesson run at its verdict: then the step-through's title says so, and the next → goes on.
   */
  async next(): Promise<void> {
    const s = this.get();
    if (!s.presenter || s.presenter.classResults) return;
    const items = presenterItems(s);
    const i = presenterIndex(s.presenter, items);
    if (items[i].kind === 'step') return this.stepForward();
    this.store.setState({ presenter: { item: i + 1 } });
    if (items[i + 1]?.kind === 'step' && !(beginsUpdate(s) && this.lab.verdicts.reached())) await this.stepForward();
  }

  /** The previous phase of the step-through, or the previous chart. */
  back(): void {
    const s = this.get();
    if (!s.presenter) return;
    if (s.presenter.classResults) return this.closeClass();
    const items = presenterItems(s);
    const i = presenterIndex(s.presenter, items);
    const ins = s.stepMode ? s.inspector : null;
    if (items[i].kind === 'step' && ins?.rollout && ins.phase > 0) this.lab.stepThrough.back();
    else if (items[i].kind === 'step' && ins?.busy) return; // a phase is being computed: stay with it
    else if (i > 0) this.store.setState({ presenter: { item: i - 1 } });
  }

  /** Lesson n (1-based, the order of the Lessons panel), from its first chart. */
  async lesson(n: number): Promise<void> {
    const lesson = LESSONS[n - 1];
    if (!lesson || !this.get().presenter) return;
    this.store.setState({ presenter: { item: 0 } });
    await this.lab.applyLesson(lesson.id);
  }

  togglePlay(): void {
    this.lab.togglePlay();
  }

  /** The class tour in the view: open at its first stop, or closed when open (not over the class results: their keys are theirs). */
  toggleTour(): void {
    const p = this.get().presenter;
    if (!p || p.classResults) return;
    if (this.lab.tour.stop === null) this.lab.tour.open(0);
    else this.lab.tour.close();
  }

  /**
   * Into (or on through) the step-through: step mode on, then the next phase, or the first when
   * none is shown. A new update on a lesson run at its verdict goes past the verdict (never a new
   * run outside the lesson, which step mode or a new batch would start there): only once the
   * title says so (verdictAhead: the store holds the verdict), else it waits for the judgement.
   */
  private async stepForward(): Promise<void> {
    const s = this.get();
    if (beginsUpdate(s) && this.lab.verdicts.reached()) {
      // not said yet (the verdict is being judged): nothing now; the title says it once judged, and the next → goes on
      if (!verdictAhead(s)) return this.lab.verdicts.settled();
      if (!this.lab.verdicts.continuePast()) return;
    }
    if (s.stepMode && s.inspector) return this.lab.stepThrough.forward();
    await this.lab.setStepMode(true);
    if (!this.get().inspector?.rollout) await this.lab.stepThrough.forward();
  }
}

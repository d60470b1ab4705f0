/**
 * The presenter view for classroom demos: one item at a time, full screen — the lesson's charts
 * in order, then the step-through of one real update (src/store/presenterView.ts lists them).
 * Keys (src/ui/Presenter.tsx): → next, ← back, a lesson's number (readLessonKey), Space play/pause, C the
 * class results (← or Esc back from them), Esc leave.
 *
 * It drives the session as the page's own controls do: a lesson through applyLesson (the
 * Lessons panel's call), a phase through the step-through's forward()/back(), play through
 * togglePlay. Its one piece of state, open and at which item, is the store's `presenter`
 * (the address carries it as present=1: the session keeps the address in sync).
 */
import { LESSONS } from '../rl/lessons.ts';
import type { LabState, LabStoreApi } from '../store/labStore.ts';
import { presenterIndex, presenterItems } from '../store/presenterView.ts';

/** What the presenter needs from the session (LabSession has all of it). */
export interface PresenterHost {
  applyLesson(id: string, variant?: number): Promise<void>;
  setStepMode(on: boolean): Promise<void>;
  togglePlay(): void;
  readonly stepThrough: { forward(): Promise<void>; back(): void };
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
    this.store.setState({ presenter: p ? { item: p.item, classResults: p.classResults ?? 'item' } : { item: 0, classResults: 'page' } });
  }

  /** Back from the class results: to the item they were opened over, or to the page. */
  closeClass(): void {
    const p = this.get().presenter;
    if (!p?.classResults) return;
    if (p.classResults === 'page') this.close();
    else this.store.setState({ presenter: { item: p.item } });
  }

  /** The next chart; on the step-through, the next phase of the update (computed by the trainer). */
  async next(): Promise<void> {
    const s = this.get();
    if (!s.presenter || s.presenter.classResults) return;
    const items = presenterItems(s);
    const i = presenterIndex(s.presenter, items);
    if (items[i].kind === 'step') return this.stepForward();
    this.store.setState({ presenter: { item: i + 1 } });
    if (items[i + 1]?.kind === 'step') await this.stepForward();
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

  /**
   * Into (or on through) the step-through: step mode on, then the next phase, or the first when
   * none is shown. Step mode on a lesson run at its verdict leaves the lesson for a new run (the
   * lesson's run keeps its verdict): the items are then every chart, so the view is put back on
   * the step-through, the last item, not left on whatever chart now sits at its old place.
   */
  private async stepForward(): Promise<void> {
    const s = this.get();
    if (s.stepMode && s.inspector) return this.lab.stepThrough.forward();
    await this.lab.setStepMode(true);
    if (this.get().presenter) this.store.setState({ presenter: { item: presenterItems(this.get()).length - 1 } });
    if (!this.get().inspector?.rollout) await this.lab.stepThrough.forward();
  }
}

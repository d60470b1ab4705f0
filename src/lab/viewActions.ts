/**
 * The page's view choices that involve no run: the speed, classroom mode and its hidden
 * controls, which finished run is overlaid or pinned, notices dismissed, leaving a lesson's
 * text. Plain store writes, made here for the components (which only read the store); the
 * session owns one (`lab.view`).
 */
import type { LabState } from '../store/labStore.ts';

export interface ViewHost {
  get(): LabState;
  set(patch: Partial<LabState> | ((s: LabState) => Partial<LabState>)): void;
}

export class ViewActions {
  constructor(private readonly host: ViewHost) {}

  leaveLesson(): void {
    this.host.set({ lessonId: null, lessonVariant: 0 });
  }
  setDelay(ms: number): void {
    this.host.set({ delayMs: ms });
  }
  setClassroom(on: boolean): void {
    this.host.set({ classroom: on });
  }
  toggleHidden(key: string): void {
    const h = this.host.get().hidden;
    this.host.set({ hidden: h.includes(key) ? h.filter((k) => k !== key) : [...h, key] });
  }
  setOverlay(id: number | null): void {
    this.host.set({ overlayRunId: id });
  }
  /** Pin a finished run (overlaid beside any run, kept in the list) or unpin it. */
  pinRun(id: number, pinned: boolean): void {
    this.host.set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, pinned } : r)) }));
  }
  dismissUrlNotices(): void {
    this.host.set({ urlNotices: [] });
  }
}

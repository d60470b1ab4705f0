/**
 * The session's list of finished runs ("the previous run" for overlays and comparison): a run is
 * archived when the next one starts, the list is kept in this browser (autosave.ts FinishedRuns)
 * and read back at start-up, merged with any run archived meanwhile. Ids stay distinct.
 */
import type { Settings } from '../rl/settings.ts';
import type { LabState, LabStoreApi } from '../store/labStore.ts';
import { archivedRun } from '../store/views.ts';
import { keptRuns, nextOverlayId, runOrigin } from '../store/overlays.ts';
import type { FinishedRuns } from './autosave.ts';

export const MAX_SAVED_RUNS = 5;

export class RunsList {
  private counter = 0;
  constructor(private readonly host: { get(): LabState; set(p: Partial<LabState>): void; store: LabStoreApi; finished: FinishedRuns | null }) {
    host.store.subscribe((now, prev) => { if (now.runs !== prev.runs) host.finished?.keep(now.runs); });
  }

  /** This browser's runs list, read back (merged with any run archived meanwhile; ids kept distinct). */
  async restore(): Promise<void> {
    const kept = (await this.host.finished?.restore(MAX_SAVED_RUNS)) ?? [];
    if (!kept.length) return;
    const now = this.host.get().runs;
    let next = Math.max(this.counter, ...now.map((r) => r.id), ...kept.map((r) => r.id));
    const taken = new Set(now.map((r) => r.id));
    const restored = kept.map((r) => (taken.has(r.id) ? { ...r, id: ++next } : r));
    this.counter = next;
    const runs = keptRuns([...now, ...restored], MAX_SAVED_RUNS);
    const live = this.host.get().liveOrigin;
    this.host.set({ runs, overlayRunId: this.host.get().overlayRunId ?? (live ? nextOverlayId(runs, null, live) : null) });
  }

  /** Keep the run just ended, made with `settings` (the trainer's: the store's may already be the next run's). */
  archive(settings: Settings | null): void {
    const s = this.host.get();
    if (!s.steps.length) return;
    const rs = settings ?? s.settings;
    const run = archivedRun(s, rs, s.liveOrigin ?? runOrigin(rs, { id: null, variant: 0 }, null), ++this.counter);
    this.host.set({ runs: keptRuns([run, ...s.runs], MAX_SAVED_RUNS), overlayRunId: run.id, liveOrigin: null }); // no live run until the next loads: it keeps this one overlaid only if comparable
  }
}

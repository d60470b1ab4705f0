/**
 * Importing a run trained elsewhere into the page: the files are read one way
 * (src/persist/trlImport.ts), the doctor runs on them (src/rl/doctor.ts), and the result goes to
 * its own store (src/store/importedRun.ts), which the charts overlay. A refused file leaves the
 * previous import and the lab's own run as they were, with one sentence said.
 */
import { importTrlFiles, type TrlFile } from '../persist/trlImport.ts';
import { diagnose, labHistories } from '../rl/doctor.ts';
import type { ImportedRunView, ImportState, XAxisMode } from '../store/importedRun.ts';

export interface ImportStoreApi {
  getState(): ImportState;
  setState(partial: Partial<ImportState>): void;
}

export class RunImport {
  constructor(private readonly store: ImportStoreApi) {}

  /** Read dropped or chosen files (a folder's paths as names); the label names a folder. */
  async importFiles(files: TrlFile[], label?: string): Promise<string | null> {
    this.store.setState({ busy: true });
    try {
      const r = await importTrlFiles(files, label);
      if (!r.ok) {
        this.store.setState({ error: r.error });
        return r.error;
      }
      const run = r.run;
      const h = labHistories(run);
      const view: ImportedRunView = {
        name: run.name,
        label: `TRL run: ${run.name}`,
        steps: h.steps,
        evals: h.evals.map((e) => ({ step: e.step, heldout_accuracy: e.heldout_accuracy })),
        accuracyKey: h.accuracyKey,
        accuracyNote: h.accuracyNote,
        heldoutKey: h.heldoutKey,
        diagnosis: diagnose(run),
        keys: run.keys,
        rewardFuncs: run.rewardFuncs,
        notices: run.notices,
        sources: run.sources,
        completions: run.completions,
        hasTokens: h.steps.some((s) => Number.isFinite(s.num_tokens)),
      };
      // x as % of each run's steps: a browser run of a few steps beside an import of hundreds is not squeezed against x = 0 (tokens stay if chosen and logged)
      const was = this.store.getState().xAxis;
      this.store.setState({ run: view, error: null, xAxis: was === 'tokens' && view.hasTokens ? 'tokens' : 'progress' });
      return null;
    } finally {
      this.store.setState({ busy: false });
    }
  }

  /** Take the imported run off the charts. */
  clear(): void {
    this.store.setState({ run: null, error: null, xAxis: 'step' });
  }

  setXAxis(x: XAxisMode): void {
    this.store.setState({ xAxis: x });
  }
}

/**
 * Saving the run in this browser (IndexedDB) and offering it back after a reload.
 *
 * A save writes the run's committed state (RecoverableBackend.committed: on WebGPU it came
 * with the last update's one readback, so saving costs no GPU readback), π_ref, the trainer's
 * counters and prompt stream, the settings and the metric history. Saves are serialised.
 */
import { encodeCheckpoint } from '../model/checkpoint.ts';
import type { RecoverableBackend } from '../model/recoverable.ts';
import { RunStore } from '../persist/idb.ts';
import { describeSavedRun, SAVED_RUN_FORMAT, SAVED_RUN_VERSION, validateSavedRun, type SavedRunRecord, type ValidSavedRun } from '../persist/savedRun.ts';
import type { GrpoTrainer } from '../rl/trainer.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import type { FaultNotice, LabState } from '../store/labStore.ts';

/** Save after this many recorded steps (and on every pause). */
const SAVE_EVERY = 5;

export interface AutosaveHost {
  get(): LabState;
  set(patch: Partial<LabState>): void;
  fault(kind: FaultNotice['kind'], text: string): void;
  /** The run to save now (null: nothing to save). */
  current(): { backend: RecoverableBackend; trainer: GrpoTrainer; importedName: string | null } | null;
}

export class Autosave {
  /** The saved run found at start-up, until the user resumes it or starts fresh. */
  private offered: ValidSavedRun | null = null;
  private stepsSinceSave = 0;
  private chain: Promise<void> = Promise.resolve();
  private readonly store = new RunStore();

  constructor(private readonly host: AutosaveHost) {}

  /** Look for a run saved in this browser; if it can be resumed, offer it (the page shows the prompt). */
  async offer(): Promise<void> {
    const r = await this.store.load();
    if (!r.ok) return this.host.fault('storage', r.error);
    if (r.value === null) return;
    const v = validateSavedRun(r.value, { vocabSize: VOCAB_SIZE });
    if (!v.ok) return this.host.fault('resume', `A run saved in this browser was found, but ${v.error}. Starting fresh; the next save replaces it.`);
    if (v.run.record.trainer.step === 0) return;
    this.offered = v.run;
    this.host.set({ resumeOffer: { label: describeSavedRun(v.run.record, v.run.checkpoint.config) } });
  }

  /** Take the offered run (the session then loads it); null if none is offered. */
  take(): ValidSavedRun | null {
    const run = this.offered;
    this.offered = null;
    this.host.set({ resumeOffer: null });
    return run;
  }

  /** Start fresh instead: the saved run is forgotten. */
  async discard(): Promise<void> {
    this.offered = null;
    this.host.set({ resumeOffer: null });
    await this.clear();
  }

  /** Forget the saved run (a reset: the new run is saved from its first steps). */
  async clear(): Promise<void> {
    await this.chain;
    const r = await this.store.clear();
    if (!r.ok) this.host.fault('storage', r.error);
  }

  /** A step was recorded: save every SAVE_EVERY steps. */
  stepRecorded(): void {
    if (++this.stepsSinceSave >= SAVE_EVERY) this.request();
  }

  /** A new run starts counting. */
  restart(): void {
    this.stepsSinceSave = 0;
  }

  /** Save soon (saves are serialised; a burst of requests writes once more at most). */
  request(): void {
    this.stepsSinceSave = 0;
    const save = () => this.saveNow();
    this.chain = this.chain.then(save, save);
  }

  /** Wait for saves in flight (tests and reset). */
  settled(): Promise<void> {
    return this.chain;
  }

  private async saveNow(): Promise<void> {
    const run = this.host.current();
    const good = run?.backend.committed;
    if (!run || !good || !run.backend.referenceWeights || run.trainer.step === 0) return;
    const { backend: be, trainer: t } = run;
    const s = this.host.get();
    // A save that lands between a step's update and the recording of its metrics would pair the
    // trainer's next step with a history one step short: skip it, the next recorded step saves.
    const last = s.steps.at(-1);
    if (last && last.step !== t.state.step - 1) {
      this.stepsSinceSave = SAVE_EVERY - 1;
      return;
    }
    let record: SavedRunRecord;
    try {
      const state = t.state;
      record = {
        format: SAVED_RUN_FORMAT,
        version: SAVED_RUN_VERSION,
        savedAt: Date.now(),
        settings: s.settings,
        page: { lessonId: s.lessonId, lessonVariant: s.lessonVariant, backendPref: s.backendPref },
        steps: s.steps,
        evals: s.evals,
        trainer: { step: state.step, numTokens: state.numTokens, promptRng: state.promptStream },
        checkpoint: encodeCheckpoint({ config: be.config, weights: good.weights, optimizer: good.optimizer, metadata: { kind: 'rl', step: state.step, createdBy: 'rlvr-lab autosave' } }),
        reference: encodeCheckpoint({ config: be.config, weights: be.referenceWeights!, metadata: { kind: 'reference' } }),
        importedName: run.importedName,
      };
    } catch (e) {
      return this.host.fault('storage', `The run could not be prepared for saving (${(e as Error).message.slice(0, 100)}).`);
    }
    const r = await this.store.save(record);
    if (!r.ok) return this.host.fault('storage', r.error);
    this.host.set({ lastSave: { step: record.trainer.step, at: record.savedAt } });
  }
}

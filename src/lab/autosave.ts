/**
 * Saving the run in this browser (IndexedDB) and offering it back after a reload.
 *
 * A save writes the run's committed state (RecoverableBackend.committed: on WebGPU it came
 * with the last update's one readback, so saving costs no GPU readback), π_ref, the trainer's
 * counters and prompt stream, the settings and the metric history. Saves are serialised.
 *
 * A save is a snapshot of one moment between two steps, taken when it is asked for: the
 * trainer's counters, the committed weights and the history (with the evaluation that ends a
 * step, when one is due) all belong to the same step. Asked for while a step is open (its
 * update applied, its evaluation not yet recorded), the save waits for the step's end
 * (stepEnded). Only the writing to IndexedDB is asynchronous; a burst of requests writes the
 * newest snapshot once.
 */
import { encodeCheckpoint } from '../model/checkpoint.ts';
import type { RecoverableBackend } from '../model/recoverable.ts';
import { RunStore } from '../persist/idb.ts';
import { FINISHED_RUNS_FORMAT, SAVED_RUN_FORMAT, SAVED_RUN_VERSION, validateFinishedRuns, validateSavedRun, type SavedRunRecord, type ValidSavedRun } from '../persist/savedRun.ts';
import type { GrpoTrainer } from '../rl/trainer.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { engineErrorSentence } from './sentences.ts';
import type { FaultNotice, LabState, SavedRun } from '../store/labStore.ts';

/**
 * Save after this many recorded steps (and on every pause): every step, so a reload, a crash or a
 * closed tab loses no completed step (issue 48: a reload mid-run lost the steps since the last
 * save). A burst costs no more than one write at a time: requests made while a write is under way
 * write only the newest snapshot when it is done (request).
 */
export const SAVE_EVERY = 1;

/** Where saves go: this browser's IndexedDB (RunStore), or a test's own. */
export type SavedRunSlot = Pick<RunStore, 'save' | 'load' | 'clear'>;

/** What a save writes, gathered at one moment between steps (the encoding waits for the write). */
interface Snapshot {
  record: Omit<SavedRunRecord, 'checkpoint' | 'reference'>;
  encode(): Pick<SavedRunRecord, 'checkpoint' | 'reference'>;
}

export interface AutosaveHost {
  get(): LabState;
  set(patch: Partial<LabState>): void;
  fault(kind: FaultNotice['kind'], text: string): void;
  /** The run to save now (null: nothing to save). */
  current(): { backend: RecoverableBackend; trainer: GrpoTrainer; importedName: string | null } | null;
}

const pageKey = (lessonId: string | null, variant: number, backend: string) => `${lessonId}/${variant}/${backend}`;

export class Autosave {
  /** The saved run found at start-up, until the user resumes it or starts fresh. */
  private offered: ValidSavedRun | null = null;
  private stepsSinceSave = 0;
  /** A save was asked for while a step was open: it is taken when the step ends. */
  private deferred = false;
  /** The newest snapshot not written yet (a burst of requests writes only the last). */
  private pending: Snapshot | null = null;
  private chain: Promise<void> = Promise.resolve();
  /** Saves are held (a test's hook: what is saved now stays the saved run until the page goes). */
  private held = false;
  /** flush() calls waiting for the step in progress to end. */
  private stepWaiters: (() => void)[] = [];
  /** What the last save written held (flush skips a save that would write the same run again). */
  private last: { step: number; settings: unknown; page: string } | null = null;
  /** The last write reached the store (false: it failed, and the page said why). */
  private lastWriteOk = true;

  constructor(private readonly host: AutosaveHost, private readonly store: SavedRunSlot = new RunStore()) {}

  /** The run saved in this browser, checked (null: none, none past step 0, or one that cannot be resumed: the page says why). */
  async find(): Promise<ValidSavedRun | null> {
    const r = await this.store.load();
    if (!r.ok) return (this.host.fault('storage', r.error), null);
    if (r.value === null) return null;
    const v = validateSavedRun(r.value, { vocabSize: VOCAB_SIZE });
    if (!v.ok) return (this.host.fault('resume', `A run saved in this browser was found, but ${v.error}. Starting fresh; the next save replaces it.`), null);
    return v.run.record.trainer.step === 0 ? null : v.run;
  }

  /** Offer this saved run (the page shows the prompt, `label` in words: lab/comeBack.ts) until the user resumes it or starts fresh. */
  offer(run: ValidSavedRun, label: string): void {
    this.offered = run;
    this.host.set({ resumeOffer: { label } });
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

  /** A step's metrics were recorded (counted; the save comes when the step ends). */
  stepRecorded(): void {
    this.stepsSinceSave++;
  }

  /** A step ended (its evaluation, if one was due, recorded): save every SAVE_EVERY steps, or a save asked for mid-step. */
  stepEnded(): void {
    if (this.deferred || this.stepsSinceSave >= SAVE_EVERY) this.request();
    for (const wake of this.stepWaiters.splice(0)) wake();
  }

  /**
   * Save the run before the page goes (a reload the lab triggers, the tab hidden): now, or, with
   * a step in progress, when it ends — never a half step. Resolves once that save is written (at
   * once when there is nothing new to save). A step left open without ending (a stepped update
   * abandoned) is noticed within 250 ms. False when the run is not saved (the write failed: the
   * page already says why).
   */
  async flush(): Promise<boolean> {
    for (;;) {
      if (this.held) return true;
      const run = this.host.current();
      if (!run?.trainer.inStep) {
        if (!run || run.trainer.state.step === 0) return true; // nothing to save
        if (!this.deferred && this.stepsSinceSave === 0 && this.unchanged(run.trainer.state.step)) return true; // saved as it is
        this.request();
        await this.chain;
        return this.lastWriteOk;
      }
      this.deferred = true; // the step's end saves it even if this wait is given up
      await new Promise<void>((wake) => {
        const done = () => { clearTimeout(timer); wake(); };
        const timer = setTimeout(() => { this.stepWaiters = this.stepWaiters.filter((w) => w !== done); wake(); }, 250);
        this.stepWaiters.push(done);
      });
    }
  }

  /** The last save written holds this step, these settings and this page: a save now would write the same run. */
  private unchanged(step: number): boolean {
    const l = this.last;
    const s = this.host.get();
    return l !== null && l.step === step && l.settings === s.settings && l.page === pageKey(s.lessonId, s.lessonVariant, s.backendPref);
  }

  /** A new run starts counting. */
  restart(): void {
    this.stepsSinceSave = 0;
    this.deferred = false;
    this.pending = null;
    this.last = null;
    for (const wake of this.stepWaiters.splice(0)) wake();
  }

  /** Write no more saves, not even one already asked for (the browser tests' hook: the saved run stays the one saved last). */
  hold(): void {
    this.held = true;
  }

  /** Save the run as it is now; mid-step, as it is when the step ends. Saves are serialised. */
  request(): void {
    if (this.held) return;
    const run = this.host.current();
    if (run?.trainer.inStep) {
      this.deferred = true;
      return;
    }
    this.deferred = false;
    this.stepsSinceSave = 0;
    const snap = run && this.snapshot(run);
    if (!snap) return;
    const queued = this.pending !== null;
    this.pending = snap;
    if (queued) return; // the write already queued takes this newer snapshot
    const write = () => this.write();
    this.chain = this.chain.then(write, write);
  }

  /** Wait for saves in flight (tests and reset). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** The run at this moment (between steps), or null when there is nothing to save. */
  private snapshot(run: NonNullable<ReturnType<AutosaveHost['current']>>): Snapshot | null {
    const { backend: be, trainer: t } = run;
    const good = be.committed;
    const reference = be.referenceWeights;
    const state = t.state;
    if (!good || !reference || state.step === 0) return null;
    const s = this.host.get();
    const config = be.config;
    return {
      record: {
        format: SAVED_RUN_FORMAT,
        version: SAVED_RUN_VERSION,
        savedAt: Date.now(),
        settings: s.settings,
        page: { lessonId: s.lessonId, lessonVariant: s.lessonVariant, backendPref: s.backendPref },
        steps: s.steps,
        evals: s.evals,
        trainer: { step: state.step, numTokens: state.numTokens, promptRng: state.promptStream },
        importedName: run.importedName,
        verdict: s.verdict,
      },
      // the committed state and π_ref are never written in place (each update makes new arrays), so encoding later is encoding now
      encode: () => ({
        checkpoint: encodeCheckpoint({ config, weights: good.weights, optimizer: good.optimizer, metadata: { kind: 'rl', step: state.step, createdBy: 'rlvr-lab autosave' } }),
        reference: encodeCheckpoint({ config, weights: reference, metadata: { kind: 'reference' } }),
      }),
    };
  }

  private async write(): Promise<void> {
    const snap = this.pending;
    this.pending = null;
    if (!snap || this.held) return;
    let record: SavedRunRecord;
    try {
      record = { ...snap.record, ...snap.encode() };
    } catch (e) {
      this.lastWriteOk = false;
      return this.host.fault('storage', `The run could not be prepared for saving (${engineErrorSentence(e, 100)}).`);
    }
    const r = await this.store.save(record);
    this.lastWriteOk = r.ok;
    if (!r.ok) return this.host.fault('storage', r.error);
    this.last = { step: record.trainer.step, settings: snap.record.settings, page: pageKey(record.page.lessonId, record.page.lessonVariant, record.page.backendPref) };
    this.host.set({ lastSave: { step: record.trainer.step, at: record.savedAt } });
  }
}

/**
 * The runs list of this browser's student (finished runs, their frozen verdicts), kept in its own
 * IndexedDB slot beside the live run: written whenever the list changes, read back at start-up, so
 * a lesson's comparison between variants survives a reload. "New student" empties it.
 */
export class FinishedRuns {
  private chain: Promise<void> = Promise.resolve();
  /** The newest list not written yet (a burst of changes writes only the last). */
  private pending: SavedRun[] | null = null;

  constructor(private readonly host: Pick<AutosaveHost, 'fault'>, private readonly store: SavedRunSlot = new RunStore('finished')) {}

  /** The list kept in this browser ([] when none, or unreadable: the page says why). */
  async restore(max: number): Promise<SavedRun[]> {
    const r = await this.store.load();
    if (!r.ok) return []; // the live run's autosave says what is wrong with this browser's storage
    if (r.value === null) return [];
    const v = validateFinishedRuns(r.value, max);
    if (!v.ok) {
      this.host.fault('resume', `${v.error[0].toUpperCase()}${v.error.slice(1)}; the list starts empty.`);
      return [];
    }
    return v.runs;
  }

  /** Keep this list (serialised writes; an empty list clears the slot). */
  keep(runs: SavedRun[]): void {
    const queued = this.pending !== null;
    this.pending = runs;
    if (queued) return;
    const write = async () => {
      const list = this.pending!;
      this.pending = null;
      const r = list.length ? await this.store.save({ format: FINISHED_RUNS_FORMAT, runs: list }) : await this.store.clear();
      if (!r.ok) this.host.fault('storage', r.error);
    };
    this.chain = this.chain.then(write, write);
  }

  /** Wait for writes in flight. */
  settled(): Promise<void> {
    return this.chain;
  }
}

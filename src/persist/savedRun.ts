/**
 * A run saved in the browser (IndexedDB), so a reload can resume exactly where it was:
 * settings, page options, metric history, the trainer's counters and prompt stream, the latest
 * good checkpoint (weights + AdamW state) and π_ref's weights.
 *
 * What comes back from storage is treated as untrusted (another version of the lab may have
 * written it, or it may be damaged): `validateSavedRun` checks every field and decodes both
 * checkpoints with their checksums, and says in one sentence why a record cannot be resumed.
 */
import type { ModelConfig } from '../model/config.ts';
import { decodeCheckpoint, type DecodedCheckpoint } from '../model/checkpoint.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import type { EvalMetrics, StepMetrics } from '../rl/trainer.ts';
import { validateSettingsObject } from './settingsFile.ts';

export const SAVED_RUN_FORMAT = 'rlvr-lab-run';
export const SAVED_RUN_VERSION = 1;

export interface SavedRunRecord {
  format: typeof SAVED_RUN_FORMAT;
  version: number;
  /** Date.now() when saved. */
  savedAt: number;
  settings: Settings;
  page: { lessonId: string | null; lessonVariant: number; backendPref: 'auto' | 'cpu' | 'webgpu' };
  /** The bounded histories as the charts had them. */
  steps: StepMetrics[];
  evals: EvalMetrics[];
  /** GrpoTrainer.step and numTokens, and the prompt stream's state (so the next prompts are the ones that would have come). */
  trainer: { step: number; numTokens: number; promptRng: { state: number; spare: number | null } | null };
  /** encodeCheckpoint of the last good weights + AdamW state. */
  checkpoint: Uint8Array;
  /** encodeCheckpoint of π_ref's weights (no optimizer state). */
  reference: Uint8Array;
  /** Name of an imported checkpoint the run started from, if any. */
  importedName: string | null;
}

export interface ValidSavedRun {
  record: SavedRunRecord;
  checkpoint: DecodedCheckpoint;
  reference: DecodedCheckpoint;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isCount = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** Check a record read from storage. Returns the decoded run, or a sentence saying what is wrong. */
export function validateSavedRun(x: unknown, expect: { vocabSize: number }): { ok: true; run: ValidSavedRun } | { ok: false; error: string } {
  const fail = (why: string) => ({ ok: false as const, error: `the saved run cannot be resumed: ${why}` });
  if (!isObj(x)) return fail('the record is not an object');
  if (x.format !== SAVED_RUN_FORMAT) return fail(`unknown record format ${JSON.stringify(x.format)?.slice(0, 40)}`);
  if (x.version !== SAVED_RUN_VERSION) return fail(`it was saved in format version ${JSON.stringify(x.version)?.slice(0, 20)}; this lab reads version ${SAVED_RUN_VERSION}`);
  if (typeof x.savedAt !== 'number') return fail('no save time');
  if (!isObj(x.settings)) return fail('no settings');
  const s = validateSettingsObject(x.settings, defaultSettings());
  if (!s.ok) return fail(`its settings are invalid (${s.error})`);
  const page = x.page;
  if (!isObj(page) || !(page.lessonId === null || typeof page.lessonId === 'string') || !isCount(page.lessonVariant) || !['auto', 'cpu', 'webgpu'].includes(page.backendPref as string)) return fail('its page options are invalid');
  if (!Array.isArray(x.steps) || !x.steps.every((m) => isObj(m) && isCount(m.step) && typeof m.reward === 'number')) return fail('its metric history is invalid');
  if (!Array.isArray(x.evals) || !x.evals.every((e) => isObj(e) && isCount(e.step) && typeof e.heldout_accuracy === 'number')) return fail('its evaluation history is invalid');
  const t = x.trainer;
  if (!isObj(t) || !isCount(t.step) || !isCount(t.numTokens)) return fail('its trainer counters are invalid');
  if (t.promptRng !== null && !(isObj(t.promptRng) && typeof t.promptRng.state === 'number' && (t.promptRng.spare === null || typeof t.promptRng.spare === 'number'))) return fail('its prompt stream is invalid');
  if (!(x.checkpoint instanceof Uint8Array) || !(x.reference instanceof Uint8Array)) return fail('its checkpoints are missing');
  if (!(x.importedName === null || typeof x.importedName === 'string')) return fail('invalid imported checkpoint name');
  let checkpoint: DecodedCheckpoint, reference: DecodedCheckpoint;
  try {
    checkpoint = decodeCheckpoint(x.checkpoint);
    reference = decodeCheckpoint(x.reference, { config: checkpoint.config });
  } catch (e) {
    return fail((e as Error).message);
  }
  if (checkpoint.config.vocabSize !== expect.vocabSize) return fail(`its model has a vocabulary of ${checkpoint.config.vocabSize} tokens, the lab's has ${expect.vocabSize}`);
  if (!checkpoint.optimizer) return fail('its checkpoint has no optimizer state');
  const record = { ...(x as unknown as SavedRunRecord), settings: s.settings };
  return { ok: true, run: { record, checkpoint, reference } };
}

/** The model size a saved run would restore (for the resume prompt). */
export function describeSavedRun(r: SavedRunRecord, config: ModelConfig): string {
  const when = new Date(r.savedAt);
  const steps = r.trainer.step;
  return `${r.settings.task}, ${steps} step${steps === 1 ? '' : 's'}, G=${r.settings.numGenerations}, D=${config.dModel} L=${config.nLayers}, saved ${when.toLocaleString()}`;
}

/**
 * Checkpoint and settings files in and out of the lab. A refused file changes nothing: the
 * run, its settings and its history stay as they were, and the refusal is one sentence.
 */
import type { Backend } from '../model/backend.ts';
import { decodeCheckpoint, encodeCheckpoint } from '../model/checkpoint.ts';
import type { Settings } from '../rl/settings.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import type { ImportedModel } from './engine.ts';
import { parseSettingsFile } from '../persist/settingsFile.ts';

/** Imported checkpoints larger than this are refused before decoding (the lab's models are far smaller). */
export const MAX_IMPORT_BYTES = 16 << 20;
/** Largest model an imported checkpoint may hold, in floats of the flat parameter buffer (the 'small' config is ~0.8M). */
const MAX_IMPORT_FLOATS = 4 << 20;

/** The current policy as a checkpoint file (weights + AdamW state + the run's settings). */
export async function checkpointFile(be: Backend, meta: { settings: Settings; step: number; lesson: string | null }): Promise<Uint8Array> {
  return encodeCheckpoint({
    config: be.config,
    weights: await be.getWeights(),
    optimizer: await be.getOptimizerState(),
    metadata: { kind: 'rl', settings: meta.settings, step: meta.step, lesson: meta.lesson, createdBy: 'rlvr-lab page' },
  });
}

/** A checkpoint file the lab can start from, or the sentence that refuses it. */
export function readCheckpointFile(name: string, bytes: Uint8Array): { ok: true; model: ImportedModel } | { ok: false; error: string } {
  const shown = name.slice(0, 80);
  const refuse = (why: string) => ({ ok: false as const, error: `${shown} was not loaded: ${why}. Nothing was changed.` });
  if (bytes.length > MAX_IMPORT_BYTES) return refuse(`the file has ${bytes.length} bytes, more than any checkpoint the lab can run (${MAX_IMPORT_BYTES})`);
  let ck: ReturnType<typeof decodeCheckpoint>;
  try {
    ck = decodeCheckpoint(bytes);
  } catch (e) {
    return refuse((e as Error).message.replace(/^checkpoint: /, ''));
  }
  if (ck.config.vocabSize !== VOCAB_SIZE) return refuse(`its model has a vocabulary of ${ck.config.vocabSize} tokens, the lab's has ${VOCAB_SIZE}`);
  if (ck.layout.total > MAX_IMPORT_FLOATS) return refuse(`its model has ${ck.layout.numParams} parameters, more than the lab runs in a browser (${MAX_IMPORT_FLOATS} floats)`);
  if (!ck.weights.every(Number.isFinite)) return refuse('its weights contain NaN or Inf');
  return { ok: true, model: { config: ck.config, weights: ck.weights, name: shown } };
}

/** The session's file actions (the runs panel's buttons): the policy as a checkpoint file, a checkpoint or settings file read in. */
export class SessionFiles {
  constructor(private readonly host: {
    get(): import('../store/labStore.ts').LabState;
    set(p: (s: import('../store/labStore.ts').LabState) => Partial<import('../store/labStore.ts').LabState>): void;
    backend(): Backend | null;
    step(): number;
    /** The run restarts from this imported model. */
    restartFrom(model: ImportedModel): Promise<void>;
  }) {}

  /** The current policy as a checkpoint file, or null before a model is loaded. */
  async checkpointBytes(): Promise<Uint8Array | null> {
    const be = this.host.backend();
    if (!be) return null;
    const s = this.host.get();
    return checkpointFile(be, { settings: s.settings, step: this.host.step(), lesson: s.lessonId });
  }

  /** Load a checkpoint file; the run restarts from it. Returns the refusal sentence, or null. */
  async importCheckpoint(name: string, bytes: Uint8Array): Promise<string | null> {
    const r = readCheckpointFile(name, bytes);
    if (!r.ok) return r.error;
    await this.host.restartFrom(r.model);
    return null;
  }

  /** Apply a settings file (validated against the settings table), like the sliders: from the next step. */
  importSettings(name: string, bytes: Uint8Array): { error: string | null; notices: string[] } {
    const r = parseSettingsFile(name, bytes, this.host.get().settings);
    if (!r.ok) return { error: r.error, notices: [] };
    this.host.set((s) => ({ settings: r.settings, taskSpecs: { ...s.taskSpecs, ...r.taskSpecs } }));
    return { error: null, notices: r.notices };
  }
}

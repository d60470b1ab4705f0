/**
 * A run saved in the browser (IndexedDB), so a reload can resume exactly where it was:
 * settings, page options, metric history, the trainer's counters and prompt stream, the latest
 * good checkpoint (weights + AdamW state) and π_ref's weights.
 *
 * What comes back from storage is treated as untrusted (another version of the lab may have
 * written it, or it may be damaged): `validateSavedRun` checks every field (type, null, absence,
 * range, list lengths and elements, through src/model/validate.ts), decodes both checkpoints
 * with their checksums, and says in one sentence why a record cannot be resumed.
 */
import { CheckpointError, decodeCheckpoint, type DecodedCheckpoint } from '../model/checkpoint.ts';
import { arr, at, bool, bytes, describeValue, FieldError, isProtoKey, isRecord, num, obj, oneOf, optional, orNull, pathText, str, type Path } from '../model/validate.ts';
import { getLesson } from '../rl/lessons.ts';
import { defaultSettings, type Settings } from '../rl/settings.ts';
import type { EvalMetrics, StepMetrics } from '../rl/trainer.ts';
import type { ClaimVerdict } from '../rl/claims.ts';
import type { ContrastVerdict } from '../rl/contrast.ts';
import type { FrozenVerdict, SavedRun } from '../store/labStore.ts';
import type { RunOrigin } from '../store/overlays.ts';
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
  /** A lesson run's verdict, frozen at its verdict step (absent in records written before it existed: none). */
  verdict?: FrozenVerdict | null;
}

export interface ValidSavedRun {
  record: SavedRunRecord;
  checkpoint: DecodedCheckpoint;
  reference: DecodedCheckpoint;
}

/**
 * Bounds of a record the lab will resume. The histories the page keeps are bounded
 * (src/store/history.ts: 500 points); the rest are far above anything the lab writes.
 */
export const SAVED_RUN_LIMITS = {
  /** Points per history (steps, evals). */
  points: 10_000,
  /** Fields per metric point. */
  metricFields: 200,
  /** Keys of pass_at_k / by_difficulty. */
  mapKeys: 64,
  /** Held-out samples per evaluation, and characters per prompt or response. */
  samples: 1_000,
  sampleChars: 10_000,
  /** Trainer steps. */
  steps: 1e9,
  /** Bytes of each checkpoint (weights + AdamW state of the largest model the page runs, with room). */
  checkpointBytes: 64 << 20,
  nameChars: 200,
} as const;

const whole = (min: number, max: number) => ({ int: true, min, max });
type Reader<T> = (src: unknown, path: Path) => T;

/** A metric point: `step` a whole number, every other field a number (NaN allowed: e.g. kl_exact without π_ref) or true/false. */
function readMetricFields(src: unknown, p: Path, out: Record<string, unknown>, skip: readonly string[]): void {
  const m = obj(src, p, { maxKeys: SAVED_RUN_LIMITS.metricFields });
  for (const k of Object.keys(m)) {
    if (isProtoKey(k) || skip.includes(k) || m[k] === undefined) continue; // undefined: as if missing
    out[k] = typeof m[k] === 'boolean' ? m[k] : num(src, at(p, k), { nonFinite: true });
  }
}

function readStep(src: unknown, p: Path): StepMetrics {
  const out: Record<string, unknown> = {};
  readMetricFields(src, p, out, []);
  out.step = num(src, at(p, 'step'), whole(0, SAVED_RUN_LIMITS.steps));
  out.reward = num(src, at(p, 'reward'));
  if ('finite' in out) out.finite = bool(src, at(p, 'finite'));
  return out as unknown as StepMetrics;
}

const readNumberMap: Reader<Record<string, number>> = (src, p) => {
  const m = obj(src, p, { maxKeys: SAVED_RUN_LIMITS.mapKeys });
  const out: Record<string, number> = {};
  for (const k of Object.keys(m)) if (!isProtoKey(k) && m[k] !== undefined) out[k] = num(src, at(p, k), { nonFinite: true });
  return out;
};

const readSamples: Reader<EvalMetrics['samples']> = (src, p) => arr(src, p, { max: SAVED_RUN_LIMITS.samples }, (q) => {
  obj(src, q);
  return {
    prompt: str(src, at(q, 'prompt'), { max: SAVED_RUN_LIMITS.sampleChars }),
    response: str(src, at(q, 'response'), { max: SAVED_RUN_LIMITS.sampleChars }),
    correct: bool(src, at(q, 'correct')),
  };
});

/** The watched task's held-out figures (the forgetting lesson). */
const readWatch: Reader<NonNullable<EvalMetrics['watch']>> = (src, p) => {
  obj(src, p);
  return {
    task: str(src, at(p, 'task'), { min: 1, max: 64 }),
    difficulty: num(src, at(p, 'difficulty'), whole(0, 64)),
    heldout_accuracy: num(src, at(p, 'heldout_accuracy'), { nonFinite: true }),
    pass1: num(src, at(p, 'pass1'), { nonFinite: true }),
  };
};

/** A contract evaluation's per-prompt results (metrics.ts EvalMetrics.per_prompt): what a verdict's interval resamples. */
const readPerPrompt: Reader<NonNullable<EvalMetrics['per_prompt']>> = (src, p) => {
  obj(src, p);
  const counts = (k: string) => arr(src, at(p, k), { max: SAVED_RUN_LIMITS.samples }, (q) => num(src, q, whole(0, 1e6)));
  const out: NonNullable<EvalMetrics['per_prompt']> = { greedy: counts('greedy'), correct: counts('correct'), G: num(src, at(p, 'G'), whole(1, 1e6)) };
  const watch = optional(src, at(p, 'watch_correct'), null, () => counts('watch_correct'));
  if (watch) out.watch_correct = watch;
  return out;
};

function readEval(src: unknown, p: Path): EvalMetrics {
  const nested = ['pass_at_k', 'by_difficulty', 'samples', 'watch', 'per_prompt'];
  const out: Record<string, unknown> = {};
  readMetricFields(src, p, out, nested);
  out.step = num(src, at(p, 'step'), whole(0, SAVED_RUN_LIMITS.steps));
  out.heldout_accuracy = num(src, at(p, 'heldout_accuracy'));
  out.pass_at_k = optional(src, at(p, 'pass_at_k'), {}, readNumberMap);
  out.by_difficulty = optional(src, at(p, 'by_difficulty'), {}, readNumberMap);
  out.samples = optional(src, at(p, 'samples'), [], readSamples);
  const watch = optional(src, at(p, 'watch'), null, readWatch);
  if (watch) out.watch = watch;
  const perPrompt = optional(src, at(p, 'per_prompt'), null, readPerPrompt);
  if (perPrompt) out.per_prompt = perPrompt;
  if ('contract' in out && out.contract !== true) delete out.contract; // only `true` means a contract evaluation
  return out as unknown as EvalMetrics;
}

/** A lesson verdict as judged once at its step (claims.ts ClaimVerdict). */
const readVerdict: Reader<ClaimVerdict> = (src, p) => {
  obj(src, p);
  const v: Record<string, unknown> = {
    state: oneOf(src, at(p, 'state'), ['holds', 'fails', 'unclear', 'pending'] as const),
    sentence: str(src, at(p, 'sentence'), { max: SAVED_RUN_LIMITS.sampleChars }),
    evidence: readNumberMap(src, at(p, 'evidence')),
    measured: readNumberMap(src, at(p, 'measured')),
  };
  for (const k of ['hint', 'settle'] as const) {
    const t = optional(src, at(p, k), null, (s2, q) => str(s2, q, { max: SAVED_RUN_LIMITS.sampleChars }));
    if (t !== null) v[k] = t;
  }
  const step = optional(src, at(p, 'step'), null, (s2, q) => num(s2, q, whole(0, SAVED_RUN_LIMITS.steps)));
  if (step !== null) v.step = step;
  const number = optional(src, at(p, 'number'), null, (s2, q) => {
    obj(s2, q);
    return {
      what: str(s2, at(q, 'what'), { max: SAVED_RUN_LIMITS.nameChars }),
      value: num(s2, at(q, 'value'), { nonFinite: true }),
      lo: num(s2, at(q, 'lo'), { nonFinite: true }),
      hi: num(s2, at(q, 'hi'), { nonFinite: true }),
      threshold: num(s2, at(q, 'threshold')),
      side: oneOf(s2, at(q, 'side'), ['above', 'below'] as const),
      window: str(s2, at(q, 'window'), { max: SAVED_RUN_LIMITS.nameChars }),
    };
  });
  if (number !== null) v.number = number;
  return v as unknown as ClaimVerdict;
};

/** The live run's frozen verdict (its lesson must be this version's, else it is dropped with the lesson). */
const readFrozen: Reader<FrozenVerdict> = (src, p) => {
  obj(src, p);
  return {
    lessonId: str(src, at(p, 'lessonId'), { min: 1, max: 100 }),
    variant: num(src, at(p, 'variant'), whole(0, 63)),
    step: num(src, at(p, 'step'), whole(0, SAVED_RUN_LIMITS.steps)),
    judged: orNull(src, at(p, 'judged'), readVerdict),
    continued: bool(src, at(p, 'continued')),
    ...optionalFields(src, p),
  };
};

/** A frozen verdict's contrast (rl/contrast.ts ContrastVerdict) and its "not the variant" note, where the record has them. */
function optionalFields(src: unknown, p: Path): Pick<FrozenVerdict, 'contrast' | 'offVariant'> {
  const out: Pick<FrozenVerdict, 'contrast' | 'offVariant'> = {};
  const contrast = optional(src, at(p, 'contrast'), null, (s2, q) => orNull(s2, q, readContrast));
  if (contrast) out.contrast = contrast;
  const off = optional(src, at(p, 'offVariant'), null, (s2, q) => str(s2, q, { max: SAVED_RUN_LIMITS.nameChars }));
  if (off !== null) out.offVariant = off;
  return out;
}

const outcomeOrNull = (src: unknown, q: Path) => orNull(src, q, (s3, r) => num(s3, r, whole(0, 2)) as 0 | 1 | 2);
const readContrast: Reader<ContrastVerdict> = (src, q) => {
  obj(src, q);
  const n = (k: string) => num(src, at(q, k), { nonFinite: true });
  return {
    asked: num(src, at(q, 'asked'), whole(0, 63)), against: num(src, at(q, 'against'), whole(0, 63)),
    askedValue: n('askedValue'), againstValue: n('againstValue'), value: n('value'), lo: n('lo'), hi: n('hi'), margin: num(src, at(q, 'margin')),
    outcome: outcomeOrNull(src, at(q, 'outcome')), expected: outcomeOrNull(src, at(q, 'expected')),
    state: oneOf(src, at(q, 'state'), ['holds', 'fails', 'unclear', 'open'] as const), step: num(src, at(q, 'step'), whole(0, SAVED_RUN_LIMITS.steps)), paired: bool(src, at(q, 'paired')),
  };
};

function readPage(x: unknown): SavedRunRecord['page'] {
  obj(x, 'page');
  const savedLesson = orNull(x, 'page.lessonId', (s, p) => str(s, p, { min: 1, max: 100 }));
  const lessonVariant = num(x, 'page.lessonVariant', whole(0, 63));
  const backendPref = oneOf(x, 'page.backendPref', ['auto', 'cpu', 'webgpu'] as const);
  // A lesson (or variant) this version no longer has loses the lesson's text, not the run.
  const lesson = savedLesson === null ? undefined : getLesson(savedLesson);
  if (!lesson || lessonVariant >= lesson.variants.length) return { lessonId: null, lessonVariant: 0, backendPref };
  return { lessonId: savedLesson, lessonVariant, backendPref };
}

function readTrainer(x: unknown): SavedRunRecord['trainer'] {
  obj(x, 'trainer');
  return {
    step: num(x, 'trainer.step', whole(0, SAVED_RUN_LIMITS.steps)),
    numTokens: num(x, 'trainer.numTokens', whole(0, Number.MAX_SAFE_INTEGER)),
    promptRng: orNull(x, 'trainer.promptRng', (s, p) => {
      obj(s, p);
      return { state: num(s, at(p, 'state'), whole(0, 0xffffffff)), spare: orNull(s, at(p, 'spare'), (s2, q) => num(s2, q)) };
    }),
  };
}

/**
 * Check a record read from storage, every field through the readers of src/model/validate.ts,
 * then decode both checkpoints. Returns the decoded run, whose `record` is a clean copy (extra
 * fields dropped; settings completed from the table), or a sentence saying what is wrong.
 * Never throws on any record, however damaged.
 */
export function validateSavedRun(x: unknown, expect: { vocabSize: number }): { ok: true; run: ValidSavedRun } | { ok: false; error: string } {
  const fail = (why: string) => ({ ok: false as const, error: `the saved run cannot be resumed: ${why}` });
  if (!isRecord(x)) return fail(`the record is not an object (it is ${describeValue(x)})`);
  let part = 'record';
  let record: SavedRunRecord;
  try {
    try {
      oneOf(x, 'format', [SAVED_RUN_FORMAT]);
    } catch (e) {
      if (e instanceof FieldError) return fail(`unknown record format (${e.sentence()})`);
      throw e;
    }
    const version = num(x, 'version', whole(0, Number.MAX_SAFE_INTEGER));
    if (version !== SAVED_RUN_VERSION) return fail(`it was saved in format version ${version}; this lab reads version ${SAVED_RUN_VERSION}`);
    part = 'save time';
    const savedAt = num(x, 'savedAt', { min: 0, max: 8.64e15 });
    part = 'settings';
    const s = validateSettingsObject(obj(x, 'settings'), defaultSettings());
    if (!s.ok) return fail(`its settings are invalid (${s.error})`);
    part = 'page options';
    const page = readPage(x);
    part = 'metric history';
    const steps = arr(x, 'steps', { max: SAVED_RUN_LIMITS.points }, (p) => readStep(x, p));
    part = 'evaluation history';
    const evals = arr(x, 'evals', { max: SAVED_RUN_LIMITS.points }, (p) => readEval(x, p));
    part = 'trainer state';
    const trainer = readTrainer(x);
    part = 'checkpoint data';
    const checkpoint = bytes(x, 'checkpoint', { max: SAVED_RUN_LIMITS.checkpointBytes });
    const reference = bytes(x, 'reference', { max: SAVED_RUN_LIMITS.checkpointBytes });
    part = 'imported checkpoint name';
    const importedName = orNull(x, 'importedName', (src, p) => str(src, p, { max: SAVED_RUN_LIMITS.nameChars }));
    part = 'verdict';
    const frozen = optional(x, 'verdict', null, (src, p) => orNull(src, p, readFrozen));
    const verdict = frozen && frozen.lessonId === page.lessonId && frozen.variant === page.lessonVariant ? frozen : null; // a lesson this version lacks: no verdict either
    record = { format: SAVED_RUN_FORMAT, version, savedAt, settings: s.settings, page, steps, evals, trainer, checkpoint, reference, importedName, verdict };
  } catch (e) {
    if (e instanceof FieldError) return fail(`its ${part} ${part.endsWith('s') ? 'are' : 'is'} invalid (${e.sentence()})`);
    throw e;
  }
  let checkpoint: DecodedCheckpoint, reference: DecodedCheckpoint;
  try {
    checkpoint = decodeCheckpoint(record.checkpoint);
    reference = decodeCheckpoint(record.reference, { config: checkpoint.config });
  } catch (e) {
    if (e instanceof CheckpointError) return fail(e.message);
    throw e;
  }
  if (checkpoint.config.vocabSize !== expect.vocabSize) return fail(`its model has a vocabulary of ${checkpoint.config.vocabSize} tokens, the lab's has ${expect.vocabSize}`);
  if (!checkpoint.optimizer) return fail('its checkpoint has no optimizer state');
  return { ok: true, run: { record, checkpoint, reference } };
}

/** The finished runs this browser keeps (the runs list: src/lab/autosave.ts FinishedRuns), as stored. */
export const FINISHED_RUNS_FORMAT = 'rlvr-lab-finished-runs';

const readOrigin: Reader<RunOrigin> = (src, p) => {
  obj(src, p);
  return {
    lessonId: orNull(src, at(p, 'lessonId'), (s2, q) => str(s2, q, { min: 1, max: 100 })),
    variant: num(src, at(p, 'variant'), whole(0, 63)),
    task: str(src, at(p, 'task'), { min: 1, max: SAVED_RUN_LIMITS.nameChars }),
    difficulty: num(src, at(p, 'difficulty'), whole(0, 64)),
    seed: num(src, at(p, 'seed'), whole(0, 0xffffffff)),
    base: str(src, at(p, 'base'), { max: SAVED_RUN_LIMITS.nameChars }),
    weights: str(src, at(p, 'weights'), { max: 16 }),
  };
};

/**
 * The runs list read back from storage (as untrusted as a saved run): at most `max` runs, each
 * field checked; a run whose lesson this version lacks is dropped. A sentence when the whole
 * record cannot be read.
 */
export function validateFinishedRuns(x: unknown, max: number): { ok: true; runs: SavedRun[] } | { ok: false; error: string } {
  try {
    obj(x, []);
    oneOf(x, 'format', [FINISHED_RUNS_FORMAT]);
    const runs = arr(x, 'runs', { max }, (p) => {
      obj(x, p);
      const settings = validateSettingsObject(obj(x, at(p, 'settings')), defaultSettings());
      if (!settings.ok) throw new FieldError(pathText(at(p, 'settings')), `valid settings (${settings.error})`, 'something else', false);
      const run: SavedRun = {
        id: num(x, at(p, 'id'), whole(1, Number.MAX_SAFE_INTEGER)),
        label: str(x, at(p, 'label'), { max: SAVED_RUN_LIMITS.nameChars }),
        name: str(x, at(p, 'name'), { max: SAVED_RUN_LIMITS.nameChars }),
        origin: readOrigin(x, at(p, 'origin')),
        pinned: bool(x, at(p, 'pinned')),
        settings: settings.settings,
        steps: arr(x, at(p, 'steps'), { max: SAVED_RUN_LIMITS.points }, (q) => readStep(x, q)),
        evals: arr(x, at(p, 'evals'), { max: SAVED_RUN_LIMITS.points }, (q) => readEval(x, q)),
        verdict: optional(x, at(p, 'verdict'), null, (src, q) => orNull(src, q, readVerdict)),
        contrast: optional(x, at(p, 'contrast'), null, (src, q) => orNull(src, q, readContrast)),
      };
      return run;
    });
    const known = runs.filter((r) => r.origin.lessonId === null || (getLesson(r.origin.lessonId)?.variants.length ?? 0) > r.origin.variant);
    return { ok: true, runs: known };
  } catch (e) {
    if (e instanceof FieldError) return { ok: false, error: `the runs kept in this browser cannot be read back (${e.sentence()})` };
    throw e;
  }
}

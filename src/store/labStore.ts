/**
 * The lab's state (zustand): settings (URL-synced, from the one settings table), run status,
 * bounded metric history, the latest rollout, stop signals, the step inspector and recent runs.
 *
 * Components only read this store and call the lab session's actions (src/lab/session.ts),
 * which owns the run and writes here. Nothing in here touches the engine.
 */
import { create } from 'zustand';
import type { Settings } from '../rl/settings.ts';
import type { AnswerInspection, StepGeometry } from '../rl/inspection.ts';
import type { ObjectiveComparison } from '../rl/counterfactual.ts';
import type { ClaimVerdict } from '../rl/claims.ts';
import type { ContrastVerdict } from '../rl/contrast.ts';
import type { EvalMetrics, StepMetrics } from '../rl/metrics.ts';
import type { StopSignal } from '../rl/stopSignals.ts';
import type { BackendPref } from './url.ts';
import type { RunOrigin } from './overlays.ts';
import type { ModelConfig } from '../model/config.ts';
import type { Spec } from '../tasks/spec/index.ts';

/** A cold-start base made (or loaded) in this page for a task without a shipped base: runs of that task at that difficulty start from it. */
export interface TaskBase {
  task: string;
  /** The task's difficulty level it was fine-tuned at. */
  difficulty: number;
  config: ModelConfig;
  weights: Float32Array;
  /** Where it came from, in words ("cold start, 280 SFT steps" or the file's name). */
  name: string;
  /** Held-out sampled pass@1 when it was made (null: loaded from a file that does not say). */
  passRate: number | null;
  /** The cold start's target pass@1 (absent: loaded from a file). */
  target?: number;
  /** The custom task's spec it was made for, as JSON (a changed spec of the same name forgets the base). */
  specJson: string;
}

/** The cold start in progress or last finished (src/lab/customTask.ts). */
export interface ColdStartView {
  task: string;
  running: boolean;
  /** Stop was pressed; the cold start ends after its current step. */
  stopping: boolean;
  step: number;
  maxSteps: number;
  /** Held-out sampled pass@1 (temperature 1) at the last evaluation, and greedy accuracy. */
  passRate: number;
  heldoutAccuracy: number;
  target: number;
  /** One point per evaluation. */
  history: { step: number; passRate: number; heldoutAccuracy: number }[];
  /** The closing sentence (reached, stopped, too hard), once it ended. */
  sentence: string | null;
  reached: boolean | null;
}

/** One answer of the latest rollout, as plain data for the charts and the inspector. */
export interface AnswerView {
  text: string;
  reason: string;
  correct: boolean;
  formatOk: boolean;
  reward: number;
  advantage: number;
  finished: boolean;
  /** Token texts of the answer (for the heat-map). */
  tokens: string[];
}

export interface GroupView {
  prompt: string;
  answers: AnswerView[];
}

export interface RolloutView {
  step: number;
  G: number;
  groups: GroupView[];
}


export const PHASES = ['prompts', 'answers', 'verdicts', 'advantages', 'ratios', 'update'] as const;
export type Phase = (typeof PHASES)[number];

export interface InspectorState {
  /** Phase shown now (index into PHASES). */
  phase: number;
  /** Phases computed so far (the update is applied when phase 5 is computed). */
  computed: number;
  busy: boolean;
  rollout: RolloutView | null;
  /** [group][answer] the objective term by term and log π before/after, once the update ran. */
  details: AnswerInspection[][] | null;
  /** The applied step's length and its cosine with this batch's descent direction, once the update ran. */
  stepGeometry?: StepGeometry | null;
  /** The settings the inspected step runs with (its snapshot, not the live controls). */
  settings: Settings | null;
  /** The group (prompt index) shown in full; the strip summarises every group. */
  focus?: number;
  /** The batch under GRPO, Dr. GRPO, DAPO and GSPO from the same weights (when asked for, before the update). */
  comparison?: ObjectiveComparison | null;
}

/** The presenter view (src/lab/presenter.ts): open, at this item of presenterItems (src/store/presenterView.ts). */
export interface PresenterState {
  item: number;
  /** The class results shown in place of the item (src/ui/PresenterClass.tsx), and where Esc goes from them: back to the item, or to the page they were opened from. */
  classResults?: 'item' | 'page';
  /** The lesson the class results show (one screen a lesson; the first pooled one where unset). */
  classLesson?: string;
}

export interface SavedRun {
  id: number;
  label: string;
  /** Its name on the charts, "<lesson number> · <variant>" (overlays.ts). */
  name: string;
  /** Where it started (lesson, variant, task, difficulty, seed, base): what it can be compared with. */
  origin: RunOrigin;
  /** Pinned by the user: overlaid whatever the live run is, and kept in the list. */
  pinned: boolean;
  settings: Settings;
  steps: StepMetrics[];
  evals: Pick<EvalMetrics, 'step' | 'heldout_accuracy' | 'pass_at_k' | 'mean_length' | 'watch'>[];
  /** A lesson run's verdict, judged once at its verdict step (null: not a lesson run, or it stopped before). */
  verdict?: ClaimVerdict | null;
  /** The lesson's contrast judged with that verdict (FrozenVerdict.contrast): its share code carries it (absent in runs kept before it existed: none). */
  contrast?: ContrastVerdict | null;
}

/**
 * The live lesson run's verdict, judged once when the run reached its verdict step (src/lab/session.ts)
 * and never again: the card, the share code and the saved run read this, never a re-judged longer run.
 */
export interface FrozenVerdict {
  lessonId: string;
  variant: number;
  /** The step it was judged at (the variant's claim.steps). */
  step: number;
  /** The verdict; null: not judged (the run's settings differ from the variant's, so the claim is not about it). */
  judged: ClaimVerdict | null;
  /** The student chose "Continue past the verdict": Play trains on, and later steps are marked as after it. */
  continued: boolean;
  /**
   * The lesson's contrast (what its question asks the class to predict), judged at the same step
   * against a comparable run of the question's other variant already at its verdict (rl/contrast.ts);
   * null: no such run yet, or the lesson asks no question (absent in runs saved before it existed).
   */
  contrast?: ContrastVerdict | null;
  /** Not judged because a step ran with settings other than the variant's, though they are the variant's now: the step, in words (absent: judged, or the knobs still differ). */
  offVariant?: string;
}

export type RunStatus = 'loading' | 'ready' | 'running' | 'paused' | 'error';

/** A fault the run met (device lost, storage refused, a saved run that could not be resumed), in words. */
export interface FaultNotice {
  kind: 'device-lost' | 'storage' | 'resume';
  text: string;
}

export interface LabState {
  settings: Settings;
  /** Notices about the address (ignored, clamped, replaced values). */
  urlNotices: string[];
  lessonId: string | null;
  lessonVariant: number;
  backendPref: BackendPref;
  classroom: boolean;
  /** Class mode (`class=1`): this browser runs every lesson on its own seed (src/class/local.ts), and the class results panel opens. */
  classMode: boolean;
  hidden: string[];
  /** The presenter view, when open (the address carries present=1). */
  presenter: PresenterState | null;

  status: RunStatus;
  /** What the page is busy with (shader compilation, checkpoint loading, evaluation), with a fraction when known. */
  progress: { label: string; fraction?: number } | null;
  /** This browser's WebGPU adapter, software or not, or why there is none (lab/engineKeeper.ts asks once; the header says it); null: not known yet. */
  webgpu: import('../gpu/device.ts').AdapterReport | null;
  /** The backend running now and a sentence about fallbacks or the base checkpoint. */
  backendName: string | null;
  engineNotices: string[];
  error: string | null;

  steps: StepMetrics[];
  evals: EvalMetrics[];
  lastRollout: RolloutView | null;
  signals: StopSignal[];
  stepsStarted: number;
  stepsCompleted: number;
  /** True while an update is being computed. */
  inStep: boolean;
  /** The latest GPU profile of one step (profileOneStep), and its state. */
  profile: import('../gpu/profiler.ts').Profile | null;
  profiling: boolean;
  profileNote: string | null;
  /** When pause was last pressed: steps started by then, and whether a step was in progress (tests read these). */
  pausedAt: { stepsStarted: number; midStep: boolean } | null;
  /** Pause was pressed while a step runs: the loop finishes that step, then pauses (the transport says so meanwhile). */
  pausing: boolean;
  /** Milliseconds to wait between steps. */
  delayMs: number;

  stepMode: boolean;
  inspector: InspectorState | null;

  runs: SavedRun[];
  /** The live lesson run's frozen verdict (null before its verdict step, and outside a lesson). */
  verdict: FrozenVerdict | null;
  /** One sentence about a step the lesson refused to add (Play after the verdict), shown on the lesson card; null: none. */
  lessonNotice: string | null;
  /** This run was started by stepping through an update on a lesson run at its verdict: lesson `n`'s run keeps its verdict at `step` (under Runs). */
  leftLesson: { n: number; step: number } | null;
  /** The chosen overlay: drawn only while comparable to the live run (overlays.ts); pinned runs are drawn as well. */
  overlayRunId: number | null;
  /** Where the live run started (set when it loads). */
  liveOrigin: RunOrigin | null;

  /** Faults met so far (newest last); the page shows each in one or two sentences. */
  faults: FaultNotice[];
  /** The last device-loss recovery: the AdamW step restored, and steps discarded (the one in progress, if any). */
  lastRecovery: { restoredStep: number; completedSteps: number; discardedSteps: number; engine: 'cpu' | 'webgpu' } | null;
  /** The loaded run started on the CPU reference and moved to WebGPU from this step on (lab/engineKeeper.ts); null: one engine throughout. */
  engineHandover: { fromStep: number; from: 'cpu'; to: 'webgpu' } | null;
  /** Steps whose work was discarded by device losses, in total. */
  discardedSteps: number;
  /** The last update rejected as non-finite, and the step the weights were rolled back to. */
  rejected: { step: number; rolledBackTo: number } | null;
  /** A run saved in this browser that can be resumed (the resume prompt), with a one-line description. */
  resumeOffer: { label: string } | null;
  /** After a reload on a lesson's page: the lesson's runs that came back, in one sentence (lab/comeBack.ts); null: none, or a run loaded since. */
  cameBack: string | null;
  /** The last successful save in this browser: trainer step and time. */
  lastSave: { step: number; at: number } | null;

  /** The specs of the custom tasks registered by this page, by task id ("spec:<name>"): the address, the settings file and the run export carry the one in use. */
  taskSpecs: Record<string, Spec>;
  /** Cold-start bases made or loaded in this page, by task id: a run of that task starts from its base (π_ref = it). */
  taskBases: Record<string, TaskBase>;
  /** The cold start in progress or last finished, for the task panel. */
  coldStart: ColdStartView | null;
  /** The "New task" editor is open. */
  taskEditorOpen: boolean;
}

/** The zustand store's functions the lab's classes need (useLab in the page, any store in tests): src/lab/session.ts, tour.ts, presenter.ts. */
export interface LabStoreApi {
  getState(): LabState;
  setState(patch: Partial<LabState> | ((s: LabState) => Partial<LabState>)): void;
  subscribe(listener: (s: LabState, prev: LabState) => void): () => void;
}

export const useLab = create<LabState>()(() => ({
  settings: null as unknown as Settings, // set by initLab before the first render
  urlNotices: [],
  lessonId: null,
  lessonVariant: 0,
  backendPref: 'auto',
  classroom: false,
  classMode: false,
  hidden: [],
  presenter: null,
  status: 'loading',
  progress: null,
  webgpu: null,
  backendName: null,
  engineNotices: [],
  error: null,
  steps: [],
  evals: [],
  lastRollout: null,
  signals: [],
  stepsStarted: 0,
  stepsCompleted: 0,
  inStep: false,
  profile: null,
  profiling: false,
  profileNote: null,
  pausedAt: null,
  pausing: false,
  delayMs: 0,
  stepMode: false,
  inspector: null,
  runs: [],
  verdict: null,
  lessonNotice: null,
  leftLesson: null,
  overlayRunId: null,
  liveOrigin: null,
  faults: [],
  lastRecovery: null,
  engineHandover: null,
  discardedSteps: 0,
  rejected: null,
  resumeOffer: null,
  cameBack: null,
  lastSave: null,
  taskSpecs: {},
  taskBases: {},
  coldStart: null,
  taskEditorOpen: false,
}));

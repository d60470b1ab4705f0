/**
 * What the presenter view shows, derived from the store: the lesson's charts in order, then the
 * step-through of one update (its phases are the inspector's). Pure functions: the view
 * (src/ui/Presenter.tsx) renders them and the presenter (src/lab/presenter.ts) navigates them.
 */
import { getLesson, LESSONS, type ChartId } from '../rl/lessons.ts';
import type { Settings } from '../rl/settings.ts';
import { getTask } from '../tasks/registry.ts';
import { PHASES, type InspectorState, type LabState, type PresenterState } from './labStore.ts';
import { HELDOUT_GREEDY } from './views.ts';
import { CHART_NAMES } from './chartNames.ts';

/** The charts the presenter can show, in the page's order; each named as its card is titled (CHART_NAMES). */
const PRESENTER_CHARTS = ['reward', 'groups', 'advantages', 'theory', 'entropy', 'length', 'thinking', 'kl', 'passk'] as const satisfies readonly ChartId[];
export type PresenterChart = (typeof PRESENTER_CHARTS)[number];

/** Without a lesson (or before the class predicts), what each chart asks (one line): questions, never the answer. */
export const CHART_QUESTIONS: Record<PresenterChart, string> = {
  reward: 'Is the policy learning, and does it generalise to held-out prompts?',
  groups: 'How many groups teach anything? Only a group that mixes passes and failures has non-zero advantages.',
  advantages: 'Which answers does this update push up (A > 0) or down (A < 0)?',
  theory: 'Where are this step\'s prompts on the curve? Prompts near p = 0 or 1 teach nothing.',
  entropy: 'Is the policy still exploring? A collapse means groups stop mixing and learning stalls.',
  length: 'Is length drifting, and for right answers or for wrong ones?',
  thinking: 'Does thinking pay, and does it spread?',
  kl: 'How far has the policy moved from the base, and how often does the clip stop the gradient?',
  passk: 'Does RL teach new solutions or sharpen old ones?',
};

/**
 * With a lesson, what to see on each of its charts: one line per chart, each its own (the
 * lesson's first sentence under every chart said the same thing twice). A chart a lesson does not
 * name here gets the chart's question above.
 */
const LESSON_CAPTIONS: Record<string, Partial<Record<PresenterChart, string>>> = {
  'mixed-groups': {
    groups: 'The mixed share beside the dashed prediction 1 − p̄^G − (1 − p̄)^G: few groups mix at G = 2, most at G ≥ 8, and the share sits at or below the line.',
    theory: 'Each prompt on the curve P(mixed) against its pass rate: prompts near p = 0 or 1 teach nothing, and a larger G widens the band that does.',
    advantages: 'Only mixed groups have bars: in an all-pass or all-fail group every answer gets A = 0, however right or wrong it is.',
  },
  'length-bias': {
    length: 'Answer length, right and wrong, under each objective (the previous run is the grey overlay): GRPO pushes a long wrong answer down less per token, so wrong answers tend to drift a little longer than under Dr. GRPO.',
    reward: 'Reward and held-out accuracy under each objective: the weighting changes which tokens are pushed, so compare how fast each run learns.',
  },
  'entropy-collapse': {
    entropy: 'The next-token entropy: with β = 0 and a wide ε it falls as the policy narrows onto what was rewarded; with the KL leash it falls little.',
    kl: 'KL(π_θ ‖ π_ref): without a leash it climbs as the policy drifts from the base, with β = 1 it stays small; the clip fractions show how often ε stops the gradient.',
    groups: 'As the entropy falls the answers of a group agree: fewer groups mix, so fewer carry a signal.',
  },
  'reward-hacking': {
    reward: 'Reward against strict accuracy: the weak verifier pays wrong answers that contain the right number, so reward sits above accuracy and the gap widens; under the strict verifier the two lines are one.',
    length: 'Answer length: the paid-wrong answers (scratchpads with a wrong answer, hedges, digit dumps) are reinforced, and answers grow.',
  },
  'grpo-vs-best-of-n': {
    passk: 'pass@k on held-out prompts: training lifts pass@1; pass@k of the base at step 0 is what best-of-k buys with k× the tokens of one answer.',
    reward: 'Reward and held-out accuracy under GRPO, then RFT (the previous run stays as an overlay): RFT imitates the successes only, GRPO also learns from the failures.',
  },
  scratchpad: {
    thinking: 'The share of answers that think before "|", and how often thinking and direct answers are right: where thinking is right more often, its share rises.',
    length: 'Answer length follows thinking: it grows where the scratchpad pays and spreads, not because RL likes length.',
    reward: 'Reward and held-out accuracy while thinking spreads (one-digit steps) or does not (the whole digit sum).',
  },
  'kl-estimators': {
    kl: 'The estimator\'s token mean beside the exact KL summed over the vocabulary (dashed): once π_θ has moved, it tracks the exact KL within about a third.',
    entropy: 'The next-token entropy drifts slowly at this η and β: the policy moves a little from π_ref, which is what the KL chart measures.',
  },
  'process-reward': {
    thinking: 'The thinking share: paid only for the answer it falls, as direct answers win their groups; paid for right steps too (w = 0.5), it rises.',
    reward: 'Reward against strict accuracy: under process reward the step credit lifts the reward above accuracy; under outcome reward the two lines are one.',
    length: 'Answer length: scratchpads are the long answers, so length rises where thinking spreads and falls where it recedes.',
  },
  'dynamic-sampling': {
    groups: 'The mixed share: near 1 with dynamic sampling (the all-pass and all-fail groups were dropped and replaced), below it without.',
    passk: 'Held-out pass@1 and pass@k: compare the gain per generated token, not per step — each resampled step costs more tokens.',
  },
  'small-pool': {
    reward: 'Training reward against held-out accuracy: on the 16-prompt pool the reward climbs far beyond what held-out gains (the gap the verdict reads; the stop signal marks it on some seeds); on the whole split the two move together.',
    passk: 'Held-out pass@1 (sampled), on prompts the policy never trains on: on the small pool it gains far less than the training reward (it may even rise a little, or fall); on the whole split it keeps up with it.',
    groups: 'Mixed groups: on the small pool the same prompts come back until they are all-pass, and the mixed share falls.',
  },
  forgetting: {
    passk: 'Add\'s held-out pass@1 (trained) and reverse\'s (dotted black, never trained on): reverse falls as add is trained, further on most seeds without the leash.',
    kl: 'KL(π_θ ‖ π_ref) on add\'s samples: the leash keeps it small; without it the policy drifts from the two-task base.',
    reward: 'Training reward on add: both variants learn it; what differs is what they keep of reverse.',
  },
};

/** The caption under a chart: what to see on it in this lesson (without a lesson, the question it answers). */
export function chartCaption(lessonId: string | null, chart: PresenterChart): string {
  return (lessonId && LESSON_CAPTIONS[lessonId]?.[chart]) || CHART_QUESTIONS[chart];
}

/** A lesson's own captions, chart by chart (what its explanation says to see: the blind test reads them). */
export const lessonCaptions = (lessonId: string): string[] => Object.values(LESSON_CAPTIONS[lessonId] ?? {});

/** Whether a lesson has its own caption for this chart (the tests hold every lesson's charts to it). */
export const hasLessonCaption = (lessonId: string, chart: PresenterChart) => !!LESSON_CAPTIONS[lessonId]?.[chart];

/** One line per phase of the step-through: what the phase shows. */
export const PHASE_CAPTIONS: Record<(typeof PHASES)[number], string> = {
  prompts: 'The prompts of this update, drawn from the training split: each gets G answers from the current policy.',
  answers: 'G answers per prompt, sampled from the current policy. The strip sums up every group; one is shown in full.',
  verdicts: 'A program grades every answer: the reward comes from a check, not from a learned judge.',
  advantages: 'Each answer against its own group: better than the group pushes up (A > 0), worse pushes down.',
  ratios: 'The update has run: each token\'s ratio ρ = π_new / π_old after it (1 at its start), where the clip would stop it, and its KL to π_ref; a token opens its terms.',
  update: 'The update is applied: did the answers with A > 0 become more likely, and those with A < 0 less?',
};

export type PresenterItem = { kind: 'chart'; chart: PresenterChart } | { kind: 'step' };

const isPresenterChart = (c: ChartId | string): c is PresenterChart => (PRESENTER_CHARTS as readonly string[]).includes(c);

/** The items in order: the lesson's charts (without a lesson, every chart), then the step-through. */
export function presenterItems(s: { lessonId: string | null; settings: Settings }): PresenterItem[] {
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  const thinks = !!getTask(s.settings.task).processReward; // the page shows the thinking chart only then
  const charts = (lesson ? lesson.charts : PRESENTER_CHARTS).filter(isPresenterChart).filter((c) => c !== 'thinking' || thinks);
  return [...charts.map((chart) => ({ kind: 'chart', chart }) as const), { kind: 'step' }];
}

/** The item shown now (an index past the end, after the lesson changed, is the last item). */
export function presenterIndex(p: PresenterState, items: PresenterItem[]): number {
  return Math.max(0, Math.min(p.item, items.length - 1));
}

/**
 * The step-through's next → begins a new update: none is shown (or step mode is off), or the one
 * shown is applied and at its last phase. (A phase being computed: that → waits for it instead.)
 */
export function beginsUpdate(s: { stepMode: boolean; inspector: InspectorState | null }): boolean {
  const ins = s.stepMode ? s.inspector : null;
  return !ins || (!ins.busy && (!ins.rollout || (ins.computed >= PHASES.length && ins.phase >= ins.computed - 1)));
}

/**
 * The live lesson run is at its verdict (judged, not continued past) where the step-through's next
 * → would begin an update: the presenter's title says so first, and that → then steps through the
 * lesson's own run past its verdict (src/lab/presenter.ts). Null otherwise.
 */
export function verdictAhead(s: { verdict?: LabState['verdict']; stepMode: boolean; inspector: InspectorState | null }): LabState['verdict'] {
  return s.verdict && !s.verdict.continued && beginsUpdate(s) ? s.verdict : null;
}

/** What the next → does at the verdict, in the caption. */
const pastVerdict = (step: number) => `→ steps through update ${step + 1} of this same run, past its verdict: the verdict stays as judged, and the steps after it are marked as after it (as “Continue past the verdict” on the lesson card).`;

export interface PresenterTitle {
  /** The lesson's title, or the lab's name without a lesson. */
  heading: string;
  /** "chart 2 of 3: Theory: P(mixed)" or "step-through: phase 3 of 6 — verdicts". */
  item: string;
  caption: string;
}

/** The title bar and the caption of the item shown now. */
export function presenterTitle(s: { lessonId: string | null; settings: Settings; inspector: InspectorState | null; stepMode: boolean; leftLesson?: LabState['leftLesson']; verdict?: LabState['verdict']; /** The lesson waits for the class's prediction: each chart's question, never the lesson's caption (which states the outcome). */ blind?: boolean }, item: PresenterItem, index: number, charts: number): PresenterTitle {
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  // after stepping through an update from a finished lesson run on the page (or by a tour stop's button; the presenter's → never leaves the lesson): say where that run went (the page's engine line says it too)
  const left = s.leftLesson ? `no lesson (lesson ${s.leftLesson.n}'s run keeps its verdict at step ${s.leftLesson.step}, under Runs)` : null;
  const heading = lesson ? lesson.title : `rlvr-lab: ${left ?? `no lesson (type a lesson's number, 1–${LESSONS.length}, to pick one)`}`;
  if (item.kind === 'chart') {
    return { heading, item: `chart ${index + 1} of ${charts}: ${CHART_NAMES[item.chart]}`, caption: chartCaption(lesson && !s.blind ? lesson.id : null, item.chart) };
  }
  const ins = s.stepMode ? s.inspector : null;
  const verdict = verdictAhead(s);
  if (!ins || !ins.rollout) {
    if (verdict) return { heading, item: `step-through of one update: not started (the run is at its verdict, step ${verdict.step})`, caption: `This run's verdict is in at step ${verdict.step}, judged once. ${pastVerdict(verdict.step)}` };
    return { heading, item: `step-through of one update: not started`, caption: 'Press → to sample G answers for each prompt with the current policy: one real GRPO update, phase by phase.' };
  }
  const phase = PHASES[ins.phase];
  const caption = PHASE_CAPTIONS[phase] + (verdict ? ` The run is at its verdict (step ${verdict.step}): ${pastVerdict(verdict.step)}` : '');
  return { heading, item: `step-through: phase ${ins.phase + 1} of ${PHASES.length} — ${phase}`, caption };
}

/** How long a digit that could begin a two-digit lesson number waits for the second digit. */
export const LESSON_KEY_MS = 600;

/**
 * A lesson number typed on the keyboard, one digit at a time: "1"–"9" a lesson, "0" lesson 10,
 * two digits within LESSON_KEY_MS a lesson past 9 ("1" "1" is lesson 11). A digit that could begin
 * a longer number of a lesson that exists is kept `pending` (the caller takes it alone when the
 * wait ends); a second digit that makes no lesson starts afresh. `count`: the number of lessons.
 */
export function readLessonKey(pending: string, key: string, count: number): { lesson?: number; pending: string } {
  if (!/^[0-9]$/.test(key)) return { pending: '' };
  const typed = pending + key;
  const n = Number(typed);
  if (!pending && key === '0') return count >= 10 ? { lesson: 10, pending: '' } : { pending: '' };
  if (n >= 1 && n * 10 <= count) return { pending: typed }; // "1" with 11 lessons: 1, 10 or 11
  if (n >= 1 && n <= count) return { lesson: n, pending: '' };
  return pending ? readLessonKey('', key, count) : { pending: '' };
}

// ---- the chart's readout: the points a stop of the class tour quotes, as text ---------------------

/** One line the chart draws, read at the points the readout gives. */
export interface ReadoutLine {
  /** The line's name in the chart's legend. */
  name: string;
  /** Its first and last finite points (per-step lines), or every evaluation (held-out, at most READOUT_EVALS: the first and the last ones). */
  points: { step: number; value: number }[];
}

/** At most this many held-out evaluations are read out (the first, then the latest). */
export const READOUT_EVALS = 6;

type StepRow = LabState['steps'][number];
/** A per-step line's first and last finite points (one when they are the same step). */
export function firstLast(steps: readonly StepRow[], f: (m: StepRow) => number): { step: number; value: number }[] {
  const pts = steps.filter((m) => Number.isFinite(f(m)));
  if (!pts.length) return [];
  const a = pts[0], b = pts[pts.length - 1];
  return (a === b ? [a] : [a, b]).map((m) => ({ step: m.step, value: f(m) }));
}

/** The held-out evaluations the reward chart draws as dots, as the readout gives them. */
export function heldoutPoints(evals: LabState['evals']): { step: number; value: number }[] {
  const pts = evals.filter((e) => Number.isFinite(e.heldout_accuracy)).map((e) => ({ step: e.step, value: e.heldout_accuracy }));
  return pts.length <= READOUT_EVALS ? pts : [pts[0], ...pts.slice(-(READOUT_EVALS - 1))];
}

const READ: Partial<Record<PresenterChart, [string, (m: StepRow) => number][]>> = {
  reward: [['reward', (m) => m.reward], ['training accuracy (sampled)', (m) => m.accuracy]],
  groups: [['mixed', (m) => m.frac_mixed], ['mixed, predicted (batch pass rate)', (m) => m.mixed_predicted], ['all pass', (m) => m.frac_all_pass], ['all fail', (m) => m.frac_all_fail]],
  thinking: [['share thinking', (m) => m.think_fraction], ['accuracy, thinking', (m) => m.accuracy_think], ['accuracy, direct', (m) => m.accuracy_direct]],
};

/**
 * What the chart draws, read out as text under it in the presenter view (a projected chart is
 * hard to read to two decimals): each line's first and last points, the held-out dots. The class
 * tour quotes these same points at its chart stops. Null for a chart without a readout, or no steps.
 */
export function chartReadout(chart: PresenterChart, s: Pick<LabState, 'steps' | 'evals'>): ReadoutLine[] | null {
  const read = READ[chart];
  if (!read || !s.steps.length) return null;
  const lines = read.map(([name, f]) => ({ name, points: firstLast(s.steps, f) })).filter((l) => l.points.length);
  if (chart === 'reward' && s.evals.length) lines.push({ name: HELDOUT_GREEDY, points: heldoutPoints(s.evals) });
  return lines;
}

/** Two decimals with a real minus sign, as the tour's card prints them. */
const two = (x: number) => (x < 0 && Number(Math.abs(x).toFixed(2)) !== 0 ? '−' : '') + Math.abs(x).toFixed(2);
/** "reward 0.40 (step 0) → 0.34 (step 11)". */
export const readoutText = (l: ReadoutLine) => `${l.name} ${l.points.map((p) => `${two(p.value)} (step ${p.step})`).join(' → ')}`;

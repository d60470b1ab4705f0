/**
 * What the presenter view shows, derived from the store: the lesson's charts in order, then the
 * step-through of one update (its phases are the inspector's). Pure functions: the view
 * (src/ui/Presenter.tsx) renders them and the presenter (src/lab/presenter.ts) navigates them.
 */
import { getLesson, type ChartId } from '../rl/lessons.ts';
import type { Settings } from '../rl/settings.ts';
import { getTask } from '../tasks/registry.ts';
import { PHASES, type InspectorState, type PresenterState } from './labStore.ts';

/** The charts the presenter can show, in the page's order, with a short name each. */
export const PRESENTER_CHARTS = {
  reward: 'Reward and held-out accuracy',
  groups: 'Groups: all pass, all fail, mixed',
  advantages: 'Group advantages',
  theory: 'Theory: P(mixed) against the pass rate',
  entropy: 'Entropy',
  length: 'Answer length, correct vs incorrect',
  thinking: 'Thinking: share and what it pays',
  kl: 'KL to π_ref and clip fractions',
  passk: 'pass@k on held-out prompts',
} as const;
export type PresenterChart = keyof typeof PRESENTER_CHARTS;

/** Without a lesson, what each chart asks (one line). */
const CHART_QUESTIONS: Record<PresenterChart, string> = {
  reward: 'Is the policy learning, and does it generalise to held-out prompts?',
  groups: 'How many groups teach anything? Only a group that mixes passes and failures has non-zero advantages.',
  advantages: 'Which answers does this update push up (A > 0) or down (A < 0)?',
  theory: 'Where are this step\'s prompts on the curve? Prompts near p = 0 or 1 teach nothing.',
  entropy: 'Is the policy still exploring? A collapse means groups stop mixing and learning stalls.',
  length: 'Is length drifting? Under GRPO\'s per-answer mean, long wrong answers are punished less per token.',
  thinking: 'Does thinking pay, and does it spread?',
  kl: 'How far has the policy moved from the base, and how often does the clip stop the gradient?',
  passk: 'Does RL teach new solutions or sharpen old ones?',
};

/** One line per phase of the step-through: what the phase shows. */
export const PHASE_CAPTIONS: Record<(typeof PHASES)[number], string> = {
  prompts: 'The prompts of this update, drawn from the training split: each gets G answers from the current policy.',
  answers: 'G answers per prompt, sampled from the current policy. The strip sums up every group; one is shown in full.',
  verdicts: 'A program grades every answer: the reward comes from a check, not from a learned judge.',
  advantages: 'Each answer against its own group: better than the group pushes up (A > 0), worse pushes down.',
  ratios: 'The objective token by token: the ratio ρ = π_θ / π_old, its clip, and the KL to π_ref.',
  update: 'The update is applied: did the answers with A > 0 become more likely, and those with A < 0 less?',
};

export type PresenterItem = { kind: 'chart'; chart: PresenterChart } | { kind: 'step' };

const isPresenterChart = (c: ChartId | string): c is PresenterChart => Object.prototype.hasOwnProperty.call(PRESENTER_CHARTS, c);

/** The items in order: the lesson's charts (without a lesson, every chart), then the step-through. */
export function presenterItems(s: { lessonId: string | null; settings: Settings }): PresenterItem[] {
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  const thinks = !!getTask(s.settings.task).processReward; // the page shows the thinking chart only then
  const charts = (lesson ? lesson.charts : Object.keys(PRESENTER_CHARTS)).filter(isPresenterChart).filter((c) => c !== 'thinking' || thinks);
  return [...charts.map((chart) => ({ kind: 'chart', chart }) as const), { kind: 'step' }];
}

/** The item shown now (an index past the end, after the lesson changed, is the last item). */
export function presenterIndex(p: PresenterState, items: PresenterItem[]): number {
  return Math.max(0, Math.min(p.item, items.length - 1));
}

/** The first sentence of a text (the lesson's "watch" paragraph, as a one-line caption). */
export function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(\s+[A-Z(“"]|$)/s.exec(text.trim());
  return m ? m[1] : text.trim();
}

export interface PresenterTitle {
  /** The lesson's title, or the lab's name without a lesson. */
  heading: string;
  /** "chart 2 of 3: Groups …" or "step-through: phase 3 of 6 — verdicts". */
  item: string;
  caption: string;
}

/** The title bar and the caption of the item shown now. */
export function presenterTitle(s: { lessonId: string | null; settings: Settings; inspector: InspectorState | null; stepMode: boolean }, item: PresenterItem, index: number, charts: number): PresenterTitle {
  const lesson = s.lessonId ? getLesson(s.lessonId) : undefined;
  const heading = lesson ? lesson.title : 'rlvr-lab: no lesson (keys 1–7 pick one)';
  if (item.kind === 'chart') {
    return { heading, item: `chart ${index + 1} of ${charts}: ${PRESENTER_CHARTS[item.chart]}`, caption: lesson ? firstSentence(lesson.watch) : CHART_QUESTIONS[item.chart] };
  }
  const ins = s.stepMode ? s.inspector : null;
  if (!ins || !ins.rollout) {
    return { heading, item: `step-through of one update: not started`, caption: 'Press → to sample G answers for each prompt with the current policy: one real GRPO update, phase by phase.' };
  }
  const phase = PHASES[ins.phase];
  return { heading, item: `step-through: phase ${ins.phase + 1} of ${PHASES.length} — ${phase}`, caption: PHASE_CAPTIONS[phase] };
}

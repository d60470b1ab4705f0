/**
 * The lab's lessons, as data: each is one click that loads a base checkpoint (via its task and
 * difficulty, see bases.ts), sets the knobs, and says what to watch and why, in the chapter's
 * terms. A lesson may offer variants (the comparison it is about, e.g. GRPO vs Dr. GRPO): the
 * page shows one button per variant, each a set of settings applied on top of the lesson's.
 *
 * Bases are chosen for their sampled pass rate at τ = 1 (what GRPO's groups see): every shipped
 * base (bases.ts) was fine-tuned until about 20 % of its samples pass — the capability boundary.
 *
 * Pure data, no React: the page, the URL (`lesson=<id>`) and the tests (lessons.test.ts, one
 * check per lesson on a micro model that its effect appears) all read this table.
 */
import type { Settings } from './settings.ts';

/** The charts a lesson points at (the ids of the lab's chart cards). */
export type ChartId = 'reward' | 'groups' | 'advantages' | 'entropy' | 'length' | 'thinking' | 'kl' | 'passk' | 'theory';

export interface LessonVariant {
  label: string;
  settings: Partial<Settings>;
}

export interface Lesson {
  id: string;
  title: string;
  /** The base checkpoint is the shipped one for this task and difficulty (bases.ts), else a fresh init. */
  base: { task: string; difficulty: number };
  /** Settings on top of the defaults (the base's task and difficulty are set too). */
  settings: Partial<Settings>;
  /** The comparison the lesson is about; the first variant is what the lesson starts with. */
  variants: LessonVariant[];
  /** What to watch and why (a few sentences). */
  watch: string;
  /** The charts that show the effect. */
  charts: ChartId[];
}

export const LESSONS: Lesson[] = [
  {
    id: 'mixed-groups',
    title: '1. Mixed groups at the capability boundary',
    base: { task: 'add', difficulty: 2 },
    settings: { numGenerations: 2, promptsPerStep: 8 },
    variants: [
      { label: 'G = 2', settings: { numGenerations: 2 } },
      { label: 'G = 8', settings: { numGenerations: 8 } },
      { label: 'G = 16', settings: { numGenerations: 16 } },
    ],
    watch:
      'A group teaches only if it mixes passes and failures: then its advantages are non-zero. With pass rate p, ' +
      'P(mixed) = 1 − p^G − (1 − p)^G. Switch G from 2 to 16 and watch the mixed fraction (groups chart) follow the ' +
      'dashed prediction, and the theory panel\'s curve lift: a larger group finds the rare success (or failure) ' +
      'that makes the prompt useful. As the policy masters the task, p → 1 and mixed groups vanish again.',
    charts: ['groups', 'theory', 'advantages'],
  },
  {
    id: 'length-bias',
    title: '2. The length bias of GRPO vs Dr. GRPO',
    base: { task: 'digitsum', difficulty: 1 },
    settings: { maxCompletionLength: 14, lossType: 'grpo', advantage: 'grpo', formatReward: 0 },
    variants: [
      { label: 'GRPO (per-answer mean, std scaling)', settings: { lossType: 'grpo', advantage: 'grpo' } },
      { label: 'Dr. GRPO (sum / max length, no std)', settings: { lossType: 'dr_grpo', advantage: 'dr_grpo' } },
    ],
    watch:
      'On the digit-sum base some answers think ("7,12,20|20", ~10 tokens) and some answer directly (2 tokens). ' +
      'GRPO averages each answer\'s token losses over its own length |o_i|: in a group, a long wrong answer gets the same ' +
      'total push-down as a short wrong one, spread over more tokens — on the base\'s first rollout about a third of the ' +
      'short one\'s push per token. So long wrong answers are punished less per token, and lengths can drift up. Dr. GRPO ' +
      'divides every answer by the same constant (max length) and drops the std scaling: every wrong token of a group is ' +
      'pushed equally. Watch the length chart: incorrect answers\' length vs correct ones, under each variant.',
    charts: ['length', 'reward'],
  },
  {
    id: 'entropy-collapse',
    title: '3. Entropy collapse: β = 0 and a wide ε vs a KL leash',
    base: { task: 'add', difficulty: 2 },
    settings: { beta: 0, epsilon: 0.5, epsilonHigh: 0.5, numIterations: 4, learningRate: 0.001, warmupSteps: 0 },
    variants: [
      { label: 'β = 0, ε = 0.5 (no leash)', settings: { beta: 0, epsilon: 0.5, epsilonHigh: 0.5 } },
      { label: 'β = 1, ε = 0.2 (KL leash)', settings: { beta: 1, epsilon: 0.2, epsilonHigh: 0.2 } },
    ],
    watch:
      'Several inner epochs (µ = 4) at η = 1e-3 push the policy toward whatever was rewarded, and the next-token ' +
      'entropy falls (0.67 → 0.50 nats in 8 steps of the lesson\'s test). A strong KL leash β·KL(π_θ ‖ π_ref) with a ' +
      'narrow ε holds it higher (0.56) and keeps π_θ nearer π_ref (KL 0.19 vs 0.27). At this scale it is a slowing, ' +
      'not a rescue: run longer and watch entropy, the KL chart and the clip fractions drift apart.',
    charts: ['entropy', 'kl', 'groups'],
  },
  {
    id: 'reward-hacking',
    title: '4. Reward hacking: a weak verifier',
    base: { task: 'digitsum', difficulty: 1 },
    settings: { weakVerifier: 'anywhere', maxCompletionLength: 14, formatReward: 0, learningRate: 0.001, numIterations: 1, warmupSteps: 0 },
    variants: [
      { label: 'Weak verifier (answer anywhere)', settings: { weakVerifier: 'anywhere' } },
      { label: 'Strict verifier', settings: { weakVerifier: 'strict' } },
    ],
    watch:
      'The weak verifier pays whenever the right number appears anywhere in the answer, so a scratchpad whose running ' +
      'sum is right followed by a wrong answer ("6,15,19|18"), hedges and dumps of digits earn reward without being ' +
      'right. Reward sits above strict accuracy from the first step (accuracy is always graded strictly); GRPO then ' +
      'reinforces the paid-wrong answers: the gap widens and answers grow longer than under the strict verifier. Run it ' +
      'longer (or at η = 2e-3) and the answers turn into digit dumps: reward stays up while strict accuracy falls toward 0.',
    charts: ['reward', 'length'],
  },
  {
    id: 'grpo-vs-best-of-n',
    title: '5. GRPO vs best-of-N at matched tokens',
    base: { task: 'add', difficulty: 2 },
    settings: { numGenerations: 8, evalEvery: 5 },
    variants: [
      { label: 'GRPO', settings: { algorithm: 'grpo' } },
      { label: 'Rejection-sampling fine-tuning', settings: { algorithm: 'rft' } },
    ],
    watch:
      'Best-of-N needs no training: sample N answers and keep a verified one. Its success rate is pass@N, drawn on ' +
      'the pass@k chart at step 0 (on this base 0.75 at N = 8 vs 0.38 for one answer) — but it pays N× the tokens for ' +
      'every question, forever. GRPO and rejection-sampling fine-tuning (RFT: cross-entropy on the verified answers ' +
      'only) spend the same generated tokens per step (num_tokens), once, at training time, to move pass@1 toward ' +
      'pass@N. RFT only imitates the successes (about a third of the answers); GRPO also learns from the failures: ' +
      'every answer of a mixed group has a non-zero advantage.',
    charts: ['passk', 'reward'],
  },
  {
    id: 'scratchpad',
    title: '6. A thinking scratchpad that grows because it pays',
    base: { task: 'modsum', difficulty: 2 },
    settings: { maxCompletionLength: 14, formatReward: 0, rewardMode: 'outcome', promptsPerStep: 16 },
    variants: [
      { label: 'Last digit of the sum: one-digit steps (thinking pays)', settings: { task: 'modsum', difficulty: 2, maxCompletionLength: 14 } },
      { label: 'Whole digit sum: steps up to 45 (thinking does not pay here)', settings: { task: 'digitsum', difficulty: 2, maxCompletionLength: 18 } },
    ],
    watch:
      'Only the final answer is graded; writing running sums first ("7,2,0,3|3") is allowed, never asked for, and the ' +
      'base does it in about half of its answers. The task: the last digit of the sum of 5 digits. Answered directly it ' +
      'needs all five digits at once, and this 2-layer model is barely above chance (0.1); written out, each step adds ' +
      'one digit to the previous step, mod 10. Thinking answers are right more often (0.29 vs 0.13 over the first three ' +
      'steps of the lesson\'s test), so in a mixed group they get the positive advantages, and thinking spreads: the ' +
      'share goes from 0.45 to 0.80 in 16 steps (nearly all answers by step 20), answers grow from 6.5 to 10 tokens, and ' +
      'accuracy rises from 0.20 to 0.45 — R1-Zero\'s growing responses at toy scale. The second variant is the control: ' +
      'the whole digit sum, whose running sums reach 45 and which this model cannot yet write reliably. There thinking ' +
      'does not pay (0.15 vs 0.21 right), and the share falls from 0.42 to 0.17 in 12 steps. Length grows where it pays, ' +
      'not because RL likes length. Watch the thinking chart.',
    charts: ['thinking', 'length', 'reward'],
  },
  {
    id: 'kl-estimators',
    title: '7. KL estimators: k1 vs k3 vs the exact KL',
    base: { task: 'add', difficulty: 2 },
    settings: { beta: 0.05, klEstimator: 'k3', learningRate: 0.0003, numIterations: 1, warmupSteps: 0 },
    variants: [
      { label: 'k3 = e^d − d − 1', settings: { klEstimator: 'k3' } },
      { label: 'k1 = −d', settings: { klEstimator: 'k1' } },
    ],
    watch:
      'Per sampled token, with d = log π_ref − log π_θ, k1 = −d is unbiased but often negative (about a third of the ' +
      'tokens here); k3 = e^d − d − 1 is unbiased and never negative. The exact KL sums over the whole small vocabulary ' +
      '(51 tokens), so the estimators can be checked against it: both agree within their standard errors. While π_θ ' +
      'stays close to π_ref (this lesson\'s η) k3 has the lower variance; drift 3× faster and e^d\'s tail makes k3 the ' +
      'noisier one. Watch the KL chart: the estimator\'s line beside the exact KL (dashed), under each estimator; the ' +
      'step-through\'s heat-map shows the per-token KL.',
    charts: ['kl', 'entropy'],
  },
];

export function getLesson(id: string): Lesson | undefined {
  return LESSONS.find((l) => l.id === id);
}

/** The settings a lesson (and one of its variants) sets on top of a base. */
export function lessonSettings(lesson: Lesson, base: Settings, variant = 0): Settings {
  return { ...base, task: lesson.base.task, difficulty: lesson.base.difficulty, ...lesson.settings, ...(lesson.variants[variant]?.settings ?? {}) } as Settings;
}

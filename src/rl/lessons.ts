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
export type ChartId = 'reward' | 'groups' | 'advantages' | 'entropy' | 'length' | 'kl' | 'passk' | 'theory';

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
    base: { task: 'add', difficulty: 2 },
    settings: { maxCompletionLength: 10, lossType: 'grpo', advantage: 'grpo', formatReward: 0 },
    variants: [
      { label: 'GRPO (per-answer mean, std scaling)', settings: { lossType: 'grpo', advantage: 'grpo' } },
      { label: 'Dr. GRPO (sum / max length, no std)', settings: { lossType: 'dr_grpo', advantage: 'dr_grpo' } },
    ],
    watch:
      'GRPO averages each answer\'s token losses over its own length |o_i|: a wrong answer\'s negative advantage is ' +
      'spread thinner the longer it is, so long wrong answers are punished less per token and lengths drift up. ' +
      'Dr. GRPO divides every answer by the same constant (max length) and drops the std scaling. Watch the ' +
      'length chart: incorrect answers\' length vs correct ones, under each variant.',
    charts: ['length', 'reward'],
  },
  {
    id: 'entropy-collapse',
    title: '3. Entropy collapse: β = 0 and a wide ε vs a KL leash',
    base: { task: 'add', difficulty: 2 },
    settings: { beta: 0, epsilon: 0.5, epsilonHigh: 0.5, numIterations: 4, learningRate: 0.003 },
    variants: [
      { label: 'β = 0, ε = 0.5 (no leash)', settings: { beta: 0, epsilon: 0.5, epsilonHigh: 0.5 } },
      { label: 'β = 0.1, ε = 0.2 (KL leash)', settings: { beta: 0.1, epsilon: 0.2, epsilonHigh: 0.2 } },
    ],
    watch:
      'With no KL term and a wide clip, several inner epochs (µ = 4) push the policy hard toward whatever was ' +
      'rewarded: the next-token entropy falls and the model stops exploring, so groups stop being mixed. A KL ' +
      'leash β·KL(π_θ ‖ π_ref) and a narrow ε slow the collapse. Watch entropy, the KL chart and the clip fractions.',
    charts: ['entropy', 'kl', 'groups'],
  },
  {
    id: 'reward-hacking',
    title: '4. Reward hacking: a weak verifier',
    base: { task: 'add', difficulty: 2 },
    settings: { weakVerifier: 'anywhere', maxCompletionLength: 10, formatReward: 0 },
    variants: [
      { label: 'Weak verifier (answer anywhere)', settings: { weakVerifier: 'anywhere' } },
      { label: 'Strict verifier', settings: { weakVerifier: 'strict' } },
    ],
    watch:
      'The weak verifier pays whenever the right number appears anywhere in the answer, so hedging ("12 or 13") ' +
      'and dumps of digits earn reward without being right. The reward curve rises; held-out accuracy, always ' +
      'graded strictly, stalls. The stop signal "reward without held-out gains" fires on the reward chart.',
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
      'the pass@k chart at step 0 — but it pays N answers for every question, forever. GRPO and rejection-sampling ' +
      'fine-tuning (RFT: cross-entropy on the verified answers only) spend the same generated tokens per step ' +
      '(num_tokens) once, at training time, to move pass@1 toward what best-of-N reached. RL mostly sharpens: ' +
      'pass@1 rises toward pass@N while pass@N itself barely moves. GRPO also learns from the failures (negative ' +
      'advantages); RFT only imitates the successes.',
    charts: ['passk', 'reward'],
  },
  {
    id: 'scratchpad',
    title: '6. A thinking scratchpad that grows because it pays',
    base: { task: 'digitsum', difficulty: 1 },
    settings: { maxCompletionLength: 16, formatReward: 0, rewardMode: 'outcome' },
    variants: [
      { label: 'Outcome reward', settings: { rewardMode: 'outcome' } },
      { label: 'Process reward (credit each correct step)', settings: { rewardMode: 'process' } },
    ],
    watch:
      'Only the final answer is graded, but writing the running sums first ("7,12,20|20") makes the answer easier. ' +
      'Nobody asks for the scratchpad: answers that think are right more often, get positive advantages, and the ' +
      'thinking spreads — response length rises together with accuracy (the R1-Zero story, at toy scale). ' +
      'Compare with a process reward that credits each correct step.',
    charts: ['length', 'reward'],
  },
  {
    id: 'kl-estimators',
    title: '7. KL estimators: k1 vs k3 vs the exact KL',
    base: { task: 'add', difficulty: 2 },
    settings: { beta: 0.05, klEstimator: 'k3', learningRate: 0.003 },
    variants: [
      { label: 'k3 = e^d − d − 1', settings: { klEstimator: 'k3' } },
      { label: 'k1 = −d', settings: { klEstimator: 'k1' } },
    ],
    watch:
      'Per sampled token, with d = log π_ref − log π_θ, k1 = −d is unbiased but can be negative; k3 = e^d − d − 1 is ' +
      'unbiased and never negative, with lower variance when the policies are close. The exact KL sums over the ' +
      'whole small vocabulary (51 tokens), so here it can be computed and the estimators checked against it ' +
      '(the lesson\'s test does, on the CPU reference). Watch the KL chart under each estimator; the ' +
      'step-through\'s heat-map shows the per-token KL over the answer text.',
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

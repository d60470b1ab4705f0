/**
 * Explain and concept questions, resolved (issue 49): conceptData.ts states them per lesson; this
 * module computes each concept question's answer key with the lab's own code and builds its choices
 * around it. Engine-free and pure (src/rl, src/tasks and src/model functions only): the lesson card,
 * the presenter and the worksheet render what it returns.
 *
 *   lessonConcepts(id)          the lesson's explain question and concept pair, or null (no such lesson)
 *   answerKey(spec)             a concept question's answer, computed (see KeySpec for which formula)
 *   keySource(spec)             the lab function that computes it, in words (a hand-typed key: why no formula exists)
 *   formatValue(x, unit)        a number as a choice writes it ("19 %", "+0.50", "about 6,700")
 *   lessonReasons(id)           the "Why?" reasons alone (the share code's index), reasonCount(id) how many
 *   reasonOrder(id, seed)       the reasons' display order for one student (the right one is not always first)
 *   codeAnswers(id, answers)    a student's answers (StudentAnswers: choice indices) as the share code carries
 *                               them (code.ts `explain`, `concept`; runCode.ts runResultCode takes StudentAnswers)
 *
 * The flow the card runs (issue 49): concept.pre before the first Play (skippable) → runs → verdict →
 * explain (one click on reasonOrder's order, then `why` of the chosen reason and `explanation`) →
 * concept.post. The explain texts state the lesson's outcome: like Lesson.reveals, nothing may show
 * them (folded or not) before the verdict. The pre question states none (concepts.test.ts).
 *
 * Choices. The right one is the key, shown in the question's unit; the wrong ones are the
 * misconceptions' formulas on the same numbers (`misconception` names each), in the order written
 * below, dropping any that shows the same text as the key or an earlier choice, at most three.
 * Choices are sorted by value (ascending), so where the right one sits says nothing. Every
 * question keeps at least two wrong choices (concepts.test.ts).
 */
import { mixedGroupProbability } from '../tasks/metrics.ts';
import { groupAdvantages } from '../rl/advantages.ts';
import { aggregationWeights, policyObjective } from '../model/objective.ts';
import type { PolicyLossSettings } from '../model/backend.ts';
import { breakEvenQuestions } from '../rl/matchedTokens.ts';
import { mixProcessReward } from '../rl/processReward.ts';
import { getLesson } from '../rl/lessons.ts';
import { signed } from '../rl/format.ts';
import { Rng } from '../model/rng.ts';
import { LESSON_CONCEPTS, pct, type KeySpec, type Reason } from './conceptData.ts';

export { LESSON_CONCEPTS, type KeySpec, type Reason } from './conceptData.ts';

/** How a choice's number is written: a share ("19 %"), a signed number ("+0.50"), a small number ("0.037"), a ratio ("0.2 times as much"), a count ("about 6,700"). */
export type Unit = 'percent' | 'signed' | 'number' | 'times' | 'count';

export interface ConceptChoice {
  text: string;
  value: number;
  right: boolean;
  /** The misconception that gives this number (null: the right answer). */
  misconception: string | null;
}

export interface AnswerKey {
  value: number;
  /** true: computed by the lab's own code (`source`); false: typed by hand where no formula exists (`source` says why). */
  computed: boolean;
  source: string;
  spec: KeySpec;
}

export interface ConceptQuestion {
  text: string;
  choices: ConceptChoice[];
  /** The right choice's index in `choices`. */
  answer: number;
  key: AnswerKey;
}

export interface ExplainQuestion {
  prompt: string;
  /** In the data's order (the share code's index); reasonOrder gives a display order. */
  reasons: Reason[];
  /** The right reason's index in `reasons`. */
  right: number;
  explanation: string;
}

export interface LessonConcepts {
  lessonId: string;
  explain: ExplainQuestion;
  concept: { idea: string; pre: ConceptQuestion; post: ConceptQuestion };
}

const SETTINGS: PolicyLossSettings = { epsilon: 0.2, epsilonHigh: 0.2, beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 1, temperature: 1 };

/** The lab's objective on one token of one answer: log π_θ − log π_old = log ratio, log π_ref − log π_θ = d. */
function oneToken(o: { ratio?: number; advantage?: number; d?: number }, s: Partial<PolicyLossSettings>) {
  const logp = -1;
  return policyObjective({
    B: 1, T: 1, logprobs: [logp], entropy: [0], mask: [1], oldLogprobs: [logp - Math.log(o.ratio ?? 1)],
    refLogprobs: o.d === undefined ? null : [logp + o.d], advantages: [o.advantage ?? 0],
  }, { ...SETTINGS, ...s }, { terms: true });
}

const grpoAdvantages = (rewards: readonly number[]) => groupAdvantages(rewards, rewards.length, 'grpo', 'group');
const sum = (xs: ArrayLike<number>, from = 0, to = xs.length) => { let s = 0; for (let i = from; i < to; i++) s += xs[i]; return s; };
const memorizedReward = (k: Extract<KeySpec, { kind: 'poolGap' }>) => k.memorized / k.pool + (1 - k.memorized / k.pool) * k.base;

/** A concept question's answer, computed by the lab's own code (a hand-typed key returns its value). */
export function answerKey(k: KeySpec): number {
  switch (k.kind) {
    case 'mixed': return mixedGroupProbability(k.p, k.G);
    case 'dropped': return 1 - mixedGroupProbability(k.p, k.G);
    case 'tokenWeight': {
      const T = Math.max(k.long, k.short), mask = [0, 1].flatMap((b) => Array.from({ length: T }, (_, t) => (t < (b ? k.short : k.long) ? 1 : 0)));
      const w = aggregationWeights(2, T, mask, 'grpo', T);
      return w[0] / w[1];
    }
    case 'clip': return -oneToken({ ratio: k.ratio, advantage: k.advantage }, { epsilon: k.epsilon, epsilonHigh: k.epsilon }).loss;
    case 'hackAdvantage': return grpoAdvantages(k.rewards)[k.paid];
    case 'breakEven': return breakEvenQuestions(k.trainingTokens, k.n, k.baseTokens, k.trainedTokens);
    case 'thinkAdvantage': return sum(grpoAdvantages([...k.think, ...k.direct]), 0, k.think.length);
    case 'k3': return oneToken({ d: k.d }, { klEstimator: 'k3' }).terms!.kl[0];
    case 'processReward': return mixProcessReward(k.outcome, k.right / k.steps, k.w);
    case 'poolGap': {
      const gap = getLesson('small-pool')?.contrast?.of;
      if (!gap) return NaN;
      return gap({ reward_early: k.base, reward_late: memorizedReward(k), heldout_pass1_start: k.base, heldout_pass1_end: k.base });
    }
    case 'leash': return oneToken({ d: k.d }, { beta: k.beta, klEstimator: 'k3' }).loss;
    case 'hand': return k.value;
  }
}

/** The lab function that computes a key, in words; for a hand-typed key, why no formula exists. */
export function keySource(k: KeySpec): string {
  switch (k.kind) {
    case 'mixed': return 'mixedGroupProbability (src/tasks/metrics.ts)';
    case 'dropped': return '1 − mixedGroupProbability (src/tasks/metrics.ts)';
    case 'tokenWeight': return 'aggregationWeights, loss type grpo (src/model/objective.ts)';
    case 'clip': return 'policyObjective, one token (src/model/objective.ts)';
    case 'hackAdvantage': case 'thinkAdvantage': return 'groupAdvantages, grpo with the group\'s std (src/rl/advantages.ts)';
    case 'breakEven': return 'breakEvenQuestions (src/rl/matchedTokens.ts)';
    case 'k3': return 'policyObjective\'s per-token KL, k3 (src/model/objective.ts)';
    case 'processReward': return 'mixProcessReward (src/rl/processReward.ts)';
    case 'poolGap': return 'the small-pool lesson\'s contrast (src/rl/lessons.ts) of a policy that learns m of P prompts by heart';
    case 'leash': return 'policyObjective with β and k3, advantage 0 (src/model/objective.ts)';
    case 'hand': return `typed by hand: ${k.why}`;
  }
}

const UNITS: Record<KeySpec['kind'], Unit> = {
  mixed: 'percent', dropped: 'percent', tokenWeight: 'times', clip: 'signed', hackAdvantage: 'signed', breakEven: 'count',
  thinkAdvantage: 'signed', k3: 'signed', processReward: 'number', poolGap: 'signed', leash: 'number', hand: 'number',
};

/** The wrong answers: each misconception's formula on the question's numbers, in order. */
function misconceptions(k: KeySpec): [number, string][] {
  switch (k.kind) {
    case 'mixed': return [
      [1 - k.p, 'one answer\'s chance to fail: counts answers, not groups'],
      [k.p ** k.G, 'the chance that every answer passes, taken for the chance to teach'],
      [1 - (1 - k.p) ** k.G, 'a group teaches when one answer passes: forgets that an all-pass group teaches nothing'],
      [1 - k.p ** k.G, 'forgets the all-fail groups (the (1 − p)^G term)'],
    ];
    case 'dropped': return [
      [1 - k.p, 'the share of answers that fail'],
      [mixedGroupProbability(k.p, k.G), 'the mixed share, which it keeps'],
      [k.p, 'the share of answers that pass'],
    ];
    case 'tokenWeight': return [
      [1, 'every token weighs the same (Dr. GRPO\'s weighting, not GRPO\'s)'],
      [k.long / k.short, 'upside down: the longer answer weighs more per token'],
      [(k.short / k.long) ** 2, 'divides by the length twice'],
    ];
    case 'clip': return [
      [k.ratio * k.advantage, 'forgets the clip: the ratio times the advantage'],
      [(k.advantage > 0 ? 1 - k.epsilon : 1 + k.epsilon) * k.advantage, 'clips at the wrong end of the range'],
      [0, 'a clipped token is dropped altogether'],
    ];
    case 'hackAdvantage': return [
      [k.rewards[k.paid], 'its reward, not its advantage'],
      [grpoAdvantages(k.rewards.map((x, i) => (i === k.paid ? 0 : x)))[k.paid], 'as if GRPO knew it was wrong (graded strictly)'],
      [0, 'a wrong answer gets no advantage'],
      [grpoAdvantages(k.rewards)[k.rewards.findIndex((x) => x === 0)] ?? NaN, 'pushed down like the unpaid answers'],
    ];
    case 'breakEven': return [
      [k.trainingTokens / (k.n * k.baseTokens), 'forgets that the trained model pays for its own answer'],
      [k.trainingTokens / (k.n * k.baseTokens + k.trainedTokens), 'adds the trained model\'s answer instead of subtracting it'],
      [k.trainingTokens / ((k.n - 1) * k.baseTokens), 'counts only best-of-N\'s extra samples, at the base\'s length'],
    ];
    case 'thinkAdvantage': {
      const all = [...k.think, ...k.direct], mean = sum(all) / all.length;
      return [
        [0, 'a group\'s advantages sum to zero, so any part of it sums to zero too'],
        [sum(k.think), 'the rewards the scratchpad answers earned, not their advantages'],
        [sum(k.think.map((x) => x - mean)), 'forgets the division by the group\'s standard deviation'],
      ];
    }
    case 'k3': return [
      [-k.d, 'k1\'s value (−d), not k3\'s'],
      [Math.exp(k.d) - 1, 'forgets the − d'],
      [Math.abs(k.d), 'the size of the difference'],
      [(k.d * k.d) / 2, 'the small-difference approximation d²/2, good only near 0'],
    ];
    case 'processReward': return [
      [k.outcome, 'only the final answer is paid'],
      [k.right / k.steps, 'only the steps are paid'],
      [k.w * k.right / k.steps + (1 - k.w) * (1 - k.outcome), 'pays a wrong answer as if it were right'],
      [k.w, 'any scratchpad earns w'],
    ];
    case 'poolGap': return [
      [0, 'learning answers by heart counts as learning: held-out accuracy rises with it'],
      [k.memorized / k.pool, 'the share learned by heart, forgetting the base already solved some of those'],
      [memorizedReward(k), 'the training reward at the end, not its rise'],
    ];
    case 'leash': return [
      [k.beta * -k.d, 'k1 instead of k3'],
      [Math.exp(k.d) - k.d - 1, 'forgets the weight β'],
      [0, 'the leash pulls only where the policy likes a token less than the base'],
    ];
    case 'hand': return [];
  }
}

const sig2 = (x: number) => String(Number(x.toPrecision(2)));

/** A number as a choice writes it. */
export function formatValue(x: number, unit: Unit): string {
  if (!Number.isFinite(x)) return '–';
  switch (unit) {
    case 'percent': return x < 1 && x * 100 >= 99.5 ? 'nearly 100 %' : pct(x);
    case 'signed': return Math.abs(x) < 0.005 ? '0' : signed(x);
    case 'number': return Math.abs(x) < 1e-12 ? '0' : x >= 0.1 ? x.toFixed(2) : sig2(x);
    case 'times': return Math.abs(x - 1) < 1e-12 ? 'the same' : `${sig2(x)} times as much`;
    case 'count': return `about ${Number(x.toPrecision(2)).toLocaleString('en')}`;
  }
}

function conceptQuestion(ask: (k: KeySpec) => string, k: KeySpec): ConceptQuestion {
  const unit = UNITS[k.kind], value = answerKey(k);
  const key: AnswerKey = { value, computed: k.kind !== 'hand', source: keySource(k), spec: k };
  const choices: ConceptChoice[] = [{ text: formatValue(value, unit), value, right: true, misconception: null }];
  for (const [v, why] of misconceptions(k)) {
    const text = formatValue(v, unit);
    if (choices.length < 4 && Number.isFinite(v) && !choices.some((c) => c.text === text)) choices.push({ text, value: v, right: false, misconception: why });
  }
  choices.sort((a, b) => a.value - b.value);
  return { text: ask(k), choices, answer: choices.findIndex((c) => c.right), key };
}

/** The lesson's explain question and concept pair (null: no such lesson, or none written for it). */
export function lessonConcepts(lessonId: string): LessonConcepts | null {
  if (!Object.prototype.hasOwnProperty.call(LESSON_CONCEPTS, lessonId)) return null;
  const d = LESSON_CONCEPTS[lessonId];
  const c = d.concept;
  return {
    lessonId,
    explain: { prompt: d.explain.prompt, reasons: d.explain.reasons, right: d.explain.reasons.findIndex((x) => x.right), explanation: d.explain.explanation },
    concept: { idea: c.idea, pre: conceptQuestion(c.ask, c.pre), post: conceptQuestion(c.ask, c.post) },
  };
}

/** The reasons of the lesson's "Why?" in the data's order, the share code's index (empty: none), without computing its concept questions. */
export function lessonReasons(lessonId: string): readonly Reason[] {
  return Object.prototype.hasOwnProperty.call(LESSON_CONCEPTS, lessonId) ? LESSON_CONCEPTS[lessonId].explain.reasons : [];
}

/** How many reasons the lesson's "Why?" offers (0: none): what the share code's explain index is checked against. */
export const reasonCount = (lessonId: string): number => lessonReasons(lessonId).length;

/** The reasons' display order for one student (indices into `reasons`): a shuffle seeded by the lesson and the student's seed. */
export function reasonOrder(lessonId: string, seed: number): number[] {
  const order = Array.from({ length: reasonCount(lessonId) }, (_, i) => i);
  let h = seed >>> 0;
  for (const ch of lessonId) h = Math.imul(h ^ ch.charCodeAt(0), 0x9e3779b1) >>> 0;
  const rng = new Rng(h);
  for (let i = order.length - 1; i > 0; i--) { const j = rng.int(i + 1); [order[i], order[j]] = [order[j], order[i]]; }
  return order;
}

/** A student's answers for one lesson: the reason chosen (index into `reasons`), and the choice picked in each concept question (index into its `choices`; 'skipped' or absent: not answered). */
export interface StudentAnswers {
  explain?: number | null;
  pre?: number | 'skipped' | null;
  post?: number | 'skipped' | null;
}

/** What the share code carries of a student's answers (code.ts ResultCode `explain` and `concept`): the reason's index, and whether each concept answer was right. */
export function codeAnswers(lessonId: string, a: StudentAnswers | undefined): { explain: number | null; concept: { pre: boolean | null; post: boolean | null } | null } {
  const c = lessonConcepts(lessonId);
  if (!c || !a) return { explain: null, concept: null };
  const explain = typeof a.explain === 'number' && Number.isInteger(a.explain) && a.explain >= 0 && a.explain < c.explain.reasons.length ? a.explain : null;
  const right = (q: ConceptQuestion, x: StudentAnswers['pre']) => (typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < q.choices.length ? x === q.answer : null);
  const pre = right(c.concept.pre, a.pre), post = right(c.concept.post, a.post);
  return { explain, concept: pre === null && post === null ? null : { pre, post } };
}

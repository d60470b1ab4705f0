/**
 * The explain and concept questions (concepts.ts, conceptData.ts): every lesson has a "Why?" with
 * one right reason and at least two misconceptions, and a concept pair whose answer keys come from
 * the lab's own formulas — recomputed here from the lab's functions directly, so a key typed or
 * computed some other way fails — with at least two wrong choices around each.
 */
import { describe, expect, it } from 'vitest';
import { mixedGroupProbability } from '../tasks/metrics.ts';
import { groupAdvantages } from '../rl/advantages.ts';
import { aggregationWeights, policyObjective } from '../model/objective.ts';
import { breakEvenQuestions } from '../rl/matchedTokens.ts';
import { mixProcessReward } from '../rl/processReward.ts';
import { getLesson, LESSONS } from '../rl/lessons.ts';
import { lessonQuestion } from './question.ts';
import { codeAnswers, formatValue, LESSON_CONCEPTS, lessonConcepts, reasonOrder, type ConceptQuestion, type KeySpec } from './concepts.ts';

/** The clip rule as the chapter states it: min(r·A, clip(r, 1 − ε, 1 + ε)·A). */
const clipRule = (r: number, A: number, eps: number) => Math.min(r * A, Math.min(Math.max(r, 1 - eps), 1 + eps) * A);

/** The key, from the lab's functions called here (not through concepts.ts answerKey). */
function expected(k: KeySpec): number {
  switch (k.kind) {
    case 'mixed': return mixedGroupProbability(k.p, k.G);
    case 'dropped': return 1 - mixedGroupProbability(k.p, k.G);
    case 'tokenWeight': {
      const T = 20, mask = [...Array.from({ length: T }, (_, t) => +(t < k.long)), ...Array.from({ length: T }, (_, t) => +(t < k.short))];
      const w = aggregationWeights(2, T, mask, 'grpo', T);
      expect(w[0] / w[1]).toBeCloseTo(k.short / k.long, 12); // GRPO's per-answer mean: 1/|o_i| per token
      return w[0] / w[1];
    }
    case 'clip': {
      const out = policyObjective({ B: 1, T: 1, logprobs: [Math.log(k.ratio)], entropy: [0], mask: [1], oldLogprobs: [0], refLogprobs: null, advantages: [k.advantage] },
        { epsilon: k.epsilon, epsilonHigh: k.epsilon, beta: 0, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 1, temperature: 1 });
      expect(-out.loss).toBeCloseTo(clipRule(k.ratio, k.advantage, k.epsilon), 12);
      return -out.loss;
    }
    case 'hackAdvantage': return groupAdvantages(k.rewards, k.rewards.length, 'grpo', 'group')[k.paid];
    case 'thinkAdvantage': return [...groupAdvantages([...k.think, ...k.direct], k.think.length + k.direct.length, 'grpo', 'group')].slice(0, k.think.length).reduce((a, b) => a + b, 0);
    case 'breakEven': return breakEvenQuestions(k.trainingTokens, k.n, k.baseTokens, k.trainedTokens);
    case 'k3': return Math.exp(k.d) - k.d - 1;
    case 'processReward': return mixProcessReward(k.outcome, k.right / k.steps, k.w);
    case 'poolGap': {
      const late = k.memorized / k.pool + (1 - k.memorized / k.pool) * k.base;
      return getLesson('small-pool')!.contrast!.of({ reward_early: k.base, reward_late: late, heldout_pass1_start: k.base, heldout_pass1_end: k.base });
    }
    case 'leash': {
      const out = policyObjective({ B: 1, T: 1, logprobs: [-2], entropy: [0], mask: [1], oldLogprobs: null, refLogprobs: [-2 + k.d], advantages: [0] },
        { epsilon: 0.2, epsilonHigh: 0.2, beta: k.beta, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 1, temperature: 1 });
      expect(out.loss).toBeCloseTo(k.beta * (Math.exp(k.d) - k.d - 1), 12);
      return out.loss;
    }
    case 'hand': return NaN;
  }
}

const all = LESSONS.map((l) => ({ lesson: l, c: lessonConcepts(l.id)! }));
const questions = all.flatMap(({ lesson, c }) => (['pre', 'post'] as const).map((phase) => ({ lesson, phase, q: c.concept[phase] })));
const noCode = /`|[{}]|\b[a-z]+_[a-z0-9]+\b|\b[a-z]+[A-Z]\w*\b/;

describe('explain and concept questions', () => {
  it('every lesson has them (lesson 5 too: it has no prediction, yet a verdict per variant), and nothing else does', () => {
    expect(all.filter(({ c }) => !c).map(({ lesson }) => lesson.id)).toEqual([]);
    expect(Object.keys(LESSON_CONCEPTS).sort()).toEqual(LESSONS.map((l) => l.id).sort());
    expect(LESSONS.filter((l) => !lessonQuestion(l)).map((l) => l.id)).toEqual(['grpo-vs-best-of-n']);
    expect(lessonConcepts('no-such-lesson')).toBeNull();
    expect(lessonConcepts('toString')).toBeNull();
  });

  it('each computable answer key is the lab\'s own formula on the question\'s numbers; none is typed by hand', () => {
    const hand = questions.filter(({ q }) => !q.key.computed).map(({ lesson, phase }) => `${lesson.id} ${phase}`);
    expect(hand).toEqual([]); // every question here has a formula: a hand-typed key would have to be listed, with its reason
    for (const { lesson, phase, q } of questions) {
      const want = expected(q.key.spec);
      const right = q.choices[q.answer];
      expect(right.right, `${lesson.id} ${phase}`).toBe(true);
      expect(right.value, `${lesson.id} ${phase}: ${q.key.source}`).toBeCloseTo(want, 12);
      expect(q.key.value).toBe(right.value);
      expect(q.choices.filter((c) => c.right)).toHaveLength(1);
    }
  });

  it('lesson 1 asks the issue\'s question: 95 %, G = 4, how often does its group teach? ≈ 19 % (1 − 0.95⁴ − 0.05⁴)', () => {
    const q = lessonConcepts('mixed-groups')!.concept.pre;
    expect(q.text).toContain('95 %');
    expect(q.text).toContain('G = 4');
    expect(q.choices[q.answer].text).toBe('19 %');
    expect(q.choices[q.answer].value).toBeCloseTo(1 - 0.95 ** 4 - 0.05 ** 4, 12);
    // its wrong choices are the misconceptions' formulas: one answer failing (5 %), all passing (81 %), one pass suffices (nearly 100 %)
    expect(q.choices.map((c) => c.text)).toEqual(['5 %', '19 %', '81 %', 'nearly 100 %']);
  });

  it('each question keeps at least two wrong choices, each from a named misconception, every choice written differently', () => {
    for (const { lesson, phase, q } of questions) {
      const wrong = q.choices.filter((c) => !c.right);
      expect(wrong.length, `${lesson.id} ${phase}`).toBeGreaterThanOrEqual(2);
      expect(q.choices.length).toBeLessThanOrEqual(4);
      for (const c of wrong) expect(c.misconception?.length ?? 0, `${lesson.id} ${phase}: ${c.text}`).toBeGreaterThan(10);
      expect(new Set(q.choices.map((c) => c.text)).size).toBe(q.choices.length);
      expect(q.choices.map((c) => c.value)).toEqual([...q.choices.map((c) => c.value)].sort((a, b) => a - b)); // by value: the right one's place says nothing
    }
  });

  it('pre and post are the same question with its numbers changed, and a different answer', () => {
    const shape = (q: ConceptQuestion) => q.text.replace(/[−+-]?\d[\d,.]*/g, '#');
    for (const { lesson, c } of all) {
      expect(shape(c.concept.pre), lesson.id).toBe(shape(c.concept.post));
      expect(c.concept.pre.text).not.toBe(c.concept.post.text);
      expect(c.concept.pre.choices[c.concept.pre.answer].text, lesson.id).not.toBe(c.concept.post.choices[c.concept.post.answer].text);
    }
  });

  it('the explain question: 3–4 reasons, exactly one right, at least two misconceptions, each with why; written for students', () => {
    for (const { lesson, c } of all) {
      const { reasons, right } = c.explain;
      expect(reasons.length, lesson.id).toBeGreaterThanOrEqual(3);
      expect(reasons.length).toBeLessThanOrEqual(4);
      expect(reasons.filter((r) => r.right)).toHaveLength(1);
      expect(reasons[right].right).toBe(true);
      expect(reasons.filter((r) => !r.right).length).toBeGreaterThanOrEqual(2);
      expect(new Set(reasons.map((r) => r.text)).size).toBe(reasons.length);
      for (const r of reasons) {
        expect(r.why.length, `${lesson.id}: ${r.text}`).toBeGreaterThan(40);
        expect(r.text, lesson.id).not.toMatch(noCode);
        expect(r.why, lesson.id).not.toMatch(noCode);
      }
      for (const t of [c.explain.prompt, c.explain.explanation, c.concept.pre.text, c.concept.post.text]) expect(t, lesson.id).not.toMatch(noCode);
    }
  });

  it('a question asked before the first Play states no outcome: none of its lesson\'s revealing phrases', () => {
    for (const { lesson, c } of all) {
      const shown = [c.concept.pre.text, ...c.concept.pre.choices.map((x) => x.text)].join(' ').toLowerCase();
      for (const phrase of lesson.reveals ?? []) expect(shown, `${lesson.id}: "${phrase}"`).not.toContain(phrase.toLowerCase());
    }
  });

  it('reasonOrder shuffles the reasons per student, the same every time; codeAnswers turns choices into what the code carries', () => {
    const orders = Array.from({ length: 40 }, (_, s) => reasonOrder('mixed-groups', s + 2));
    for (const o of orders) expect([...o].sort()).toEqual([0, 1, 2, 3]);
    expect(new Set(orders.map((o) => o[0])).size).toBe(4); // the right one is not always first
    expect(reasonOrder('mixed-groups', 7)).toEqual(reasonOrder('mixed-groups', 7));
    expect(reasonOrder('no-such-lesson', 7)).toEqual([]);
    const q = lessonConcepts('mixed-groups')!.concept;
    expect(codeAnswers('mixed-groups', { explain: 1, pre: (q.pre.answer + 1) % q.pre.choices.length, post: q.post.answer })).toEqual({ explain: 1, concept: { pre: false, post: true } });
    expect(codeAnswers('mixed-groups', { pre: 'skipped', post: q.post.answer })).toEqual({ explain: null, concept: { pre: null, post: true } });
    expect(codeAnswers('mixed-groups', { explain: 9, pre: -1, post: 1.5 })).toEqual({ explain: null, concept: null });
    expect(codeAnswers('mixed-groups', undefined)).toEqual({ explain: null, concept: null });
  });

  it('numbers read as students read them', () => {
    expect(formatValue(0.1854875, 'percent')).toBe('19 %');
    expect(formatValue(0.01745, 'percent')).toBe('1.7 %');
    expect(formatValue(0.9999937, 'percent')).toBe('nearly 100 %');
    expect(formatValue(-0.866, 'signed')).toBe('−0.87');
    expect(formatValue(0.2, 'times')).toBe('0.2 times as much');
    expect(formatValue(1, 'times')).toBe('the same');
    expect(formatValue(6666.67, 'count')).toBe('about 6,700');
    expect(formatValue(0.0367879, 'number')).toBe('0.037');
  });
});

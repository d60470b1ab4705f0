/**
 * What the class understood (understanding.ts), pooled from pasted codes: how many explained right,
 * the wrong reason chosen most, the concept question's shares before and after, and the class's
 * normalized gain ⟨g⟩ with its 90 % interval — on a simulated class of 25 codes, decoded by the pool
 * beside an old code that carries none of it.
 */
import { describe, expect, it } from 'vitest';
import { tQuantile } from '../rl/interval.ts';
import { encodeResult } from './code.ts';
import { lessonConcepts } from './concepts.ts';
import { conceptLine, explainLine, poolPaste } from './pool.ts';
import { lessonUnderstanding, normalizedGain } from './understanding.ts';
import { classOf25, sample } from './testSample.ts';

const L1 = lessonConcepts('mixed-groups')!;
const reason = (i: number) => L1.explain.reasons[i].text;

describe('what the class understood', () => {
  it('a class of 25 pasted codes: 14 of 25 explained right, the wrong reason chosen most, ⟨g⟩ with its interval; an old code beside them is pooled and counts in none of it', () => {
    const old = encodeResult(sample({ seed: 999, variant: 1 })); // no explain, no concept: as before this change
    const chat = [...classOf25().map((r, i) => `Student ${i + 1}: ${encodeResult(r)}`), `Late: ${old}`].join('\n');
    const p = poolPaste(chat);
    expect([p.accepted, p.refused.length]).toEqual([26, 0]);
    const u = p.lessons[0].understanding!;
    expect(u.explain).toEqual({ answered: 25, right: 14, chosen: [6, 14, 3, 2], mostWrong: [0] });
    expect(u.concept.pre).toEqual({ answered: 25, right: 6, share: 0.24 });
    expect(u.concept.post).toEqual({ answered: 25, right: 19, share: 0.76 });
    const g = u.concept.gain;
    expect(g.value).toBeCloseTo((0.76 - 0.24) / (1 - 0.24), 12); // Hake's ⟨g⟩ from the class's shares: 13/19
    expect([g.n, g.tooFew]).toEqual([25, false]);
    // the delta-method t interval with half a student added to each cell (understanding.ts), by hand
    const w = [5.5, 14.5, 1.5, 5.5], N = 27, gg = (14.5 - 1.5) / 20, ub = 20 / N;
    const ss = w[0] * gg * gg + w[1] * (1 - gg) ** 2 + w[2] * 1;
    const half = (tQuantile(0.95, 24) * Math.sqrt(ss / (N - 1) / N)) / ub;
    expect(g.lo).toBeCloseTo(gg - half, 12);
    expect(g.hi).toBeCloseTo(gg + half, 12);
    expect(g.lo).toBeLessThan(g.value);
    expect(g.hi).toBeGreaterThan(g.value);
    expect(g.hi).toBeLessThanOrEqual(1);
    console.log('class of 25:', conceptLine(u));
    expect(explainLine(u)).toBe(`14 of 25 explained right (“${reason(1)}”). The wrong reason chosen most: “${reason(0)}” (6 students): discuss it next.`);
    expect(conceptLine(u)).toBe(`Concept question (how often a group teaches): 6 of 25 right before (24 %), 19 of 25 right after (76 %); normalized gain ⟨g⟩ 0.68 (90 % interval ${(gg - half).toFixed(2)} to ${(gg + half).toFixed(2)}) over the 25 students who answered both.`);
  });

  it('one student, several codes: the first explain choice, and per phase the first answer; a skipped phase counts in neither the gain nor its share', () => {
    const runs = [
      sample({ seed: 7, variant: 0, explain: 0, concept: { pre: false, post: null } }), // shared before the post question
      sample({ seed: 7, variant: 1, explain: 1, concept: { pre: false, post: true } }),
      sample({ seed: 8, variant: 1, explain: 1, concept: { pre: null, post: true } }), // skipped the question before
      sample({ seed: 9, variant: 1 }), // answered nothing
    ];
    const u = lessonUnderstanding('mixed-groups', runs)!;
    expect(u.explain).toEqual({ answered: 2, right: 1, chosen: [1, 1, 0, 0], mostWrong: [0] });
    expect([u.concept.pre.answered, u.concept.post.answered, u.concept.gain.n]).toEqual([1, 2, 1]);
    expect(u.concept.gain.value).toBe(1);
    expect(u.concept.gain.tooFew).toBe(true);
    expect(conceptLine(u)).toBe('Concept question (how often a group teaches): 0 of 1 right before (0 %), 2 of 2 right after (100 %); normalized gain ⟨g⟩ 1.00 over the 1 student who answered both (no interval: too few students to judge, it takes 5).');
  });

  it('ties name every wrong reason; no wrong reason, no one answering, everyone right before: said so', () => {
    const tie = lessonUnderstanding('mixed-groups', [0, 2, 1].map((e, i) => sample({ seed: i, explain: e })))!;
    expect(tie.explain.mostWrong).toEqual([0, 2]);
    expect(explainLine(tie)).toBe(`1 of 3 explained right (“${reason(1)}”). The wrong reasons chosen most, 1 student each: “${reason(0)}” and “${reason(2)}”: discuss them next.`);
    const allRight = lessonUnderstanding('mixed-groups', [1, 1].map((e, i) => sample({ seed: i, explain: e })))!;
    expect(explainLine(allRight)).toMatch(/^2 of 2 explained right .* No one chose a wrong reason\.$/);
    const none = lessonUnderstanding('mixed-groups', [sample()])!;
    expect([explainLine(none), conceptLine(none)]).toEqual([null, null]);
    const ceiling = lessonUnderstanding('mixed-groups', Array.from({ length: 6 }, (_, i) => sample({ seed: i, concept: { pre: true, post: i > 0 } })))!;
    expect(ceiling.concept.gain.value).toBeNaN();
    expect(conceptLine(ceiling)).toMatch(/every one of the 6 students who answered both was right before: there is no gain to measure\.$/);
  });

  it('normalizedGain: ⟨g⟩ is (post − pre)/(1 − pre) of the class\'s shares; its interval holds ⟨g⟩ and never passes 1', () => {
    const s = (pre: boolean, post: boolean, k: number) => Array.from({ length: k }, () => ({ pre, post }));
    const perfect = normalizedGain([...s(false, true, 6), ...s(true, true, 4)]); // every wrong-before student right after: zero spread without the half-students
    expect(perfect.value).toBe(1);
    expect(perfect.hi).toBe(1);
    expect(perfect.lo).toBeLessThan(0.9);
    const plain = normalizedGain([...s(false, true, 6), ...s(true, true, 4)], { add: 0 });
    expect([plain.lo, plain.hi]).toEqual([1, 1]); // the plain delta interval: zero width, what the half-students fix
    const worse = normalizedGain([...s(true, false, 3), ...s(false, false, 3), ...s(true, true, 4)]);
    expect(worse.value).toBeCloseTo(-3 / 3, 12); // pre 0.7, post 0.4: (0.4 − 0.7)/0.3 = −1
    expect(worse.lo).toBeLessThanOrEqual(worse.value);
  });
});

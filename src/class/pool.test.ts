/**
 * Pooling a class's codes: duplicates dropped, damaged ones refused by name, per lesson and
 * variant the runs and the held count, the class interval (Student-t, from five runs on), the
 * contrast the class predicted judged across seeds by the card's rule (comparable runs only, by the
 * card's one rule: lesson 6 pools), and the predictions scored against that class outcome.
 */
import { describe, expect, it, vi } from 'vitest';

// the one rule for comparable runs, counted: pooling compares a seed's codes only with each other
const compared = vi.hoisted(() => ({ n: 0 }));
vi.mock('../store/overlays.ts', async (importOriginal) => {
  const m = await importOriginal<typeof import('../store/overlays.ts')>();
  return { ...m, comparable: (...a: Parameters<typeof m.comparable>) => { compared.n++; return m.comparable(...a); } };
});
import { encodeResult } from './code.ts';
import { classVerdictLine, contrastIntervalLine, poolPaste, predictionLine } from './pool.ts';
import { sample } from './testSample.ts';

describe('class pool', () => {
  it('pools a chat: two runs, one refused by name, a duplicate dropped, the contrast and predictions', () => {
    const g8 = encodeResult(sample({ seed: 11, variant: 1, contrast: 0.82, prediction: 2 }));
    const g2 = encodeResult(sample({ seed: 11, variant: 0, contrast: 0.41, claim: -0.05, prediction: 2 }));
    const other = encodeResult(sample({ seed: 12, variant: 1, contrast: 0.8, prediction: 0 }));
    const altered = g8.slice(0, 20) + (g8[20] === 'A' ? 'B' : 'A') + g8.slice(21);
    const chat = `Ada: ${g8}\nBo: ${g2}\nCy: ${other}\nAda again: ${g8}\nEve: ${altered}`;
    const p = poolPaste(chat);
    expect(p.accepted).toBe(3);
    expect(p.duplicates).toBe(1);
    expect(p.refused.map((r) => r.sentence)).toEqual([`Code 5 (line 5, ${altered.slice(0, 24)}…${altered.slice(-4)}) was refused: it is damaged: its checksum does not match (a character was changed, lost or added).`]);
    const l = p.lessons[0];
    expect(l.lessonId).toBe('mixed-groups');
    expect(l.variants.map((v) => [v.name, v.runs.length, v.held])).toEqual([['G = 2', 1, 1], ['G = 8', 2, 2]]);
    expect(l.pairs).toHaveLength(1);
    expect(l.pairs[0].seed).toBe(11);
    expect(l.pairs[0].diff).toBeCloseTo(0.41, 10);
    expect(l.predicted).toEqual([1, 0, 1]);
    expect(predictionLine(l)).toBe('1 of 2 predicted higher (1 lower); the class\'s runs cannot tell yet (1 seed with both variants: too few runs to judge, it takes 5).');
  });

  it('the class as the test: per variant the mean claim number with its 90 % interval across students, the IQM, the class verdict; the contrast as paired differences', () => {
    // lesson 1 at G = 8 claims a held-out gain above 0.03; at G = 2, a fall (at or below 0)
    const g8 = (xs: number[]) => xs.map((x, i) => encodeResult(sample({ seed: 20 + i, variant: 1, claim: x, held: x > 0.03, contrast: 0.8 + i / 100 })));
    const g2 = (xs: number[]) => xs.map((x, i) => encodeResult(sample({ seed: 20 + i, variant: 0, claim: x, held: x <= -0.05, contrast: 0.4 + i / 200 })));
    const clear = poolPaste([...g8([0.08, 0.1, 0.09, 0.12, 0.07, 0.11]), ...g2([-0.1, -0.05, -0.08, -0.12, -0.06, -0.09])].join('\n')).lessons[0];
    const [v2, v8] = clear.variants;
    expect(v8.verdict).toBe('holds');
    expect(v8.mean.lo).toBeGreaterThan(0.03);
    expect(v8.mean.lo).toBeLessThan(v8.mean.value);
    expect(v8.mean.hi).toBeGreaterThan(v8.mean.value);
    expect(v8.mean.value).toBeCloseTo(0.095, 10);
    expect(v8.iqm).toBeCloseTo(0.095, 10); // the middle half of 0.07 … 0.12
    expect(v2.verdict).toBe('holds');
    expect(classVerdictLine(v8)).toMatch(/^Class \(6 students, each judged at step 40\): held-out pass@1 \(sampled\), end − start, mean \+0\.10 \(90 % interval \+0\.\d\d to \+0\.\d\d\), interquartile mean \+0\.10; threshold above 0\.03: the class verdict holds\.$/);
    // the contrast: paired on the six shared seeds, asked (G = 8) − against (G = 2)
    expect(clear.contrast!.n).toBe(6);
    expect(clear.contrast!.value).toBeCloseTo(0.8 + 0.025 - 0.4 - 0.0125, 10);
    expect(contrastIntervalLine(clear, 'G = 8', 'G = 2')).toMatch(/^Paired on 6 seeds: G = 8 − G = 2, mean \+0\.41 \(90 % interval \+0\.\d\d to \+0\.\d\d; a difference beyond ±0\.05 counts\): higher, as the lesson claims ✓\.$/);
    expect([clear.contrast!.outcome, clear.contrast!.state]).toEqual([0, 'holds']);
    // a class whose numbers straddle the threshold: unclear; wholly on the other side: fails
    expect(poolPaste(g8([0.01, 0.06, -0.02, 0.09, 0.03, 0.05]).join(' ')).lessons[0].variants[0].verdict).toBe('unclear');
    expect(poolPaste(g8([0.01, -0.03, -0.02, 0.0, 0.02, -0.01]).join(' ')).lessons[0].variants[0].verdict).toBe('fails');
    // below five students: a mean, no interval, and no verdict — too few runs to judge
    const four = poolPaste(g8([0.08, 0.1, 0.09, 0.12]).join(' ')).lessons[0].variants[0];
    expect(four.verdict).toBeNull();
    expect(four.tooFew).toBe(true);
    expect(classVerdictLine(four)).toContain('(no interval: too few runs to judge, it takes 5), interquartile mean +0.10; threshold above 0.03: too few runs to judge.');
  });

  it('the class\'s contrast is what it predicted: judged across seeds by the card\'s rule, and the predictions scored against it', () => {
    // lesson 2 (Dr. GRPO against GRPO): per seed the long/short ratio; asked − against across six students
    const code = (seed: number, variant: number, contrast: number, prediction: 0 | 1 | 2) => encodeResult(sample({ lessonId: 'length-bias', seed, variant, contrast, claim: contrast, verdict: 'unclear', prediction }));
    const ratios: [number, number][] = [[0.5, 0.39], [0.3, 0.55], [0.25, 0.6], [0.35, 0.5], [0.2, 0.45], [0.3, 0.52]]; // seed 1 like seed 1009: GRPO above Dr. GRPO
    const codes = ratios.flatMap(([grpo, dr], i) => [code(30 + i, 0, grpo, i < 4 ? 0 : 2), code(30 + i, 1, dr, i < 4 ? 0 : 2)]); // one student per seed, one prediction
    const l = poolPaste(codes.join('\n')).lessons[0];
    expect(l.pairs.map((x) => +x.diff.toFixed(2))).toEqual([-0.11, 0.25, 0.35, 0.15, 0.25, 0.22]);
    expect(l.contrast!.n).toBe(6);
    expect([l.contrast!.outcome, l.contrast!.state]).toEqual([0, 'holds']);
    expect(predictionLine(l)).toBe('4 of 6 predicted higher (2 lower); the class\'s runs showed higher (6 seeds): 4 of 6 predicted it.');
    // a code that carries its own judged contrast counts once for its seed, with that seed's outcome
    const own = encodeResult(sample({ lessonId: 'length-bias', seed: 99, variant: 1, contrast: 0.6, claim: 0.6, verdict: 'holds', pairedContrast: { value: 0.3, outcome: null } }));
    expect(poolPaste(own).lessons[0].pairs).toEqual([{ seed: 99, diff: 0.3, outcome: null }]);
  });

  it('lesson 6 pools: its variants start from their own shipped bases (different weights by design), as the card compares them', () => {
    const code = (seed: number, variant: number, rise: number, shippedBase: boolean) => encodeResult(sample({ lessonId: 'scratchpad', seed, variant, contrast: rise, claim: rise, verdict: 'unclear', weights: variant ? 'bbbbbbbbbbbbbbbb' : 'aaaaaaaaaaaaaaaa', shippedBase }));
    const seeds = [1, 2, 3, 4, 5];
    const pooled = poolPaste(seeds.flatMap((s) => [code(s, 0, 0.6 + s / 100, true), code(s, 1, 0.05, true)]).join(' ')).lessons[0];
    expect(pooled.pairs).toHaveLength(5);
    expect([pooled.contrast!.outcome, pooled.contrast!.state]).toEqual([2, 'holds']); // "does not pay" lower, as the lesson claims
    // from a checkpoint other than the shipped bases (or a code that does not say): the weights must match
    expect(poolPaste(seeds.flatMap((s) => [code(s, 0, 0.6, false), code(s, 1, 0.05, false)]).join(' ')).lessons[0].pairs).toEqual([]);
  });

  it('no contrast across other starting weights', () => {
    const a = encodeResult(sample({ seed: 3, variant: 1 }));
    const b = encodeResult(sample({ seed: 3, variant: 0, claim: -0.1, weights: 'fedcba9876543210' }));
    expect(poolPaste(`${a} ${b}`).lessons[0].pairs).toEqual([]);
  });

  it('1,000 codes pool in one pass: each asked code is compared only with its own seed\'s codes (a count, not a time)', () => {
    const codes = Array.from({ length: 1000 }, (_, i) => encodeResult(sample({ seed: 100 + (i >> 1), variant: i & 1, claim: i & 1 ? 0.1 : -0.1, contrast: (i & 1 ? 0.8 : 0.4) + i * 1e-4 })));
    const text = codes.map((c, i) => `[${i}] student ${i}: ${c}`).join('\n');
    const t0 = performance.now();
    compared.n = 0;
    const p = poolPaste(text);
    console.log(`1000 codes (${text.length} characters) pooled in ${(performance.now() - t0).toFixed(0)} ms (for information: speed lives in npm run bench)`);
    expect(p.accepted).toBe(1000);
    expect(p.lessons[0].pairs).toHaveLength(500);
    expect(compared.n).toBe(500); // one comparison per seed; a scan of every pair would make 250,000
  });
});

/**
 * The class's claim numbers agree with the claims: for every lesson variant, a run whose claim
 * holds (`holdsOn`) has its claim number on the claim's side of the threshold. Evidence is drawn
 * at random for whatever keys the predicate and the number read (a Proxy records them), many of
 * them near the threshold, so a wrong side, a wrong key or a wrong threshold shows.
 */
import { describe, expect, it } from 'vitest';
import { LESSONS } from '../rl/lessons.ts';
import { Rng } from '../model/rng.ts';
import { claimNumber, onClaimSide } from './claimNumber.ts';

function randomEvidence(rng: Rng, near: number[]): Record<string, number> {
  const values = new Map<string, number>();
  const draw = () => {
    const r = rng.next();
    // near a threshold (either side), in [0, 1], wide, or a small integer (a count, a fired flag)
    return r < 0.4 ? near[Math.floor(rng.next() * near.length)] + (rng.next() - 0.5) * 0.2 : r < 0.7 ? rng.next() : r < 0.9 ? (rng.next() - 0.5) * 4 : Math.floor(rng.next() * 4);
  };
  return new Proxy({}, {
    get: (_t, k) => {
      if (typeof k !== 'string') return undefined;
      if (!values.has(k)) values.set(k, draw());
      return values.get(k);
    },
  }) as Record<string, number>;
}

describe('claim numbers', () => {
  it('cover every lesson and variant', () => {
    for (const l of LESSONS) l.variants.forEach((_, i) => expect(claimNumber(l.id, i), `${l.id} ${i}`).not.toBeNull());
  });

  it('a claim that holds has its number on the claim\'s side of the threshold', () => {
    const rng = new Rng(7);
    for (const l of LESSONS) {
      l.variants.forEach((v, i) => {
        const c = claimNumber(l.id, i)!;
        let holds = 0;
        for (let t = 0; t < 4000; t++) {
          const e = randomEvidence(rng, [c.threshold, 0, 0.5, 0.9, 1 / 3, -0.15, 0.15]);
          if (!v.claim.holdsOn(e)) continue;
          holds++;
          const x = c.of(e);
          expect(onClaimSide(c, x), `${l.id} variant ${i}: holds with ${c.what} = ${x} (${c.side} ${c.threshold})`).toBe(true);
        }
        expect(holds, `${l.id} variant ${i}: the draws reach its claim`).toBeGreaterThan(5);
      });
    }
  });
});

// Held-out split: disjoint pools by construction, both non-empty for every task and
// difficulty, about 20% held out, and not a structured rule.
import { describe, expect, it } from 'vitest';
import { Rng } from '../model/rng.ts';
import { TASKS, getTask } from './registry.ts';
import { HELDOUT_FRACTION, isHeldOut, samplePrompts } from './split.ts';

describe('held-out split', () => {
  it('covers each generator\'s sampling range with both pools non-empty (table)', () => {
    const rows: string[] = [];
    for (const task of TASKS) {
      for (const d of task.difficulties) {
        // 4000 draws exhaust the small spaces (1-digit add/sub/mul: 100 prompts) and give
        // thousands of distinct prompts for the large ones.
        const rng = new Rng(77 + d);
        const seen = new Set<string>();
        for (let i = 0; i < 4000; i++) seen.add(task.generate(rng, d).prompt);
        const held = [...seen].filter((p) => isHeldOut(task.id, p)).length;
        const frac = held / seen.size;
        rows.push(`${task.id.padEnd(10)} d${d}  distinct ${String(seen.size).padStart(4)}  held out ${String(held).padStart(4)}  (${frac.toFixed(3)})`);
        expect(held, `${task.id} d${d} held-out pool`).toBeGreaterThan(0);
        expect(seen.size - held, `${task.id} d${d} training pool`).toBeGreaterThan(0);
        // Binomial spread: 4 standard deviations of the held-out fraction.
        const sd = Math.sqrt((HELDOUT_FRACTION * (1 - HELDOUT_FRACTION)) / seen.size);
        expect(Math.abs(frac - HELDOUT_FRACTION), `${task.id} d${d}`).toBeLessThan(4 * sd);
      }
    }
    console.log(rows.join('\n'));
  });

  it('the smallest spaces are enumerated completely and split on both sides', () => {
    for (const id of ['add', 'sub', 'mul']) {
      const all: string[] = [];
      for (let a = 0; a <= 9; a++) for (let b = 0; b <= 9; b++) all.push(`${a}${id === 'add' ? '+' : id === 'sub' ? '-' : '*'}${b}=`);
      const rng = new Rng(5);
      const seen = new Set<string>();
      for (let i = 0; i < 3000; i++) seen.add(getTask(id).generate(rng, 1).prompt);
      expect([...seen].sort()).toEqual(all.slice().sort());
      const held = all.filter((p) => isHeldOut(id, p));
      console.log(`${id} d1: ${held.length}/100 held out: ${held.join(' ')}`);
      expect(held.length).toBeGreaterThanOrEqual(10);
      expect(held.length).toBeLessThanOrEqual(30);
    }
  });

  it('samplePrompts pools are disjoint and match isHeldOut (would catch a leak)', () => {
    for (const task of TASKS) {
      for (const d of task.difficulties) {
        const train = samplePrompts(task, new Rng(1), d, 'train', 400);
        const held = samplePrompts(task, new Rng(2), d, 'heldout', 100);
        expect(train.length).toBe(400);
        expect(held.length).toBe(100);
        const trainSet = new Set(train.map((x) => x.prompt));
        for (const h of held) {
          expect(trainSet.has(h.prompt), `${task.id} d${d} ${h.prompt} in both pools`).toBe(false);
          expect(isHeldOut(task.id, h.prompt)).toBe(true);
          expect(h.answer).toBe(task.solve(h.prompt));
        }
        for (const t of train) expect(isHeldOut(task.id, t.prompt)).toBe(false);
      }
    }
  });

  it('is not a structured rule: the held-out fraction is flat across operand digits', () => {
    // Every (last digit of A, last digit of B) cell of 2-digit addition holds out about 20%.
    const cells = Array.from({ length: 100 }, () => [0, 0]);
    for (let a = 0; a < 100; a++) {
      for (let b = 0; b < 100; b++) {
        const cell = cells[(a % 10) * 10 + (b % 10)];
        cell[1]++;
        if (isHeldOut('add', `${a}+${b}=`)) cell[0]++;
      }
    }
    const fracs = cells.map(([h, n]) => h / n);
    expect(Math.min(...fracs)).toBeGreaterThan(0.08);
    expect(Math.max(...fracs)).toBeLessThan(0.34);
    expect(isHeldOut('add', '1+2=')).toBe(isHeldOut('add', '1+2='));
  });

  it('samplePrompts is seeded', () => {
    const t = getTask('reverse');
    expect(samplePrompts(t, new Rng(9), 1, 'heldout', 20)).toEqual(samplePrompts(t, new Rng(9), 1, 'heldout', 20));
  });
});

// Property tests per task and difficulty: the reference answer always passes its verifier, a
// one-character perturbation of it always fails, prompts are short, encodable and seeded.
import { describe, expect, it } from 'vitest';
import { Rng } from '../model/rng.ts';
import { TASKS, getTask } from './registry.ts';
import { isEncodable } from './tokenizer.ts';
import { PromptError } from './types.ts';
import { MAX_RESPONSE_CHARS } from './common.ts';

const N = 1000;
const DIGITS = '0123456789';
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Every one-character variant of `s` that changes a digit to another digit or a letter to another letter, one random replacement per position. */
function perturbations(s: string, rng: Rng): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const pool = DIGITS.includes(s[i]) ? DIGITS : LETTERS.includes(s[i]) ? LETTERS : null;
    if (!pool) continue;
    const others = pool.replace(s[i], '');
    out.push(s.slice(0, i) + others[rng.int(others.length)] + s.slice(i + 1));
  }
  return out;
}

describe('task registry', () => {
  it('has at least 10 tasks with unique ids, both families, and the required ones', () => {
    const ids = TASKS.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(10);
    for (const id of ['add', 'sub', 'mul', 'chain', 'digitsum', 'countdown', 'reverse', 'sort', 'count', 'palindrome', 'dedup']) {
      expect(getTask(id).id).toBe(id);
    }
    expect(TASKS.filter((t) => t.family === 'string').length).toBeGreaterThanOrEqual(6);
    expect(() => getTask('nope')).toThrow(/unknown task "nope"; valid tasks: add, sub/);
  });

  it('rejects malformed prompts with a PromptError, whatever the response', () => {
    for (const t of TASKS) {
      expect(() => t.verify('hello=', '1')).toThrow(PromptError);
      expect(() => t.verify('hello=', '')).toThrow(PromptError);
    }
  });
});

describe.each(TASKS.map((t) => [t.id, t] as const))('%s', (_id, task) => {
  it(`reference passes, perturbed fails, over ${N} instances per difficulty`, () => {
    const rows: string[] = [];
    for (const d of task.difficulties) {
      const rng = new Rng(1000 + d);
      const prng = new Rng(2000 + d);
      let maxPrompt = 0;
      let maxAnswer = 0;
      let perturbed = 0;
      const distinct = new Set<string>();
      for (let n = 0; n < N; n++) {
        const inst = task.generate(rng, d);
        const { prompt, answer } = inst;
        distinct.add(prompt);
        expect(inst.difficulty).toBe(d);
        expect(isEncodable(prompt) && isEncodable(answer)).toBe(true);
        expect(task.solve(prompt)).toBe(answer);
        const v = task.verify(prompt, answer);
        if (!v.correct) throw new Error(`${prompt} ${answer}: ${v.reason}`);
        expect(v).toMatchObject({ reward: 1, correct: true, formatOk: true, reason: 'correct' });
        expect(v.verifierVersion).toMatch(new RegExp(`^${task.id}@\\d+$`));
        const think = task.referenceResponse(prompt, { think: true });
        expect(think.length).toBeLessThanOrEqual(MAX_RESPONSE_CHARS);
        expect(task.verify(prompt, think).correct).toBe(true);
        if (task.processReward) {
          expect(think).toContain('|');
          expect(task.processReward(prompt, think)).toBe(1);
          expect(task.processReward(prompt, answer)).toBe(0);
        } else {
          expect(think).toBe(answer);
        }
        for (const bad of perturbations(answer, prng)) {
          const pv = task.verify(prompt, bad);
          if (pv.correct) throw new Error(`perturbed answer ${bad} to ${prompt} (reference ${answer}) passed`);
          expect(pv.reward).toBeLessThan(1);
          perturbed++;
        }
        maxPrompt = Math.max(maxPrompt, prompt.length);
        maxAnswer = Math.max(maxAnswer, answer.length);
      }
      if (d === task.difficulties[0]) {
        // The micro model's context is 24 tokens: difficulty 1 must fit comfortably.
        expect(maxPrompt).toBeLessThanOrEqual(14);
        expect(maxAnswer).toBeLessThanOrEqual(8);
      }
      expect(perturbed).toBeGreaterThanOrEqual(N);
      rows.push(`${task.id.padEnd(10)} d${d}  distinct ${String(distinct.size).padStart(4)}  max prompt ${String(maxPrompt).padStart(2)}  max answer ${String(maxAnswer).padStart(2)}  perturbed ${perturbed}`);
    }
    console.log(rows.join('\n'));
  });

  it('is seeded: the same seed gives the same prompts', () => {
    for (const d of task.difficulties) {
      const a = new Rng(7);
      const b = new Rng(7);
      const pa = Array.from({ length: 20 }, () => task.generate(a, d).prompt);
      const pb = Array.from({ length: 20 }, () => task.generate(b, d).prompt);
      expect(pa).toEqual(pb);
      expect(new Set(pa).size).toBeGreaterThan(1);
    }
    expect(() => task.generate(new Rng(1), 99)).toThrow(/unknown difficulty 99/);
  });

  it('applies the reward weights', () => {
    const { prompt, answer } = task.generate(new Rng(3), task.difficulties[0]);
    const w = { unparseable: -1, wrong: 0.25, correct: 2 };
    expect(task.verify(prompt, answer, w).reward).toBe(2);
    expect(task.verify(prompt, '', w).reward).toBe(-1);
    expect(task.verify(prompt, '', w).formatOk).toBe(false);
  });
});

describe('scratchpad tasks', () => {
  it('grade only the answer; processReward counts correct steps', () => {
    const chain = getTask('chain');
    expect(chain.referenceResponse('7+5-3+8=', { think: true })).toBe('12,9,17|17');
    expect(chain.verify('7+5-3+8=', '12,10,17|17').correct).toBe(true);
    expect(chain.processReward!('7+5-3+8=', '12,10,17|17')).toBeCloseTo(2 / 3, 12);
    expect(chain.processReward!('7+5-3+8=', '12|17')).toBeCloseTo(1 / 3, 12);
    expect(chain.processReward!('7+5-3+8=', '12,9,17,17|17')).toBeCloseTo(3 / 4, 12);
    const ds = getTask('digitsum');
    expect(ds.referenceResponse('ds:7583=', { think: true })).toBe('7,12,20,23|23');
    expect(ds.referenceResponse('ds:7583=')).toBe('23');
    expect(ds.verify('ds:7583=', '7,12,20,23|24').correct).toBe(false);
    expect(ds.processReward!('ds:7583=', '7,12,20,23|24')).toBe(1);
    expect(ds.processReward!('ds:7583=', ' 7, 12 ,21,23|23')).toBe(0.75);
    const ms = getTask('modsum');
    expect(ms.referenceResponse('mod:7583=', { think: true })).toBe('7,2,0,3|3');
    expect(ms.referenceResponse('mod:7583=')).toBe('3');
    expect(ms.verify('mod:7583=', '23').reason).toBe('not a single digit');
    expect(ms.processReward!('mod:7583=', '7,2,1,3|3')).toBe(0.75);
  });

  it('countdown reference solutions never need more numbers than given and evaluate exactly', () => {
    const cd = getTask('countdown');
    expect(cd.solve('cd:24:3,5,8=')).toBe('3*8');
    expect(cd.verify('cd:24:3,5,8=', '(8-5)*8').reason).toMatch(/uses 8 more often than given/);
    expect(cd.verify('cd:24:3,5,8=', '8*3').correct).toBe(true);
    expect(() => cd.solve('cd:1000:1,1=')).toThrow(/no solution/);
  });
});

describe('strict verifiers on arbitrary text', () => {
  it('never throw, return one of the three rewards, and accept only canonical answers', () => {
    const rng = new Rng(99);
    const alphabet = '0123456789abcxyz+-*/=(), |?:\u0663\uff14\u00a0\n<>.' + 'o'.repeat(3);
    const exact = new Set(['add', 'sub', 'mul', 'chain', 'digitsum', 'modsum', 'reverse', 'sort', 'count', 'palindrome', 'dedup', 'shift']);
    let accepted = 0;
    for (const task of TASKS) {
      for (let i = 0; i < 2000; i++) {
        const { prompt, answer } = task.generate(rng, task.difficulties[rng.int(task.difficulties.length)]);
        // Half pure noise, half noise around the right answer, sometimes very long.
        const len = rng.next() < 0.05 ? 200 + rng.int(20_000) : rng.int(12);
        let noise = '';
        for (let k = 0; k < len; k++) noise += alphabet[rng.int(alphabet.length)];
        const cut = rng.int(noise.length + 1);
        const response = rng.next() < 0.5 ? noise : noise.slice(0, cut) + answer + noise.slice(cut);
        const v = task.verify(prompt, response);
        expect([0, 0.1, 1]).toContain(v.reward);
        if (v.correct) {
          accepted++;
          expect(v.formatOk).toBe(true);
          const graded = response.includes('|') ? response.slice(response.indexOf('|') + 1) : response;
          if (exact.has(task.id)) expect(graded.replace(/^ +| +$/g, '')).toBe(answer);
        }
      }
    }
    console.log(`fuzz: ${accepted} of ${TASKS.length * 2000} noisy responses accepted, each exactly canonical`);
    expect(accepted).toBeGreaterThan(0);
  });
});

// The language is enough: six built-in tasks re-expressed as the specs shipped in public/tasks/
// (add, sub, mul, reverse, sort at every difficulty; digitsum, with its scratchpad, at difficulty 1)
// generate, for the same seed, the same prompts, answers and reference responses (direct and
// thinking), and grade the same responses — right, wrong, malformed, random junk and every
// adversarial case of their task — with the same reward, correctness, format verdict and reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../model/rng.ts';
import { ADVERSARIAL_FILES, parseAdversarialJsonl } from '../adversarial.ts';
import { getTask } from '../registry.ts';
import { CHARS } from '../tokenizer.ts';
import { PromptError, type Task, type Verdict } from '../types.ts';
import { validateSpec } from './spec.ts';
import { taskFromSpec } from './task.ts';

const BUILT_INS: { file: string; id: string; difficulties: number[] }[] = [
  { file: 'add', id: 'add', difficulties: [1, 2, 3, 4] },
  { file: 'sub', id: 'sub', difficulties: [1, 2, 3, 4] },
  { file: 'mul', id: 'mul', difficulties: [1, 2, 3, 4] },
  { file: 'reverse', id: 'reverse', difficulties: [1, 2, 3] },
  { file: 'sort', id: 'sort', difficulties: [1, 2, 3] },
  { file: 'digitsum', id: 'digitsum', difficulties: [1] },
];
const INSTANCES = 150;
const adversarial = ADVERSARIAL_FILES.flatMap((f) => parseAdversarialJsonl(readFileSync(f, 'utf8'), f));

function specTask(file: string): Task {
  const r = validateSpec(JSON.parse(readFileSync(`public/tasks/${file}.json`, 'utf8')));
  if (!r.ok) throw new Error(r.error);
  return taskFromSpec(r.spec);
}

/** Right, wrong and malformed responses around an answer, plus random junk from the seeded RNG. */
function responsesFor(answer: string, think: string, rng: Rng): string[] {
  const out = [answer, ` ${answer} `, `|${answer}`, think, `${answer}|${answer}`, `${answer}|`, `0${answer}`, `+${answer}`, `-${answer}`, `${answer}${answer}`,
    `${answer} ${answer}`, `${answer}x`, `x${answer}`, 'x', 'A', '', ' ', '|', `||${answer}`, `${answer}|${answer}|`, answer.toUpperCase(), [...answer].reverse().join(''),
    '-0', '00', '0', '9'.repeat(32), '9'.repeat(33), `${answer}<eos>`, `${answer}\n`, `${answer}\u00a0`, `${answer},${answer}`, '1,2|3', think.replace(/\d/, '0')];
  if (/^-?\d+$/.test(answer)) out.push(String(Number(answer) + 1), String(Number(answer) - 1), String(-Number(answer)));
  const alphabet = `${CHARS}|ä<>`;
  for (let i = 0; i < 8; i++) out.push(Array.from({ length: rng.int(10) }, () => alphabet[rng.int(alphabet.length)]).join(''));
  return out;
}

const verdictOf = (v: Verdict) => ({ reward: v.reward, correct: v.correct, formatOk: v.formatOk, reason: v.reason });

describe('built-in tasks re-expressed as specs (public/tasks/*.json)', () => {
  for (const b of BUILT_INS) {
    it(`${b.id}: same prompts, answers, reference responses and verdicts for the same seed (difficulties ${b.difficulties.join(', ')})`, () => {
      const builtin = getTask(b.id);
      const spec = specTask(b.file);
      expect(spec.id).toBe(`spec:${b.id}`);
      expect(spec.family).toBe(builtin.family);
      expect(spec.difficulties).toEqual(b.difficulties);
      let verdicts = 0;
      let processRewards = 0;
      for (const d of b.difficulties) {
        const r1 = new Rng(1000 + d);
        const r2 = new Rng(1000 + d);
        const junk = new Rng(7 + d);
        for (let i = 0; i < INSTANCES; i++) {
          const x = builtin.generate(r1, d);
          const y = spec.generate(r2, d);
          expect(y).toEqual(x);
          for (const think of [false, true]) expect(spec.referenceResponse(y.prompt, { think })).toBe(builtin.referenceResponse(x.prompt, { think }));
          expect(spec.solve(x.prompt)).toBe(builtin.solve(x.prompt));
          const think = builtin.referenceResponse(x.prompt, { think: true });
          for (const resp of responsesFor(x.answer, think, junk)) {
            const a = verdictOf(builtin.verify(x.prompt, resp));
            const s = verdictOf(spec.verify(x.prompt, resp));
            if (s.reason !== a.reason || s.reward !== a.reward || s.formatOk !== a.formatOk || s.correct !== a.correct) expect({ prompt: x.prompt, resp, s }).toEqual({ prompt: x.prompt, resp, s: a });
            verdicts++;
            if (builtin.processReward) {
              expect(spec.processReward, 'a scratchpad task has process reward').toBeDefined();
              expect(spec.processReward!(x.prompt, resp)).toBe(builtin.processReward(x.prompt, resp));
              processRewards++;
            }
          }
        }
        expect(r2.next()).toBe(r1.next()); // the RNG streams end in the same place
      }
      if (!builtin.processReward) expect(spec.processReward).toBeUndefined();
      // The adversarial cases of this task: every response on prompts of the spec's domain; the labelled case itself where its prompt is one.
      const mine = adversarial.filter((c) => c.task === b.id);
      expect(mine.length).toBeGreaterThan(0);
      const prompts = Array.from({ length: 12 }, (_, i) => builtin.generate(new Rng(50 + i), b.difficulties[i % b.difficulties.length]).prompt);
      let labelled = 0;
      for (const c of mine) {
        for (const p of prompts) {
          const a = verdictOf(builtin.verify(p, c.response));
          const s = verdictOf(spec.verify(p, c.response));
          if (JSON.stringify(a) !== JSON.stringify(s)) expect({ p, r: c.response, s }).toEqual({ p, r: c.response, s: a });
          verdicts++;
        }
        let inDomain = true;
        try {
          spec.solve(c.prompt);
        } catch (e) {
          expect(e).toBeInstanceOf(PromptError);
          inDomain = false;
        }
        if (!inDomain) continue;
        const v = spec.verify(c.prompt, c.response);
        expect(verdictOf(v), c.source).toEqual(verdictOf(builtin.verify(c.prompt, c.response)));
        expect({ correct: v.correct, formatOk: v.formatOk }, c.source).toEqual({ correct: c.correct, formatOk: c.formatOk });
        labelled++;
      }
      console.log(`${b.id}: ${b.difficulties.length * INSTANCES} instances equal, ${verdicts} verdicts equal (${mine.length} adversarial responses × 12 prompts; ${labelled} labelled cases in the spec's domain), ${processRewards} process rewards equal`);
    });
  }

  it('malformed prompts are PromptErrors for both', () => {
    const bad: Record<string, string[]> = {
      add: ['', '12+34', '012+3=', '1+2=3', '+1+2=', '1 + 2=', 'a+b=', '1-2='], sub: ['5+5=', '5-5', '-5-5='], mul: ['3*x=', '3*', '03*4='],
      reverse: ['r:ABC=', 'r:abc', 's:abc=', 'r:ab1='], sort: ['r:abc=', 's:'], digitsum: ['ds:12a=', 'ds:=', '758='],
    };
    for (const b of BUILT_INS) {
      const spec = specTask(b.file);
      for (const p of bad[b.id]) {
        expect(() => getTask(b.id).verify(p, '1'), `${b.id} ${p}`).toThrow(PromptError);
        expect(() => spec.verify(p, '1'), `spec ${b.id} ${p}`).toThrow(PromptError);
        expect(() => spec.verify(p, ''), `spec ${b.id} ${p}`).toThrow(PromptError);
      }
    }
  });
});

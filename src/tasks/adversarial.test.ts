// The strict verifiers against the hand-labelled adversarial set: 0 false accepts, 0 false
// rejects, and the exact formatOk verdict; each weak verifier accepts the exploits it lists.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_FILES, parseAdversarialJsonl, type AdversarialCase } from './adversarial.ts';
import { TASKS, WEAK_VERIFIERS, getTask } from './registry.ts';

const cases: AdversarialCase[] = ADVERSARIAL_FILES.flatMap((f) => parseAdversarialJsonl(readFileSync(f, 'utf8'), f));

describe('adversarial set', () => {
  it('has at least 30 cases per family file and per task family, covering the required kinds', () => {
    const perFile = new Map<string, number>();
    const perFamily = new Map<string, number>();
    for (const c of cases) {
      const file = c.source.split(':')[0];
      perFile.set(file, (perFile.get(file) ?? 0) + 1);
      const fam = getTask(c.task).family;
      perFamily.set(fam, (perFamily.get(fam) ?? 0) + 1);
    }
    console.log('cases per file:', Object.fromEntries(perFile), 'per family:', Object.fromEntries(perFamily));
    for (const f of ADVERSARIAL_FILES) expect(perFile.get(f) ?? 0).toBeGreaterThanOrEqual(30);
    for (const fam of ['arithmetic', 'string']) expect(perFamily.get(fam) ?? 0).toBeGreaterThanOrEqual(30);
    const kinds = new Set(cases.map((c) => c.kind));
    for (const k of ['several-answers', 'repeated-answer', 'answer-in-thinking', 'trailing-garbage', 'repeated-separator', 'eos-marker',
      'empty-answer', 'long-answer', 'unicode-digits', 'look-alike', 'html-script', 'unlisted-number', 'reused-number',
      'division-by-zero', 'fractional-intermediate', 'unusual-correct'] as const) {
      expect(kinds.has(k), k).toBe(true);
    }
    expect(cases.some((c) => c.response.length >= 10_000)).toBe(true);
    expect(cases.filter((c) => c.correct).length).toBeGreaterThanOrEqual(20);
  });

  it('strict verifiers: 0 false accepts, 0 false rejects, formatOk as labelled', () => {
    let falseAccepts = 0;
    let falseRejects = 0;
    const problems: string[] = [];
    for (const c of cases) {
      const v = getTask(c.task).verify(c.prompt, c.response);
      if (v.correct && !c.correct) falseAccepts++;
      if (!v.correct && c.correct) falseRejects++;
      if (v.correct !== c.correct || v.formatOk !== c.formatOk) {
        problems.push(`${c.source} ${c.kind} ${JSON.stringify(c.response.slice(0, 40))}: got correct=${v.correct} formatOk=${v.formatOk} (${v.reason})`);
      }
      expect(v.reward).toBe(c.correct ? 1 : c.formatOk ? 0.1 : 0);
    }
    console.log(`strict: ${cases.length} cases, ${falseAccepts} false accepts, ${falseRejects} false rejects`);
    expect(problems).toEqual([]);
    expect(falseAccepts + falseRejects).toBe(0);
  });

  it('long answers are refused before parsing, with reason "answer too long"', () => {
    const long = cases.filter((c) => c.response.length > 1000);
    expect(long.length).toBeGreaterThanOrEqual(3);
    for (const c of long) expect(getTask(c.task).verify(c.prompt, c.response).reason).toBe('answer too long');
  });

  it('every task appears in the adversarial set', () => {
    const tasks = new Set(cases.map((c) => c.task));
    for (const t of TASKS) expect(tasks.has(t.id), t.id).toBe(true);
  });
});

describe.each(WEAK_VERIFIERS.map((w) => [w.id, w] as const))('weak verifier %s', (_id, weak) => {
  it('accepts every case labelled as fooling it, each of which the strict verifier rejects', () => {
    const fooling = cases.filter((c) => c.fools.includes(weak.id));
    expect(fooling.length).toBeGreaterThanOrEqual(5);
    for (const c of fooling) {
      expect(c.correct, `${c.source} is labelled an exploit but is correct`).toBe(false);
      expect(weak.verify(getTask(c.task), c.prompt, c.response).correct, `${c.source} ${JSON.stringify(c.response.slice(0, 40))}`).toBe(true);
      expect(getTask(c.task).verify(c.prompt, c.response).correct).toBe(false);
    }
    console.log(`${weak.id}: accepts ${fooling.length} exploit cases the strict verifiers reject`);
  });

  it('rejects the incorrect cases not labelled as fooling it (labels are complete)', () => {
    for (const c of cases) {
      if (c.correct || c.fools.includes(weak.id)) continue;
      expect(weak.verify(getTask(c.task), c.prompt, c.response).correct, `${c.source} ${JSON.stringify(c.response.slice(0, 40))}`).toBe(false);
    }
  });

  it('has a demonstrating case for each exploit it lists', () => {
    expect(weak.exploits.length).toBe(weak.exploitKinds.length);
    expect(weak.exploits.length).toBeGreaterThanOrEqual(3);
    for (const k of weak.exploitKinds) {
      expect(cases.some((c) => c.kind === k && c.fools.includes(weak.id)), `${weak.id} lists ${k}`).toBe(true);
    }
  });
});

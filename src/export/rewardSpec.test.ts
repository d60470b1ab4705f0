/**
 * reward.py's spec language (specPy.ts) against the lab's (src/tasks/spec: language.ts, vars.ts,
 * task.ts): a custom task's answers and scratchpad steps are re-derived from the prompt in Python,
 * never taken from the dataset. Checked with python3 on
 *   - every shipped spec (public/tasks/*.json), prompts of every level;
 *   - random specs drawn from the grammar (integer ranges with negatives, choices, strings; "/" and
 *     "%" with negative operands, min/max/abs, len/count/reverse/sort/first/last, text + number,
 *     levels, scratchpads) that validateSpec accepts, and random data specs;
 *   - random expressions on random values, errors included (division by zero, past 10^15, past 256
 *     characters, first of an empty string).
 * The lab's answers go to a temp file; `python3 reward.py --check FILE` re-derives each and compares.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from '../model/rng.ts';
import { LanguageError, evaluate, parseExpression, typeOf, type Type, type Value } from '../tasks/spec/language.ts';
import { compileSpec, validateSpec, type Spec } from '../tasks/spec/spec.ts';
import { registerSpec } from '../tasks/spec/task.ts';
import { samplePrompts } from '../tasks/split.ts';
import type { Task } from '../tasks/types.ts';
import { rewardPy } from './rewardPy.ts';
import { customSteps } from './trlProject.ts';

const tmp = mkdtempSync(join(tmpdir(), 'reward-spec-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** reward.py for a spec, written to the temp folder. */
function rewardFile(spec: Spec, name: string): string {
  const c = compileSpec(spec);
  const path = join(tmp, `${name}.py`);
  writeFileSync(path, rewardPy({ task: c.id, formatReward: 0.1, specKind: c.answerKind, spec: c.spec }));
  return path;
}

type Row = { prompt: string; answer: string; steps?: string[] };

/** The lab's rows for a registered spec task: prompts of every level, the lab's answer and steps. */
function labRows(task: Task, perLevel: number, seed: number): Row[] {
  const rng = new Rng(seed);
  return task.difficulties.flatMap((d) => samplePrompts(task, rng, d, 'train', perLevel).map((i) => {
    const steps = customSteps(task, i.prompt);
    return steps ? { prompt: i.prompt, answer: i.answer, steps } : { prompt: i.prompt, answer: i.answer };
  }));
}

/** `python3 reward.py --check rows`: its exit status and report. */
function check(py: string, rows: Row[]): { status: number | null; out: string } {
  const file = `${py}.rows.jsonl`;
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const r = spawnSync('python3', [py, '--check', file], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

// ---- random specs from the grammar ------------------------------------------------------------

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
type Kind = 'int' | 'str';

function randomSpec(rng: Rng, name: string): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)];
  const nVars = 1 + rng.int(3);
  const vars: Record<string, unknown> = {};
  const kinds: Record<string, Kind> = {};
  const names = ['a', 'b', 'c'].slice(0, nVars);
  for (const v of names) {
    const r = rng.int(6);
    if (r < 3) {
      const lo = -60 + rng.int(70);
      vars[v] = [lo, lo + 3 + rng.int(80)];
      kinds[v] = 'int';
    } else if (r === 3) {
      vars[v] = { choice: Array.from({ length: 2 + rng.int(5) }, () => -30 + rng.int(61)) };
      kinds[v] = 'int';
    } else if (r === 4) {
      const alphabet = [...new Set(Array.from({ length: 2 + rng.int(6) }, () => pick([...LETTERS])))].join('');
      const lo = rng.int(3);
      vars[v] = { string: { alphabet, length: [lo, lo + rng.int(4)] } };
      kinds[v] = 'str';
    } else {
      vars[v] = { choice: [...new Set(Array.from({ length: 2 + rng.int(4) }, () => Array.from({ length: 1 + rng.int(3) }, () => pick([...LETTERS])).join('')))] };
      kinds[v] = 'str';
    }
  }
  const seps = [':', ',', '?', '=', '(', ')', ' '];
  const prompt = `${pick([...LETTERS])}:${names.map((v) => `{${v}}`).join(pick(seps))}=`;
  const ofKind = (k: Kind) => names.filter((v) => kinds[v] === k);
  const lit = (k: Kind) => (k === 'int' ? String(rng.int(12)) : `"${Array.from({ length: rng.int(3) }, () => pick([...'abcxyz'])).join('')}"`);
  const expr = (k: Kind, depth: number): string => {
    const leaf = () => {
      const vs = ofKind(k);
      return vs.length && rng.next() < 0.75 ? pick(vs) : lit(k);
    };
    if (depth <= 0 || rng.next() < 0.25) return leaf();
    const e = (kk: Kind) => expr(kk, depth - 1);
    if (k === 'int') {
      switch (rng.int(12)) {
        case 0: return `-${e('int')}`;
        case 1: return `${e('int')}+${e('int')}`;
        case 2: return `${e('int')}-${e('int')}`;
        case 3: return `${e('int')}*${e('int')}`;
        case 4: return `(${e('int')})/${pick(['3', '7', '-2', '(' + e('int') + ')'])}`;
        case 5: return `(${e('int')})%${pick(['3', '5', '-4', '(' + e('int') + ')'])}`;
        case 6: return `min(${e('int')}, ${e('int')}${rng.next() < 0.3 ? `, ${e('int')}` : ''})`;
        case 7: return `max(${e('int')}, ${e('int')})`;
        case 8: return `abs(${e('int')})`;
        case 9: return `len(${e('str')})`;
        case 10: return `count(${e('str')}, "${pick([...'abcxyz'])}")`;
        default: return `(${e('int')})`;
      }
    }
    switch (rng.int(8)) {
      case 0: return `${e('str')}+${e('str')}`;
      case 1: return `${e('str')}+${e('int')}`;
      case 2: return `reverse(${e('str')})`;
      case 3: return `sort(${e('str')})`;
      case 4: return `first(${e('str')})`;
      case 5: return `last(${e('str')})`;
      case 6: return `${e('int')}+"${pick([...'xyz'])}"`;
      default: return e('str');
    }
  };
  const answerKind: Kind = rng.next() < 0.6 ? 'int' : 'str';
  const spec: Record<string, unknown> = { name, prompt, vars, answer: expr(answerKind, 1 + rng.int(3)) };
  if (rng.next() < 0.3) spec.scratchpad = Array.from({ length: 1 + rng.int(2) }, () => expr(pick(['int', 'str'] as Kind[]), 1));
  const intVar = ofKind('int')[0];
  if (intVar && rng.next() < 0.3) {
    const lo = -9 + rng.int(10);
    spec.levels = [{}, { [intVar]: [lo, lo + 40 + rng.int(60)] }];
  }
  return spec;
}

function randomDataSpec(rng: Rng, name: string): Record<string, unknown> {
  const rows = new Map<string, string>();
  while (rows.size < 60) rows.set(`d:${rng.int(1000)}:${LETTERS[rng.int(26)]}=`, rng.next() < 0.5 ? String(rng.int(200) - 100) : LETTERS.slice(rng.int(5), 6 + rng.int(5)));
  return { name, data: [...rows].map(([prompt, answer]) => ({ prompt, answer })) };
}

describe('reward.py re-derives a custom task\'s answers in the lab\'s spec language', () => {
  it('every shipped spec (public/tasks): the lab\'s answers and steps at every level', () => {
    const files = readdirSync('public/tasks').filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(8);
    let total = 0;
    for (const f of files) {
      const r = validateSpec(JSON.parse(readFileSync(join('public/tasks', f), 'utf8')));
      if (!r.ok) throw new Error(`${f}: ${r.error}`);
      const rows = labRows(registerSpec(r.spec), 150, 29);
      const c = check(rewardFile(r.spec, `shipped-${f.replace('.json', '')}`), rows);
      expect(c.out, f).toContain(`${rows.length} of ${rows.length} rows`);
      expect(c.status, f).toBe(0);
      total += rows.length;
    }
    console.log(`reward.py re-derives the lab's answer on ${total} prompts of the ${files.length} shipped specs`);
  });

  it('random specs from the grammar: 3,000 answers (10,000 with REWARD_SPEC_ANSWERS=10000; negatives, "/" and "%", string operations, levels, scratchpads, data)', () => {
    const t0 = Date.now();
    const rng = new Rng(0x29);
    const TARGET = Number(process.env.REWARD_SPEC_ANSWERS ?? 3000); // the report's run: REWARD_SPEC_ANSWERS=10000 (~20-60 s on 2 busy cores)
    let total = 0, specs = 0, tried = 0, withSteps = 0, withLevels = 0;
    const features = { division: 0, remainder: 0, negatives: 0, strings: 0, data: 0 };
    while (total < TARGET && tried < 5000) {
      const name = `rnd${tried++}`;
      const json = tried % 25 === 0 ? randomDataSpec(rng, name) : randomSpec(rng, name);
      const r = validateSpec(json);
      if (!r.ok) continue;
      let rows: Row[];
      try {
        rows = labRows(registerSpec(r.spec), 50, tried);
      } catch {
        continue; // a spec whose training split is too small to draw 50 prompts from
      }
      const text = JSON.stringify(r.spec);
      if ('data' in r.spec) features.data++;
      else {
        if (/\//.test(r.spec.answer)) features.division++;
        if (/%/.test(r.spec.answer)) features.remainder++;
        if (/-[0-9]/.test(JSON.stringify(r.spec.vars)) || /-/.test(r.spec.answer)) features.negatives++;
        if (/reverse|sort|first|last|count|len|"/.test(r.spec.answer)) features.strings++;
        if (r.spec.scratchpad) withSteps++;
        if (r.spec.levels) withLevels++;
      }
      const c = check(rewardFile(r.spec, name), rows);
      expect(c.out, text).toContain(`${rows.length} of ${rows.length} rows`);
      expect(c.status, text).toBe(0);
      total += rows.length;
      specs++;
    }
    const seconds = (Date.now() - t0) / 1000;
    console.log(`reward.py agrees with the lab on ${total} answers of ${specs} random specs (${tried} drawn; ${withSteps} with a scratchpad, ${withLevels} with levels; ${JSON.stringify(features)}) in ${seconds.toFixed(1)} s`);
    expect(total).toBeGreaterThanOrEqual(TARGET);
    expect(Math.min(features.division, features.remainder, features.negatives, features.strings, features.data, withSteps, withLevels)).toBeGreaterThan(0);
  });

  it('random expressions on random values, errors included: the same value or both an error', () => {
    const { agree, n, errors } = expressionAgreement();
    console.log(`spec language, Python vs TypeScript: ${agree} of ${n} random expressions agree (${errors} are errors in both)`);
    expect(agree).toBe(n);
    expect(errors).toBeGreaterThan(50);
  });

  it('can fail: a wrong answer column is named by --check; Python\'s floor division disagrees with the lab', () => {
    const r = validateSpec(JSON.parse(readFileSync('public/tasks/times7.json', 'utf8')));
    if (!r.ok) throw new Error(r.error);
    const rows = labRows(registerSpec(r.spec), 20, 3);
    rows[4] = { ...rows[4], answer: String(Number(rows[4].answer) + 1) };
    const c = check(rewardFile(r.spec, 'lying'), rows);
    expect(c.status).toBe(1);
    expect(c.out).toContain(`19 of 20 rows`);
    expect(c.out).toContain(`row 5: prompt '${rows[4].prompt}'`);
    const floor = expressionAgreement((py) => py.replace('q = abs(a) // abs(b)\n    return q if (a < 0) == (b < 0) else -q', 'return a // b'));
    expect(floor.agree).toBeLessThan(floor.n);
  });

  it('python3 reward.py --help prints its usage and exits 0 (it does not wait on stdin)', () => {
    const r = validateSpec(JSON.parse(readFileSync('public/tasks/times7.json', 'utf8')));
    if (!r.ok) throw new Error(r.error);
    const py = rewardFile(r.spec, 'help');
    const out = execFileSync('python3', [py, '--help'], { encoding: 'utf8', timeout: 10_000, stdio: ['inherit', 'pipe', 'pipe'] });
    expect(out).toMatch(/^usage:\n {2}python3 reward\.py < cases\.jsonl/);
    expect(out).toContain('--check FILE');
    const bad = spawnSync('python3', [py, '--bogus'], { encoding: 'utf8', input: '' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^usage:/);
  });
});

const TYPES = new Map<string, Type>([['a', { t: 'int' }], ['b', { t: 'int' }], ['n', { t: 'int' }], ['s', { t: 'str', letters: true }], ['t', { t: 'str', letters: true }]]);

/** Random expressions over random variable values, evaluated by the lab and by reward.py's spec_eval. */
function expressionAgreement(patch: (py: string) => string = (py) => py): { agree: number; n: number; errors: number } {
  const rng = new Rng(0xe29);
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)];
  const intLeaf = () => pick(['a', 'b', 'n', String(rng.int(20)), String(rng.int(2_000_000_000))]);
  const strLeaf = () => pick(['s', 't', '""', `"${'abcab'.slice(rng.int(3))}"`]);
  const gen = (k: Kind, d: number): string => {
    if (d <= 0 || rng.next() < 0.2) return k === 'int' ? intLeaf() : strLeaf();
    const e = (kk: Kind) => gen(kk, d - 1);
    if (k === 'int') {
      return pick([
        () => `-${e('int')}`, () => `${e('int')} + ${e('int')}`, () => `${e('int')}-${e('int')}`, () => `${e('int')} * ${e('int')}`,
        () => `(${e('int')}) / (${e('int')})`, () => `(${e('int')}) % (${e('int')})`, () => `min(${e('int')}, ${e('int')}, ${e('int')})`,
        () => `max(${e('int')}, ${e('int')})`, () => `abs(${e('int')})`, () => `len(${e('str')})`, () => `count(${e('str')}, ${e('str')})`,
      ])();
    }
    return pick([
      () => `${e('str')} + ${e('str')}`, () => `${e('str')} + ${e('int')}`, () => `${e('int')} + ${e('str')}`, () => `reverse(${e('str')})`,
      () => `sort(${e('str')})`, () => `first(${e('str')})`, () => `last(${e('str')})`, () => `${e('str')}+${e('str')}+${e('str')}+${e('str')}`,
    ])();
  };
  const cases: { src: string; env: Record<string, Value>; lab: { v: Value } | { err: true } }[] = [];
  while (cases.length < 3000) {
    const env: Record<string, Value> = {
      a: rng.int(201) - 100, b: pick([0, 1, -1, 7, -7, rng.int(99) - 49]), n: pick([999_999_999_999_999, -1_000_000_000_000_000, 123_456_789]),
      s: Array.from({ length: rng.int(6) }, () => pick([...'abc'])).join(''), t: pick(['', 'ab', 'ba', 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz']),
    };
    const src = gen(pick(['int', 'str'] as Kind[]), 1 + rng.int(4));
    const node = parseExpression(src);
    try {
      typeOf(node, TYPES); // what validateSpec lets through: well-typed expressions only ("…" − 1 is refused before it runs)
    } catch {
      continue;
    }
    let lab: { v: Value } | { err: true };
    try {
      lab = { v: evaluate(node, new Map(Object.entries(env))) };
    } catch (e) {
      if (!(e instanceof LanguageError)) throw e;
      lab = { err: true };
    }
    cases.push({ src, env, lab });
  }
  const dir = mkdtempSync(join(tmp, 'expr-'));
  writeFileSync(join(dir, 'reward.py'), patch(rewardPy({ task: 'spec:x', formatReward: 0.1, specKind: 'int' })));
  writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify({ src: c.src, env: c.env })).join('\n') + '\n');
  const driver = 'import json, sys\nsys.path.insert(0, sys.argv[1])\nimport reward\nfor line in open(sys.argv[2]):\n    c = json.loads(line)\n    try:\n        print(json.dumps({"v": reward.spec_eval(reward.spec_parse(c["src"]), c["env"])}))\n    except reward.SpecError:\n        print(json.dumps({"err": True}))\n';
  const out = execFileSync('python3', ['-c', driver, dir, join(dir, 'cases.jsonl')], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n').map((l) => JSON.parse(l));
  let agree = 0, errors = 0;
  cases.forEach((c, i) => {
    if (JSON.stringify(out[i]) === JSON.stringify(c.lab)) agree++;
    else if (process.env.SHOW_DIFF) console.log(JSON.stringify({ src: c.src, env: c.env, lab: c.lab, py: out[i] }));
    if ('err' in c.lab) errors++;
  });
  return { agree, n: cases.length, errors };
}

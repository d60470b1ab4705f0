/**
 * The exported reward.py, run by python3, against the lab's strict verifiers: every task's
 * adversarial set (data/adversarial/*.jsonl) and 10,000 generated answers per task (correct ones,
 * with and without a scratchpad; wrong ones; malformed ones; random strings of the vocabulary and
 * beyond), with exact agreement on the reward. The tasks with scratchpad steps run a second time
 * under process reward and DAPO's overlong penalty. A custom task (a spec from public/tasks/) too.
 * One python process per task, the cases through stdin and the rewards through stdout.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Rng } from '../model/rng.ts';
import { mixProcessReward, stepFraction } from '../rl/processReward.ts';
import type { Backend } from '../model/backend.ts';
import { maxNewTokens, overlongPenalty } from '../rl/rollout.ts';
import type { Settings } from '../rl/settings.ts';
import { ADVERSARIAL_FILES, parseAdversarialJsonl } from '../tasks/adversarial.ts';
import { TASKS } from '../tasks/registry.ts';
import { parseSpecText } from '../tasks/spec/index.ts';
import { compileSpec } from '../tasks/spec/spec.ts';
import { registerSpec } from '../tasks/spec/task.ts';
import { samplePrompts } from '../tasks/split.ts';
import { CHARS, encodePrompt } from '../tasks/tokenizer.ts';
import type { Task } from '../tasks/types.ts';
import { CONFIGS, paramLayout } from '../model/config.ts';
import { initWeights } from '../model/init.ts';
import { defaultSettings } from '../rl/settings.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { rewardPy, type RewardOptions } from './rewardPy.ts';
import { customSteps, exportTrlProject } from './trlProject.ts';

const GENERATED = 10_000;
const FORMAT_REWARD = 0.2;
const adversarial = ADVERSARIAL_FILES.flatMap((f) => parseAdversarialJsonl(readFileSync(f, 'utf8'), f));

/** A wrong-ish variant of a correct answer: one character changed, added, dropped or the answer doubled. */
function mutate(rng: Rng, a: string): string {
  const pool = '0123456789abcdefghijklmnopqrstuvwxyz+-*/() ';
  const i = rng.int(a.length + 1);
  switch (rng.int(6)) {
    case 0: return a.slice(0, i) + pool[rng.int(pool.length)] + a.slice(i + 1);
    case 1: return a.slice(0, i) + pool[rng.int(pool.length)] + a.slice(i);
    case 2: return a.slice(0, Math.max(0, i - 1)) + a.slice(i);
    case 3: return /^-?[0-9]+$/.test(a) ? String(Number(a) + (rng.next() < 0.5 ? 1 : -1)) : a.split('').reverse().join('');
    case 4: return `${a} ${a}`;
    default: return a.toUpperCase();
  }
}

/** n responses to prompts of the task: a mix of correct, wrong, malformed and random ones. */
function generatedCases(task: Task, n: number, seed: number): { prompt: string; completion: string }[] {
  const rng = new Rng(seed);
  const prompts = task.difficulties.flatMap((d) => samplePrompts(task, rng, d, 'train', 60).map((i) => i.prompt));
  const vocab = CHARS + '|';
  const junk = ['٣', 'é', '<eos>', '\t', '\n', '０', '😀', '\ud800', 'A', '.', '\u00a0'];
  const refs = new Map(prompts.map((p) => [p, { right: task.referenceResponse(p), think: task.referenceResponse(p, { think: true }) }]));
  const out: { prompt: string; completion: string }[] = [];
  for (let k = 0; k < n; k++) {
    const prompt = prompts[rng.int(prompts.length)];
    const { right, think } = refs.get(prompt)!;
    const pad = () => ' '.repeat(rng.int(3));
    let c: string;
    switch (k % 10) {
      case 0: c = right; break;
      case 1: c = pad() + think + pad(); break;
      case 2: c = `${mutate(rng, think.split('|')[0])}|${pad()}${right}${pad()}`; break; // wrong steps, right answer
      case 3: c = mutate(rng, right); break;
      case 4: c = `${mutate(rng, right)}|${mutate(rng, right)}`; break;
      case 5: c = [right, '|', right, '|', right].slice(0, 1 + rng.int(5)).join(''); break;
      case 6: c = right + junk[rng.int(junk.length)] + (rng.next() < 0.5 ? '' : right); break;
      case 7: c = rng.next() < 0.5 ? `0${right}` : rng.next() < 0.5 ? `+${right}` : right.repeat(2 + rng.int(40)); break;
      default: c = Array.from({ length: rng.int(k % 10 === 8 ? 8 : 40) }, () => vocab[rng.int(vocab.length)]).join('');
    }
    out.push({ prompt, completion: c });
  }
  return out;
}

/** The lab's length limit for a prompt (rollout.ts maxNewTokens; it reads only the model's positions and the setting). */
function labLimit(prompt: string, o: NonNullable<RewardOptions['overlong']>): number {
  return maxNewTokens({ config: { seqLen: o.positions } } as unknown as Backend, encodePrompt(prompt).length, { maxCompletionLength: o.limit } as Settings);
}

/** The lab's reward for one response (rollout.ts's order: the verdict, process credit, then the overlong penalty). */
function labReward(task: Task, prompt: string, completion: string, o: RewardOptions, nTokens: number): number {
  let r = task.verify(prompt, completion, { unparseable: 0, wrong: o.formatReward, correct: 1 }).reward;
  if (o.processWeight != null) r = mixProcessReward(r, stepFraction(task, prompt, completion), o.processWeight);
  if (o.overlong) r += overlongPenalty(nTokens, labLimit(prompt, o.overlong), o.overlong.buffer);
  return r;
}

function pythonRewards(o: RewardOptions, rows: { prompt: string; completion: string; answer?: string; steps?: string[] | null; completion_ids?: number[] }[], code = rewardPy(o)): number[] {
  const out = execFileSync('python3', ['-c', code], { input: rows.map((r) => JSON.stringify(r)).join('\n'), encoding: 'utf8', maxBuffer: 1 << 26 });
  return out.trim().split('\n').map(Number);
}

/** The disagreements of reward.py (or `code`) with the lab on the task's adversarial set and generated answers. */
const tally = { correct: 0, wrong: 0, unparseable: 0 };

function disagreements(task: Task, o: RewardOptions, withAnswer = false, code?: string): { bad: string[]; adversarial: number; generated: number } {
  const adv = adversarial.filter((c) => c.task === task.id).map((c) => ({ prompt: c.prompt, completion: c.response }));
  const gen = generatedCases(task, GENERATED, 0xe4 + task.id.length);
  const answers = new Map<string, string>();
  const answerOf = (p: string) => answers.get(p) ?? answers.set(p, task.solve(p)).get(p)!;
  // a custom task's rows carry answer and steps columns that lie: reward.py must re-derive both from the prompt
  const rows = [...adv, ...gen].map((r, i) => ({ ...r, ...(withAnswer ? { answer: `${answerOf(r.prompt)}1`, steps: customSteps(task, r.prompt)?.map((x) => `${x}1`) ?? null } : {}), completion_ids: Array.from({ length: 1 + (i % 12) }, () => 5) }));
  const paid = pythonRewards(o, rows, code);
  expect(paid.length).toBe(rows.length);
  const bad = rows.flatMap((r, i) => {
    const lab = labReward(task, r.prompt, r.completion, o, r.completion_ids.length);
    tally[lab === 1 ? 'correct' : lab === 0 ? 'unparseable' : 'wrong']++;
    return paid[i] === lab ? [] : [`${task.id} ${JSON.stringify(r.prompt)} ${JSON.stringify(r.completion.slice(0, 40))}: lab ${lab}, reward.py ${paid[i]}`];
  });
  return { bad, adversarial: adv.length, generated: gen.length };
}

function agreement(task: Task, o: RewardOptions, withAnswer = false): { adversarial: number; generated: number } {
  const r = disagreements(task, o, withAnswer);
  expect(r.bad.slice(0, 5)).toEqual([]);
  return r;
}

describe('reward.py pays what the lab pays', () => {
  it('on every built-in task: its adversarial set and 10,000 generated answers each (python3)', () => {
    const counts: string[] = [];
    let total = 0;
    for (const task of TASKS) {
      const n = agreement(task, { task: task.id, formatReward: FORMAT_REWARD });
      counts.push(`${task.id} ${n.adversarial}+${n.generated}`);
      total += n.adversarial + n.generated;
    }
    expect(counts.filter((c) => c.startsWith('countdown'))[0]).toMatch(/countdown [1-9][0-9]+\+/);
    console.log(`reward.py agrees with the lab on ${total} responses (adversarial + generated): ${counts.join(', ')}; lab verdicts ${JSON.stringify(tally)}`);
  });

  it('under process reward and the overlong penalty, on the tasks with scratchpad steps', () => {
    const steps = TASKS.filter((t) => t.processReward);
    expect(steps.map((t) => t.id).sort()).toEqual(['chain', 'digitsum', 'modsum']);
    let total = 0;
    for (const task of steps) {
      const n = agreement(task, { task: task.id, formatReward: 0.1, processWeight: 0.3, overlong: { limit: 8, positions: 24, buffer: 3 } });
      total += n.adversarial + n.generated;
    }
    console.log(`reward.py with process reward (w = 0.3) and the overlong penalty agrees on ${total} responses`);
  });

  it('on a custom task (a spec from public/tasks/), its answers and steps re-derived from the prompt, whatever the dataset\'s columns say', () => {
    for (const file of ['public/tasks/times7.json', 'public/tasks/vowels.json', 'public/tasks/reverse.json']) {
      const r = parseSpecText(readFileSync(file, 'utf8'));
      if (!r.ok) throw new Error(r.error);
      const task = registerSpec(r.spec);
      const n = agreement(task, { task: task.id, formatReward: FORMAT_REWARD, specKind: compileSpec(r.spec).answerKind, spec: r.spec }, true);
      console.log(`reward.py agrees with the lab on ${n.generated} answers to ${task.id} (${compileSpec(r.spec).answerKind})`);
    }
    // a spec with a scratchpad under process reward: its steps travel in the dataset's steps column
    const r = parseSpecText(readFileSync('public/tasks/digitsum.json', 'utf8'));
    if (!r.ok) throw new Error(r.error);
    const task = registerSpec(r.spec);
    expect(customSteps(task, 'ds:783=')).toEqual(['7', '15', '18']);
    const n = agreement(task, { task: task.id, formatReward: FORMAT_REWARD, specKind: 'int', spec: r.spec, processWeight: 0.4, overlong: { limit: 8, positions: 24, buffer: 3 } }, true);
    console.log(`reward.py with process reward agrees with the lab on ${n.generated} answers to ${task.id} (steps re-derived)`);
  });

  it('the exported overlong penalty is the lab\'s per-prompt rule: prompts of different lengths, each at its own limit', () => {
    // countdown at difficulty 3 on the micro model (24 positions): prompts of 13-19 characters, limits min(20, 24 − characters)
    const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
    const s: Settings = { ...defaultSettings(), task: 'countdown', difficulty: 3, maxCompletionLength: 20, overlongPenalty: true, overlongBuffer: 4, formatReward: 0.1 };
    const files = exportTrlProject({ settings: s, config, weights: initWeights(paramLayout(config), 1), trainSize: 80, heldoutSize: 8, paritySequences: 0 });
    const code = files.find((f) => f.path === 'reward.py')!.text!;
    const task = TASKS.find((t) => t.id === 'countdown')!;
    const prompts = [...new Map(files.find((f) => f.path === 'data/train.jsonl')!.text!.trim().split('\n').map((l) => JSON.parse(l).prompt as string).map((p) => [p.length, p])).values()];
    const backend = { config } as unknown as Backend;
    const limits = new Set(prompts.map((p) => maxNewTokens(backend, encodePrompt(p).length, s)));
    expect(limits.size).toBeGreaterThanOrEqual(4);
    const rows = prompts.flatMap((prompt) => Array.from({ length: 20 }, (_, k) => ({ prompt, completion: task.referenceResponse(prompt), completion_ids: Array(k + 1).fill(5) })));
    const paid = pythonRewards({ task: 'countdown', formatReward: 0.1 }, rows, code);
    const lab = rows.map((r) => task.verify(r.prompt, r.completion, { unparseable: 0, wrong: 0.1, correct: 1 }).reward + overlongPenalty(r.completion_ids.length, maxNewTokens(backend, encodePrompt(r.prompt).length, s), s.overlongBuffer));
    expect(paid).toEqual(lab);
    console.log(`overlong penalty: ${rows.length} answers to ${prompts.length} prompts of ${Math.min(...prompts.map((p) => p.length))}-${Math.max(...prompts.map((p) => p.length))} characters, limits ${[...limits].sort((a, b) => a - b).join(', ')}: reward.py pays the lab's reward on every one`);
  });

  it('can fail: a reward.py that takes leading zeros for well-formed, or grades after the last of several separators, disagrees', () => {
    const o = { task: 'add', formatReward: FORMAT_REWARD };
    const code = rewardPy(o);
    const breaks = [
      code.replace('r"0|-?[1-9][0-9]*" if negative', 'r"-?[0-9]+" if negative'),
      code.replace('if response.count("|") > 1:', 'if False:').replace('response.split("|", 1)[1]', 'response.rsplit("|", 1)[1]'),
    ];
    for (const broken of breaks) {
      expect(broken).not.toBe(code);
      expect(disagreements(TASKS[0], o, false, broken).bad.length).toBeGreaterThan(0);
    }
  });
});

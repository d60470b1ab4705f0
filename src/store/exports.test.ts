/**
 * The TRL snippet's reward function, run in Python, against the lab's strict verifiers on the
 * hand-labelled adversarial set: it must pay exactly what the lab pays, for every task whose
 * answer is an exact string (countdown evaluates expressions, and its snippet says so).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_FILES, parseAdversarialJsonl } from '../tasks/adversarial.ts';
import { getTask } from '../tasks/registry.ts';
import { defaultSettings } from '../rl/settings.ts';
import { ANSWER_REGEX, grpoConfigSnippet } from './exports.ts';

const cases = ADVERSARIAL_FILES.flatMap((f) => parseAdversarialJsonl(readFileSync(f, 'utf8'), f)).filter((c) => c.task in ANSWER_REGEX);

describe('TRL GRPOConfig snippet', () => {
  it('its reward_fn pays what the strict verifier pays on every adversarial case (python3)', () => {
    const byTask = new Map<string, typeof cases>();
    for (const c of cases) byTask.set(c.task, [...(byTask.get(c.task) ?? []), c]);
    expect([...byTask.keys()].sort()).toEqual(Object.keys(ANSWER_REGEX).sort());
    let checked = 0;
    for (const [task, cs] of byTask) {
      const snippet = grpoConfigSnippet({ ...defaultSettings(), task, formatReward: 0.1 });
      // Everything from the reward's imports on, without TRL itself (not installed here).
      const code = snippet.replace(/^from trl import .*$/m, '').replace(/^config = GRPOConfig\([\s\S]*?^\)$/m, '');
      const payload = JSON.stringify({ completions: cs.map((c) => c.response), answer: cs.map((c) => getTask(c.task).solve(c.prompt)) });
      const out = execFileSync('python3', ['-c', `${code}\nimport json, sys\nd = json.load(sys.stdin)\nprint(json.dumps(reward_fn(d["completions"], d["answer"])))`], { input: payload, encoding: 'utf8' });
      const paid: number[] = JSON.parse(out);
      cs.forEach((c, i) => expect(paid[i], `${task} ${JSON.stringify(c.response.slice(0, 40))}`).toBe(c.correct ? 1 : c.formatOk ? 0.1 : 0));
      checked += cs.length;
    }
    console.log(`snippet reward_fn agrees with the strict verifiers on ${checked} cases over ${byTask.size} tasks`);
  });

  it('for a task of one\'s own it says its grammar is a stand-in and where the real verifier is (the TRL project\'s reward.py)', () => {
    const own = grpoConfigSnippet({ ...defaultSettings(), task: 'spec:times7' } as ReturnType<typeof defaultSettings>);
    expect(own).toMatch(/"spec:times7" is a task of your own: .*"TRL project \(\.zip\)" writes reward\.py/);
    expect(grpoConfigSnippet(defaultSettings())).not.toMatch(/task of your own/);
  });
  it('maps Dr. GRPO\'s advantage to scale_rewards "none", the warm-up to warmup_steps (× µ: TRL counts optimizer steps), the entropy bonus to entropy_coef, and claims no std difference: the lab divides by TRL\'s std', () => {
    const dr = grpoConfigSnippet({ ...defaultSettings(), advantage: 'dr_grpo', lossType: 'dr_grpo', scaleRewards: 'group', warmupSteps: 7, numIterations: 2, entropyCoef: 0.01 });
    expect(dr).toContain('    scale_rewards="none",');
    expect(dr).toContain('    warmup_steps=14,');
    expect(dr).toContain('    entropy_coef=0.01,');
    expect(dr).not.toMatch(/^#\s+Entropy bonus/m);
    expect(dr).not.toMatch(/^#\s+Warm-up steps:/m); // mapped, so not listed as unmapped
    expect(grpoConfigSnippet({ ...defaultSettings(), scaleRewards: 'group' })).toContain('    scale_rewards="group",');
    expect(grpoConfigSnippet({ ...defaultSettings(), numGenerations: 8 })).not.toMatch(/population std|lab's \|A\|/);
  });

  it('countdown says that exact match undercounts', () => {
    expect(grpoConfigSnippet({ ...defaultSettings(), task: 'countdown' })).toMatch(/undercounts/);
  });
});

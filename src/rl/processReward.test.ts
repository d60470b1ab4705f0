import { describe, expect, it } from 'vitest';
import { getTask, getWeakVerifier } from '../tasks/registry.ts';
import { effectiveRewardMode, mixProcessReward, rewardModeNotice, STEP_TASKS, stepFraction } from './processReward.ts';
import { settingAvailability } from './availability.ts';
import { defaultSettings, settingsFromRecord } from './settings.ts';

// digitsum "ds:7583=": running sums 7,12,20,23, answer 23.
const ds = getTask('digitsum');
const P = 'ds:7583=';
/** The reward an answer gets under process reward (formatReward fr, weight w, strict verifier). */
const processReward = (response: string, w: number, fr = 0) => mixProcessReward(ds.verify(P, response, { unparseable: 0, wrong: fr, correct: 1 }).reward, stepFraction(ds, P, response), w);

describe('process reward: r = (1 − w)·r_outcome + w·f for answers with a scratchpad, r_outcome for direct ones', () => {
  it('a correct direct answer keeps its full outcome reward at any weight', () => {
    expect(stepFraction(ds, P, '23')).toBeNull();
    for (const w of [0, 0.5, 1]) expect(processReward('23', w)).toBe(1);
    expect(processReward(' |23', 0.5)).toBe(1); // a separator with nothing before it writes no scratchpad
  });

  it('a wrong answer with 2 of 4 correct steps at w = 0.5: 0.25, plus (1 − w) of the format reward', () => {
    expect(stepFraction(ds, P, '7,12,21,24|24')).toBe(0.5);
    expect(processReward('7,12,21,24|24', 0.5)).toBeCloseTo(0.25, 12);
    expect(processReward('7,12,21,24|24', 0.5, 0.1)).toBeCloseTo(0.5 * 0.1 + 0.5 * 0.5, 12);
    expect(processReward('7,12,21,24|24', 0)).toBe(0); // w = 0 is outcome reward
  });

  it('a right answer with right steps gets 1; right steps cannot buy more than a right answer', () => {
    expect(processReward('7,12,20,23|23', 0.5)).toBe(1);
    expect(processReward('7,12,20,23|24', 0.5)).toBeCloseTo(0.5, 12); // every step right, answer copied wrong
    expect(processReward('7,13,20,23|23', 0.5)).toBeCloseTo(0.5 + 0.5 * 0.75, 12); // right answer, one wrong step
  });

  it('the outcome part is the verdict given: a weak verifier\'s pay is mixed, not replaced', () => {
    const weak = getWeakVerifier('anywhere');
    const response = '7,12,21,23|24'; // wrong answer that contains 23: the weak verifier pays it
    const outcome = weak.verify(ds, P, response, { unparseable: 0, wrong: 0, correct: 1 }).reward;
    expect(outcome).toBe(1);
    expect(mixProcessReward(outcome, stepFraction(ds, P, response), 0.5)).toBeCloseTo(0.5 + 0.5 * 0.75, 12);
  });

  it('tasks without steps have no step fraction', () => {
    expect(STEP_TASKS).toEqual(['chain', 'digitsum', 'modsum']);
    expect(stepFraction(getTask('add'), '12+30=', '1,2|42')).toBeNull();
  });
});

describe('process reward on a task without checkable steps', () => {
  const d = defaultSettings();
  it('the reward control is disabled with the reason; the weight only applies under process reward', () => {
    const add = settingAvailability('rewardMode', { ...d, task: 'add', rewardMode: 'process' });
    expect(add).toMatchObject({ disabled: true, shown: 'outcome' });
    expect(add.reason).toBe('Task add has no checkable steps (only chain, digitsum, modsum have running results to check), so this run uses outcome reward.');
    expect(settingAvailability('rewardMode', { ...d, task: 'modsum' })).toEqual({ disabled: false, reason: null });
    expect(settingAvailability('processWeight', { ...d, task: 'modsum', rewardMode: 'outcome' }).reason).toBe('Used only when Reward is process.');
    expect(settingAvailability('processWeight', { ...d, task: 'modsum', rewardMode: 'process' }).disabled).toBe(false);
    expect(settingAvailability('processWeight', { ...d, task: 'add', rewardMode: 'process' }).disabled).toBe(true);
    expect(settingAvailability('beta', { ...d, task: 'add', rewardMode: 'process' }).disabled).toBe(false);
  });

  it('the engine runs outcome reward there, and settings from a URL or file that ask for process reward are told so', () => {
    expect(effectiveRewardMode({ task: 'add', rewardMode: 'process' })).toBe('outcome');
    expect(effectiveRewardMode({ task: 'chain', rewardMode: 'process' })).toBe('process');
    expect(rewardModeNotice({ task: 'chain', rewardMode: 'process' })).toBeNull();
    expect(rewardModeNotice({ task: 'add', rewardMode: 'outcome' })).toBeNull();
    const asked = settingsFromRecord([['rewardMode', 'process'], ['task', 'add']]);
    expect(asked.settings.rewardMode).toBe('outcome');
    expect(asked.notices).toEqual(['rewardMode process needs a task with checkable scratchpad steps (chain, digitsum, modsum); task add has none, so the run uses outcome reward']);
    const ok = settingsFromRecord([['rewardMode', 'process'], ['task', 'modsum'], ['processWeight', '0.3']]);
    expect(ok.notices).toEqual([]);
    expect(ok.settings).toMatchObject({ rewardMode: 'process', processWeight: 0.3 });
    // a lesson's base or an imported file: the same rule (settingsFromRecord)
    const f = settingsFromRecord([['task', 'reverse']], { ...d, task: 'modsum', rewardMode: 'process' });
    expect(f.settings.rewardMode).toBe('outcome');
    expect(f.notices.join()).toMatch(/task reverse has none/);
  });
});

// A control that would do nothing is disabled and says why (src/rl/availability.ts).
import { describe, expect, it } from 'vitest';
import { OBJECTIVE_KNOBS, settingAvailability } from './availability.ts';
import { defaultSettings, SETTINGS, type SettingKey } from './settings.ts';

const d = defaultSettings();
const disabled = (key: SettingKey, over: Partial<typeof d>) => settingAvailability(key, { ...d, ...over }).disabled;

describe('setting availability', () => {
  it('at the defaults every control applies except those whose switch is off (the KL placement at β = 0, the cap, the buffer)', () => {
    const off = SETTINGS.filter((s) => settingAvailability(s.key as SettingKey, d).disabled).map((s) => s.key);
    expect(off.sort()).toEqual(['klMode', 'maxResample', 'overlongBuffer', 'processWeight', 'rewardMode'].sort());
  });
  it('ε / ε_high are the clip at both ratio levels, as TRL\'s epsilon: enabled for the sequence ratio too', () => {
    const seq = { importanceSamplingLevel: 'sequence' as const };
    expect([disabled('epsilon', seq), disabled('epsilonHigh', seq)]).toEqual([false, false]);
  });
  it('under RLOO (REINFORCE, leave-one-out, on-policy, unclipped) the advantage, clip, aggregation, ratio level and µ do nothing; β, c_H and the KL settings still act', () => {
    for (const k of ['advantage', 'scaleRewards', 'epsilon', 'epsilonHigh', 'lossType', 'importanceSamplingLevel', 'numIterations'] as SettingKey[]) {
      const a = settingAvailability(k, { ...d, algorithm: 'rloo' });
      expect(a.disabled, k).toBe(true);
      expect(a.reason).toMatch(/^RLOO is REINFORCE on the whole answer .+: .+ does not enter its update\.$/);
    }
    for (const k of ['beta', 'entropyCoef', 'measureKl', 'learningRate'] as SettingKey[]) expect(disabled(k, { algorithm: 'rloo' }), k).toBe(false);
  });
  it('under RFT none of the objective\'s knobs enters the update, and each says so by its label', () => {
    for (const k of OBJECTIVE_KNOBS) {
      const a = settingAvailability(k, { ...d, algorithm: 'rft', beta: 0.1 });
      expect(a.disabled, k).toBe(true);
      expect(a.reason).toMatch(/^RFT trains by cross-entropy on the verified answers: .+ does not enter its update\.$/);
    }
    expect(settingAvailability('epsilon', { ...d, algorithm: 'rft' }).reason).toContain('Clip range ε');
    for (const k of ['learningRate', 'numGenerations', 'promptsPerStep', 'temperature'] as SettingKey[]) expect(disabled(k, { algorithm: 'rft' }), k).toBe(false);
  });
  it('each switch enables what depends on it', () => {
    expect(disabled('maxResample', { dynamicSampling: true })).toBe(false);
    expect(disabled('overlongBuffer', { overlongPenalty: true })).toBe(false);
    expect(disabled('klMode', { beta: 0.04 })).toBe(false);
    expect(disabled('klEstimator', { beta: 0, measureKl: false })).toBe(true);
    expect(disabled('klEstimator', { beta: 0, measureKl: true })).toBe(false);
    expect(disabled('scaleRewards', { advantage: 'dr_grpo' })).toBe(true);
    expect(disabled('scaleRewards', { advantage: 'grpo' })).toBe(false);
  });
});

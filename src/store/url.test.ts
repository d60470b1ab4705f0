import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../rl/settings.ts';
import { labSearch, parseLabUrl } from './url.ts';

describe('lab URL', () => {
  it('round-trips settings and page options', () => {
    const settings = { ...defaultSettings(), numGenerations: 5, beta: 0.04, epsilon: 0.25, task: 'add', dynamicSampling: true, seed: 42 };
    const state = { settings, lessonId: 'mixed-groups', lessonVariant: 1, backend: 'cpu' as const, classroom: true, hidden: ['beta', 'epsilon'] };
    const back = parseLabUrl(labSearch(state));
    expect(back.notices).toEqual([]);
    expect(back.settings).toEqual(settings);
    expect(back).toMatchObject({ lessonId: 'mixed-groups', lessonVariant: 1, backend: 'cpu', classroom: true, hidden: ['beta', 'epsilon'] });
  });

  it('names every bad value and never throws', () => {
    const r = parseLabUrl('?numGenerations=abc&beta=7&epsilon=0.3&wat=1&task=<script>&lesson=nope&backend=tpu&hide=beta,zzz&dynamicSampling=maybe');
    console.log(r.notices.join('\n'));
    expect(r.settings.numGenerations).toBe(defaultSettings().numGenerations);
    expect(r.settings.beta).toBe(1); // clamped to the max
    expect(r.settings.epsilon).toBe(0.3);
    expect(r.settings.task).toBe(defaultSettings().task);
    expect(r.lessonId).toBeNull();
    expect(r.backend).toBe('auto');
    expect(r.hidden).toEqual(['beta']);
    for (const word of ['numGenerations', 'beta', 'wat', 'task', 'nope', 'tpu', 'zzz', 'dynamicSampling']) {
      expect(r.notices.some((n) => n.includes(word)), word).toBe(true);
    }
  });

  it('process reward on a task without checkable steps: a notice, and the run uses outcome reward', () => {
    const r = parseLabUrl('?rewardMode=process&task=add');
    expect(r.settings.rewardMode).toBe('outcome');
    expect(r.notices).toEqual(['rewardMode process needs a task with checkable scratchpad steps (chain, digitsum, modsum); task add has none, so the run uses outcome reward']);
    expect(parseLabUrl('?rewardMode=process&task=chain').notices).toEqual([]);
  });

  it('a link at the sequence ratio level without ε says in one sentence that ε clips it now (old links clipped at GSPO\'s range); what it sets is unchanged', () => {
    const r = parseLabUrl('?importanceSamplingLevel=sequence&numGenerations=4');
    expect(r.settings).toMatchObject({ importanceSamplingLevel: 'sequence', epsilon: 0.2, epsilonHigh: 0.2, numGenerations: 4 });
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/^This link sets the sequence ratio level \(GSPO\) without ε: .*\[0\.8, 1\.2\].*\[0\.9997, 1\.0004\]/);
    expect(r.notices[0]).toContain('epsilon=0.0003&epsilonHigh=0.0004');
    // the range it names is the link's own: ε_high given, ε not
    expect(parseLabUrl('?importanceSamplingLevel=sequence&epsilonHigh=0.28').notices[0]).toContain('[0.8, 1.28]');
    // ε given (or GSPO's former own ε, read as ε), or the token level: nothing to say
    expect(parseLabUrl('?importanceSamplingLevel=sequence&epsilon=0.0003&epsilonHigh=0.0004').notices).toEqual([]);
    expect(parseLabUrl('?importanceSamplingLevel=sequence&epsilon=0.2').notices).toEqual([]);
    expect(parseLabUrl('?epsilonHigh=0.28').notices).toEqual([]);
    expect(parseLabUrl('?importanceSamplingLevel=sequence&gspoEpsilon=0.001').notices.some((n) => n.startsWith('This link'))).toBe(false);
  });

  it('a link made now at the sequence level carries ε even at its default, so it never reads as an old link', () => {
    const settings = { ...defaultSettings(), importanceSamplingLevel: 'sequence' as const };
    const search = labSearch({ settings, lessonId: null, lessonVariant: 0, backend: 'auto', classroom: false, hidden: [] });
    expect(search).toContain('epsilon=0.2');
    const back = parseLabUrl(search);
    expect(back.notices).toEqual([]);
    expect(back.settings).toEqual(settings);
  });

  it('a lesson sets its knobs and explicit settings override them', () => {
    const r = parseLabUrl('?lesson=entropy-collapse&beta=0.2');
    expect(r.settings.numIterations).toBe(4);
    expect(r.settings.beta).toBe(0.2);
  });
});

describe('settings table lookups', () => {
  it('inherited object keys are unknown settings, not crashes', async () => {
    const { settingsFromRecord } = await import('../rl/settings.ts');
    const r = settingsFromRecord([['constructor', '1'], ['toString', 'x'], ['__proto__', '2']]);
    expect(r.applied).toEqual([]);
    expect(r.notices.length).toBe(3);
    expect(() => String(Object.keys(r.settings))).not.toThrow();
    expect(Object.keys(r.settings)).not.toContain('constructor');
  });
});

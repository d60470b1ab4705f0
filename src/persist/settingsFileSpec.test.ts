// A settings file (and a run export) of a run on a custom task carries the task's spec; importing
// it validates the spec (validateSpec), registers it, and selects the task. A refused file changes
// nothing, not even the task of that name.
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../rl/settings.ts';
import { getTask, registerTask } from '../tasks/registry.ts';
import { taskFromSpec, type Spec } from '../tasks/spec/index.ts';
import { parseSettingsFile, settingsFileText } from './settingsFile.ts';

const SPEC: Spec = { name: 'sf-times9', title: 'Times nine', prompt: '{a}*9=', vars: { a: [0, 99] }, answer: 'a*9' };
const bytes = (t: string) => new TextEncoder().encode(t);

describe('settings file with a custom task', () => {
  it('round-trips the spec and the task; a built-in task writes no spec', () => {
    const s = { ...defaultSettings(), task: 'spec:sf-times9', beta: 0.03 };
    const text = settingsFileText(s, SPEC);
    expect(JSON.parse(text).taskSpec).toEqual(SPEC);
    expect(JSON.parse(settingsFileText({ ...s, task: 'add' }, SPEC)).taskSpec).toBeUndefined();
    const r = parseSettingsFile('run.json', bytes(text));
    expect(r.ok && r.settings).toEqual(s);
    expect(r.ok && r.taskSpecs).toEqual({ 'spec:sf-times9': SPEC });
    expect(getTask('spec:sf-times9').title).toBe('Times nine');
    // a run export ({ settings, steps, taskSpec }) reads the same way
    const exp = parseSettingsFile('rlvr-lab-run.json', bytes(JSON.stringify({ settings: s, steps: [], taskSpec: SPEC })));
    expect(exp.ok && exp.settings.task).toBe('spec:sf-times9');
  });

  it('a hostile spec is one sentence and nothing is changed; a refused file puts the task of that name back', () => {
    const s = { ...defaultSettings(), task: 'spec:sf-evil' };
    const evil = parseSettingsFile('x.json', bytes(JSON.stringify({ settings: s, taskSpec: { name: 'sf-evil', prompt: '{a}=', vars: { a: [0, 9] }, answer: 'a/0' } })));
    expect(evil).toEqual({ ok: false, error: expect.stringMatching(/^x\.json was not loaded: its task spec \(taskSpec\) was refused: answer: .*division by zero.*\. Nothing was changed\.$/) });
    const before = registerTask(taskFromSpec({ ...SPEC, name: 'sf-keep' }));
    const other = { ...SPEC, name: 'sf-keep', vars: { a: [0, 50] } };
    const bad = parseSettingsFile('y.json', bytes(JSON.stringify({ settings: { ...s, task: 'spec:sf-keep', beta: 99 }, taskSpec: other })));
    expect(bad.ok).toBe(false);
    expect(getTask('spec:sf-keep')).toBe(before);
  });
});

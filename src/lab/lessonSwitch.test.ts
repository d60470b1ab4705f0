// A lesson's switch never shows the old run's steps under the new lesson's name: the store names
// the new lesson only with the new run's load, in the same update that clears the old run. Before,
// applyLesson named the lesson at once and the old run's steps stayed until the load began (after
// the loop stopped and the saved run was cleared): a tour stop or a lesson card, reading the store
// then, quoted the old run's numbers as the new lesson's (the class tour's e2e caught it once).
import { describe, expect, it } from 'vitest';
import { useLab } from '../store/labStore.ts';
import type { SavedRunSlot } from './autosave.ts';
import { LabSession } from './session.ts';

const slowClear: SavedRunSlot = {
  save: async () => ({ ok: true as const, value: undefined }),
  load: async () => ({ ok: true as const, value: null }),
  clear: async () => { await new Promise((r) => setTimeout(r, 50)); return { ok: true as const, value: undefined }; },
};

describe('lesson switch', () => {
  it('never pairs the new lesson with the old run\'s steps', async () => {
    const session = new LabSession(useLab, { savedRuns: slowClear, frames: (flush) => { flush(); } });
    await session.init('?backend=cpu&task=reverse&difficulty=1&numGenerations=2&promptsPerStep=2&evalEvery=100&seed=3');
    await session.stepOnce();
    expect(useLab.getState().steps.length).toBe(1);
    const seen: string[] = [];
    const off = useLab.subscribe((s) => { if (s.lessonId === 'mixed-groups' && s.steps.length > 0) seen.push(`${s.status}, ${s.steps.length} steps`); });
    await session.applyLesson('mixed-groups');
    off();
    expect(seen).toEqual([]);
    expect(useLab.getState().lessonId).toBe('mixed-groups');
    expect(useLab.getState().steps.length).toBe(0);
  });
});

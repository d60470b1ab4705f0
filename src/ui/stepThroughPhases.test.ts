// The step-through's strip of groups shows only what the phase on screen has computed (on a
// stepped update recorded from a real run, src/store/tour.recorded.json): no pass counts before
// the verdicts, no "A ≠ 0" colour before the advantages, the mean Δ log π only in the update's
// phase — so stepping back from the update shows that phase's numbers again.
import { describe, expect, it } from 'vitest';
import { PHASES, type InspectorState } from '../store/labStore.ts';
import recorded from '../store/tour.recorded.json';
import { stripChip } from './Inspector.tsx';

const ins = (recorded as unknown as { step: { inspector: InspectorState } }).step.inspector;
const chips = (phase: (typeof PHASES)[number]) => ins.rollout!.groups.map((_, p) => stripChip(ins, p, phase));

describe('step-through strip: each phase shows only what it has computed', () => {
  it('answers: the prompt alone; verdicts: passes of G; advantages and ratios: mixed or not; update: the mean Δ log π', () => {
    expect(ins.computed).toBe(PHASES.length); // the update is applied: every number exists
    const G = ins.rollout!.groups[0].answers.length;
    for (const c of chips('answers')) {
      expect(c.label).toMatch(/^P\d+$/);
      expect(c.kind).toBe('');
      expect(c.title).not.toMatch(/pass|A ≠ 0|A = 0|Δ log π/);
    }
    for (const c of chips('verdicts')) {
      expect(c.label).toMatch(new RegExp(`^P\\d+ \\d/${G}$`));
      expect(c.kind).toBe('');
      expect(c.title).not.toMatch(/A ≠ 0|A = 0|Δ log π/);
    }
    for (const phase of ['advantages', 'ratios'] as const) {
      const cs = chips(phase);
      expect(cs.every((c) => /^P\d+ \d\/\d$/.test(c.label))).toBe(true);
      expect(cs.some((c) => c.kind === 'mixed')).toBe(true);
      expect(cs.every((c) => c.kind !== '' && !/Δ log π/.test(c.title))).toBe(true);
    }
    const up = chips('update');
    expect(up.every((c) => /^P\d+ \d\/\d [+-]\d/.test(c.label) && /mean Δ log π/.test(c.title))).toBe(true);
    // the Δ log π is the group's own mean, rounded as the chip prints it
    const d = ins.details![0];
    const mean = d.reduce((a, x) => a + x.logpAfter - x.logpBefore, 0) / d.length;
    expect(up[0].label).toBe(`P1 ${ins.rollout!.groups[0].answers.filter((a) => a.correct).length}/${G} ${mean >= 0 ? '+' : ''}${Number(mean.toFixed(2))}`);
  });
});

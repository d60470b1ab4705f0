// The lesson card's note beside a verdict: its held-out "→ end" is the mean of the last two
// evaluations (src/rl/claims.ts heldout, lesson 1's greedy reading), not the latest evaluation the
// status line shows. Checked on lesson 1's own claim (G = 2, the issue's 0.44 → 0.23 beside 0.19).
import { describe, expect, it } from 'vitest';
import { getLesson } from '../rl/lessons.ts';
import type { LabState } from './labStore.ts';
import { heldoutWindowNote } from './verdictWindow.ts';
import recorded from './tour.recorded.json';

const run = (recorded as unknown as Record<string, { steps: LabState['steps'] }>)['mixed-groups'];
const evals = (acc: number[], p1?: number[]) => acc.map((a, i) => ({ step: i * 10, heldout_accuracy: a, pass_at_k: p1 ? { 1: p1[i] } : {} })) as unknown as LabState['evals'];

describe('the held-out figures of a verdict say what they are', () => {
  it('lesson 1 at G = 2: "0.44 → 0.23" is the first evaluation against the mean of the last two (0.27 and 0.19)', () => {
    const claim = getLesson('mixed-groups')!.variants[0].claim;
    const ev = evals([0.44, 0.3, 0.27, 0.19]);
    const steps = Array.from({ length: claim.steps }, (_, i) => ({ ...run.steps[i % run.steps.length], step: i }));
    const v = claim.judge({ steps, evals: ev });
    expect(v.sentence).toContain('held-out accuracy (greedy) 0.44 → 0.23');
    expect(heldoutWindowNote(v.sentence, ev)).toBe('Held-out figures here: the first evaluation (step 0) → the mean of the last two evaluations (steps 20 and 30); accuracy (greedy) 0.44 → mean of 0.27 and 0.19.');
  });

  it('pass@1 (sampled) where the sentence quotes it; two evaluations: the last alone; no held-out figure: no note', () => {
    const ev = evals([0.5, 0.4, 0.3], [0.2, 0.25, 0.35]);
    expect(heldoutWindowNote('held-out pass@1 (sampled) 0.20 → 0.30', ev)).toContain('pass@1 (sampled) 0.20 → mean of 0.25 and 0.35');
    expect(heldoutWindowNote('held-out pass@1 (sampled) 0.20 → 0.30', ev)).not.toContain('greedy');
    expect(heldoutWindowNote('held-out accuracy (greedy) 0.50 → 0.40', ev.slice(0, 2))).toContain('the first evaluation (step 0) → the last (step 10); accuracy (greedy) 0.50 → 0.40');
    expect(heldoutWindowNote('reward − strict accuracy 0.11 → 0.13', ev)).toBeNull();
    expect(heldoutWindowNote('held-out accuracy (greedy) 0.50 → 0.40', ev.slice(0, 1))).toBeNull();
  });
});

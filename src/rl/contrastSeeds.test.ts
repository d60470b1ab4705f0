import { describe, expect, it } from 'vitest';
import { contrastBySeed, enough, seedsSentence } from './contrast.ts';
import { CONTRAST_SEEDS } from './contrastSeeds.ts';
import { LESSONS } from './lessons.ts';

describe('the contrast across seeds (contrastSeeds.ts)', () => {
  it('is recorded for every lesson whose contrast has an expected order, on five seeds of the page engine', () => {
    const ordered = LESSONS.filter((l) => l.contrast && new Set(l.contrast.rank).size > 1 && !l.contrast.promised);
    for (const l of ordered) expect(CONTRAST_SEEDS[l.id], l.id).toBeDefined();
    for (const [id, r] of Object.entries(CONTRAST_SEEDS)) {
      expect(r.seeds.length, id).toBeGreaterThanOrEqual(5);
      expect(r.diffs.length, id).toBe(r.seeds.length);
      expect(r.backend, id).toBe('webgpu');
    }
  });

  it('compares the variants contrastBySeed compares, and a lesson promises exactly what shows on 4 of 5 seeds', () => {
    for (const [id, r] of Object.entries(CONTRAST_SEEDS)) {
      const l = LESSONS.find((x) => x.id === id);
      expect(l?.contrast, id).toBeDefined();
      const { top, bottom } = contrastBySeed(l!.contrast!, [], r.seeds);
      expect([r.top, r.bottom], id).toEqual([top, bottom]);
      const shown = r.diffs.filter((d) => d > 0).length;
      const ordered = l!.contrast!.rank[top] !== l!.contrast!.rank[bottom];
      expect(Boolean(l!.contrast!.promised), `${id}: shows on ${shown} of ${r.diffs.length}`).toBe(ordered && enough(shown, r.diffs.length));
    }
  });

  it('says a promise where it shows on 4 of 5 and that it depends on the seed otherwise, with every seed\'s number', () => {
    const c = { what: 'mixed share of the groups', of: (e: Record<string, number>) => e.x, rank: [0, 1] };
    const names = ['G = 2', 'G = 8'];
    const four = seedsSentence({ ...c, promised: true }, { backend: 'webgpu', seeds: [2, 3, 4, 5, 6], top: 1, bottom: 0, diffs: [0.41, 0.2, -0.05, 0.3, 0.11] }, names);
    expect(four).toContain('Across 5 seeds (2–6, WebGPU');
    expect(four).toContain('higher under G = 8 than under G = 2 on 4 of 5 (by +0.41, +0.20, −0.05, +0.30, +0.11)');
    expect(four).toContain('The lesson promises it');
    const three = seedsSentence(c, { backend: 'webgpu', seeds: [2, 5, 9, 10, 11], top: 1, bottom: 0, diffs: [0.41, -0.2, -0.05, 0.3, 0.11] }, names);
    expect(three).toContain('(2, 5, 9, 10, 11, WebGPU');
    expect(three).toContain('on 3 of 5');
    expect(three).toContain('it depends on the seed');
    expect(three).not.toContain('promises');
    const reversed = seedsSentence(c, { backend: 'webgpu', seeds: [2, 3, 4, 5, 6], top: 1, bottom: 0, diffs: [-0.27, -0.13, 0.01, -0.45, -0.15] }, names);
    expect(reversed).toContain('on 1 of 5');
    expect(reversed).toContain('it goes the other way on 4 of 5 seeds');
    const unordered = seedsSentence({ ...c, rank: [0, 0] }, { backend: 'webgpu', seeds: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11], top: 0, bottom: 1, diffs: [1, 1, 1, 1, 1, 1, 1, 1, 1, -1] }, names);
    expect(unordered).toContain('Across 10 seeds (2–11, WebGPU');
    expect(unordered).toContain('on 9 of 10');
    expect(unordered).toContain('the lesson expects no order here');
    expect(unordered).not.toContain('promises');
  });
});

// The profiler card says in words when its figures are unsteady (its three groupings of the same
// work still disagree after every round the profiler allows), and how many replays each figure took.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../gpu/profiler.ts';
import { ProfilerPanel } from './ProfilerPanel.tsx';

const row = (name: string, ms: number) => ({ name, ms, share: 0.5, dispatches: 1 });
const profile = (p: Partial<Profile>): Profile => ({ label: 'one GRPO step', source: 'timestamp-query', wallMs: 60, gpuMs: 20, overheadMs: 0, dispatches: 2, rounds: 3, spread: 1.02, steady: true, phases: [row('forward', 10), row('backward', 10)], families: [row('matmul', 20)], kernels: [row('matmul_tiled', 20)], ...p });
const text = (p: Profile) => renderToStaticMarkup(createElement(ProfilerPanel, { profile: p, busy: false })).replace(/<[^>]+>/g, '');

describe('ProfilerPanel', () => {
  it('a steady profile: the replays each figure took, no warning', () => {
    expect(text(profile({}))).toContain('each group the fastest of 3 replays.');
    expect(text(profile({}))).not.toContain('unsteady');
  });
  it('an unsteady one: how far apart, after how many replays, and what to do', () => {
    const t = text(profile({ rounds: 8, spread: 1.31, steady: false }));
    expect(t).toContain('fastest of 8 replays');
    expect(t).toMatch(/These figures are unsteady: .* up to 31 % apart after 8 replays, .* Profile again when the machine is quieter\./);
  });
});

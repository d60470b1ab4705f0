// The profiler's per-family table (what scripts/device-check prints per µ as grpo_by_mu[].gpu.families
// and the lab's profiler panel shows): every kernel the engine can dispatch belongs to a named
// family, so a new kernel cannot land in 'other' and hide its GPU time on the first lent GPU.
import { describe, expect, it } from 'vitest';
import { KERNELS, type KernelName } from './kernels.ts';
import { Profiler, kernelFamily } from './profiler.ts';
import type { WebGPUBackend } from './backend.ts';
import type { TracedDispatch } from './ops.ts';

describe('kernelFamily', () => {
  it('names a family for every kernel', () => {
    const names = Object.keys(KERNELS) as KernelName[];
    expect(names.filter((k) => kernelFamily(k) === 'other')).toEqual([]);
  });
  it('puts the optimizer kernels, fused or not, in one family', () => {
    expect(['grad_sumsq_partial', 'grad_sumsq_rows', 'grad_norm_finalize', 'adamw_step', 'adamw_clip_step'].map((k) => kernelFamily(k as KernelName))).toEqual(Array(5).fill('optimizer'));
  });
});

// The replays' rounds: each group is timed by the fastest of its replays; while the three groupings'
// totals disagree (a busy machine slowed some groups in every round so far) more rounds follow.
describe('Profiler.measure rounds', () => {
  // a step of two dispatches in two phases, two families and two kernels: six groups, the phases' first
  const trace = (['forward', 'backward'] as const).map((phase, i) => ({ kernel: i ? 'gelu_forward' : 'matmul_tiled', phase, buffers: [], groups: [1, 1, 1], prelude: null }) as unknown as TracedDispatch);
  const backend = { ctx: { device: { features: new Set(['timestamp-query']) }, arena: { has: () => true }, errors: [], ops: {} } } as unknown as WebGPUBackend;
  /** A replay costs 1 ms a dispatch, 3 ms where `busy(group, round)` (round 0: calibration, whose last replay counts). */
  function profiler(busy: (group: number, round: number) => boolean) {
    const p = new Profiler(backend);
    const groups = new Map<TracedDispatch[], number>();
    const seen = new Map<TracedDispatch[], number>();
    (p as unknown as { replay: (ds: TracedDispatch[], repeat: number) => Promise<number> }).replay = async (ds, repeat) => {
      if (!groups.has(ds)) groups.set(ds, groups.size);
      const round = Math.max(0, (seen.get(ds) ?? 0) - 1); // calibration replays a group twice (repeat 1, then 4)
      seen.set(ds, (seen.get(ds) ?? 0) + 1);
      return ds.length * repeat * (busy(groups.get(ds)!, round) ? 3 : 1);
    };
    return p;
  }
  it('stops after three rounds on a quiet machine, the groupings agreeing', async () => {
    const p = await profiler(() => false).measure('step', trace, 10);
    expect([p.rounds, p.spread, p.steady, p.gpuMs]).toEqual([3, 1, true, 2]);
  });
  it('goes on while the phases were slowed in every round so far, until they agree', async () => {
    const p = await profiler((group, round) => group < 2 && round < 4).measure('step', trace, 10);
    expect([p.rounds, p.steady, p.gpuMs]).toEqual([5, true, 2]);
  });
  it('gives up after eight rounds and says the figures are unsteady', async () => {
    const p = await profiler((group) => group < 2).measure('step', trace, 10);
    expect([p.rounds, p.steady, p.spread]).toEqual([8, false, 3]);
  });
});

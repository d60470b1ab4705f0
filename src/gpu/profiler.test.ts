// The profiler's per-family table (what scripts/device-check prints per µ as grpo_by_mu[].gpu.families
// and the lab's profiler panel shows): every kernel the engine can dispatch belongs to a named
// family, so a new kernel cannot land in 'other' and hide its GPU time on the first lent GPU.
import { describe, expect, it } from 'vitest';
import { KERNELS, type KernelName } from './kernels.ts';
import { kernelFamily } from './profiler.ts';

describe('kernelFamily', () => {
  it('names a family for every kernel', () => {
    const names = Object.keys(KERNELS) as KernelName[];
    expect(names.filter((k) => kernelFamily(k) === 'other')).toEqual([]);
  });
  it('puts the optimizer kernels, fused or not, in one family', () => {
    expect(['grad_sumsq_partial', 'grad_sumsq_rows', 'grad_norm_finalize', 'adamw_step', 'adamw_clip_step'].map((k) => kernelFamily(k as KernelName))).toEqual(Array(5).fill('optimizer'));
  });
});

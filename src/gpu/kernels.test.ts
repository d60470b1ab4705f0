import { describe, expect, it } from 'vitest';
import { KERNELS, formKernels, type KernelForms, type KernelName } from './kernels.ts';

const CPU: KernelForms = { matmulForm: 'direct', reductionForm: 'row', attentionForm: 'row', decodeForm: 'ops' };
const GPU: KernelForms = { matmulForm: 'tiled', reductionForm: 'workgroup', attentionForm: 'tiled', decodeForm: 'fused' };
const SG: KernelForms = { ...GPU, reductionForm: 'subgroup' };

describe('formKernels: what a context compiles up front', () => {
  it('keeps the kernels of the chosen forms and leaves out those of the others', () => {
    const cpu = new Set(formKernels(CPU));
    const gpu = new Set(formKernels(GPU));
    for (const n of ['matmul_nn_d', 'matmul_nt_v4d', 'layernorm_forward', 'logsoftmax_fused', 'attention_forward', 'attention_decode', 'encoder_decode', 'grad_sumsq_rows', 'adamw_step', 'sample_next', 'policy_loss_rows'] as KernelName[]) expect(cpu.has(n), n).toBe(true);
    for (const n of ['matmul_nn', 'matmul_tn_v4', 'layernorm_forward_wg', 'logsoftmax_fused_wg', 'attention_forward_tiled', 'decode_block', 'adamw_clip_step', 'grad_sumsq_partial'] as KernelName[]) {
      expect(cpu.has(n), n).toBe(false);
      expect(gpu.has(n), n).toBe(true);
    }
    expect(gpu.has('layernorm_forward_sg')).toBe(false);
    expect(formKernels(SG)).toContain('layernorm_forward_sg');
    expect(formKernels(SG)).toContain('logits_backward_wg'); // the log-softmax has no subgroup form
  });

  it('every kernel is in some form but the bench\'s comparison matmul and the unfused LayerNorm parameters', () => {
    const some = new Set([CPU, GPU, SG].flatMap(formKernels));
    expect((Object.keys(KERNELS) as KernelName[]).filter((n) => !some.has(n)).sort()).toEqual(['layernorm_backward_params', 'matmul_plain_vec4']);
    expect(formKernels(CPU).length).toBeLessThan(Object.keys(KERNELS).length * 0.7);
  });
});

/**
 * The kernel forms the engine can run each family in, GPU-friendliest first: the vocabulary the
 * self-check (selfCheck.ts: which forms give the CPU reference's numbers here) and the autotune
 * (autotune.ts: which of those is fastest here) share, and what reads and sets them on an engine.
 */
import type { KernelForms, KernelRegistry } from './kernels.ts';
import type { Ops } from './ops.ts';

export type MatmulLevel = 'tiled' | 'direct' | 'plain';
export type ReductionLevel = 'subgroup' | 'workgroup' | 'row';
export type AttentionLevel = 'tiled' | 'row';
export type DecodeLevel = 'fused' | 'ops';
/** One form per kernel family. */
export interface Forms { matmul: MatmulLevel; reduction: ReductionLevel; attention: AttentionLevel; decode: DecodeLevel }
export type FormFamily = keyof Forms;

/** Each family's forms, GPU-friendliest first (the self-check's ladder walks them in this order). */
export const LEVELS: { [K in FormFamily]: Forms[K][] } = {
  matmul: ['tiled', 'direct', 'plain'], reduction: ['subgroup', 'workgroup', 'row'], attention: ['tiled', 'row'], decode: ['fused', 'ops'],
};

/** Each form in words, for the engine's sentences. */
export const WORDS: { [K in FormFamily]: Record<Forms[K], string> } = {
  matmul: { tiled: 'the tiled matmul (workgroup memory)', direct: 'the direct matmul (no barriers)', plain: 'the plain scalar matmul' },
  reduction: { subgroup: 'the subgroup reductions', workgroup: 'the workgroup-tree reductions', row: 'the one-row-per-invocation reductions' },
  attention: { tiled: 'the tiled attention (K/V through workgroup memory)', row: 'the one-row-per-invocation attention' },
  decode: { fused: 'the fused decode block', ops: 'the op-by-op decode' },
};

export const wordFor = <K extends FormFamily>(family: K, form: Forms[K]): string => (WORDS[family] as Record<string, string>)[form];

/** The forms `ops` runs now. */
export function formsOf(ops: Ops): Forms {
  return { matmul: ops.forceScalarMatmul ? 'plain' : ops.matmulForm, reduction: ops.reductionForm, attention: ops.attentionForm, decode: ops.decodeForm };
}

/** The Ops settings of `f` (the plain matmul is the direct form's scalar kernels). */
export function kernelForms(f: Forms): KernelForms {
  return { matmulForm: f.matmul === 'tiled' ? 'tiled' : 'direct', reductionForm: f.reduction, attentionForm: f.attention, decodeForm: f.decode };
}

/** Run `ops` in these forms. */
export function applyForms(ops: Ops, f: Forms): void {
  Object.assign(ops, kernelForms(f));
  ops.forceScalarMatmul = f.matmul === 'plain';
}

/** Whether every kernel of `f` can run on this device (the subgroup and tiled-attention files may not have compiled). */
export function formsAvailable(kernels: KernelRegistry, f: Forms): boolean {
  return (f.reduction !== 'subgroup' || kernels.has('layernorm_forward_sg')) && (f.attention !== 'tiled' || kernels.has('attention_forward_tiled'));
}

export const sameForms = (a: Forms, b: Forms): boolean => (Object.keys(LEVELS) as FormFamily[]).every((k) => a[k] === b[k]);

/** `x` read back from outside (a cache): the forms it names, or null when it is not a Forms. */
export function parseForms(x: unknown): Forms | null {
  if (!x || typeof x !== 'object') return null;
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(LEVELS) as FormFamily[]) if (!(LEVELS[k] as unknown[]).includes(o[k])) return null;
  return { matmul: o.matmul, reduction: o.reduction, attention: o.attention, decode: o.decode } as Forms;
}

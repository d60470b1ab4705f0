/**
 * The canonical model's configuration and its parameter layout.
 *
 * Parameters, gradients and both AdamW moments each live in ONE flat Float32Array; the
 * offset table below names every tensor in it. The CPU reference and the WebGPU engine
 * share this table, so a checkpoint, a gradient or a weight buffer means the same thing on
 * both. Every tensor starts at a multiple of 64 floats (256 bytes), the WebGPU minimum
 * storage-buffer binding offset alignment, so the GPU can bind any tensor on its own.
 *
 * Shapes (llm.c names: B batch, T time, C = D channels, V vocabulary, L layers, H heads).
 * Linear weights are stored [in, out] row-major: y = x · W + b.
 *
 *   wte            [V, D]     token embedding
 *   wpe            [T, D]     learned position embedding
 *   per layer l:
 *     h{l}.ln1.g   [D]        pre-attention LayerNorm gain (init 1)
 *     h{l}.ln1.b   [D]        pre-attention LayerNorm bias
 *     h{l}.qkv.w   [D, 3D]    fused Q, K, V projection
 *     h{l}.qkv.b   [3D]
 *     h{l}.proj.w  [D, D]     attention output projection
 *     h{l}.proj.b  [D]
 *     h{l}.ln2.g   [D]
 *     h{l}.ln2.b   [D]
 *     h{l}.fc.w    [D, 4D]    MLP up-projection (then tanh-GELU)
 *     h{l}.fc.b    [4D]
 *     h{l}.fc2.w   [4D, D]    MLP down-projection
 *     h{l}.fc2.b   [D]
 *   lnf.g, lnf.b   [D]        final LayerNorm
 *   lm_head        [D, V]     untied, no bias
 */

export interface ModelConfig {
  /** V: vocabulary size. */
  vocabSize: number;
  /** T: the longest sequence (prompt + response) the model reads; size of wpe. */
  seqLen: number;
  /** D: width of the residual stream. */
  dModel: number;
  /** H: attention heads; D must be divisible by H. */
  nHeads: number;
  /** L: transformer blocks. */
  nLayers: number;
}

export interface TensorSpec {
  name: string;
  shape: number[];
  /** Start in the flat buffer, in floats (multiple of TENSOR_ALIGN). */
  offset: number;
  /** Number of floats. */
  size: number;
  /** How init fills it. */
  init: 'normal' | 'zeros' | 'ones';
}

export interface ParamLayout {
  tensors: TensorSpec[];
  byName: Record<string, TensorSpec>;
  /** Total floats including alignment padding. */
  total: number;
  /** Number of real parameters (no padding). */
  numParams: number;
}

/** Floats per 256 bytes: every tensor starts on this boundary. */
export const TENSOR_ALIGN = 64;

export function validateConfig(c: ModelConfig): void {
  const ints: (keyof ModelConfig)[] = ['vocabSize', 'seqLen', 'dModel', 'nHeads', 'nLayers'];
  for (const k of ints) {
    const v = c[k];
    if (!Number.isInteger(v) || v < 1 || v > 1 << 16) throw new Error(`model config: ${k} must be a positive integer, got ${v}`);
  }
  if (c.dModel % c.nHeads !== 0) throw new Error(`model config: dModel ${c.dModel} is not divisible by nHeads ${c.nHeads}`);
}

/** The offset table for a configuration. Order is fixed: it is part of the checkpoint format. */
export function paramLayout(c: ModelConfig): ParamLayout {
  validateConfig(c);
  const { vocabSize: V, seqLen: T, dModel: D, nLayers: L } = c;
  const tensors: TensorSpec[] = [];
  let offset = 0;
  let numParams = 0;
  const add = (name: string, shape: number[], init: TensorSpec['init']) => {
    const size = shape.reduce((a, b) => a * b, 1);
    tensors.push({ name, shape, offset, size, init });
    numParams += size;
    offset += Math.ceil(size / TENSOR_ALIGN) * TENSOR_ALIGN;
  };
  add('wte', [V, D], 'normal');
  add('wpe', [T, D], 'normal');
  for (let l = 0; l < L; l++) {
    add(`h${l}.ln1.g`, [D], 'ones');
    add(`h${l}.ln1.b`, [D], 'zeros');
    add(`h${l}.qkv.w`, [D, 3 * D], 'normal');
    add(`h${l}.qkv.b`, [3 * D], 'zeros');
    add(`h${l}.proj.w`, [D, D], 'normal');
    add(`h${l}.proj.b`, [D], 'zeros');
    add(`h${l}.ln2.g`, [D], 'ones');
    add(`h${l}.ln2.b`, [D], 'zeros');
    add(`h${l}.fc.w`, [D, 4 * D], 'normal');
    add(`h${l}.fc.b`, [4 * D], 'zeros');
    add(`h${l}.fc2.w`, [4 * D, D], 'normal');
    add(`h${l}.fc2.b`, [D], 'zeros');
  }
  add('lnf.g', [D], 'ones');
  add('lnf.b', [D], 'zeros');
  add('lm_head', [D, V], 'normal');
  const byName: Record<string, TensorSpec> = {};
  for (const t of tensors) byName[t.name] = t;
  return { tensors, byName, total: offset, numParams };
}

/** Named configurations. `micro` is what tests on CPU-only machines use. */
export const CONFIGS = {
  micro: { seqLen: 24, dModel: 32, nHeads: 4, nLayers: 2 },
  tiny: { seqLen: 32, dModel: 64, nHeads: 4, nLayers: 2 },
  small: { seqLen: 64, dModel: 128, nHeads: 4, nLayers: 4 },
} as const;

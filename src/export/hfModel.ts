/**
 * The lab's policy as a Hugging Face GPT-2 (GPT2LMHeadModel): config.json and the tensors of
 * model.safetensors under GPT-2's parameter names.
 *
 * The lab's model (src/model/config.ts, src/model/reference/model.ts) is GPT-2's block exactly:
 * pre-LayerNorm (eps 1e-5, biased variance), fused q|k|v with the heads contiguous inside each of
 * q, k and v, causal attention scaled by 1/√(D/H), MLP D → 4D → D with tanh-GELU (GPT-2's
 * "gelu_new"), final LayerNorm, learned absolute positions. Its linear weights are stored
 * [in, out] (y = x·W + b), which is GPT-2's Conv1D layout, so c_attn, c_proj, c_fc and
 * mlp.c_proj copy over unchanged. Two things differ from a stock GPT-2 checkpoint:
 *   - the lab's LM head is UNTIED from the token embedding: lm_head.weight is written on its own
 *     and config.json says tie_word_embeddings: false (a GPT-2 that tied them would silently use
 *     wte as the head);
 *   - the lab's head is [D, V] (in, out) while lm_head is an nn.Linear, weight [out, in] = [V, D]:
 *     it is transposed.
 * No dropout anywhere (the lab has none): every *_pdrop is 0.
 */
import { paramLayout, type ModelConfig } from '../model/config.ts';
import { LAYERNORM_EPS } from '../model/reference/ops.ts';
import { BOS, EOS, PAD } from '../tasks/tokenizer.ts';
import type { F32Tensor } from './safetensors.ts';

/** GPT-2's config.json for a lab model configuration. */
export function gpt2Config(c: ModelConfig): Record<string, unknown> {
  return {
    architectures: ['GPT2LMHeadModel'],
    model_type: 'gpt2',
    vocab_size: c.vocabSize,
    n_positions: c.seqLen,
    n_ctx: c.seqLen,
    n_embd: c.dModel,
    n_layer: c.nLayers,
    n_head: c.nHeads,
    n_inner: 4 * c.dModel,
    activation_function: 'gelu_new',
    layer_norm_epsilon: LAYERNORM_EPS,
    resid_pdrop: 0,
    embd_pdrop: 0,
    attn_pdrop: 0,
    initializer_range: 0.02,
    scale_attn_weights: true,
    scale_attn_by_inverse_layer_idx: false,
    reorder_and_upcast_attn: false,
    tie_word_embeddings: false,
    bos_token_id: BOS,
    eos_token_id: EOS,
    pad_token_id: PAD,
    use_cache: true,
    torch_dtype: 'float32',
  };
}

/** generation_config.json: the special ids generate() needs. */
export function generationConfig(): Record<string, unknown> {
  return { bos_token_id: BOS, eos_token_id: EOS, pad_token_id: PAD, do_sample: true, top_k: 0, top_p: 1.0 };
}

/** [rows, cols] row-major → [cols, rows]. */
function transpose(a: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(a.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = a[r * cols + c];
  return out;
}

/** Lab tensor name → GPT-2 name, per layer. */
const BLOCK_NAMES: [string, string][] = [
  ['ln1.g', 'ln_1.weight'], ['ln1.b', 'ln_1.bias'],
  ['qkv.w', 'attn.c_attn.weight'], ['qkv.b', 'attn.c_attn.bias'],
  ['proj.w', 'attn.c_proj.weight'], ['proj.b', 'attn.c_proj.bias'],
  ['ln2.g', 'ln_2.weight'], ['ln2.b', 'ln_2.bias'],
  ['fc.w', 'mlp.c_fc.weight'], ['fc.b', 'mlp.c_fc.bias'],
  ['fc2.w', 'mlp.c_proj.weight'], ['fc2.b', 'mlp.c_proj.bias'],
];

/** The lab name of every GPT-2 tensor, in the order they are written. */
export function gpt2Names(c: ModelConfig): [hf: string, lab: string][] {
  const names: [string, string][] = [['transformer.wte.weight', 'wte'], ['transformer.wpe.weight', 'wpe']];
  for (let l = 0; l < c.nLayers; l++) for (const [lab, hf] of BLOCK_NAMES) names.push([`transformer.h.${l}.${hf}`, `h${l}.${lab}`]);
  names.push(['transformer.ln_f.weight', 'lnf.g'], ['transformer.ln_f.bias', 'lnf.b'], ['lm_head.weight', 'lm_head']);
  return names;
}

/** The lab's flat weight buffer as GPT-2's named tensors (lm_head transposed to [V, D]). */
export function gpt2Tensors(c: ModelConfig, weights: Float32Array): F32Tensor[] {
  const layout = paramLayout(c);
  if (weights.length !== layout.total) throw new Error(`weights have ${weights.length} floats, the layout of this config needs ${layout.total}`);
  return gpt2Names(c).map(([hf, lab]) => {
    const t = layout.byName[lab];
    const data = weights.slice(t.offset, t.offset + t.size);
    if (lab === 'lm_head') return { name: hf, shape: [c.vocabSize, c.dModel], data: transpose(data, c.dModel, c.vocabSize) };
    return { name: hf, shape: [...t.shape], data };
  });
}

/** The inverse: GPT-2's named tensors back into the lab's flat buffer (for round-trip tests and imports). */
export function labWeightsFromGpt2(c: ModelConfig, get: (name: string) => Float32Array): Float32Array {
  const layout = paramLayout(c);
  const out = new Float32Array(layout.total);
  for (const [hf, lab] of gpt2Names(c)) {
    const t = layout.byName[lab];
    const v = get(hf);
    if (v.length !== t.size) throw new Error(`${hf} has ${v.length} values, ${lab} needs ${t.size}`);
    out.set(lab === 'lm_head' ? transpose(v, c.vocabSize, c.dModel) : v, t.offset);
  }
  return out;
}

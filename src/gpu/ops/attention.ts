/**
 * Attention's ops: causal attention forward and backward in the row and tiled forms, and the
 * decode step's (attention over the KV cache, the fused decode block, sampling the next token),
 * as dispatches on the core (src/gpu/ops/core.ts).
 */
import { type Binding, ceil, type F32, f32, grid1d, type OpsClass } from './core.ts';

export function attentionOps<B extends OpsClass>(Base: B) {
  return class AttentionOps extends Base {
    /**
     * How causal attention runs: 'row' = one (b,h,t) query row per invocation reading K and V
     * from storage, the backward in two dispatches (attention.wgsl); 'tiled' = a workgroup per
     * 64-row query tile of one (b,h) streaming K and V through workgroup memory, the backward of a
     * head in one dispatch (attention_tiled.wgsl). Set per adapter by GpuContext; head sizes above
     * ATTENTION_TILED_MAX_HS take the row form. The bench measures both.
     */
    attentionForm: 'tiled' | 'row' = 'tiled';
    /** Largest head size of the tiled form (its per-row registers; HS_MAX in attention_tiled.wgsl). */
    static readonly ATTENTION_TILED_MAX_HS = 64;

    /** Workgroups of heads in the tiled form: two (b,h) per workgroup of 64 when T ≤ 32, else one. */
    static attentionHeadGroups(B: number, T: number, H: number): number {
      return Math.ceil((B * H) / (T <= 32 ? 2 : 1));
    }

    private attentionTiled(D: number, H: number): boolean {
      return this.attentionForm === 'tiled' && D / H <= AttentionOps.ATTENTION_TILED_MAX_HS;
    }

    attentionForward(pass: GPUComputePassEncoder, out: Binding, att: Binding, qkv: Binding, B: number, T: number, D: number, H: number): void {
      const u = this.uniform([B, T, D, H]);
      if (this.attentionTiled(D, H)) this.dispatch(pass, 'attention_forward_tiled', u, { 1: qkv, 2: att, 3: out }, grid1d(AttentionOps.attentionHeadGroups(B, T, H) * Math.ceil(T / (T <= 32 ? 32 : 64)), 1));
      else this.dispatch(pass, 'attention_forward', u, { 1: qkv, 2: att, 3: out }, [ceil(B * H * T, 64)]);
    }

    /** dqkv written; dpreatt [B,H,T,T] is scratch. */
    attentionBackward(pass: GPUComputePassEncoder, dqkv: Binding, dpreatt: Binding, dout: Binding, qkv: Binding, att: Binding, B: number, T: number, D: number, H: number): void {
      const u = this.uniform([B, T, D, H]);
      const b = { 1: qkv, 2: att, 4: dout, 5: dpreatt, 6: dqkv };
      if (this.attentionTiled(D, H)) {
        this.dispatch(pass, 'attention_backward_tiled', u, b, grid1d(AttentionOps.attentionHeadGroups(B, T, H), 1));
        return;
      }
      this.dispatch(pass, 'attention_backward_q', u, b, [ceil(B * H * T, 64)]);
      this.dispatch(pass, 'attention_backward_kv', u, b, [ceil(B * H * T, 64)]);
    }

    /** Decode one position per row over the KV cache [R,S,D] (appends k, v at pos). */
    attentionDecode(pass: GPUComputePassEncoder, out: Binding, scores: Binding, kcache: Binding, vcache: Binding, qkv: Binding, step: GPUBuffer, R: number, S: number, D: number, H: number): void {
      this.dispatch(pass, 'attention_decode', this.uniform([R, S, D, H]), { 1: qkv, 2: scores, 3: out, 7: kcache, 8: vcache, 9: step }, [ceil(R * H, 64)]);
    }

    /**
     * How the KV-cache decode runs a block: 'fused' = one decode_block dispatch per layer (the
     * embedding in the first, the final LayerNorm and LM head in the last: shaders/decode_block.wgsl),
     * 'ops' = the op kernels one by one (7 per layer + 3). Shapes past decode_block's limits take
     * 'ops' whatever this says (Ops.decodeFusable). Set per adapter by GpuContext: GPUs 'fused'
     * (a dispatch costs tens of µs there); CPU adapters 'ops' (SwiftShader runs decode_block's
     * one-row workgroups and their barriers about 12× slower than the op kernels).
     */
    decodeForm: 'fused' | 'ops' = 'fused';

    /** Whether decode_block takes this shape (its workgroup arrays: D ≤ 256, H·S ≤ 1024). */
    static decodeFusable(D: number, H: number, S: number): boolean {
      return D <= 256 && D % H === 0 && H * S <= 1024;
    }

    /**
     * One block of the decode step for R rows at the position in `step` (see decode_block.wgsl):
     * `P` is the flat parameter buffer, `offsets` the block's tensors' offsets in it (floats, the
     * layout's order: wte wpe ln1g ln1b qkvw qkvb projw projb ln2g ln2b fcw fcb fc2w fc2b lnfg lnfb lm),
     * `first` embeds tokens[r, pos] into xres, `last` writes logits [R,V] instead of xres.
     */
    decodeBlock(
      pass: GPUComputePassEncoder, P: GPUBuffer, offsets: number[], tokens: Binding, xres: Binding, kcache: Binding, vcache: Binding, logits: Binding,
      step: GPUBuffer, R: number, S: number, D: number, H: number, V: number, first: boolean, last: boolean,
    ): void {
      if (!AttentionOps.decodeFusable(D, H, S)) throw new Error(`decode_block: D ${D}, H ${H}, S ${S} past its limits (D ≤ 256, H·S ≤ 1024)`);
      if (offsets.length !== 17) throw new Error(`decode_block: 17 tensor offsets, got ${offsets.length}`);
      const u = this.uniform([R, S, D, H, V, (first ? 1 : 0) | (last ? 2 : 0), ...offsets, 0]);
      this.dispatch(pass, 'decode_block', u, { 1: P, 2: tokens, 3: xres, 4: kcache, 5: vcache, 6: logits, 7: step }, grid1d(R, 1));
    }

    // -------------------------------------------------------------------------------------------
    // sampling (the decode step's last dispatch)

    /** `uniform` = sampleUniform(...). */
    sampleNext(pass: GPUComputePassEncoder, tokens: Binding, rows: Binding, state: Binding, logprobs: Binding, logits: Binding, step: GPUBuffer, uniform: GPUBuffer, R: number): void {
      this.dispatch(pass, 'sample_next', uniform, { 1: logits, 2: tokens, 3: rows, 4: state, 5: logprobs, 6: step }, [ceil(R, 64)]);
    }

    static sampleUniform(R: number, V: number, S: number, seed: number, stream: number, temperature: number, eos: number): (number | F32)[] {
      return [R, V, S, seed, stream, f32(temperature), eos, 0];
    }
  };
}

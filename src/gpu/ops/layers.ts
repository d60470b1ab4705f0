/**
 * The layers' ops: embedding, the linear layer (matmul, with its fused epilogues), GELU and
 * LayerNorm, forward and backward, as dispatches on the core (src/gpu/ops/core.ts).
 */
import type { KernelName } from '../kernels.ts';
import { type Binding, ceil, grid1d, type OpsClass } from './core.ts';

export function layerOps<B extends OpsClass>(Base: B) {
  return class LayerOps extends Base {
    // -------------------------------------------------------------------------------------------
    // embedding

    /** out[b,t,:] = wte[inputs[b,t],:] + wpe[t,:]. */
    embeddingForward(pass: GPUComputePassEncoder, out: Binding, inputs: Binding, wte: Binding, wpe: Binding, B: number, T: number, D: number): void {
      this.dispatch(pass, 'encoder_forward', this.uniform([B * T, T, D, 0]), { 1: inputs, 2: wte, 3: wpe, 4: out }, grid1d(B * T * D, 256));
    }

    /** wte_index's scratch (grown, never shrunk; a replaced one is destroyed at the next step boundary). */
    private tokenIndex: GPUBuffer | null = null;
    private tokenIndexFor(ints: number): GPUBuffer {
      if (!this.tokenIndex || this.tokenIndex.size < ints * 4) {
        if (this.tokenIndex) this.retire(this.tokenIndex);
        this.tokenIndex = this.arena.storage('ops.tokenIndex', Math.max(ints, 2 * ((this.tokenIndex?.size ?? 0) / 4)));
      }
      return this.tokenIndex;
    }

    /** dwte[v,:] = Σ_{inputs=v} dout, dwpe[t,:] = Σ_b dout[b,t,:] (rows ≥ T of dwpe, up to Tmax, get 0). Written, not accumulated. */
    embeddingBackward(pass: GPUComputePassEncoder, dwte: Binding, dwpe: Binding, dout: Binding, inputs: Binding, B: number, T: number, D: number, V: number, Tmax: number): void {
      const index = this.tokenIndexFor(V + 1 + B * T);
      const u = this.uniform([B * T, T, D, V]);
      this.dispatch(pass, 'wte_index', u, { 1: inputs, 9: index }, [1]);
      this.dispatch(pass, 'wte_backward', u, { 5: dout, 6: dwte, 9: index }, grid1d(V * D, 256));
      this.dispatch(pass, 'wpe_backward', this.uniform([B * T, T, D, Tmax]), { 5: dout, 7: dwpe }, grid1d(Tmax * D, 256));
    }

    /** Decode: out[r,:] = wte[tokens[r*S + pos],:] + wpe[pos,:], pos from `step`. */
    embeddingDecode(pass: GPUComputePassEncoder, out: Binding, tokens: Binding, wte: Binding, wpe: Binding, step: GPUBuffer, R: number, S: number, D: number): void {
      this.dispatch(pass, 'encoder_decode', this.uniform([R, S, D, 0]), { 1: tokens, 2: wte, 3: wpe, 4: out, 8: step }, grid1d(R * D, 256));
    }

    // -------------------------------------------------------------------------------------------
    // matmul

    /** A writable 16-float buffer bound where a kernel's optional read_write binding is unused. */
    private dummyRW: GPUBuffer | null = null;
    private get dummy(): GPUBuffer {
      return (this.dummyRW ??= this.arena.storage('ops.dummy', 16));
    }
    /** A second one for the TN kernels' unused dbias (binding 7): writable bindings of one dispatch may not alias aux's dummy. */
    private dummyRW2: GPUBuffer | null = null;
    private get dummy2(): GPUBuffer {
      return (this.dummyRW2 ??= this.arena.storage('ops.dummy2', 16));
    }

    /**
     * C[M,N] (+)= op(A)·op(B) in layout `form` (nn: A[M,K]·B[K,N], nt: A[M,K]·B[N,K]ᵀ,
     * tn: A[K,M]ᵀ·B[K,N]) with the epilogue options. Takes the vec4 register-blocked kernel
     * (matmul_vec4.wgsl) when the shapes allow vec4 access, else matmul.wgsl; a fused GELU the
     * scalar path cannot do runs as a separate gelu dispatch.
     *   geluOut: C = x (pre-activation), geluOut = gelu(x)
     *   geluGradOf: C = (op(A)·op(B)) ⊙ gelu'(geluGradOf)
     *   dbias (tn only): dbias[N] = Σ_k B[k,:] as well, in the same dispatch (flag bit 5: the first
     *     row block's workgroups sum the columns of B they stream; accumulates if C does)
     */
    matmul(
      pass: GPUComputePassEncoder, form: 'nn' | 'nt' | 'tn', c: Binding, a: Binding, b: Binding, M: number, N: number, K: number,
      o: { bias?: Binding | null; res?: Binding; accumulate?: boolean; geluOut?: Binding; geluGradOf?: Binding; dbias?: Binding | null } = {},
    ): void {
      if (o.dbias && form !== 'tn') throw new Error('matmul: only the tn layout sums the columns of B (dbias)');
      const vec4 = N % 4 === 0 && (form === 'tn' ? M % 4 === 0 : K % 4 === 0) && !this.forceScalarMatmul;
      const flags = (o.accumulate ? 1 : 0) | (o.bias ? 2 : 0) | (o.res ? 4 : 0) | (o.dbias ? 32 : 0);
      const groups: [number, number] = [ceil(N, 32), ceil(M, 32)];
      // binding 7 (dbias) exists in the tn kernels' layouts only
      const db: Record<number, Binding> = form === 'tn' ? { 7: o.dbias ?? this.dummy2 } : {};
      if (vec4) {
        const f = flags | (o.geluOut ? 8 : 0) | (o.geluGradOf ? 16 : 0);
        if (o.geluGradOf && o.accumulate) throw new Error('matmul: fused GELU backward cannot accumulate');
        const kernel = `matmul_${form}_v4${this.matmulForm === 'direct' ? 'd' : ''}` as KernelName;
        this.dispatch(pass, kernel, this.uniform([M, N, K, f]), { 1: a, 2: b, 3: o.bias ?? b, 4: c, 5: o.res ?? b, 6: o.geluOut ?? o.geluGradOf ?? this.dummy, ...db }, groups);
        return;
      }
      const scalar = `matmul_${form}${this.matmulForm === 'direct' ? '_d' : ''}` as KernelName;
      if (o.geluGradOf) {
        if (o.accumulate || o.bias || o.res || o.dbias) throw new Error('matmul: fused GELU backward takes no epilogue');
        // C = A·op(B), then C = C ⊙ gelu'(x) in place (gelu_backward with dout = dinp = C is elementwise)
        this.dispatch(pass, scalar, this.uniform([M, N, K, 0]), { 1: a, 2: b, 3: b, 4: c, 5: b, ...db }, groups);
        this.dispatch(pass, 'gelu_backward_inplace', this.uniform([M * N, 0, 0, 0]), { 1: o.geluGradOf, 4: c }, grid1d(M * N, 256));
        return;
      }
      this.dispatch(pass, scalar, this.uniform([M, N, K, flags]), { 1: a, 2: b, 3: o.bias ?? b, 4: c, 5: o.res ?? b, ...db }, groups);
      if (o.geluOut) this.geluForward(pass, o.geluOut, c, M * N);
    }

    /** Use matmul.wgsl even where the vec4 kernels apply (the bench and the parity test compare both). */
    forceScalarMatmul = false;
    /**
     * Which register-blocked form (vec4 and scalar kernels alike): 'tiled' stages 32x32 tiles in
     * workgroup memory (GPUs), 'direct' reads storage with no barriers (CPU adapters such as
     * SwiftShader, where workgroup memory is plain cache). Set per adapter by GpuContext; the
     * bench measures both.
     */
    matmulForm: 'tiled' | 'direct' = 'tiled';

    /** out[N,OC] = inp[N,C]·w[C,OC] (+ bias) (+ res) (+ out if accumulate) (geluOut = gelu(out)). */
    matmulForward(pass: GPUComputePassEncoder, out: Binding, inp: Binding, w: Binding, bias: Binding | null, N: number, C: number, OC: number, opts: { res?: Binding; accumulate?: boolean; geluOut?: Binding } = {}): void {
      this.matmul(pass, 'nn', out, inp, w, N, OC, C, { bias, ...opts });
    }

    /** C[M,N] = A[M,K]·B[N,K]ᵀ. */
    matmulNT(pass: GPUComputePassEncoder, c: Binding, a: Binding, b: Binding, M: number, K: number, N: number): void {
      this.matmul(pass, 'nt', c, a, b, M, N, K);
    }

    /** C[M,N] = A[K,M]ᵀ·B[K,N] (and dbias[N] = Σ_k B[k,:] in the same dispatch, when given). */
    matmulTN(pass: GPUComputePassEncoder, c: Binding, a: Binding, b: Binding, M: number, K: number, N: number, dbias: Binding | null = null): void {
      this.matmul(pass, 'tn', c, a, b, M, N, K, { dbias });
    }

    /** The bench's baseline: C[M,N] = A[M,K]·B[N,K]ᵀ, one output per invocation, vec4 loads (K % 4 == 0). */
    matmulPlain(pass: GPUComputePassEncoder, c: Binding, a: Binding, bT: Binding, M: number, K: number, N: number): void {
      if (K % 4 !== 0) throw new Error('matmulPlain needs K % 4 == 0');
      this.dispatch(pass, 'matmul_plain_vec4', this.uniform([M, N, K, 0]), { 1: a, 2: bT, 4: c }, [ceil(N, 16), ceil(M, 16)]);
    }

    /**
     * Backward of the linear layer (llm.c matmul_backward), as two dispatches:
     *   dinp[N,C] (+)= dout[N,OC]·wᵀ (NT);
     *   dw[C,OC] = inpᵀ·dout (TN), with dbias[OC] = Σ_n dout[n,:] fused into the same dispatch
     *   (dout is the TN product's B operand: its column sums, taken as B streams through).
     * dw and dbias are written (each parameter gradient has one producer); dinp accumulates if asked.
     * geluGradOf: dinp = (dout·wᵀ) ⊙ gelu'(geluGradOf) (the MLP's fc2 backward fused with GELU's;
     * on the scalar path a separate in-place GELU dispatch).
     */
    matmulBackward(pass: GPUComputePassEncoder, dinp: Binding | null, dw: Binding, dbias: Binding | null, dout: Binding, inp: Binding, w: Binding, N: number, C: number, OC: number, accumulateDinp = false, geluGradOf?: Binding): void {
      if (dinp) this.matmul(pass, 'nt', dinp, dout, w, N, C, OC, { accumulate: accumulateDinp, geluGradOf });
      this.matmul(pass, 'tn', dw, inp, dout, C, OC, N, { dbias });
    }

    // -------------------------------------------------------------------------------------------
    // GELU

    geluForward(pass: GPUComputePassEncoder, out: Binding, inp: Binding, n: number): void {
      this.dispatch(pass, 'gelu_forward', this.uniform([n, 0, 0, 0]), { 1: inp, 2: out }, grid1d(n, 256));
    }

    geluBackward(pass: GPUComputePassEncoder, dinp: Binding, inp: Binding, dout: Binding, n: number, accumulate = false): void {
      this.dispatch(pass, 'gelu_backward', this.uniform([n, accumulate ? 1 : 0, 0, 0]), { 1: inp, 3: dout, 4: dinp }, grid1d(n, 256));
    }

    // -------------------------------------------------------------------------------------------
    // layernorm

    /** Kernel name and workgroup grid of a row kernel in the current reduction form; `lead`: workgroups before the rows' (the LayerNorm backward's parameter gradients). */
    private rowKernel(base: 'layernorm_forward' | 'layernorm_backward_dx', N: number, lead = 0): [KernelName, [number, number]] {
      if (this.reductionForm === 'row') return [base, [lead + ceil(N, 64), 1]];
      const sg = this.reductionForm === 'subgroup' && this.kernels.has(`${base}_sg` as KernelName);
      return [`${base}_${sg ? 'sg' : 'wg'}` as KernelName, grid1d(lead + N, 1)];
    }

    layernormForward(pass: GPUComputePassEncoder, out: Binding, mean: Binding, rstd: Binding, inp: Binding, gamma: Binding, beta: Binding, N: number, C: number): void {
      const [k, g] = this.rowKernel('layernorm_forward', N);
      this.dispatch(pass, k, this.uniform([N, C, 0, 0]), { 1: inp, 2: gamma, 3: beta, 4: out, 5: mean, 6: rstd }, g);
    }

    /**
     * The LayerNorm backward in one dispatch: the dx kernel's first ceil(C/16) workgroups take the
     * parameter gradients, four invocations a column (layernorm.wgsl, pgroups), the rest the rows. false: two dispatches, dx
     * then layernorm_backward_params (the unfused path the parity test compares with).
     */
    fuseLayernormParams = true;

    /** dinp (+)= LN backward (accumulate if asked); dgamma, dbeta written. */
    layernormBackward(pass: GPUComputePassEncoder, dinp: Binding, dgamma: Binding, dbeta: Binding, dout: Binding, inp: Binding, gamma: Binding, mean: Binding, rstd: Binding, N: number, C: number, accumulateDinp = false): void {
      const P = this.fuseLayernormParams ? ceil(C, 16) : 0;
      const [k, g] = this.rowKernel('layernorm_backward_dx', N, P);
      // dgamma and dbeta are bound either way: with layout 'auto' the kernel's bind group has every binding it can reach
      this.dispatch(pass, k, this.uniform([N, C, accumulateDinp ? 1 : 0, P]), { 1: inp, 2: gamma, 5: mean, 6: rstd, 7: dout, 8: dinp, 9: dgamma, 10: dbeta }, g);
      if (!P) this.dispatch(pass, 'layernorm_backward_params', this.uniform([N, C, 0, 0]), { 1: inp, 5: mean, 6: rstd, 7: dout, 9: dgamma, 10: dbeta }, [ceil(C, 64)]);
    }
  };
}

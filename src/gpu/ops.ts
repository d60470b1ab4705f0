/**
 * The operations of the model as GPU dispatches recorded into a compute pass: one method per
 * WGSL entry point (or pair), with the same argument order as the CPU reference's ops
 * (src/model/reference/ops.ts: outputs first, then inputs, then shapes).
 *
 * Nothing here allocates per call in steady state: uniform buffers are created once per
 * distinct content (shapes) and bind groups once per (kernel, buffers, uniform); values that
 * change every step (AdamW's bias correction, the sampling seed) use uniform buffers that the
 * caller owns and rewrites with queue.writeBuffer.
 */
import type { PolicyLossSettings } from '../model/backend.ts';
import type { BufferArena } from './arena.ts';
import type { KernelName, KernelRegistry } from './kernels.ts';

/** A buffer, or a sub-range of one in floats (offsets must be multiples of 64 floats = 256 bytes). */
export type Binding = GPUBuffer | { buffer: GPUBuffer; offset: number; size: number };

/** A 32-bit float in a uniform block (numbers without this wrapper are u32). */
export interface F32 {
  f: number;
}
export const f32 = (f: number): F32 => ({ f });

/** Pack uniform words: plain numbers as u32, f32(x) as float bits. */
export function packUniform(items: (number | F32)[]): Uint32Array {
  const n = Math.max(4, Math.ceil(items.length / 4) * 4);
  const buf = new ArrayBuffer(n * 4);
  const u = new Uint32Array(buf);
  const f = new Float32Array(buf);
  items.forEach((x, i) => {
    if (typeof x === 'number') u[i] = x >>> 0;
    else f[i] = x.f;
  });
  return u;
}

/** Workgroup counts for n invocations of `size` each, folded into y past 65535. */
export function grid1d(n: number, size: number): [number, number] {
  const groups = Math.max(1, Math.ceil(n / size));
  if (groups <= 65535) return [groups, 1];
  const y = Math.ceil(groups / 65535);
  return [Math.ceil(groups / y), y];
}

const ceil = (a: number, b: number) => Math.max(1, Math.ceil(a / b));

/** The optimizer's flat buffers (GpuModel's): parameters, gradients, AdamW moments, decay mask, metrics, grad-norm partials. */
export interface OptimizerBuffers { params: GPUBuffer; grads: GPUBuffer; m: GPUBuffer; v: GPUBuffer; decay: GPUBuffer; metrics: GPUBuffer; normPartials: GPUBuffer }

/** One recorded dispatch, kept while a profiler traces (see Ops.trace). */
export interface TracedDispatch {
  kernel: KernelName;
  /** The phase label (Ops.phase) when it was recorded: 'forward', 'backward', 'optimizer', … */
  phase: string;
  pipeline: GPUComputePipeline;
  bindGroup: GPUBindGroup;
  groups: [number, number, number];
  /** Every buffer the dispatch binds: a replay is valid only while all of them are live. */
  buffers: GPUBuffer[];
  /** What the encoder did before this dispatch's pass (Ops.prelude), repeated by a replay. */
  prelude: Prelude | null;
}

/** Commands recorded between passes that a dispatch depends on (e.g. the decode position's uniform). */
export type Prelude = (enc: GPUCommandEncoder) => void;

/**
 * Cache bounds: a rollout's batch shape (T) changes from step to step, and every distinct
 * shape makes new uniforms and bind groups. Past these sizes the caches are emptied at the next
 * step boundary (Ops.trimCaches), so memory stays bounded however many shapes a run sees.
 */
export const MAX_CACHED_UNIFORMS = 512;
export const MAX_CACHED_BIND_GROUPS = 2048;

export class Ops {
  private uniforms = new Map<string, GPUBuffer>();
  private bindGroups = new Map<string, GPUBindGroup>();
  private ids = new WeakMap<GPUBuffer, number>();
  private nextId = 1;
  /** Dispatches recorded so far (for tests and the profiler). */
  dispatches = 0;
  /** Times the caches were emptied by trimCaches. */
  trims = 0;
  /** While non-null, every dispatch is also appended here (the profiler's trace). */
  trace: TracedDispatch[] | null = null;
  /** Label of what is being recorded now; stored with traced dispatches. */
  phase = '';
  /** What the encoder did before the pass being recorded (set by the decode loop); stored with traced dispatches. */
  prelude: Prelude | null = null;

  /** Sizes of the caches (steady state: constant from step to step). */
  get cacheSizes(): { uniforms: number; bindGroups: number } {
    return { uniforms: this.uniforms.size, bindGroups: this.bindGroups.size };
  }

  constructor(readonly device: GPUDevice, readonly kernels: KernelRegistry, readonly arena: BufferArena) {}

  /** A uniform buffer with these words, created once per distinct content. */
  uniform(items: (number | F32)[]): GPUBuffer {
    const words = packUniform(items);
    const key = Array.from(words).join(',');
    let b = this.uniforms.get(key);
    if (!b) {
      b = this.arena.create('uniform', words.byteLength, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
      this.device.queue.writeBuffer(b, 0, words);
      this.uniforms.set(key, b);
    }
    return b;
  }

  /** A uniform buffer the caller owns and rewrites (values that change every step). */
  dynamicUniform(label: string, words: number): GPUBuffer {
    return this.arena.create(label, words * 4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  }

  writeUniform(b: GPUBuffer, items: (number | F32)[]): void {
    this.device.queue.writeBuffer(b, 0, packUniform(items));
  }

  /** Forget cached bind groups (after the buffers they name were destroyed). */
  clearBindGroups(): void {
    this.bindGroups.clear();
  }

  /**
   * Empty the shape caches when they have grown past their bounds. Call only between steps
   * (nothing recorded and not yet submitted may use a cached uniform): destroyed uniform
   * buffers are freed once submitted work that uses them has finished.
   */
  trimCaches(maxUniforms = MAX_CACHED_UNIFORMS, maxBindGroups = MAX_CACHED_BIND_GROUPS): void {
    if (this.retired.length) {
      for (const b of this.retired) this.arena.destroy(b);
      this.retired = [];
      this.bindGroups.clear();
    }
    if (this.uniforms.size <= maxUniforms && this.bindGroups.size <= maxBindGroups) return;
    for (const b of this.uniforms.values()) this.arena.destroy(b);
    this.uniforms.clear();
    this.bindGroups.clear();
    this.trims++;
  }

  private id(b: GPUBuffer): number {
    let i = this.ids.get(b);
    if (i === undefined) this.ids.set(b, (i = this.nextId++));
    return i;
  }

  /** Record one dispatch of `kernel` with uniform binding 0 and the given storage/uniform bindings. */
  dispatch(pass: GPUComputePassEncoder, kernel: KernelName, uniform: GPUBuffer, bindings: Record<number, Binding>, groups: [number, number?, number?]): void {
    const slots = Object.keys(bindings).map(Number).sort((a, b) => a - b);
    let key = `${kernel}|${this.id(uniform)}`;
    for (const s of slots) {
      const b = bindings[s];
      key += b instanceof GPUBuffer ? `|${s}:${this.id(b)}` : `|${s}:${this.id(b.buffer)}@${b.offset}+${b.size}`;
    }
    let bg = this.bindGroups.get(key);
    if (!bg) {
      const pipeline = this.kernels.get(kernel);
      const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: uniform } }];
      for (const s of slots) {
        const b = bindings[s];
        entries.push({ binding: s, resource: b instanceof GPUBuffer ? { buffer: b } : { buffer: b.buffer, offset: b.offset * 4, size: b.size * 4 } });
      }
      bg = this.device.createBindGroup({ label: kernel, layout: pipeline.getBindGroupLayout(0), entries });
      this.bindGroups.set(key, bg);
    }
    const pipeline = this.kernels.get(kernel);
    const g: [number, number, number] = [groups[0], groups[1] ?? 1, groups[2] ?? 1];
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(g[0], g[1], g[2]);
    this.dispatches++;
    if (this.trace) {
      const buffers = [uniform, ...slots.map((s) => { const b = bindings[s]; return b instanceof GPUBuffer ? b : b.buffer; })];
      this.trace.push({ kernel, phase: this.phase, pipeline, bindGroup: bg, groups: g, buffers, prelude: this.prelude });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // embedding

  /** out[b,t,:] = wte[inputs[b,t],:] + wpe[t,:]. */
  embeddingForward(pass: GPUComputePassEncoder, out: Binding, inputs: Binding, wte: Binding, wpe: Binding, B: number, T: number, D: number): void {
    this.dispatch(pass, 'encoder_forward', this.uniform([B * T, T, D, 0]), { 1: inputs, 2: wte, 3: wpe, 4: out }, grid1d(B * T * D, 256));
  }

  /** wte_index's scratch (grown, never shrunk; a replaced one is destroyed at the next step boundary). */
  private tokenIndex: GPUBuffer | null = null;
  private retired: GPUBuffer[] = [];
  private tokenIndexFor(ints: number): GPUBuffer {
    if (!this.tokenIndex || this.tokenIndex.size < ints * 4) {
      if (this.tokenIndex) this.retired.push(this.tokenIndex);
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

  // ---------------------------------------------------------------------------------------------
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

  // ---------------------------------------------------------------------------------------------
  // layernorm

  /**
   * How row reductions (LayerNorm, log-softmax) run: 'row' = one row per invocation (no
   * barriers: CPU adapters), 'workgroup' = one row per workgroup with tree reductions in
   * workgroup memory, 'subgroup' = the same with subgroupAdd (devices with 'subgroups').
   * Set per adapter by GpuContext; the bench measures all three.
   */
  reductionForm: 'row' | 'workgroup' | 'subgroup' = 'row';

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

  // ---------------------------------------------------------------------------------------------
  // attention

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
    return this.attentionForm === 'tiled' && D / H <= Ops.ATTENTION_TILED_MAX_HS;
  }

  attentionForward(pass: GPUComputePassEncoder, out: Binding, att: Binding, qkv: Binding, B: number, T: number, D: number, H: number): void {
    const u = this.uniform([B, T, D, H]);
    if (this.attentionTiled(D, H)) this.dispatch(pass, 'attention_forward_tiled', u, { 1: qkv, 2: att, 3: out }, grid1d(Ops.attentionHeadGroups(B, T, H) * Math.ceil(T / (T <= 32 ? 32 : 64)), 1));
    else this.dispatch(pass, 'attention_forward', u, { 1: qkv, 2: att, 3: out }, [ceil(B * H * T, 64)]);
  }

  /** dqkv written; dpreatt [B,H,T,T] is scratch. */
  attentionBackward(pass: GPUComputePassEncoder, dqkv: Binding, dpreatt: Binding, dout: Binding, qkv: Binding, att: Binding, B: number, T: number, D: number, H: number): void {
    const u = this.uniform([B, T, D, H]);
    const b = { 1: qkv, 2: att, 4: dout, 5: dpreatt, 6: dqkv };
    if (this.attentionTiled(D, H)) {
      this.dispatch(pass, 'attention_backward_tiled', u, b, grid1d(Ops.attentionHeadGroups(B, T, H), 1));
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
    if (!Ops.decodeFusable(D, H, S)) throw new Error(`decode_block: D ${D}, H ${H}, S ${S} past its limits (D ≤ 256, H·S ≤ 1024)`);
    if (offsets.length !== 17) throw new Error(`decode_block: 17 tensor offsets, got ${offsets.length}`);
    const u = this.uniform([R, S, D, H, V, (first ? 1 : 0) | (last ? 2 : 0), ...offsets, 0]);
    this.dispatch(pass, 'decode_block', u, { 1: P, 2: tokens, 3: xres, 4: kcache, 5: vcache, 6: logits, 7: step }, grid1d(R, 1));
  }

  // ---------------------------------------------------------------------------------------------
  // GELU

  geluForward(pass: GPUComputePassEncoder, out: Binding, inp: Binding, n: number): void {
    this.dispatch(pass, 'gelu_forward', this.uniform([n, 0, 0, 0]), { 1: inp, 2: out }, grid1d(n, 256));
  }

  geluBackward(pass: GPUComputePassEncoder, dinp: Binding, inp: Binding, dout: Binding, n: number, accumulate = false): void {
    this.dispatch(pass, 'gelu_backward', this.uniform([n, accumulate ? 1 : 0, 0, 0]), { 1: inp, 3: dout, 4: dinp }, grid1d(n, 256));
  }

  // ---------------------------------------------------------------------------------------------
  // log-softmax, loss, logits backward

  /** A log-softmax row kernel in the current reduction form (subgroup → the workgroup form). */
  private softmaxKernel(base: 'logprob_forward' | 'logits_backward' | 'logsoftmax_fused', N: number): [KernelName, [number, number]] {
    return this.reductionForm === 'row' ? [base, [ceil(N, 64), 1]] : [`${base}_wg` as KernelName, grid1d(N, 1)];
  }

  logsoftmaxForward(pass: GPUComputePassEncoder, logprobs: Binding, entropy: Binding, logits: Binding, targets: Binding, mask: Binding, tau: number, N: number, V: number): void {
    const [k, g] = this.softmaxKernel('logprob_forward', N);
    this.dispatch(pass, k, this.uniform([N, V, f32(tau), 0]), { 1: logits, 2: targets, 3: mask, 4: logprobs, 5: entropy }, g);
  }

  /** metrics[M_KL_EXACT] = mean over masked rows of the exact KL(π_θ ‖ π_ref) at tau (shaders/kl.wgsl); kl [N] is scratch. */
  klExact(pass: GPUComputePassEncoder, metrics: Binding, kl: Binding, logits: Binding, refLogits: Binding, mask: Binding, tau: number, N: number, V: number): void {
    const u = this.uniform([N, V, f32(tau), 0]);
    this.dispatch(pass, 'kl_exact_rows', u, { 1: logits, 2: refLogits, 3: mask, 4: kl }, [ceil(N, 64)]);
    this.dispatch(pass, 'kl_exact_reduce', u, { 3: mask, 4: kl, 5: metrics }, [1]);
  }

  /** dlogits written (0 on rows whose gradients are both 0). */
  logitsBackward(pass: GPUComputePassEncoder, dlogits: Binding, logits: Binding, targets: Binding, gradLogprob: Binding, gradEntropy: Binding, tau: number, N: number, V: number): void {
    const [k, g] = this.softmaxKernel('logits_backward', N);
    this.dispatch(pass, k, this.uniform([N, V, f32(tau), 0]), { 1: logits, 2: targets, 6: gradLogprob, 7: gradEntropy, 8: dlogits }, g);
  }

  /** logsoftmaxForward and logitsBackward in one dispatch (per-token gradients known up front). */
  logsoftmaxFused(pass: GPUComputePassEncoder, logprobs: Binding, entropy: Binding, dlogits: Binding, logits: Binding, targets: Binding, mask: Binding, gradLogprob: Binding, gradEntropy: Binding, tau: number, N: number, V: number): void {
    const [k, g] = this.softmaxKernel('logsoftmax_fused', N);
    this.dispatch(pass, k, this.uniform([N, V, f32(tau), 0]), { 1: logits, 2: targets, 3: mask, 4: logprobs, 5: entropy, 6: gradLogprob, 7: gradEntropy, 8: dlogits }, g);
  }

  /** metrics[M_LOSS] = Σ gL·logp + gE·H, metrics[M_ENTROPY_SUM] = Σ mask·H, metrics[M_MASK_SUM] = Σ mask. */
  lossReduce(pass: GPUComputePassEncoder, metrics: Binding, logprobs: Binding, entropy: Binding, mask: Binding, gradLogprob: Binding, gradEntropy: Binding, N: number): void {
    this.dispatch(pass, 'loss_reduce', this.uniform([N, 0, f32(1), 0]), { 3: mask, 4: logprobs, 5: entropy, 6: gradLogprob, 7: gradEntropy, 9: metrics }, [1]);
  }

  // ---------------------------------------------------------------------------------------------
  // policy objective

  /** Floats per response row of the policy loss's rowStats scratch (NSTAT in shaders/policy_loss.wgsl). */
  static readonly POLICY_ROW_STATS = 10;

  /**
   * The clipped policy objective (shaders/policy_loss.wgsl; its TypeScript twin is
   * policyObjective in src/model/objective.ts) on the B rows of T positions:
   * gradLogprob / gradEntropy [B*T] written; metrics[M_LOSS], [M_ENTROPY_SUM], [M_MASK_SUM] and
   * the policy slots [M_CLIP_LOW..M_POLICY_LOSS] written (src/gpu/metricSlots.ts).
   * policyIn [B*T + 2B] = policyInputs(batch, loss) (src/gpu/policyLoss.ts), uploaded by the
   * caller; `hasOld`: its first B*T floats are π_old's log-probs (else π_old = π_θ detached).
   * refLogprobs [B*T]: π_ref's log-probs, or null when β = 0 and the KL is not measured.
   * rowStats [B·POLICY_ROW_STATS] is scratch.
   */
  policyLoss(
    pass: GPUComputePassEncoder, metrics: Binding, gradLogprob: Binding, gradEntropy: Binding, rowStats: Binding,
    logprobs: Binding, entropy: Binding, mask: Binding, refLogprobs: Binding | null, policyIn: Binding,
    s: PolicyLossSettings, hasOld: boolean, B: number, T: number,
  ): void {
    if (s.beta !== 0 && !refLogprobs) throw new Error('policy loss: β ≠ 0 needs the reference log-probs');
    const u = this.uniform(Ops.policyLossUniform(B, T, s, hasOld, refLogprobs !== null));
    this.dispatch(pass, 'policy_loss_rows', u, { 1: logprobs, 2: entropy, 3: mask, 4: refLogprobs ?? logprobs, 5: policyIn, 6: gradLogprob, 7: gradEntropy, 8: rowStats }, [B]);
    this.dispatch(pass, 'policy_loss_reduce', u, { 8: rowStats, 9: metrics }, [1]);
  }

  /** policy_loss.wgsl's Params: [B, T, sequence_level, kl_k3, has_old, has_kl, ε, ε_high, β, c_H, 0, 0]. */
  static policyLossUniform(B: number, T: number, s: PolicyLossSettings, hasOld: boolean, hasKl: boolean): (number | F32)[] {
    return [
      B, T,
      s.importanceSamplingLevel === 'sequence' ? 1 : 0,
      s.klEstimator === 'k3' ? 1 : 0,
      hasOld ? 1 : 0,
      hasKl ? 1 : 0,
      f32(s.epsilon), f32(s.epsilonHigh), f32(s.beta), f32(s.entropyCoef), f32(0), f32(0),
    ];
  }

  // ---------------------------------------------------------------------------------------------
  // optimizer

  /** Workgroups of the grad-norm reduction (fixed, so the result is deterministic). */
  static readonly NORM_PARTIALS = 64;
  /** Floats the partials buffer needs: one per invocation in the barrier-free form. */
  static readonly NORM_PARTIAL_SLOTS = Ops.NORM_PARTIALS * 256;

  /**
   * metrics[M_GRAD_NORM] = ‖g‖, [M_FINITE] = loss ([M_LOSS]) and ‖g‖ finite, [M_CLIP_SCALE] = clip scale.
   * `uniform` = gradNormUniform(n, maxNorm).
   * Form 'row' (CPU adapters): one partial per invocation, no barriers; otherwise a tree per workgroup.
   */
  gradNorm(pass: GPUComputePassEncoder, metrics: Binding, partials: Binding, grads: Binding, uniform: GPUBuffer): void {
    this.dispatch(pass, this.reductionForm === 'row' ? 'grad_sumsq_rows' : 'grad_sumsq_partial', uniform, { 1: grads, 2: partials }, [Ops.NORM_PARTIALS]);
    this.dispatch(pass, 'grad_norm_finalize', uniform, { 2: partials, 3: metrics }, [1]);
  }

  /** [n, number of partials (this form's), f32(maxNorm), 0]. */
  gradNormUniform(n: number, maxNorm: number): (number | F32)[] {
    return [n, this.reductionForm === 'row' ? Ops.NORM_PARTIAL_SLOTS : Ops.NORM_PARTIALS, f32(maxNorm), 0];
  }

  /** AdamW on n entries, gradients times metrics[M_CLIP_SCALE], skipped unless metrics[M_FINITE]; `uniform` = adamwUniform(...). */
  adamw(pass: GPUComputePassEncoder, params: Binding, grads: Binding, m: Binding, v: Binding, metrics: Binding, decay: Binding, n: number, uniform: GPUBuffer): void {
    this.dispatch(pass, 'adamw_step', uniform, { 1: params, 2: grads, 3: m, 4: v, 5: metrics, 6: decay }, grid1d(n, 256));
  }

  /**
   * AdamW with the clip scale read from the grad-norm partials in the same dispatch
   * (adamw_clip_step: grad_norm_finalize and adamw_step fused); `partials` from gradNormPartials
   * in a tree form ('workgroup', 'subgroup': P = NORM_PARTIALS), `normUniform` = gradNormUniform(n, maxNorm).
   */
  adamwClip(pass: GPUComputePassEncoder, s: OptimizerBuffers, n: number, normUniform: GPUBuffer, uniform: GPUBuffer): void {
    this.dispatch(pass, 'adamw_clip_step', uniform, { 1: s.params, 2: s.grads, 3: s.m, 4: s.v, 5: s.metrics, 6: s.decay, 7: s.normPartials, 8: normUniform }, grid1d(n, 256));
  }

  /**
   * A step's global-norm clip and AdamW over the flat buffers: the partial sums of ‖g‖², then in
   * the tree forms one dispatch for the norm, the clip and AdamW (adamwClip: 2 dispatches); the
   * barrier-free 'row' form (CPU adapters) keeps grad_norm_finalize apart, as its 16,384 partials
   * are too many for every workgroup to sum (3 dispatches).
   */
  optimizerStep(pass: GPUComputePassEncoder, s: OptimizerBuffers, n: number, normUniform: GPUBuffer, adamUniform: GPUBuffer): void {
    if (this.reductionForm === 'row') {
      this.gradNorm(pass, s.metrics, s.normPartials, s.grads, normUniform);
      this.adamw(pass, s.params, s.grads, s.m, s.v, s.metrics, s.decay, n, adamUniform);
      return;
    }
    this.dispatch(pass, 'grad_sumsq_partial', normUniform, { 1: s.grads, 2: s.normPartials }, [Ops.NORM_PARTIALS]);
    this.adamwClip(pass, s, n, normUniform, adamUniform);
  }

  static adamwUniform(n: number, t: number, lr: number, beta1: number, beta2: number, eps: number, weightDecay: number): (number | F32)[] {
    return [n, f32(lr), f32(beta1), f32(beta2), f32(eps), f32(weightDecay), f32(1 - Math.pow(beta1, t)), f32(1 - Math.pow(beta2, t))];
  }

  // ---------------------------------------------------------------------------------------------
  // sampling

  /** `uniform` = sampleUniform(...). */
  sampleNext(pass: GPUComputePassEncoder, tokens: Binding, rows: Binding, state: Binding, logprobs: Binding, logits: Binding, step: GPUBuffer, uniform: GPUBuffer, R: number): void {
    this.dispatch(pass, 'sample_next', uniform, { 1: logits, 2: tokens, 3: rows, 4: state, 5: logprobs, 6: step }, [ceil(R, 64)]);
  }

  static sampleUniform(R: number, V: number, S: number, seed: number, stream: number, temperature: number, eos: number): (number | F32)[] {
    return [R, V, S, seed, stream, f32(temperature), eos, 0];
  }
}

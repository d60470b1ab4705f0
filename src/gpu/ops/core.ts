/**
 * The dispatch core that every op family of Ops (src/gpu/ops.ts) records through: uniform
 * buffers created once per distinct content (shapes), bind groups once per (kernel, buffers,
 * uniform), and the caches' bounds, trimmed between steps.
 *
 * Nothing here allocates per call in steady state; values that change every step (AdamW's bias
 * correction, the sampling seed) use uniform buffers that the caller owns and rewrites with
 * queue.writeBuffer (dynamicUniform, writeUniform).
 */
import type { BufferArena } from '../arena.ts';
import type { KernelName, KernelRegistry } from '../kernels.ts';

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

/** Workgroups of b invocations each to cover a, at least one. */
export const ceil = (a: number, b: number) => Math.max(1, Math.ceil(a / b));

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

/** What an op family extends: OpsCore or a class built on it (a TypeScript mixin's base). */
export type OpsClass = new (...args: any[]) => OpsCore;

export class OpsCore {
  private uniforms = new Map<string, GPUBuffer>();
  private bindGroups = new Map<string, GPUBindGroup>();
  private ids = new WeakMap<GPUBuffer, number>();
  private nextId = 1;
  /** Buffers handed to retire(), destroyed by the next trimCaches. */
  private retired: GPUBuffer[] = [];
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

  /**
   * How row reductions (LayerNorm, log-softmax, the grad norm) run: 'row' = one row per
   * invocation (no barriers: CPU adapters), 'workgroup' = one row per workgroup with tree
   * reductions in workgroup memory, 'subgroup' = the same with subgroupAdd (devices with
   * 'subgroups'). Set per adapter by GpuContext; the bench measures all three.
   */
  reductionForm: 'row' | 'workgroup' | 'subgroup' = 'row';

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

  /** A family's buffer replaced while work recorded with it may still be pending: destroyed at the next step boundary. */
  protected retire(b: GPUBuffer): void {
    this.retired.push(b);
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
}

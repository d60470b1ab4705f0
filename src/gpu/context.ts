/**
 * A GPU context: the device, the compiled kernels, the buffer arena, the op recorder and the
 * readback ring, created together. Both the WebGPU backend and the kernel tests start here.
 */
import { BufferArena } from './arena.ts';
import type { DeviceOptions } from './device.ts';
import { acquireDevice } from './device.ts';
import type { CompileProgress } from './kernels.ts';
import { KernelRegistry, formKernels } from './kernels.ts';
import { Ops } from './ops.ts';
import { ReadbackRing } from './readback.ts';

export interface ContextOptions extends DeviceOptions {
  /** Use this device instead of acquiring one. */
  device?: GPUDevice;
  /** Kernel compilation progress, for the UI. */
  onProgress?: (p: CompileProgress) => void;
  /** Override the per-adapter choice of matmul form (see Ops.matmulForm). */
  matmulForm?: 'tiled' | 'direct';
  /** Override the per-adapter choice of row-reduction form (see Ops.reductionForm). */
  reductionForm?: 'row' | 'workgroup' | 'subgroup';
  /** Override the per-adapter choice of attention form (see Ops.attentionForm). */
  attentionForm?: 'tiled' | 'row';
  /** Override the per-adapter choice of decode form (see Ops.decodeForm). */
  decodeForm?: 'fused' | 'ops';
}

/** An adapter that runs compute on the CPU (SwiftShader, or one that says it is a CPU). */
export function isCpuAdapter(info: GPUAdapterInfo | undefined): boolean {
  if (!info) return false;
  return /swiftshader|llvmpipe|lavapipe|cpu/i.test(`${info.architecture} ${info.description} ${info.device} ${info.vendor}`);
}

export class GpuContext {
  /** Validation errors reported by the device (uncaptured), newest last. */
  readonly errors: string[] = [];

  private constructor(
    readonly device: GPUDevice,
    readonly description: string,
    readonly kernels: KernelRegistry,
    readonly arena: BufferArena,
    readonly ops: Ops,
    readonly ring: ReadbackRing,
  ) {
    device.addEventListener('uncapturederror', (e) => {
      const msg = (e as GPUUncapturedErrorEvent).error.message;
      this.errors.push(msg);
      console.error('WebGPU error:', msg);
    });
  }

  static async create(opts: ContextOptions = {}): Promise<GpuContext> {
    let device = opts.device;
    let description = 'provided device';
    let cpuAdapter = false;
    if (!device) {
      const got = await acquireDevice(opts);
      ({ device, description } = got);
      cpuAdapter = isCpuAdapter(got.adapter.info);
    } else cpuAdapter = isCpuAdapter(device.adapterInfo);
    // the shader modules first (they say which kernels can run here), then the pipelines of the forms chosen
    const kernels = await KernelRegistry.compile(device);
    const arena = new BufferArena(device);
    const ops = new Ops(device, kernels, arena);
    ops.matmulForm = opts.matmulForm ?? (cpuAdapter ? 'direct' : 'tiled');
    ops.reductionForm = opts.reductionForm ?? (cpuAdapter ? 'row' : kernels.has('layernorm_forward_sg') ? 'subgroup' : 'workgroup');
    ops.attentionForm = opts.attentionForm ?? (cpuAdapter || !kernels.has('attention_forward_tiled') ? 'row' : 'tiled');
    ops.decodeForm = opts.decodeForm ?? (cpuAdapter ? 'ops' : 'fused');
    await kernels.precompile(formKernels(ops), opts.onProgress);
    return new GpuContext(device, description, kernels, arena, ops, new ReadbackRing(arena));
  }

  /** A storage buffer holding `data`. */
  upload(label: string, data: Float32Array | Int32Array | Uint32Array): GPUBuffer {
    return this.arena.storageFrom(label, data);
  }

  /** Record one compute pass, submit it, and (optionally) read back buffers: one submit, ≤ one readback. */
  async run(record: (pass: GPUComputePassEncoder) => void, reads: { buffer: GPUBuffer; floats: number }[] = []): Promise<Float32Array[]> {
    const enc = this.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    record(pass);
    pass.end();
    return this.submitAndRead(enc, reads);
  }

  /**
   * Finish `enc` with copies of `reads` into one staging buffer, submit once, map once.
   * Returns one Float32Array per read (reinterpret with `new Int32Array(x.buffer)` for ints).
   */
  async submitAndRead(enc: GPUCommandEncoder, reads: { buffer: GPUBuffer; floats: number; offset?: number }[]): Promise<Float32Array[]> {
    if (reads.length === 0) {
      this.device.queue.submit([enc.finish()]);
      return [];
    }
    const starts: number[] = [];
    let bytes = 0;
    for (const r of reads) {
      starts.push(bytes);
      bytes += Math.ceil((r.floats * 4) / 256) * 256;
    }
    const staging = this.ring.acquire(bytes);
    reads.forEach((r, i) => enc.copyBufferToBuffer(r.buffer, (r.offset ?? 0) * 4, staging, starts[i], Math.ceil(r.floats) * 4));
    this.device.queue.submit([enc.finish()]);
    let data: ArrayBuffer;
    try {
      data = await this.ring.read(staging, bytes);
    } catch (e) {
      this.ring.discard(staging);
      throw e;
    }
    return reads.map((r, i) => new Float32Array(data, starts[i], r.floats));
  }

  destroy(): void {
    this.arena.destroyAll();
    this.device.destroy();
  }
}

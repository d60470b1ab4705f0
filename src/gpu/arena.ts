/**
 * The buffer arena: every GPUBuffer the engine owns is created and destroyed here, so the
 * number of live buffers and bytes can be counted (a leak test watches `live`).
 */

export class BufferArena {
  private readonly buffers = new Map<GPUBuffer, number>();
  /** Bytes in live buffers. */
  bytes = 0;

  constructor(readonly device: GPUDevice) {}

  /** A new buffer of at least `bytes` (rounded up to 16; WebGPU copies need multiples of 4). */
  create(label: string, bytes: number, usage: GPUBufferUsageFlags): GPUBuffer {
    const size = Math.max(16, Math.ceil(bytes / 16) * 16);
    const b = this.device.createBuffer({ label, size, usage });
    this.buffers.set(b, size);
    this.bytes += size;
    return b;
  }

  /** A storage buffer (also a copy source and destination) of `floats` 4-byte words. */
  storage(label: string, floats: number): GPUBuffer {
    return this.create(label, floats * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST);
  }

  /** A storage buffer holding `data` from creation (no queue write needed). */
  storageFrom(label: string, data: Float32Array | Int32Array | Uint32Array): GPUBuffer {
    const b = this.storage(label, data.length);
    this.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
    return b;
  }

  destroy(b: GPUBuffer | null | undefined): void {
    if (!b) return;
    const size = this.buffers.get(b);
    if (size === undefined) return;
    this.buffers.delete(b);
    this.bytes -= size;
    b.destroy();
  }

  /** True while `b` is a live buffer of this arena (not yet destroyed). */
  has(b: GPUBuffer): boolean {
    return this.buffers.has(b);
  }

  /** Number of live buffers. */
  get live(): number {
    return this.buffers.size;
  }

  destroyAll(): void {
    for (const b of [...this.buffers.keys()]) this.destroy(b);
  }
}

/**
 * The readback ring: a small pool of MAP_READ staging buffers. A command buffer copies its
 * results into one staging buffer, and after submit `read` maps it, copies the bytes out and
 * returns the buffer to the pool. Buffers grow (replace) only when a larger read is asked for.
 */
import type { BufferArena } from './arena.ts';

export class ReadbackRing {
  /** Spare staging buffers, ready to be copied into. */
  private free: GPUBuffer[] = [];
  /** Readbacks done so far (one mapAsync each). */
  reads = 0;

  constructor(private readonly arena: BufferArena, private readonly maxSpare = 3) {}

  /** A staging buffer of at least `bytes`, not in use by any pending read. */
  acquire(bytes: number): GPUBuffer {
    const i = this.free.findIndex((b) => b.size >= bytes);
    if (i >= 0) return this.free.splice(i, 1)[0];
    // none big enough: retire the smallest spare so the pool does not grow without bound
    if (this.free.length >= this.maxSpare) {
      this.free.sort((a, b) => a.size - b.size);
      this.arena.destroy(this.free.shift());
    }
    return this.arena.create('readback', bytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  }

  /** Map `staging` (after the submit that filled it), copy out `bytes`, give it back to the pool. */
  async read(staging: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    this.reads++;
    await staging.mapAsync(GPUMapMode.READ, 0, Math.ceil(bytes / 4) * 4);
    const out = staging.getMappedRange(0, Math.ceil(bytes / 4) * 4).slice(0);
    staging.unmap();
    this.free.push(staging);
    return out;
  }

  /** Drop a staging buffer whose read failed. */
  discard(staging: GPUBuffer): void {
    this.arena.destroy(staging);
  }
}

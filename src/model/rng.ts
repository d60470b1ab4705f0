/**
 * Seeded randomness shared by the CPU reference and the WGSL kernels.
 *
 * Sampling uses a counter-based generator: the uniform for (seed, stream, index, position)
 * is a pure hash of those four 32-bit words, so the GPU (shaders/sample.wgsl has the same
 * function) and the reference draw the same numbers without sharing state, and any token's
 * draw can be recomputed. Weight init uses a sequential generator (mulberry32 + Box-Muller).
 */

/** lowbias32 finalizer (Chris Wellons): a good 32-bit integer mixer, u32 in, u32 out. */
export function mix32(x: number): number {
  x = x >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** Hash of four u32 words. Mirrors `hash4` in shaders/sample.wgsl bit for bit. */
export function hash4(a: number, b: number, c: number, d: number): number {
  let h = mix32((a ^ 0x9e3779b9) >>> 0);
  h = mix32((h ^ b) >>> 0);
  h = mix32((h ^ c) >>> 0);
  h = mix32((h ^ d) >>> 0);
  return h;
}

/** Uniform in [0, 1) with 24 bits, exactly representable in f32 (same on the GPU). */
export function uniform4(a: number, b: number, c: number, d: number): number {
  return (hash4(a, b, c, d) >>> 8) / 16777216;
}

/** Sequential seeded generator for init and data shuffles. */
export class Rng {
  private state: number;
  private spare: number | null = null;
  constructor(seed: number) {
    this.state = mix32(seed >>> 0 ^ 0x2545f491) || 1;
  }
  /** The generator's whole state, to save and resume a stream exactly. */
  getState(): { state: number; spare: number | null } {
    return { state: this.state, spare: this.spare };
  }
  setState(s: { state: number; spare: number | null }): void {
    this.state = s.state >>> 0;
    this.spare = s.spare;
  }
  /** mulberry32: uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Standard normal (Box-Muller). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
  shuffle<T>(a: T[]): T[] {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}

/** The few gifenc functions scripts/screenshots.ts uses (the package ships no types; CommonJS, so one default export). */
declare module 'gifenc' {
  export type Palette = number[][];
  function quantize(rgba: Uint8Array | Uint8ClampedArray, maxColors: number, options?: { format?: 'rgb565' | 'rgb444' | 'rgba4444' }): Palette;
  function applyPalette(rgba: Uint8Array | Uint8ClampedArray, palette: Palette, format?: 'rgb565' | 'rgb444' | 'rgba4444'): Uint8Array;
  export interface Encoder {
    writeFrame(index: Uint8Array, width: number, height: number, opts?: { palette?: Palette; delay?: number; transparent?: boolean; transparentIndex?: number; dispose?: number; repeat?: number }): void;
    finish(): void;
    bytes(): Uint8Array;
  }
  function GIFEncoder(opts?: { auto?: boolean; initialCapacity?: number }): Encoder;
  const gifenc: { quantize: typeof quantize; applyPalette: typeof applyPalette; GIFEncoder: typeof GIFEncoder };
  export default gifenc;
}

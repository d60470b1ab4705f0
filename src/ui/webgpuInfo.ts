/**
 * What the page tells the user about WebGPU, from the adapter the lab found (the store's `webgpu`,
 * asked once by lab/engineKeeper.ts, which picks the engine by the same report): the adapter, a
 * software one said as such with the engine that runs instead, or one plain sentence why there is none.
 * The header and the engine line read the same report, so they never disagree.
 */
import type { AdapterReport } from '../gpu/device.ts';

const named = (w: Extract<AdapterReport, { available: true }>) =>
  `${w.vendor || 'unknown vendor'} / ${w.architecture || 'unknown architecture'}${w.description ? ` (${w.description})` : ''}`;

/** The header's line. `onGpu`: the run is on WebGPU (or the page asked for it and it is loading). */
export function adapterLine(w: AdapterReport | null, onGpu: boolean): string {
  if (w === null) return 'Checking for WebGPU…';
  if (!w.available) {
    if (w.why === 'no-webgpu') return 'This browser does not offer WebGPU, so the lab runs on the CPU reference (slower, same math). Chrome or Edge 113+ has it.';
    if (w.why === 'no-adapter') return 'WebGPU is present but no GPU adapter was granted (blocked or unsupported GPU), so the lab runs on the CPU reference.';
    return `Asking for a WebGPU adapter failed (${w.message ?? 'no reason given'}), so the lab runs on the CPU reference.`;
  }
  if (!w.software) return `WebGPU adapter: ${named(w)}`;
  return `WebGPU adapter: ${named(w)}, a software adapter (no graphics card: the processor does its work). ${onGpu
    ? "This page's address asks for WebGPU, so the lab runs on it, though its own CPU engine is faster here."
    : 'The lab runs on its own CPU engine, faster here.'}`;
}

/** True where the adapter is a software one: the engine line says so too. */
export const softwareAdapter = (w: AdapterReport | null) => !!w?.available && w.software;

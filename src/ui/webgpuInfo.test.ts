// The header's line and the engine line read one adapter report: on a software adapter the header
// says the lab runs on its CPU engine (faster there), unless the page asked for WebGPU.
import { describe, expect, it } from 'vitest';
import { adapterLine, softwareAdapter } from './webgpuInfo.ts';

const swiftshader = { available: true as const, vendor: 'google', architecture: 'swiftshader', description: '', software: true };
const gpu = { available: true as const, vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200', software: false };

describe('adapterLine', () => {
  it('a software adapter: named, said as such, and the engine that runs', () => {
    expect(adapterLine(swiftshader, false)).toBe('WebGPU adapter: google / swiftshader, a software adapter (no graphics card: the processor does its work). The lab runs on its own CPU engine, faster here.');
    expect(adapterLine(swiftshader, true)).toMatch(/^WebGPU adapter: google \/ swiftshader, a software adapter .*asks for WebGPU, so the lab runs on it, though its own CPU engine is faster here\.$/);
    expect(softwareAdapter(swiftshader)).toBe(true);
  });

  it('a graphics card, no WebGPU, no adapter, not known yet', () => {
    expect(adapterLine(gpu, true)).toBe('WebGPU adapter: nvidia / hopper (NVIDIA H200)');
    expect(softwareAdapter(gpu)).toBe(false);
    expect(adapterLine({ available: false, why: 'no-webgpu' }, false)).toMatch(/does not offer WebGPU, so the lab runs on the CPU reference/);
    expect(adapterLine({ available: false, why: 'no-adapter' }, false)).toMatch(/no GPU adapter was granted .*runs on the CPU reference/);
    expect(adapterLine({ available: false, why: 'error', message: 'blocked' }, false)).toBe('Asking for a WebGPU adapter failed (blocked), so the lab runs on the CPU reference.');
    expect(adapterLine(null, false)).toBe('Checking for WebGPU…');
    expect(softwareAdapter(null)).toBe(false);
  });
});

// The rule `auto` follows: a software WebGPU adapter (the processor doing a graphics card's work)
// is slower than the CPU engine on the same processor, so the lab takes the CPU engine there.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isSoftwareAdapter, probeAdapter } from './device.ts';

describe('isSoftwareAdapter', () => {
  it('the browser\'s fallback flag decides alone', () => {
    expect(isSoftwareAdapter({ vendor: 'nvidia', architecture: 'ampere', isFallbackAdapter: true })).toBe(true);
  });

  it('names of software rasterizers, in any field and any case', () => {
    expect(isSoftwareAdapter({ vendor: 'google', architecture: 'swiftshader' })).toBe(true); // Chromium without a GPU (its flag says so too)
    expect(isSoftwareAdapter({ vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'mesa', device: 'Lavapipe' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'mesa', description: 'softpipe' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'microsoft', description: 'Microsoft Basic Render Driver' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'microsoft', architecture: 'WARP' })).toBe(true);
    expect(isSoftwareAdapter({ description: 'Software Rasterizer' })).toBe(true);
  });

  it('hardware adapters, and an adapter that says nothing, are not software', () => {
    expect(isSoftwareAdapter({ vendor: 'nvidia', architecture: 'ampere', isFallbackAdapter: false })).toBe(false);
    expect(isSoftwareAdapter({ vendor: 'apple', architecture: 'metal-3', description: 'Apple M2' })).toBe(false);
    expect(isSoftwareAdapter({ vendor: 'intel', architecture: 'gen-12lp', description: 'Intel(R) Iris(R) Xe Graphics' })).toBe(false);
    expect(isSoftwareAdapter({ vendor: 'amd', architecture: 'rdna-3', description: 'AMD Radeon RX 7900 XT' })).toBe(false);
    expect(isSoftwareAdapter({ vendor: 'nvidia', description: 'NVIDIA GeForce RTX 4090 (warpspeed)' })).toBe(false); // a name inside another word does not count
    expect(isSoftwareAdapter({ vendor: '', architecture: '', description: '' })).toBe(false);
    expect(isSoftwareAdapter({})).toBe(false);
    expect(isSoftwareAdapter(null)).toBe(false);
  });
});

describe('probeAdapter', () => {
  afterEach(() => { vi.unstubAllGlobals(); });
  const withAdapter = (adapter: unknown) => vi.stubGlobal('navigator', { gpu: { requestAdapter: async () => adapter } });

  it('names the adapter and applies the rule to it', async () => {
    withAdapter({ info: { vendor: 'google', architecture: 'swiftshader', device: '', description: '', isFallbackAdapter: true } });
    expect(await probeAdapter()).toEqual({ available: true, vendor: 'google', architecture: 'swiftshader', description: '', software: true });
    withAdapter({ info: { vendor: 'nvidia', architecture: 'hopper', device: '', description: 'NVIDIA H200', isFallbackAdapter: false } });
    expect(await probeAdapter()).toEqual({ available: true, vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200', software: false });
  });

  it('reads the adapter\'s own fallback flag where its info has none (older Chrome)', async () => {
    withAdapter({ isFallbackAdapter: true, info: { vendor: 'google', architecture: '', device: '', description: '' } });
    expect(await probeAdapter()).toMatchObject({ available: true, software: true });
  });

  it('no WebGPU, no adapter, or an error: said, never thrown', async () => {
    vi.stubGlobal('navigator', {});
    expect(await probeAdapter()).toEqual({ available: false, why: 'no-webgpu' });
    withAdapter(null);
    expect(await probeAdapter()).toEqual({ available: false, why: 'no-adapter' });
    vi.stubGlobal('navigator', { gpu: { requestAdapter: async () => { throw new Error('blocked'); } } });
    expect(await probeAdapter()).toEqual({ available: false, why: 'error', message: 'blocked' });
  });
});

/**
 * WebGPU device acquisition within limits every user's GPU has.
 *
 * `limits: 'default'` (the default) asks for nothing: the device gets WebGPU's default limits
 * (8 storage buffers per shader stage, 16384 bytes of workgroup storage, 128 MiB storage
 * bindings), which every conforming adapter offers, so the engine is tested on what a laptop
 * gives. `limits: 'adapter'` raises only the buffer-size limits, and only up to what the
 * adapter reports (bigger models need bigger buffers, the kernels never need more bindings or
 * workgroup memory). Optional features, only where the adapter offers them: 'subgroups' (the
 * subgroup forms of the row reductions; the engine falls back without it) and 'timestamp-query'
 * when asked for (`timestamps`, the profiler's GPU clock).
 */

export interface DeviceOptions {
  /** 'default' = WebGPU's default limits; 'adapter' = raise buffer sizes to the adapter's. */
  limits?: 'default' | 'adapter';
  powerPreference?: GPUPowerPreference;
  /** Request 'timestamp-query' if the adapter offers it (the profiler's GPU clock). */
  timestamps?: boolean;
  /** Request 'subgroups' if the adapter offers it (default true). */
  subgroups?: boolean;
}

export interface AcquiredDevice {
  device: GPUDevice;
  adapter: GPUAdapter;
  /** "vendor architecture" of the adapter, for logs and the UI. */
  description: string;
}

export class WebGPUUnavailableError extends Error {}

export async function acquireDevice(opts: DeviceOptions = {}): Promise<AcquiredDevice> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) {
    throw new WebGPUUnavailableError(
      'WebGPU is not available in this browser (navigator.gpu is missing). Use a recent Chrome/Edge, or Chromium with --enable-unsafe-webgpu, or switch to the CPU backend.',
    );
  }
  const adapter = await gpu.requestAdapter({ powerPreference: opts.powerPreference ?? 'high-performance' });
  if (!adapter) throw new WebGPUUnavailableError('WebGPU found no adapter (requestAdapter returned null): the GPU may be blocklisted. Switch to the CPU backend.');
  const requiredLimits: Record<string, number> = {};
  if (opts.limits === 'adapter') {
    for (const k of ['maxBufferSize', 'maxStorageBufferBindingSize'] as const) requiredLimits[k] = adapter.limits[k];
  }
  let device: GPUDevice;
  try {
    const requiredFeatures: GPUFeatureName[] = [];
    if (opts.timestamps && adapter.features.has('timestamp-query')) requiredFeatures.push('timestamp-query');
    if (opts.subgroups !== false && adapter.features.has('subgroups')) requiredFeatures.push('subgroups');
    device = await adapter.requestDevice({ requiredLimits, requiredFeatures });
  } catch (e) {
    throw new WebGPUUnavailableError(`WebGPU requestDevice failed: ${(e as Error).message}`);
  }
  const info = adapter.info;
  return { device, adapter, description: `${info?.vendor ?? '?'} ${info?.architecture ?? ''}`.trim() };
}

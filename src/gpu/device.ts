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

/** What an adapter says about itself (GPUAdapterInfo's fields; an older browser may leave any out). */
export interface AdapterIdentity {
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  /** The browser's own flag: a fallback (software) adapter. */
  isFallbackAdapter?: boolean;
}

/** Names software adapters give themselves: Chrome's SwiftShader, Mesa's llvmpipe, lavapipe and softpipe, Windows' WARP ("Microsoft Basic Render Driver"). */
const SOFTWARE_NAMES = /swiftshader|llvmpipe|lavapipe|softpipe|\bsoftware\b|basic render|\bwarp\b/i;

/**
 * Whether a WebGPU adapter is a software one (the processor computing what a graphics card would):
 * the browser's fallback flag, else a vendor, architecture, device or description that names a
 * software rasterizer. On such an adapter the WebGPU engine is slower than the CPU engine on the
 * same processor (SwiftShader, lessons 1 and 4: 2-3×), so `auto` runs the CPU engine there.
 */
export function isSoftwareAdapter(info: AdapterIdentity | null | undefined): boolean {
  if (!info) return false;
  if (info.isFallbackAdapter === true) return true;
  return [info.vendor, info.architecture, info.device, info.description].some((s) => !!s && SOFTWARE_NAMES.test(s));
}

/** What this browser's WebGPU offers the engine: the adapter it would get (named, software or not), or why there is none. */
export type AdapterReport =
  | { available: true; vendor: string; architecture: string; description: string; software: boolean }
  | { available: false; why: 'no-webgpu' | 'no-adapter' | 'error'; message?: string };

/** Ask for the adapter the engine would get (as acquireDevice asks) and describe it; never throws. */
export async function probeAdapter(): Promise<AdapterReport> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) return { available: false, why: 'no-webgpu' };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { available: false, why: 'no-adapter' };
    const info = adapter.info;
    // the adapter's own flag, from before it moved into info (Chrome 121-135)
    const fallback = info?.isFallbackAdapter ?? (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter;
    const id = { vendor: info?.vendor ?? '', architecture: info?.architecture ?? '', device: info?.device ?? '', description: info?.description ?? '', isFallbackAdapter: fallback };
    return { available: true, vendor: id.vendor, architecture: id.architecture, description: id.description, software: isSoftwareAdapter(id) };
  } catch (e) {
    return { available: false, why: 'error', message: (e as Error)?.message ?? String(e) };
  }
}

/** What the page tells the user about WebGPU: the adapter, or one plain sentence why not. */
export type WebGPUInfo =
  | { available: true; vendor: string; architecture: string; description: string }
  | { available: false; reason: string };

export async function probeWebGPU(): Promise<WebGPUInfo> {
  if (typeof navigator === 'undefined' || !('gpu' in navigator) || !navigator.gpu) {
    return { available: false, reason: 'This browser does not offer WebGPU, so the lab runs on the CPU reference (slower, same math). Chrome or Edge 113+ has it.' };
  }
  try {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) return { available: false, reason: 'WebGPU is present but no GPU adapter was granted (blocked or unsupported GPU), so the lab runs on the CPU reference.' };
    const info = adapter.info;
    return { available: true, vendor: info.vendor || 'unknown vendor', architecture: info.architecture || 'unknown architecture', description: info.description ?? '' };
  } catch (e) {
    return { available: false, reason: `Asking for a WebGPU adapter failed (${(e as Error).message}), so the lab runs on the CPU reference.` };
  }
}

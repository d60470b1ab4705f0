import { useEffect, useState } from 'react';
import { probeWebGPU, type WebGPUInfo } from './webgpuInfo.ts';
import { SupervisedDemo } from './SupervisedDemo.tsx';

export function App() {
  const [gpu, setGpu] = useState<WebGPUInfo | null>(null);
  useEffect(() => { void probeWebGPU().then(setGpu); }, []);
  return (
    <main className="app">
      <h1>rlvr-lab</h1>
      <p className="subtitle">A small transformer learns checkable problems by reinforcement learning with verifiable rewards — on your own GPU.</p>
      <p className={`gpu-line ${gpu && !gpu.available ? 'missing' : ''}`} data-testid="webgpu-status" role="status">
        {gpu === null
          ? 'Checking for WebGPU…'
          : gpu.available
            ? `WebGPU adapter: ${gpu.vendor} / ${gpu.architecture}${gpu.description ? ` (${gpu.description})` : ''}`
            : gpu.reason}
      </p>
      <SupervisedDemo />
    </main>
  );
}

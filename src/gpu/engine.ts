/**
 * The WebGPU engine's public surface: the backend factory, the context (device, kernels,
 * arena, readback ring) and the op recorder, for the trainer, the bench and the tests.
 */
export { createWebGPUBackend, WebGPUBackend } from './backend.ts';
export type { WebGPUBackendOptions } from './backend.ts';
export { GpuContext } from './context.ts';
export { acquireDevice, WebGPUUnavailableError } from './device.ts';
export { KERNELS, KernelRegistry } from './kernels.ts';
export type { CompileProgress, KernelName } from './kernels.ts';
export { M, METRIC_FLOATS, METRIC_SLOTS, POLICY_METRIC_NAMES } from './metricSlots.ts';
export { GpuModel } from './model.ts';
export { Ops, f32, grid1d, packUniform } from './ops.ts';
export type { Binding } from './ops.ts';

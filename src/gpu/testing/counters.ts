/**
 * Counts GPU traffic for the tests that prove a step stays on the GPU: every queue.submit and
 * every buffer.mapAsync (a readback) made while installed. `restore()` puts the originals back.
 */
export function installGpuCounters() {
  const counts = { submits: 0, maps: 0 };
  const submit = GPUQueue.prototype.submit;
  const map = GPUBuffer.prototype.mapAsync;
  GPUQueue.prototype.submit = function (this: GPUQueue, cbs: Iterable<GPUCommandBuffer>) {
    counts.submits++;
    return submit.call(this, cbs);
  };
  GPUBuffer.prototype.mapAsync = function (this: GPUBuffer, ...args: Parameters<GPUBuffer['mapAsync']>) {
    counts.maps++;
    return map.apply(this, args);
  };
  return {
    counts,
    restore: () => {
      GPUQueue.prototype.submit = submit;
      GPUBuffer.prototype.mapAsync = map;
    },
  };
}

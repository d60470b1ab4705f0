/**
 * The passes of a loss, as WebGPUBackend.trainStep and .gradient record them: the batch and
 * the per-token loss inputs uploaded, π_ref's forward when the objective needs it, then per
 * epoch forward, loss (its gradients and metrics) and backward. The loss gradient per token:
 * uploaded for 'ce' (the gradient of src/model/crossEntropy.ts) and 'pertoken'; computed on the
 * GPU for 'policy' (Ops.policyLoss, shaders/policy_loss.wgsl). Also the per-step scratch buffers
 * and the reading of one epoch's metrics (the slots of src/gpu/metricSlots.ts).
 */
import type { LossSpec, TokenBatch, TrainStepResult } from '../model/backend.ts';
import type { ModelConfig } from '../model/config.ts';
import { validateBatch, validateLoss } from '../model/batch.ts';
import { crossEntropyGradLogprob } from '../model/crossEntropy.ts';
import type { GpuContext } from './context.ts';
import { M, METRIC_SLOTS, POLICY_METRIC_SLOTS } from './metricSlots.ts';
import type { GpuModel } from './model.ts';
import { Ops } from './ops.ts';
import { policyInputs } from './policyLoss.ts';

/** What a loss's epochs read that prepare() made: π_ref's log-probs (null unless needed), the policy objective's inputs. */
export interface LossPrep {
  refLogprobs: GPUBuffer | null;
  policyIn: GPUBuffer | null;
}

export class LossPasses {
  /**
   * Per-step scratch buffers by name (grown, never shrunk): π_ref's log-probs and logits, the
   * exact-KL rows, the policy loss's inputs (policyIn) and per-row partial sums.
   */
  private scratchBuffers = new Map<string, GPUBuffer>();

  constructor(readonly ctx: GpuContext, readonly config: ModelConfig, readonly model: GpuModel) {}

  /**
   * Before a loss's first epoch: the batch and the per-token loss inputs uploaded, and π_ref's
   * log-probs (and logits, for the exact KL) recorded first when the objective needs them, so the
   * activations end on π_θ for the backward. `referenceParams`: π_ref's weights, asked for only when needed.
   */
  prepare(enc: GPUCommandEncoder, batch: TokenBatch, loss: LossSpec, what: string, referenceParams: () => GPUBuffer): LossPrep {
    const { B, T, mask } = batch;
    const N = B * T;
    const V = this.config.vocabSize;
    const tau = loss.kind === 'policy' ? loss.temperature : 1;
    if (!(tau > 0)) throw new Error(`${what}: temperature must be > 0, got ${tau}`);
    validateBatch(batch, this.config, what);
    validateLoss(batch, loss, what);
    this.ctx.ops.trimCaches();
    const a = this.uploadBatch(batch);
    const q = this.ctx.device.queue;
    // per-token loss gradients: for 'ce' and 'pertoken' they are known before the forward;
    // the policy objective computes them on the GPU from one upload of its per-step inputs
    const policyIn = loss.kind === 'policy' ? this.scratch('policyIn', 3 * a.capRows) : null; // ≥ B*T + 2B
    if (loss.kind === 'ce') {
      q.writeBuffer(a.gradLogprob, 0, Float32Array.from(crossEntropyGradLogprob(mask)));
      q.writeBuffer(a.gradEntropy, 0, new Float32Array(N));
    } else if (loss.kind === 'pertoken') {
      q.writeBuffer(a.gradLogprob, 0, Float32Array.from(loss.gradLogprob));
      q.writeBuffer(a.gradEntropy, 0, loss.gradEntropy ? Float32Array.from(loss.gradEntropy) : new Float32Array(N));
    } else {
      q.writeBuffer(policyIn!, 0, policyInputs(batch, loss));
    }
    const m = this.model;
    let refLogprobs: GPUBuffer | null = null;
    if (loss.kind === 'policy' && (loss.beta !== 0 || loss.measureKl)) {
      const pass = enc.beginComputePass({ label: 'reference forward' });
      m.recordForward(pass, referenceParams(), B, T);
      m.recordLogsoftmax(pass, B, T, tau);
      pass.end();
      refLogprobs = this.scratch('refLogprobs', a.capRows);
      enc.copyBufferToBuffer(a.logprobs, 0, refLogprobs, 0, N * 4);
      // and its logits, for the exact KL over the vocabulary (a metric: shaders/kl.wgsl)
      enc.copyBufferToBuffer(a.logits, 0, this.scratch('refLogits', a.capRows * V), 0, N * V * 4);
    }
    return { refLogprobs, policyIn };
  }

  /** One epoch's forward, loss (its gradients and metrics) and backward; the gradients end in model.grads. */
  record(pass: GPUComputePassEncoder, batch: TokenBatch, loss: LossSpec, prep: LossPrep): void {
    const { B, T } = batch;
    const N = B * T;
    const V = this.config.vocabSize;
    const tau = loss.kind === 'policy' ? loss.temperature : 1;
    const m = this.model;
    const ops = this.ctx.ops;
    const a = m.ensureActivations(B, T);
    m.recordForward(pass, m.params, B, T);
    if (loss.kind === 'policy') {
      m.recordLogsoftmax(pass, B, T, tau);
      if (prep.refLogprobs) ops.klExact(pass, m.metrics, this.scratch('klRows', a.capRows), a.logits, this.scratch('refLogits', a.capRows * V), a.mask, tau, N, V);
      const rowStats = this.policyRowStats(B);
      ops.policyLoss(pass, m.metrics, a.gradLogprob, a.gradEntropy, rowStats, a.logprobs, a.entropy, a.mask, prep.refLogprobs, prep.policyIn!, loss, loss.oldLogprobs !== null, B, T);
    } else {
      // the per-token gradients are already uploaded: log-softmax and dlogits in one dispatch
      m.recordLogsoftmaxWithGrad(pass, B, T, tau);
      ops.lossReduce(pass, m.metrics, a.logprobs, a.entropy, a.mask, a.gradLogprob, a.gradEntropy, N);
    }
    m.recordBackward(pass, B, T, tau, { dlogitsReady: loss.kind !== 'policy' });
  }

  /** The policy loss's per-row stats scratch (Ops.POLICY_ROW_STATS floats a row). */
  policyRowStats(B: number): GPUBuffer {
    return this.scratch('policyRowStats', Ops.POLICY_ROW_STATS * this.model.ensureActivations(B, 1).capRows);
  }

  /** Write a batch's token ids, targets and mask into the activation buffers (validateBatch first). */
  uploadBatch(batch: TokenBatch) {
    const { B, T, inputs, targets, mask } = batch;
    const a = this.model.ensureActivations(B, T);
    const q = this.ctx.device.queue;
    q.writeBuffer(a.inputs, 0, inputs);
    q.writeBuffer(a.targets, 0, targets);
    q.writeBuffer(a.mask, 0, Float32Array.from(mask));
    return a;
  }

  /** The scratch buffer `name` with room for at least `floats` floats. */
  scratch(name: string, floats: number): GPUBuffer {
    let b = this.scratchBuffers.get(name);
    if (!b || b.size < floats * 4) {
      this.ctx.arena.destroy(b);
      b = this.ctx.arena.storage(name, floats);
      this.scratchBuffers.set(name, b);
    }
    return b;
  }
}

/** One epoch's metrics, as read back. */
export function epochResult(met: Float32Array, policy: boolean, kl: boolean): TrainStepResult {
  const metrics: Record<string, number> = {};
  if (policy) for (const s of POLICY_METRIC_SLOTS) metrics[s.metric!] = met[s.slot];
  if (kl) metrics[METRIC_SLOTS.KL_EXACT.metric] = met[M.KL_EXACT];
  if (!('entropy' in metrics)) metrics.entropy = met[M.MASK_SUM] > 0 ? met[M.ENTROPY_SUM] / met[M.MASK_SUM] : 0;
  return { loss: met[M.LOSS], gradNorm: met[M.GRAD_NORM], finite: met[M.FINITE] === 1, metrics };
}

/**
 * The objective's ops: log-softmax (log-probs and entropy), the exact KL, the loss reduction,
 * the logits' backward, and the clipped policy objective, as dispatches on the core
 * (src/gpu/ops/core.ts).
 */
import type { PolicyLossSettings } from '../../model/backend.ts';
import type { KernelName } from '../kernels.ts';
import { type Binding, ceil, type F32, f32, grid1d, type OpsClass } from './core.ts';

export function objectiveOps<B extends OpsClass>(Base: B) {
  return class ObjectiveOps extends Base {
    /** A log-softmax row kernel in the current reduction form (subgroup → the workgroup form). */
    private softmaxKernel(base: 'logprob_forward' | 'logits_backward' | 'logsoftmax_fused', N: number): [KernelName, [number, number]] {
      return this.reductionForm === 'row' ? [base, [ceil(N, 64), 1]] : [`${base}_wg` as KernelName, grid1d(N, 1)];
    }

    logsoftmaxForward(pass: GPUComputePassEncoder, logprobs: Binding, entropy: Binding, logits: Binding, targets: Binding, mask: Binding, tau: number, N: number, V: number): void {
      const [k, g] = this.softmaxKernel('logprob_forward', N);
      this.dispatch(pass, k, this.uniform([N, V, f32(tau), 0]), { 1: logits, 2: targets, 3: mask, 4: logprobs, 5: entropy }, g);
    }

    /** metrics[M_KL_EXACT] = mean over masked rows of the exact KL(π_θ ‖ π_ref) at tau (shaders/kl.wgsl); kl [N] is scratch. */
    klExact(pass: GPUComputePassEncoder, metrics: Binding, kl: Binding, logits: Binding, refLogits: Binding, mask: Binding, tau: number, N: number, V: number): void {
      const u = this.uniform([N, V, f32(tau), 0]);
      this.dispatch(pass, 'kl_exact_rows', u, { 1: logits, 2: refLogits, 3: mask, 4: kl }, [ceil(N, 64)]);
      this.dispatch(pass, 'kl_exact_reduce', u, { 3: mask, 4: kl, 5: metrics }, [1]);
    }

    /** dlogits written (0 on rows whose gradients are both 0). */
    logitsBackward(pass: GPUComputePassEncoder, dlogits: Binding, logits: Binding, targets: Binding, gradLogprob: Binding, gradEntropy: Binding, tau: number, N: number, V: number): void {
      const [k, g] = this.softmaxKernel('logits_backward', N);
      this.dispatch(pass, k, this.uniform([N, V, f32(tau), 0]), { 1: logits, 2: targets, 6: gradLogprob, 7: gradEntropy, 8: dlogits }, g);
    }

    /** logsoftmaxForward and logitsBackward in one dispatch (per-token gradients known up front). */
    logsoftmaxFused(pass: GPUComputePassEncoder, logprobs: Binding, entropy: Binding, dlogits: Binding, logits: Binding, targets: Binding, mask: Binding, gradLogprob: Binding, gradEntropy: Binding, tau: number, N: number, V: number): void {
      const [k, g] = this.softmaxKernel('logsoftmax_fused', N);
      this.dispatch(pass, k, this.uniform([N, V, f32(tau), 0]), { 1: logits, 2: targets, 3: mask, 4: logprobs, 5: entropy, 6: gradLogprob, 7: gradEntropy, 8: dlogits }, g);
    }

    /** metrics[M_LOSS] = Σ gL·logp + gE·H, metrics[M_ENTROPY_SUM] = Σ mask·H, metrics[M_MASK_SUM] = Σ mask. */
    lossReduce(pass: GPUComputePassEncoder, metrics: Binding, logprobs: Binding, entropy: Binding, mask: Binding, gradLogprob: Binding, gradEntropy: Binding, N: number): void {
      this.dispatch(pass, 'loss_reduce', this.uniform([N, 0, f32(1), 0]), { 3: mask, 4: logprobs, 5: entropy, 6: gradLogprob, 7: gradEntropy, 9: metrics }, [1]);
    }

    // -------------------------------------------------------------------------------------------
    // policy objective

    /** Floats per response row of the policy loss's rowStats scratch (NSTAT in shaders/policy_loss.wgsl). */
    static readonly POLICY_ROW_STATS = 10;

    /**
     * The clipped policy objective (shaders/policy_loss.wgsl; its TypeScript twin is
     * policyObjective in src/model/objective.ts) on the B rows of T positions:
     * gradLogprob / gradEntropy [B*T] written; metrics[M_LOSS], [M_ENTROPY_SUM], [M_MASK_SUM] and
     * the policy slots [M_CLIP_LOW..M_POLICY_LOSS] written (src/gpu/metricSlots.ts).
     * policyIn [B*T + 2B] = policyInputs(batch, loss) (src/gpu/policyLoss.ts), uploaded by the
     * caller; `hasOld`: its first B*T floats are π_old's log-probs (else π_old = π_θ detached).
     * refLogprobs [B*T]: π_ref's log-probs, or null when β = 0 and the KL is not measured.
     * rowStats [B·POLICY_ROW_STATS] is scratch.
     */
    policyLoss(
      pass: GPUComputePassEncoder, metrics: Binding, gradLogprob: Binding, gradEntropy: Binding, rowStats: Binding,
      logprobs: Binding, entropy: Binding, mask: Binding, refLogprobs: Binding | null, policyIn: Binding,
      s: PolicyLossSettings, hasOld: boolean, B: number, T: number,
    ): void {
      if (s.beta !== 0 && !refLogprobs) throw new Error('policy loss: β ≠ 0 needs the reference log-probs');
      const u = this.uniform(ObjectiveOps.policyLossUniform(B, T, s, hasOld, refLogprobs !== null));
      this.dispatch(pass, 'policy_loss_rows', u, { 1: logprobs, 2: entropy, 3: mask, 4: refLogprobs ?? logprobs, 5: policyIn, 6: gradLogprob, 7: gradEntropy, 8: rowStats }, [B]);
      this.dispatch(pass, 'policy_loss_reduce', u, { 8: rowStats, 9: metrics }, [1]);
    }

    /** policy_loss.wgsl's Params: [B, T, sequence_level, kl_k3, has_old, has_kl, ε, ε_high, β, c_H, 0, 0]. */
    static policyLossUniform(B: number, T: number, s: PolicyLossSettings, hasOld: boolean, hasKl: boolean): (number | F32)[] {
      return [
        B, T,
        s.importanceSamplingLevel === 'sequence' ? 1 : 0,
        s.klEstimator === 'k3' ? 1 : 0,
        hasOld ? 1 : 0,
        hasKl ? 1 : 0,
        f32(s.epsilon), f32(s.epsilonHigh), f32(s.beta), f32(s.entropyCoef), f32(0), f32(0),
      ];
    }
  };
}

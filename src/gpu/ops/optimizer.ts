/**
 * The optimizer's ops: the global gradient norm and its clip, and AdamW, over the flat
 * parameter buffers, as dispatches on the core (src/gpu/ops/core.ts).
 */
import { type Binding, type F32, f32, grid1d, type OpsClass } from './core.ts';

/** The optimizer's flat buffers (GpuModel's): parameters, gradients, AdamW moments, decay mask, metrics, grad-norm partials. */
export interface OptimizerBuffers { params: GPUBuffer; grads: GPUBuffer; m: GPUBuffer; v: GPUBuffer; decay: GPUBuffer; metrics: GPUBuffer; normPartials: GPUBuffer }

export function optimizerOps<B extends OpsClass>(Base: B) {
  return class OptimizerOps extends Base {
    /** Workgroups of the grad-norm reduction (fixed, so the result is deterministic). */
    static readonly NORM_PARTIALS = 64;
    /** Floats the partials buffer needs: one per invocation in the barrier-free form. */
    static readonly NORM_PARTIAL_SLOTS = OptimizerOps.NORM_PARTIALS * 256;

    /**
     * metrics[M_GRAD_NORM] = ‖g‖, [M_FINITE] = loss ([M_LOSS]) and ‖g‖ finite, [M_CLIP_SCALE] = clip scale.
     * `uniform` = gradNormUniform(n, maxNorm).
     * Form 'row' (CPU adapters): one partial per invocation, no barriers; otherwise a tree per workgroup.
     */
    gradNorm(pass: GPUComputePassEncoder, metrics: Binding, partials: Binding, grads: Binding, uniform: GPUBuffer): void {
      this.dispatch(pass, this.reductionForm === 'row' ? 'grad_sumsq_rows' : 'grad_sumsq_partial', uniform, { 1: grads, 2: partials }, [OptimizerOps.NORM_PARTIALS]);
      this.dispatch(pass, 'grad_norm_finalize', uniform, { 2: partials, 3: metrics }, [1]);
    }

    /** [n, number of partials (this form's), f32(maxNorm), 0]. */
    gradNormUniform(n: number, maxNorm: number): (number | F32)[] {
      return [n, this.reductionForm === 'row' ? OptimizerOps.NORM_PARTIAL_SLOTS : OptimizerOps.NORM_PARTIALS, f32(maxNorm), 0];
    }

    /** AdamW on n entries, gradients times metrics[M_CLIP_SCALE], skipped unless metrics[M_FINITE]; `uniform` = adamwUniform(...). */
    adamw(pass: GPUComputePassEncoder, params: Binding, grads: Binding, m: Binding, v: Binding, metrics: Binding, decay: Binding, n: number, uniform: GPUBuffer): void {
      this.dispatch(pass, 'adamw_step', uniform, { 1: params, 2: grads, 3: m, 4: v, 5: metrics, 6: decay }, grid1d(n, 256));
    }

    /**
     * AdamW with the clip scale read from the grad-norm partials in the same dispatch
     * (adamw_clip_step: grad_norm_finalize and adamw_step fused); `partials` from gradNormPartials
     * in a tree form ('workgroup', 'subgroup': P = NORM_PARTIALS), `normUniform` = gradNormUniform(n, maxNorm).
     */
    adamwClip(pass: GPUComputePassEncoder, s: OptimizerBuffers, n: number, normUniform: GPUBuffer, uniform: GPUBuffer): void {
      this.dispatch(pass, 'adamw_clip_step', uniform, { 1: s.params, 2: s.grads, 3: s.m, 4: s.v, 5: s.metrics, 6: s.decay, 7: s.normPartials, 8: normUniform }, grid1d(n, 256));
    }

    /**
     * A step's global-norm clip and AdamW over the flat buffers: the partial sums of ‖g‖², then in
     * the tree forms one dispatch for the norm, the clip and AdamW (adamwClip: 2 dispatches); the
     * barrier-free 'row' form (CPU adapters) keeps grad_norm_finalize apart, as its 16,384 partials
     * are too many for every workgroup to sum (3 dispatches).
     */
    optimizerStep(pass: GPUComputePassEncoder, s: OptimizerBuffers, n: number, normUniform: GPUBuffer, adamUniform: GPUBuffer): void {
      if (this.reductionForm === 'row') {
        this.gradNorm(pass, s.metrics, s.normPartials, s.grads, normUniform);
        this.adamw(pass, s.params, s.grads, s.m, s.v, s.metrics, s.decay, n, adamUniform);
        return;
      }
      this.dispatch(pass, 'grad_sumsq_partial', normUniform, { 1: s.grads, 2: s.normPartials }, [OptimizerOps.NORM_PARTIALS]);
      this.adamwClip(pass, s, n, normUniform, adamUniform);
    }

    static adamwUniform(n: number, t: number, lr: number, beta1: number, beta2: number, eps: number, weightDecay: number): (number | F32)[] {
      return [n, f32(lr), f32(beta1), f32(beta2), f32(eps), f32(weightDecay), f32(1 - Math.pow(beta1, t)), f32(1 - Math.pow(beta2, t))];
    }
  };
}

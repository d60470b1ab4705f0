/**
 * The kernel registry: every WGSL entry point the engine dispatches, compiled once into a
 * compute pipeline, with a progress callback the UI can show. Up front (createComputePipelineAsync,
 * so the page stays responsive) only the kernels of the forms the context runs (`formKernels`):
 * on SwiftShader a pipeline costs ~0.35 s, and the forms not chosen are about 40 % of them. A
 * kernel asked for later (a form switched by the self-check or a test) is compiled when first
 * dispatched. Pipelines use layout 'auto': each entry point's bind group holds only the bindings
 * it uses, which keeps every stage within WebGPU's default limits (≤ 8 storage buffers) even
 * where a file declares more bindings.
 */
import adamwSrc from '../../shaders/adamw.wgsl?raw';
import attentionSrc from '../../shaders/attention.wgsl?raw';
import attentionTiledSrc from '../../shaders/attention_tiled.wgsl?raw';
import decodeBlockSrc from '../../shaders/decode_block.wgsl?raw';
import embeddingSrc from '../../shaders/embedding.wgsl?raw';
import geluSrc from '../../shaders/gelu.wgsl?raw';
import gradnormSrc from '../../shaders/gradnorm.wgsl?raw';
import klSrc from '../../shaders/kl.wgsl?raw';
import layernormSrc from '../../shaders/layernorm.wgsl?raw';
import layernormSubgroupSrc from '../../shaders/layernorm_subgroup.wgsl?raw';
import layernormParamsSrc from '../../shaders/layernorm_params.wgsl?raw';
import logsoftmaxSrc from '../../shaders/logsoftmax.wgsl?raw';
import matmulSrc from '../../shaders/matmul.wgsl?raw';
import matmulPlainSrc from '../../shaders/matmul_plain.wgsl?raw';
import matmulVec4Src from '../../shaders/matmul_vec4.wgsl?raw';
import policyLossSrc from '../../shaders/policy_loss.wgsl?raw';
import sampleSrc from '../../shaders/sample.wgsl?raw';
import { withMetricSlots } from './metricSlots.ts';

/** WGSL files as written (shaders/<name>.wgsl). */
const FILES = {
  adamw: adamwSrc,
  attention: attentionSrc,
  attention_tiled: attentionTiledSrc,
  decode_block: decodeBlockSrc,
  embedding: embeddingSrc,
  gelu: geluSrc,
  gradnorm: gradnormSrc,
  kl: klSrc,
  // both LayerNorm files end with the one ln_params_columns (the backward_dx kernels' parameter workgroups)
  layernorm: `${layernormSrc}\n${layernormParamsSrc}`,
  layernorm_subgroup: `${layernormSubgroupSrc}\n${layernormParamsSrc}`,
  logsoftmax: logsoftmaxSrc,
  matmul: matmulSrc,
  matmul_plain: matmulPlainSrc,
  matmul_vec4: matmulVec4Src,
  policy_loss: policyLossSrc,
  sample: sampleSrc,
} as const;

/**
 * WGSL sources by file, as compiled: every file that declares the step's `metrics` buffer gets
 * the slot constants (M_LOSS, …) generated from src/gpu/metricSlots.ts appended.
 */
export const SHADER_SOURCES = Object.fromEntries(Object.entries(FILES).map(([f, code]) => [f, withMetricSlots(code)])) as Record<keyof typeof FILES, string>;
export type ShaderFile = keyof typeof SHADER_SOURCES;

/** Files that need an optional device feature: compiled only where the device has it. */
export const FILE_FEATURES: Partial<Record<ShaderFile, GPUFeatureName>> = { layernorm_subgroup: 'subgroups' };

/** Every entry point, with its file. Names are the WGSL function names. */
export const KERNELS = {
  encoder_forward: 'embedding',
  encoder_decode: 'embedding',
  wte_index: 'embedding',
  wte_backward: 'embedding',
  wpe_backward: 'embedding',
  matmul_nn: 'matmul',
  matmul_nn_d: 'matmul',
  matmul_nt_d: 'matmul',
  matmul_tn_d: 'matmul',
  matmul_nt: 'matmul',
  matmul_tn: 'matmul',
  matmul_nn_v4: 'matmul_vec4',
  matmul_nt_v4: 'matmul_vec4',
  matmul_tn_v4: 'matmul_vec4',
  matmul_nn_v4d: 'matmul_vec4',
  matmul_nt_v4d: 'matmul_vec4',
  matmul_tn_v4d: 'matmul_vec4',
  matmul_plain_vec4: 'matmul_plain',
  layernorm_forward: 'layernorm',
  layernorm_backward_dx: 'layernorm',
  layernorm_backward_params: 'layernorm',
  layernorm_forward_wg: 'layernorm',
  layernorm_backward_dx_wg: 'layernorm',
  layernorm_forward_sg: 'layernorm_subgroup',
  layernorm_backward_dx_sg: 'layernorm_subgroup',
  attention_forward: 'attention',
  attention_backward_q: 'attention',
  attention_backward_kv: 'attention',
  attention_decode: 'attention',
  attention_forward_tiled: 'attention_tiled',
  attention_backward_tiled: 'attention_tiled',
  decode_block: 'decode_block',
  gelu_forward: 'gelu',
  gelu_backward: 'gelu',
  gelu_backward_inplace: 'gelu',
  logprob_forward: 'logsoftmax',
  logits_backward: 'logsoftmax',
  loss_reduce: 'logsoftmax',
  logsoftmax_fused: 'logsoftmax',
  logprob_forward_wg: 'logsoftmax',
  logits_backward_wg: 'logsoftmax',
  logsoftmax_fused_wg: 'logsoftmax',
  grad_sumsq_partial: 'gradnorm',
  grad_sumsq_rows: 'gradnorm',
  kl_exact_rows: 'kl',
  kl_exact_reduce: 'kl',
  grad_norm_finalize: 'gradnorm',
  adamw_step: 'adamw',
  adamw_clip_step: 'adamw',
  sample_next: 'sample',
  policy_loss_rows: 'policy_loss',
  policy_loss_reduce: 'policy_loss',
} as const satisfies Record<string, ShaderFile>;
export type KernelName = keyof typeof KERNELS;

export interface CompileProgress {
  done: number;
  total: number;
  /** The pipeline just finished. */
  kernel: KernelName | null;
}

/** Compute pipelines created in this page so far (a debug hook reads it: a lesson of the same model shape creates none); `late`: compiled at first dispatch, not up front. */
export const pipelineStats = { created: 0, late: 0 };

/** The kernel forms a context runs (Ops.matmulForm and the rest). */
export interface KernelForms {
  matmulForm: 'tiled' | 'direct';
  reductionForm: 'row' | 'workgroup' | 'subgroup';
  attentionForm: 'tiled' | 'row';
  decodeForm: 'fused' | 'ops';
}

/**
 * The kernels a context in these forms dispatches (the ones compiled up front): every kernel but
 * those of the forms not chosen. It is a prediction: a kernel it leaves out is compiled at its
 * first dispatch (KernelRegistry.get), so a wrong guess costs time, never a result; the browser
 * tests check that a GRPO step, an evaluation and a sample compile nothing late.
 */
export function formKernels(f: KernelForms): KernelName[] {
  const direct = f.matmulForm === 'direct';
  const keep = (n: KernelName): boolean => {
    if (n === 'matmul_plain_vec4') return false; // the bench's comparison kernel
    if (n.startsWith('matmul_')) return direct === /_d$|_v4d$/.test(n);
    if (n.endsWith('_sg')) return f.reductionForm === 'subgroup';
    // the subgroup form keeps the workgroup kernels where a shape has no subgroup kernel
    if (n.endsWith('_wg') || n === 'grad_sumsq_partial' || n === 'adamw_clip_step') return f.reductionForm !== 'row';
    if (n === 'layernorm_backward_params') return false; // only with Ops.fuseLayernormParams off
    if (n === 'grad_sumsq_rows' || n === 'grad_norm_finalize' || n === 'adamw_step') return f.reductionForm === 'row';
    if (n === 'layernorm_forward' || n === 'layernorm_backward_dx' || n === 'logprob_forward' || n === 'logits_backward' || n === 'logsoftmax_fused') return f.reductionForm === 'row';
    if (n === 'attention_forward_tiled' || n === 'attention_backward_tiled') return f.attentionForm === 'tiled';
    if (n === 'attention_forward' || n === 'attention_backward_q' || n === 'attention_backward_kv') return f.attentionForm === 'row';
    if (n === 'decode_block') return f.decodeForm === 'fused';
    if (n === 'encoder_decode' || n === 'attention_decode') return f.decodeForm === 'ops';
    return true;
  };
  return (Object.keys(KERNELS) as KernelName[]).filter(keep);
}

export class KernelRegistry {
  private constructor(
    private readonly device: GPUDevice,
    /** The shader modules that compiled, by file. */
    private readonly modules: Map<ShaderFile, GPUShaderModule>,
    /** Shader files that failed to compile, with the compiler's messages. */
    readonly failures: Map<ShaderFile, string>,
    private readonly pipelines = new Map<KernelName, GPUComputePipeline>(),
  ) {}

  /**
   * Compile every shader module (the pipelines follow: `precompile`, or `get` at first dispatch).
   * A file that does not compile is reported (console and `failures`) and its kernels throw that
   * report when asked for, so a broken optional kernel (say, the policy loss) cannot stop
   * supervised training; everything else must compile.
   */
  static async compile(device: GPUDevice): Promise<KernelRegistry> {
    const modules = new Map<ShaderFile, GPUShaderModule>();
    const failures = new Map<ShaderFile, string>();
    for (const [file, code] of Object.entries(SHADER_SOURCES) as [ShaderFile, string][]) {
      const feature = FILE_FEATURES[file];
      if (feature && !device.features.has(feature)) {
        failures.set(file, `shaders/${file}.wgsl needs the '${feature}' feature, which this device does not have`);
        continue;
      }
      const module = device.createShaderModule({ label: file, code });
      const info = await module.getCompilationInfo();
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length) {
        const report = `shaders/${file}.wgsl does not compile:\n` + errors.map((m) => `  ${m.lineNum}:${m.linePos} ${m.message}`).join('\n');
        console.error(report);
        failures.set(file, report);
      } else modules.set(file, module);
    }
    return new KernelRegistry(device, modules, failures);
  }

  /** Compile the pipelines of `names` now (in parallel, off the page's thread); those compiled already and those whose file failed are skipped. */
  async precompile(names: readonly KernelName[], onProgress?: (p: CompileProgress) => void): Promise<void> {
    const todo = names.filter((n) => this.modules.has(KERNELS[n]) && !this.pipelines.has(n));
    const total = todo.length;
    let done = 0;
    onProgress?.({ done, total, kernel: null });
    await Promise.all(
      todo.map(async (name) => {
        const p = await this.device.createComputePipelineAsync({
          label: name,
          layout: 'auto',
          compute: { module: this.modules.get(KERNELS[name])!, entryPoint: name },
        });
        if (!this.pipelines.has(name)) this.pipelines.set(name, p);
        pipelineStats.created++;
        onProgress?.({ done: ++done, total, kernel: name });
      }),
    );
  }

  /**
   * Replace the pipelines of `names` by ones compiled from `code` (the self-check's tests inject a
   * broken form this way); returns what puts the previous pipelines back, without compiling them
   * again. Cached bind groups belong to the old pipelines: clear them (Ops.clearBindGroups).
   */
  async replace(names: readonly KernelName[], code: string): Promise<() => void> {
    const module = this.device.createShaderModule({ label: `${names.join(', ')} (replaced)`, code });
    const before = names.map((n) => this.pipelines.get(n));
    const made = await Promise.all(names.map((n) => this.device.createComputePipelineAsync({ label: `${n} (replaced)`, layout: 'auto', compute: { module, entryPoint: n } })));
    names.forEach((n, i) => this.pipelines.set(n, made[i]));
    return () => names.forEach((n, i) => (before[i] ? this.pipelines.set(n, before[i]) : this.pipelines.delete(n)));
  }

  /** Whether `name` can run here (its file compiled; optional-feature kernels may not have). */
  has(name: KernelName): boolean {
    return this.modules.has(KERNELS[name]);
  }

  /** The pipeline of `name`, compiled now if it was not up front (the queue waits for it, the page does not). */
  get(name: KernelName): GPUComputePipeline {
    let p = this.pipelines.get(name);
    if (p) return p;
    const module = this.modules.get(KERNELS[name]);
    if (!module) throw new Error(this.failures.get(KERNELS[name]) ?? `kernel ${name} was not compiled`);
    p = this.device.createComputePipeline({ label: name, layout: 'auto', compute: { module, entryPoint: name } });
    this.pipelines.set(name, p);
    pipelineStats.created++;
    pipelineStats.late++;
    return p;
  }
}

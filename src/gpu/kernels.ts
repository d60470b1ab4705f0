/**
 * The kernel registry: every WGSL entry point the engine dispatches, compiled once into a
 * compute pipeline (createComputePipelineAsync, so the page stays responsive), with a
 * progress callback the UI can show. Pipelines use layout 'auto': each entry point's bind
 * group holds only the bindings it uses, which keeps every stage within WebGPU's default
 * limits (≤ 8 storage buffers) even where a file declares more bindings.
 */
import adamwSrc from '../../shaders/adamw.wgsl?raw';
import attentionSrc from '../../shaders/attention.wgsl?raw';
import embeddingSrc from '../../shaders/embedding.wgsl?raw';
import geluSrc from '../../shaders/gelu.wgsl?raw';
import gradnormSrc from '../../shaders/gradnorm.wgsl?raw';
import layernormSrc from '../../shaders/layernorm.wgsl?raw';
import logsoftmaxSrc from '../../shaders/logsoftmax.wgsl?raw';
import matmulSrc from '../../shaders/matmul.wgsl?raw';
import sampleSrc from '../../shaders/sample.wgsl?raw';

/** WGSL sources by file (shaders/<name>.wgsl). */
export const SHADER_SOURCES = {
  adamw: adamwSrc,
  attention: attentionSrc,
  embedding: embeddingSrc,
  gelu: geluSrc,
  gradnorm: gradnormSrc,
  layernorm: layernormSrc,
  logsoftmax: logsoftmaxSrc,
  matmul: matmulSrc,
  sample: sampleSrc,
} as const;
export type ShaderFile = keyof typeof SHADER_SOURCES;

/** Every entry point, with its file. Names are the WGSL function names. */
export const KERNELS = {
  encoder_forward: 'embedding',
  encoder_decode: 'embedding',
  wte_backward: 'embedding',
  wpe_backward: 'embedding',
  matmul_nn: 'matmul',
  matmul_nt: 'matmul',
  matmul_tn: 'matmul',
  bias_backward: 'matmul',
  layernorm_forward: 'layernorm',
  layernorm_backward_dx: 'layernorm',
  layernorm_backward_params: 'layernorm',
  attention_forward: 'attention',
  attention_backward_q: 'attention',
  attention_backward_kv: 'attention',
  attention_decode: 'attention',
  gelu_forward: 'gelu',
  gelu_backward: 'gelu',
  logprob_forward: 'logsoftmax',
  logits_backward: 'logsoftmax',
  loss_reduce: 'logsoftmax',
  grad_sumsq_partial: 'gradnorm',
  grad_norm_finalize: 'gradnorm',
  adamw_step: 'adamw',
  sample_next: 'sample',
} as const satisfies Record<string, ShaderFile>;
export type KernelName = keyof typeof KERNELS;

export interface CompileProgress {
  done: number;
  total: number;
  /** The pipeline just finished. */
  kernel: KernelName | null;
}

export class KernelRegistry {
  private constructor(private readonly pipelines: Map<KernelName, GPUComputePipeline>) {}

  /** Compile every module and pipeline; throws with the WGSL compiler's messages on an error. */
  static async compile(device: GPUDevice, onProgress?: (p: CompileProgress) => void): Promise<KernelRegistry> {
    const modules = new Map<ShaderFile, GPUShaderModule>();
    for (const [file, code] of Object.entries(SHADER_SOURCES) as [ShaderFile, string][]) {
      const module = device.createShaderModule({ label: file, code });
      const info = await module.getCompilationInfo();
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length) throw new Error(`shaders/${file}.wgsl does not compile:\n` + errors.map((m) => `  ${m.lineNum}:${m.linePos} ${m.message}`).join('\n'));
      modules.set(file, module);
    }
    const names = Object.keys(KERNELS) as KernelName[];
    const total = names.length;
    let done = 0;
    onProgress?.({ done, total, kernel: null });
    const pipelines = new Map<KernelName, GPUComputePipeline>();
    await Promise.all(
      names.map(async (name) => {
        const p = await device.createComputePipelineAsync({
          label: name,
          layout: 'auto',
          compute: { module: modules.get(KERNELS[name])!, entryPoint: name },
        });
        pipelines.set(name, p);
        onProgress?.({ done: ++done, total, kernel: name });
      }),
    );
    return new KernelRegistry(pipelines);
  }

  get(name: KernelName): GPUComputePipeline {
    return this.pipelines.get(name)!;
  }
}

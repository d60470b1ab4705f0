/**
 * Browser-side body of e2e/gpu-self-check.spec.ts: the engine's self-check (src/gpu/selfCheck.ts)
 * on this adapter with the GPU forms forced (tiled matmul, workgroup-tree reductions, tiled
 * attention, the fused decode block), as it is, and with one kernel broken on purpose per case, put back after it:
 *   tiled-matmul      a tile read from the wrong lane (the tiled matmul only);
 *   tiled-attention   its V sum scaled by 1.01 (the tiled attention only);
 *   multi-tile        the V sum over every K/V tile after the first scaled by 1.01: the lab's model
 *                     (T ≤ 32, one tile) never runs that path, the check's long attention does;
 *   sampling          the draw of token i read from position i + 1 (the sampled branch only; greedy
 *                     takes the argmax);
 *   temperature       the sampling kernel's τ off by 0.25 % (a kernel that ignored τ would be far
 *                     worse): the check samples at τ = 0.7;
 *   sequence-loss     GSPO's sequence ratio scaled by 1.01 (the sequence-level loss only);
 *   gelu              the GELU fused into the vec4 matmuls (tiled and direct) scaled by 1.01 (the
 *                     forward's nn kernels: no other dispatch asks for the fused GELU);
 *   layernorm         LayerNorm's output scaled by 1.01 in the workgroup-tree form only;
 *   layernorm-backward its dx scaled by 1.01, in the workgroup-tree form only (a backward kernel);
 *   adamw             the second moment off by a factor, in every form (adamw_step after
 *                     grad_norm_finalize, and adamw_clip_step, which the GPU forms run);
 *   optimizer-clip    the fused clip + AdamW (adamw_clip_step, the tree forms') sums all but the last
 *                     grad-norm partial;
 *   decode-block      the fused decode block's attention output scaled by 1.0025 (the rollout's
 *                     KV-cache decode only: the batch forward never runs it); the op-by-op decode
 *                     takes over.
 */
import { createWebGPUBackend } from '../backend.ts';
import { SHADER_SOURCES, type KernelName } from '../kernels.ts';
import { CONFIGS } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { selfCheck } from '../selfCheck.ts';

export type Breakage = 'none' | 'tiled-matmul' | 'tiled-attention' | 'multi-tile' | 'sampling' | 'temperature' | 'sequence-loss' | 'gelu' | 'layernorm' | 'layernorm-backward' | 'layernorm-params' | 'adamw' | 'optimizer-clip' | 'decode-block';

const TILE_READ = 'let bv = Bs[k * 8u + lid.x];';
const TILED = ['matmul_nn_v4', 'matmul_nt_v4', 'matmul_tn_v4'] as const;
const ATTENTION_ACC = 'acc[i] += a * tileA[tb + j * hs + i];';
/** Each injected fault: the kernels it replaces, the source file, the text it changes and how. */
const FAULTS: Record<Exclude<Breakage, 'none' | 'tiled-matmul'>, { kernels: KernelName[]; file: keyof typeof SHADER_SOURCES; from: string | RegExp; to: string }> = {
  'tiled-attention': { kernels: ['attention_forward_tiled'], file: 'attention_tiled', from: ATTENTION_ACC, to: 'acc[i] += 1.01 * a * tileA[tb + j * hs + i];' },
  'multi-tile': { kernels: ['attention_forward_tiled'], file: 'attention_tiled', from: 'let a = att[row + k0 + j];', to: 'let a = att[row + k0 + j] * select(1.0, 1.01, k0 > 0u);' },
  sampling: { kernels: ['sample_next'], file: 'sample', from: 'uniform4(u.seed, u.stream, r, i) * S', to: 'uniform4(u.seed, u.stream, r, i + 1u) * S' },
  temperature: { kernels: ['sample_next'], file: 'sample', from: 'let tau = select(1.0, u.temperature, u.temperature > 0.0);', to: 'let tau = select(1.0, 1.0025 * u.temperature, u.temperature > 0.0);' },
  'sequence-loss': { kernels: ['policy_loss_rows'], file: 'policy_loss', from: 'let seq_ratio = exp(lr_sum / max(len, 1.0));', to: 'let seq_ratio = 1.01 * exp(lr_sum / max(len, 1.0));' },
  gelu: { kernels: ['matmul_nn_v4', 'matmul_nn_v4d'], file: 'matmul_vec4', from: 'aux[i] = gelu(v);', to: 'aux[i] = 1.01 * gelu(v);' },
  layernorm: { kernels: ['layernorm_forward_wg'], file: 'layernorm', from: 'out[x + i] = (inp[x + i] - m) * r * gamma[i]', to: 'out[x + i] = 1.01 * (inp[x + i] - m) * r * gamma[i]' },
  // the workgroup-tree LayerNorm backward's dx (the second `var d = …` of the file; the first is the row form's)
  'layernorm-backward': { kernels: ['layernorm_backward_dx_wg'], file: 'layernorm', from: /(?<pre>let acc = \(u\.flags & 1u\) != 0u;\n\s*for \(var i = lid; i < u\.C; i \+= 64u\) \{\n\s*let xhat = \(inp\[x \+ i\] - m\) \* s;\n\s*let g = gamma\[i\] \* dout\[x \+ i\];\n\s*var d = )/, to: '$<pre>1.01 * ' },
  // the parameter gradients the workgroup-tree dx kernel takes in its first workgroups (ln_params_column; the row form's copy stays right)
  'layernorm-params': { kernels: ['layernorm_backward_dx_wg'], file: 'layernorm', from: 'lnParamPartial[lid + 48u];\n    dgamma[i] = t.x;', to: 'lnParamPartial[lid + 48u];\n    dgamma[i] = 1.01 * t.x;' },
  adamw: { kernels: ['adamw_step', 'adamw_clip_step'], file: 'adamw', from: /(\n\s*)(v\[i\]\s*=)/, to: '$1$2 1.5 *' },
  'optimizer-clip': { kernels: ['adamw_clip_step'], file: 'adamw', from: 'for (var k = lid.x; k < nu.P; k += 256u)', to: 'for (var k = lid.x; k + 1u < nu.P; k += 256u)' },
  'decode-block': { kernels: ['decode_block'], file: 'decode_block', from: '    ln[i] = s;', to: '    ln[i] = 1.0025 * s;' },
};

export async function runSelfChecks(cases: Breakage[]) {
  const be = await createWebGPUBackend({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 4, matmulForm: 'tiled', reductionForm: 'workgroup', attentionForm: 'tiled', decodeForm: 'fused' });
  const { kernels, ops } = be.ctx;
  const swap = async (names: readonly KernelName[], code: string) => {
    const undo = await kernels.replace(names, code);
    ops.clearBindGroups();
    return () => { undo(); ops.clearBindGroups(); };
  };
  const out = [];
  try {
    for (const broken of cases) {
      ops.matmulForm = 'tiled';
      ops.forceScalarMatmul = false;
      ops.reductionForm = 'workgroup';
      ops.attentionForm = 'tiled';
      ops.decodeForm = 'fused';
      let putBack = () => {};
      if (broken === 'tiled-matmul') {
        if (!SHADER_SOURCES.matmul_vec4.includes(TILE_READ)) throw new Error('the tiled matmul changed: update the injected bug');
        // a lane mix-up in the workgroup tile: exactly the kind of bug a CPU emulator can hide
        putBack = await swap(TILED, SHADER_SOURCES.matmul_vec4.replace(TILE_READ, 'let bv = Bs[k * 8u + (lid.x + 1u) % 8u];'));
      }
      const fault = broken === 'none' || broken === 'tiled-matmul' ? null : FAULTS[broken];
      if (fault) {
        const src = SHADER_SOURCES[fault.file];
        const changed = src.replace(fault.from, fault.to);
        if (changed === src) throw new Error(`${fault.file}.wgsl changed: update the injected fault "${broken}"`);
        putBack = await swap(fault.kernels, changed);
      }
      const weightsBefore = await be.getWeights();
      const r = await selfCheck(be);
      const weightsAfter = await be.getWeights();
      let restored = weightsBefore.length === weightsAfter.length;
      for (let i = 0; i < weightsBefore.length && restored; i++) restored = weightsBefore[i] === weightsAfter[i];
      out.push({ ...r, broken, restored, opsForms: { matmul: ops.matmulForm, scalar: ops.forceScalarMatmul, reduction: ops.reductionForm, attention: ops.attentionForm, decode: ops.decodeForm } });
      putBack();
    }
    return out;
  } finally {
    be.dispose();
  }
}

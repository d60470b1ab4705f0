/**
 * Browser-side body of e2e/gpu-self-check.spec.ts: the engine's self-check (src/model/selfCheck.ts)
 * on this adapter with the GPU forms forced (tiled matmul, workgroup-tree reductions, tiled
 * attention), as it is, with a tiled matmul kernel broken on purpose (a tile read from the wrong
 * lane), with the tiled attention broken (its V sum scaled by 1.01), and with the AdamW kernel
 * broken in every form — on one engine, each broken kernel put back after its case.
 */
import { createWebGPUBackend } from '../backend.ts';
import { SHADER_SOURCES, type KernelName } from '../kernels.ts';
import { CONFIGS } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { selfCheck } from '../../model/selfCheck.ts';

export type Breakage = 'none' | 'tiled-matmul' | 'tiled-attention' | 'adamw';

const TILE_READ = 'let bv = Bs[k * 8u + lid.x];';
const TILED = ['matmul_nn_v4', 'matmul_nt_v4', 'matmul_tn_v4'] as const;
const ATTENTION_ACC = 'acc[i] += a * tileA[tb + j * hs + i];';

export async function runSelfChecks(cases: Breakage[]) {
  const be = await createWebGPUBackend({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 4, matmulForm: 'tiled', reductionForm: 'workgroup', attentionForm: 'tiled' });
  const { device, kernels, ops } = be.ctx;
  const swap = async (names: readonly KernelName[], code: string) => {
    for (const k of names) await kernels.replace(device, k, code);
    ops.clearBindGroups();
  };
  const out = [];
  try {
    for (const broken of cases) {
      ops.matmulForm = 'tiled';
      ops.forceScalarMatmul = false;
      ops.reductionForm = 'workgroup';
      ops.attentionForm = 'tiled';
      if (broken === 'tiled-matmul') {
        if (!SHADER_SOURCES.matmul_vec4.includes(TILE_READ)) throw new Error('the tiled matmul changed: update the injected bug');
        // a lane mix-up in the workgroup tile: exactly the kind of bug a CPU emulator can hide
        await swap(TILED, SHADER_SOURCES.matmul_vec4.replace(TILE_READ, 'let bv = Bs[k * 8u + (lid.x + 1u) % 8u];'));
      }
      if (broken === 'tiled-attention') {
        if (!SHADER_SOURCES.attention_tiled.includes(ATTENTION_ACC)) throw new Error('the tiled attention changed: update the injected bug');
        // the weighted sum over V tiles scaled by 1.01: small, and wrong
        await swap(['attention_forward_tiled'], SHADER_SOURCES.attention_tiled.replace(ATTENTION_ACC, 'acc[i] += 1.01 * a * tileA[tb + j * hs + i];'));
      }
      // wrong in every form: the update's second moment is off by a factor
      if (broken === 'adamw') await swap(['adamw_step'], SHADER_SOURCES.adamw.replace(/(\n\s*)(v\[i\]\s*=)/, '$1$2 1.5 *'));
      const weightsBefore = await be.getWeights();
      const r = await selfCheck(be);
      const weightsAfter = await be.getWeights();
      let restored = weightsBefore.length === weightsAfter.length;
      for (let i = 0; i < weightsBefore.length && restored; i++) restored = weightsBefore[i] === weightsAfter[i];
      out.push({ ...r, broken, restored, opsForms: { matmul: ops.matmulForm, scalar: ops.forceScalarMatmul, reduction: ops.reductionForm, attention: ops.attentionForm } });
      if (broken === 'tiled-matmul') await swap(TILED, SHADER_SOURCES.matmul_vec4);
      if (broken === 'tiled-attention') await swap(['attention_forward_tiled'], SHADER_SOURCES.attention_tiled);
      if (broken === 'adamw') await swap(['adamw_step'], SHADER_SOURCES.adamw);
    }
    return out;
  } finally {
    be.dispose();
  }
}

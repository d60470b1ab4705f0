/**
 * Browser-side body of e2e/gpu-self-check.spec.ts: the engine's self-check (src/model/selfCheck.ts)
 * on this adapter with the GPU forms forced (tiled matmul, workgroup-tree reductions), as it is,
 * with a tiled matmul kernel broken on purpose (a tile read from the wrong lane), and with the
 * AdamW kernel broken in every form.
 */
import { SHADER_SOURCES } from '../kernels.ts';
import { createWebGPUBackend } from '../backend.ts';
import { CONFIGS } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { selfCheck } from '../../model/selfCheck.ts';

const TILE_READ = 'let bv = Bs[k * 8u + lid.x];';
const matmulVec4Src = SHADER_SOURCES.matmul_vec4;
const adamwSrc = SHADER_SOURCES.adamw;

export async function runSelfCheck(broken: 'none' | 'tiled-matmul' | 'adamw') {
  const be = await createWebGPUBackend({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 4, matmulForm: 'tiled', reductionForm: 'workgroup' });
  try {
    const { device, kernels, ops } = be.ctx;
    if (broken === 'tiled-matmul') {
      if (!matmulVec4Src.includes(TILE_READ)) throw new Error('the tiled matmul changed: update the injected bug');
      // a lane mix-up in the workgroup tile: exactly the kind of bug a CPU emulator can hide
      const bad = matmulVec4Src.replace(TILE_READ, 'let bv = Bs[k * 8u + (lid.x + 1u) % 8u];');
      for (const k of ['matmul_nn_v4', 'matmul_nt_v4', 'matmul_tn_v4'] as const) await kernels.replace(device, k, bad);
    }
    if (broken === 'adamw') {
      // wrong in every form: the update's second moment is off by a factor
      await kernels.replace(device, 'adamw_step', adamwSrc.replace(/(\n\s*)(v\[i\]\s*=)/, '$1$2 1.5 *'));
    }
    ops.clearBindGroups();
    const weightsBefore = await be.getWeights();
    const r = await selfCheck(be);
    const weightsAfter = await be.getWeights();
    let restored = weightsBefore.length === weightsAfter.length;
    for (let i = 0; i < weightsBefore.length && restored; i++) restored = weightsBefore[i] === weightsAfter[i];
    return { ...r, restored, opsForms: { matmul: ops.matmulForm, scalar: ops.forceScalarMatmul, reduction: ops.reductionForm } };
  } finally {
    be.dispose();
  }
}

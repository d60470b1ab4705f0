/**
 * Browser-side body of e2e/gpu-self-check.spec.ts: the engine's self-check (src/model/selfCheck.ts)
 * on this adapter with the GPU forms forced (tiled matmul, workgroup-tree reductions), as it is,
 * with a tiled matmul kernel broken on purpose (a tile read from the wrong lane), and with the
 * AdamW kernel broken in every form — on one engine, each broken kernel put back after its case.
 */
import { createWebGPUBackend } from '../backend.ts';
import { SHADER_SOURCES, type KernelName } from '../kernels.ts';
import { CONFIGS } from '../../model/config.ts';
import { VOCAB_SIZE } from '../../tasks/tokenizer.ts';
import { selfCheck } from '../../model/selfCheck.ts';

export type Breakage = 'none' | 'tiled-matmul' | 'adamw';

const TILE_READ = 'let bv = Bs[k * 8u + lid.x];';
const TILED = ['matmul_nn_v4', 'matmul_nt_v4', 'matmul_tn_v4'] as const;

export async function runSelfChecks(cases: Breakage[]) {
  const be = await createWebGPUBackend({ vocabSize: VOCAB_SIZE, ...CONFIGS.micro }, { seed: 4, matmulForm: 'tiled', reductionForm: 'workgroup' });
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
      if (broken === 'tiled-matmul') {
        if (!SHADER_SOURCES.matmul_vec4.includes(TILE_READ)) throw new Error('the tiled matmul changed: update the injected bug');
        // a lane mix-up in the workgroup tile: exactly the kind of bug a CPU emulator can hide
        await swap(TILED, SHADER_SOURCES.matmul_vec4.replace(TILE_READ, 'let bv = Bs[k * 8u + (lid.x + 1u) % 8u];'));
      }
      // wrong in every form: the update's second moment is off by a factor
      if (broken === 'adamw') await swap(['adamw_step'], SHADER_SOURCES.adamw.replace(/(\n\s*)(v\[i\]\s*=)/, '$1$2 1.5 *'));
      const weightsBefore = await be.getWeights();
      const r = await selfCheck(be);
      const weightsAfter = await be.getWeights();
      let restored = weightsBefore.length === weightsAfter.length;
      for (let i = 0; i < weightsBefore.length && restored; i++) restored = weightsBefore[i] === weightsAfter[i];
      out.push({ ...r, broken, restored, opsForms: { matmul: ops.matmulForm, scalar: ops.forceScalarMatmul, reduction: ops.reductionForm } });
      if (broken === 'tiled-matmul') await swap(TILED, SHADER_SOURCES.matmul_vec4);
      if (broken === 'adamw') await swap(['adamw_step'], SHADER_SOURCES.adamw);
    }
    return out;
  } finally {
    be.dispose();
  }
}

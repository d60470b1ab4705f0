/**
 * npm run contract-cost [-- --backend cpu|dawn] [--lesson ID]
 *
 * What a lesson's evaluation contract costs: one full evaluation of its fixed held-out set
 * (CONTRACT_EVAL_SIZE prompts, greedy and G samples a prompt) from the lesson's base, timed on
 * the CPU reference or the WGSL engine through Dawn (a GPU's Vulkan driver, or SwiftShader), next
 * to one evaluation of the 32 prompts read between the two. A run of a lesson pays it twice
 * (step 0 and the verdict step). Prints one line per lesson variant; judge by the ratios.
 */
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../src/model/checkpoint.ts';
import { baseCheckpointPath } from '../src/rl/bases.ts';
import { CONTRACT_EVAL_SIZE } from '../src/rl/contract.ts';
import { CONTRACT_PROMPT_SEED, evaluatePolicy, HELDOUT_SIZE } from '../src/rl/evaluation.ts';
import { LESSONS, lessonSettings } from '../src/rl/lessons.ts';
import { taskDifficulty } from '../src/rl/rollout.ts';
import { defaultSettings } from '../src/rl/settings.ts';

async function main() {
  const args = process.argv.slice(2);
  const flag = (n: string) => { const i = args.indexOf(`--${n}`); return i >= 0 ? args[i + 1] : undefined; };
  const backend = flag('backend') === 'dawn' ? 'dawn' : 'cpu';
  if (backend === 'dawn') { const d = await import('./dawn.ts'); d.withDawnEnv(); console.log(`dawn: ${await d.installDawn()}`); }
  const { createBackend } = await import('../src/model/engines.ts');
  for (const l of LESSONS.filter((x) => !flag('lesson') || x.id === flag('lesson'))) {
    for (let v = 0; v < l.variants.length; v++) {
      const s = { ...lessonSettings(l, defaultSettings(), v), seed: 1 };
      const ck = decodeCheckpoint(new Uint8Array(readFileSync(baseCheckpointPath(s.task, s.difficulty, s.watchTask)!)));
      const be = await createBackend(backend === 'cpu' ? 'cpu' : 'webgpu', ck.config, { seed: 1, weights: ck.weights });
      const time = async (size: number) => {
        const t0 = performance.now();
        await evaluatePolicy(be, s, { size, difficulties: [taskDifficulty(s)], passAtK: true, step: 0, promptSeed: CONTRACT_PROMPT_SEED, perPrompt: true });
        return performance.now() - t0;
      };
      await time(8); // warm: pipelines compiled, caches filled
      const small = await time(HELDOUT_SIZE), full = await time(CONTRACT_EVAL_SIZE);
      console.log(`${l.id} #${v} (G = ${s.numGenerations}): ${CONTRACT_EVAL_SIZE} prompts ${(full / 1000).toFixed(2)} s, ${HELDOUT_SIZE} prompts ${(small / 1000).toFixed(2)} s (${(full / small).toFixed(1)}×)`);
      be.dispose();
    }
  }
}

main().catch((e) => { console.error(e); process.exit(1); });

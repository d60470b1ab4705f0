/**
 * The browser side of `npm run train -- --backend webgpu`: the same run loop as the CPU path
 * (src/rl/run.ts), on the WebGPU engine, streaming each JSONL record to the CLI through the
 * functions it exposed on the page (__emit, __log). Returns the final weights.
 * With `taskSpec` (--task-file) the custom task is registered in the page first, and with
 * `coldStart` (--cold-start) a fresh policy is fine-tuned to the capability boundary before GRPO.
 */
import type { ModelConfig } from '../model/config.ts';
import { createBackend } from '../model/engines.ts';
import { registerSpec } from '../tasks/spec/task.ts';
import { coldStartForRun } from './coldStartSpec.ts';
import { runTraining } from './run.ts';
import { lessonRun } from './lessonContract.ts';
import type { Settings } from './settings.ts';

export async function runWebGPUTraining(a: { settings: Settings; steps: number; config: ModelConfig; weights: number[] | null; evalSize: number; passAtK: boolean; lesson?: { id: string; variant: number }; taskSpec?: unknown; coldStart?: { target: number; maxSteps: number } }): Promise<number[]> {
  const g = globalThis as unknown as { __emit: (s: string) => void; __log: (s: string) => void };
  const be = await createBackend('webgpu', a.config, { seed: a.settings.seed, weights: a.weights ? new Float32Array(a.weights) : null });
  const lesson = a.lesson ? lessonRun(a.lesson.id, a.lesson.variant) : undefined;
  const emit = (r: Record<string, unknown>) => g.__emit(JSON.stringify(r));
  const task = a.taskSpec === undefined ? null : registerSpec(a.taskSpec);
  if (task && a.coldStart) {
    const r = await coldStartForRun(task, be, a.settings, { ...a.coldStart, evalSize: a.evalSize, emit, progress: (m) => g.__log(m) });
    if (!r.reached) throw new Error(r.sentence);
  }
  await runTraining(be, a.settings, { steps: a.steps, emit, progress: (m) => g.__log(m), evalSize: a.evalSize, evalPassAtK: a.passAtK, lesson });
  return Array.from(await be.getWeights());
}

/**
 * The browser side of `npm run train -- --backend webgpu`: the same run loop as the CPU path
 * (src/rl/run.ts), on the WebGPU engine, streaming each JSONL record to the CLI through the
 * functions it exposed on the page (__emit, __log). Returns the final weights.
 */
import type { ModelConfig } from '../model/config.ts';
import { createBackend } from '../model/engines.ts';
import { runTraining } from './run.ts';
import { getLesson } from './lessons.ts';
import type { Settings } from './settings.ts';

export async function runWebGPUTraining(a: { settings: Settings; steps: number; config: ModelConfig; weights: number[] | null; evalSize: number; passAtK: boolean; lesson?: { id: string; variant: number } }): Promise<number[]> {
  const g = globalThis as unknown as { __emit: (s: string) => void; __log: (s: string) => void };
  const be = await createBackend('webgpu', a.config, { seed: a.settings.seed, weights: a.weights ? new Float32Array(a.weights) : null });
  const l = a.lesson && getLesson(a.lesson.id);
  const lesson = l && a.lesson ? { ...a.lesson, claim: l.variants[a.lesson.variant].claim } : undefined;
  await runTraining(be, a.settings, { steps: a.steps, emit: (r) => g.__emit(JSON.stringify(r)), progress: (m) => g.__log(m), evalSize: a.evalSize, evalPassAtK: a.passAtK, lesson });
  return Array.from(await be.getWeights());
}

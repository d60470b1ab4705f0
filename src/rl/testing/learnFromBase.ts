/**
 * A GRPO run from a shipped base checkpoint on the CPU reference, with held-out accuracy
 * before and after — the body of the "it must learn" tests (src/rl/learning-*.test.ts).
 */
import { readFileSync } from 'node:fs';
import { decodeCheckpoint } from '../../model/checkpoint.ts';
import { ReferenceBackend } from '../../model/reference/backend.ts';
import { baseCheckpointPath } from '../bases.ts';
import { defaultSettings, type Settings } from '../settings.ts';
import { GrpoTrainer, type StepMetrics } from '../trainer.ts';

import { LEARNING_RECIPE } from './recipe.ts';

export async function learnFromBase(task: string, difficulty: number, steps: number, overrides: Partial<Settings> = {}) {
  const path = baseCheckpointPath(task, difficulty);
  if (!path) throw new Error(`no shipped base for ${task} d${difficulty}`);
  const ck = decodeCheckpoint(new Uint8Array(readFileSync(path)));
  const be = new ReferenceBackend(ck.config, ck.weights);
  await be.snapshotReference();
  const settings: Settings = { ...defaultSettings(), task, difficulty, ...LEARNING_RECIPE, ...overrides };
  const tr = new GrpoTrainer(be, settings, { evalSize: 64, evalPassAtK: true });
  const before = await tr.evaluate();
  const metrics: StepMetrics[] = [];
  for (let i = 0; i < steps; i++) metrics.push((await tr.trainStep()).metrics);
  const after = await tr.evaluate();
  return { base: ck.metadata, before, after, metrics };
}

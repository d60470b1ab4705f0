// The training pool: trainPool > 0 draws every step's prompts from a fixed set of that many distinct
// training prompts (never held-out ones); 0 draws fresh prompts from the whole training split.
import { describe, expect, it } from 'vitest';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { CONFIGS } from '../model/config.ts';
import { initWeights } from '../model/init.ts';
import { paramLayout } from '../model/config.ts';
import { Rng } from '../model/rng.ts';
import { getTask } from '../tasks/registry.ts';
import { isHeldOut } from '../tasks/split.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { sampleGroups, trainingPool } from './rollout.ts';
import { defaultSettings, type Settings } from './settings.ts';

describe('training pool', () => {
  it('is n distinct training prompts, fixed by the seed', () => {
    const pool = trainingPool(getTask('add'), 2, 3, 24);
    expect(new Set(pool).size).toBe(24);
    expect(pool.every((p) => !isHeldOut('add', p))).toBe(true);
    expect(trainingPool(getTask('add'), 2, 3, 24)).toEqual(pool);
    expect(trainingPool(getTask('add'), 2, 4, 24)).not.toEqual(pool);
  });

  it('a run with trainPool = 6 sees only those 6 prompts over its steps; trainPool = 0 keeps drawing new ones', async () => {
    const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
    const be = new ReferenceBackend(config, initWeights(paramLayout(config), 1));
    const seen = async (s: Settings) => {
      const rng = new Rng(s.seed);
      const prompts = new Set<string>();
      for (let step = 0; step < 4; step++) for (const g of (await sampleGroups(be, s, rng, step)).groups) prompts.add(g.prompt);
      return prompts;
    };
    const s: Settings = { ...defaultSettings(), task: 'add', difficulty: 2, promptsPerStep: 8, numGenerations: 2, maxCompletionLength: 2, seed: 5 };
    const small = await seen({ ...s, trainPool: 6 });
    const pool = trainingPool(getTask('add'), 2, 5, 6);
    expect([...small].every((p) => pool.includes(p))).toBe(true);
    expect(small.size).toBeGreaterThan(3); // drawn with replacement from all six, not one
    expect((await seen({ ...s, trainPool: 0 })).size).toBeGreaterThan(20);
  });
});

// The self-check's sampling half on the CPU: an engine whose sampling ignores the temperature (it
// samples at τ = 1 whatever it is asked) is caught, because the check samples at τ ≠ 1; at τ = 1
// (what the check sampled before) the same broken engine would pass.
import { describe, expect, it } from 'vitest';
import type { SampleRequest } from './backend.ts';
import { CONFIGS } from './config.ts';
import { ReferenceBackend } from './reference/backend.ts';
import { Comparer, Mismatch } from './selfCheckCompare.ts';
import { SAMPLE_CHECK_TEMPERATURE, sampleDists, sampleRequests } from './selfCheckSampling.ts';

const config = { vocabSize: 40, ...CONFIGS.micro };
const prompts = [[1, 7, 11, 5], [1, 13, 6]];

async function check(temperature: number, ignoreTau: boolean): Promise<string | null> {
  const be = ReferenceBackend.create(config, 5);
  const weights = await be.getWeights();
  const req: SampleRequest = { ...sampleRequests(prompts, config.seqLen)[1], temperature };
  const ref = await be.sample(req);
  const c = new Comparer({ tensors: new Map() });
  const gpu = await be.sample(ignoreTau ? { ...req, temperature: 1 } : req); // the broken kernel: τ read as 1
  try {
    c.checkSample('sampling', gpu, { req, out: ref, dists: sampleDists(config, weights, req, ref) });
    return null;
  } catch (e) {
    if (e instanceof Mismatch) return e.message;
    throw e;
  } finally {
    be.dispose();
  }
}

describe('self-check sampling', () => {
  it(`samples at τ = ${SAMPLE_CHECK_TEMPERATURE} besides greedy, and a kernel that ignores τ fails it at the first log-prob`, async () => {
    const reqs = sampleRequests(prompts, config.seqLen);
    expect(reqs.map((r) => r.temperature)).toEqual([0, SAMPLE_CHECK_TEMPERATURE]);
    expect(SAMPLE_CHECK_TEMPERATURE).not.toBe(1);
    expect(await check(SAMPLE_CHECK_TEMPERATURE, false)).toBeNull();
    expect(await check(SAMPLE_CHECK_TEMPERATURE, true)).toMatch(/^sampling: log-probs row 0 token 0: /);
    expect(await check(1, true)).toBeNull(); // why τ = 1 alone could not see it
  });
});

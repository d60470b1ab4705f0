// The RecoverableBackend (src/model/recoverable.ts) the run controller trains on, on the CPU reference:
// the last good state follows every finite update, a NaN update is undone by restore(), and an
// engine replaced after a (simulated) device loss continues exactly like one that never died.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADAMW, type Backend, type LossSpec } from './backend.ts';
import { packBatch } from './batch.ts';
import { CONFIGS } from './config.ts';
import { ReferenceBackend } from './reference/backend.ts';
import { DeviceLostError, RecoverableBackend } from './recoverable.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';

const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro, seqLen: 12, dModel: 16, nLayers: 1 };
const batch = packBatch([{ prompt: [1, 5, 6, 7], response: [8, 9, 2] }, { prompt: [1, 10, 11], response: [12, 2] }], config.seqLen);
const ce: LossSpec = { kind: 'ce' };
const opt = { ...DEFAULT_ADAMW, lr: 3e-3 };
const same = (a: Float32Array, b: Float32Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

describe('RecoverableBackend', () => {
  it('keeps the last good state after finite updates and rolls a NaN update back', async () => {
    const be = await RecoverableBackend.wrap(ReferenceBackend.create(config, 3));
    await be.snapshotReference();
    expect(same(be.referenceWeights!, await be.getWeights())).toBe(true);
    for (let i = 0; i < 3; i++) expect((await be.trainStep(batch, ce, opt)).finite).toBe(true);
    expect(be.commit()).toBe(true); // the trainer accepts the step
    const good = be.lastGood!;
    expect(be.committed).toBe(good);
    expect(good.optimizer.step).toBe(3);
    expect(same(good.weights, await be.getWeights())).toBe(true);
    // poison one weight behind the wrapper's back: the next update is non-finite and not recorded
    (be.engine as ReferenceBackend).model.params[0] = NaN;
    const r = await be.trainStep(batch, ce, opt);
    expect(r.finite).toBe(false);
    expect(be.lastGood).toBe(good);
    expect(be.lastGoodIsFinite).toBe(true);
    await be.rollback();
    expect(same(await be.getWeights(), good.weights)).toBe(true);
    expect((await be.getOptimizerState()).step).toBe(3);
    expect((await be.trainStep(batch, ce, opt)).finite).toBe(true);
    // weights that are not all finite are never committed: a rollback returns to the last commit
    const poisoned = Float32Array.from(good.weights);
    poisoned[5] = Infinity;
    await be.setWeights(poisoned);
    expect(be.commit()).toBe(false);
    expect(be.committed).toBe(good);
    await be.rollback();
    expect(same(await be.getWeights(), good.weights)).toBe(true);
  });

  it('a replaced engine continues exactly like one that never died; device loss becomes DeviceLostError', async () => {
    // A CPU engine dressed as a GPU one: a `lost` promise we resolve, and calls that fail once lost.
    let loseDevice!: (info: { reason: string; message: string }) => void;
    const fragile = (inner: ReferenceBackend) => {
      let lost = false;
      const lostPromise = new Promise<{ reason: string; message: string }>((r) => { loseDevice = (i) => { lost = true; r(i); }; });
      return new Proxy(inner, {
        get(t, k, recv) {
          if (k === 'lost') return lostPromise;
          const v = Reflect.get(t, k, recv);
          return typeof v === 'function' ? (...a: unknown[]) => (lost && k !== 'dispose' ? Promise.reject(new Error('mapAsync: Device is lost')) : v.apply(t, a)) : v;
        },
      }) as unknown as Backend;
    };
    const twin = ReferenceBackend.create(config, 4); // never dies
    await twin.snapshotReference();
    const be = await RecoverableBackend.wrap(fragile(ReferenceBackend.create(config, 4)));
    await be.snapshotReference();
    const losses: string[] = [];
    be.onLost = (i) => losses.push(i.reason);
    for (let i = 0; i < 2; i++) {
      await be.trainStep(batch, ce, opt);
      expect(be.commit()).toBe(true);
      await twin.trainStep(batch, ce, opt);
    }
    loseDevice({ reason: 'unknown', message: 'driver reset' });
    await expect(be.trainStep(batch, ce, opt)).rejects.toBeInstanceOf(DeviceLostError);
    expect(losses).toEqual(['unknown']);
    const restored = await be.replaceEngine(async (w) => new ReferenceBackend(config, w));
    expect(restored).toBe(2);
    const rows: { step: number; recovered: number; twin: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await be.trainStep(batch, { kind: 'policy', advantages: new Float32Array([1, -1]), oldLogprobs: null, epsilon: 0.2, epsilonHigh: 0.2, beta: 0.05, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 3, temperature: 1 }, opt);
      const b = await twin.trainStep(batch, { kind: 'policy', advantages: new Float32Array([1, -1]), oldLogprobs: null, epsilon: 0.2, epsilonHigh: 0.2, beta: 0.05, klEstimator: 'k3', lossType: 'grpo', importanceSamplingLevel: 'token', entropyCoef: 0, maxCompletionLength: 3, temperature: 1 }, opt);
      rows.push({ step: 3 + i, recovered: a.loss, twin: b.loss });
      expect(a.loss).toBe(b.loss); // β > 0: π_ref was restored too
    }
    console.table(rows);
    expect(same(await be.getWeights(), await twin.getWeights())).toBe(true);
    expect(losses).toEqual(['unknown']); // disposing the lost engine ourselves is not a second loss
  });
});

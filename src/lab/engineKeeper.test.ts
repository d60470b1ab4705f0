// The warm WebGPU engine while it still evaluates the left run at step 0 (a lesson's contract,
// seconds on SwiftShader): a lesson switch on `auto` does not wait for it. The new run starts on
// the CPU engine, saying why, and the warm engine is offered for the hand-over once it is free;
// `?backend=webgpu` (a pure WebGPU run) waits for it instead.
import { describe, expect, it } from 'vitest';
import { CONFIGS } from '../model/config.ts';
import { ReferenceBackend } from '../model/reference/backend.ts';
import { RecoverableBackend } from '../model/recoverable.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { useLab } from '../store/labStore.ts';
import { EngineKeeper } from './engineKeeper.ts';

const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };
/** A stand-in for a WebGPU engine: the reference, named webgpu, with a device that is never lost. */
function fakeGpu(): ReferenceBackend {
  const be = ReferenceBackend.create(config, 1);
  Object.defineProperty(be, 'name', { value: 'webgpu' });
  Object.assign(be, { lost: new Promise(() => {}), ctx: { description: 'a stand-in adapter' } });
  return be;
}
const keeper = () => new EngineKeeper({ get: () => useLab.getState(), set: () => {}, fault: () => {}, backend: () => null, completedSteps: () => 0, idle: () => false });

describe('engine keeper: a warm engine still evaluating the left run', () => {
  it('auto: the new run starts on the CPU engine at once, and the warm engine is ready for the hand-over once free', async () => {
    const k = keeper();
    const gpu = fakeGpu();
    let free!: () => void;
    k.retire(await RecoverableBackend.wrap(gpu), new Promise<void>((r) => { free = r; }));
    const notices: string[] = [];
    const be = await k.start('auto', config, null, 1, notices, () => {}); // would hang here if it waited
    expect(be.name).toBe('cpu');
    expect(notices.join(' ')).toMatch(/WebGPU is getting ready \(finishing the previous run's evaluation\)/);
    const pending = (k as unknown as { pending: { engine: unknown; settled: boolean; ready: Promise<unknown> } }).pending;
    expect(pending.settled).toBe(false);
    free();
    expect(await pending.ready).toBe(gpu);
    expect(pending.settled).toBe(true);
    be.dispose();
  }, 10_000); // a start that waits for the held evaluation never ends: this limit turns it red

  it('webgpu: the run waits for the warm engine, then runs on it', async () => {
    const k = keeper();
    const gpu = fakeGpu();
    let free!: () => void;
    k.retire(await RecoverableBackend.wrap(gpu), new Promise<void>((r) => { free = r; }));
    let done = false;
    const started = k.start('webgpu', config, null, 1, [], () => {}).then((be) => { done = true; return be; });
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    free();
    expect(await started).toBe(gpu);
  });
});

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

describe('engine keeper: a software WebGPU adapter (SwiftShader: the processor doing a graphics card\'s work)', () => {
  const swiftshader = async () => ({ available: true as const, vendor: 'google', architecture: 'swiftshader', description: '', software: true });
  const hardware = async () => ({ available: true as const, vendor: 'nvidia', architecture: 'hopper', description: '', software: false });
  const keeperWith = (probe: typeof swiftshader | typeof hardware, said: unknown[] = []) =>
    new EngineKeeper({ get: () => useLab.getState(), set: (p) => { said.push(p); }, fault: () => {}, backend: () => null, completedSteps: () => 0, idle: () => false }, probe);

  it('auto: the run takes the CPU engine at once, says why, and even a warm WebGPU engine is let go', async () => {
    const said: unknown[] = [];
    const k = keeperWith(swiftshader, said);
    const gpu = fakeGpu();
    let disposed = false;
    gpu.dispose = () => { disposed = true; };
    k.retire(await RecoverableBackend.wrap(gpu));
    const notices: string[] = [];
    const be = await k.start('auto', config, null, 1, notices, () => {});
    expect(be.name).toBe('cpu');
    expect(disposed).toBe(true);
    expect(notices.join(' ')).toContain("This browser's WebGPU adapter (google / swiftshader) is a software one");
    expect(notices.join(' ')).not.toMatch(/getting ready/); // no hand-over: WebGPU is not compiled at all
    expect((k as unknown as { pending: unknown }).pending).toBeNull();
    expect(said).toContainEqual({ webgpu: await swiftshader() }); // the header reads the same report
    be.dispose();
  });

  it('auto, a resumed run: the CPU engine too (it would wait for WebGPU on a graphics card)', async () => {
    const soft = keeperWith(swiftshader);
    soft.retire(await RecoverableBackend.wrap(fakeGpu()));
    const be = await soft.start('auto', config, null, 1, [], () => {}, undefined, true);
    expect(be.name).toBe('cpu');
    be.dispose();
    const hard = keeperWith(hardware);
    const gpu = fakeGpu();
    hard.retire(await RecoverableBackend.wrap(gpu));
    expect(await hard.start('auto', config, null, 1, [], () => {}, undefined, true)).toBe(gpu);
  });

  it('webgpu asked for: WebGPU still runs on the software adapter', async () => {
    const k = keeperWith(swiftshader);
    const gpu = fakeGpu();
    k.retire(await RecoverableBackend.wrap(gpu));
    const notices: string[] = [];
    expect(await k.start('webgpu', config, null, 1, notices, () => {})).toBe(gpu);
    expect(notices.join(' ')).not.toMatch(/software one/);
  });

  it('auto on a graphics card: the warm WebGPU engine runs the next run, as before', async () => {
    const k = keeperWith(hardware);
    const gpu = fakeGpu();
    k.retire(await RecoverableBackend.wrap(gpu));
    expect(await k.start('auto', config, null, 1, [], () => {})).toBe(gpu);
  });
});

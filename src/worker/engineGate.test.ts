// The WebGPU worker's gate: the page's calls share the engine, an idle-time autotune slice has it
// to itself — it waits for the calls under way, and calls that arrive meanwhile wait for it.
import { describe, expect, it } from 'vitest';
import { EngineGate } from './engineGate.ts';

const later = () => { let open!: () => void; const p = new Promise<void>((r) => { open = r; }); return { p, open }; };
const flush = async () => { for (let i = 0; i < 10; i++) await Promise.resolve(); };

describe('EngineGate', () => {
  it('lets calls overlap', async () => {
    const g = new EngineGate();
    const a = later(), b = later();
    const log: string[] = [];
    const x = g.shared(async () => { log.push('a in'); await a.p; log.push('a out'); });
    const y = g.shared(async () => { log.push('b in'); await b.p; log.push('b out'); });
    await flush();
    expect(log).toEqual(['a in', 'b in']);
    b.open(); a.open();
    await Promise.all([x, y]);
  });

  it('a slice waits for the calls under way; calls that arrive meanwhile wait for the slice', async () => {
    const g = new EngineGate();
    const step = later(), slice = later();
    const log: string[] = [];
    const s1 = g.shared(async () => { log.push('step in'); await step.p; log.push('step out'); });
    await flush();
    const t = g.exclusive(async () => { log.push('slice in'); await slice.p; log.push('slice out'); return 7; });
    await flush();
    expect(g.held).toBe(true);
    expect(g.waiting).toBe(false);
    const s2 = g.shared(async () => { log.push('next in'); });
    await flush();
    expect(log).toEqual(['step in']); // the slice waits for the step, the next call for the slice
    expect(g.waiting).toBe(true); // the slice hears it (autotune.ts stop) and ends after its run under way
    step.open();
    await flush();
    expect(log).toEqual(['step in', 'step out', 'slice in']);
    slice.open();
    expect(await t).toBe(7);
    await Promise.all([s1, s2]);
    expect(log).toEqual(['step in', 'step out', 'slice in', 'slice out', 'next in']);
    expect(g.waiting).toBe(false);
    expect(g.held).toBe(false);
  });

  it('a slice that throws lets the calls through', async () => {
    const g = new EngineGate();
    await expect(g.exclusive(async () => { throw new Error('device lost'); })).rejects.toThrow('device lost');
    expect(await g.shared(() => 3)).toBe(3);
  });
});

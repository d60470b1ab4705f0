// Where the CPU engine's workers cannot start (a content-security policy, an old browser), the
// engine runs on the page's thread and the session remembers it: the page's later runs (a reset,
// a lesson, a recovery) do not try again. Workers that start but answer too late (a busy machine)
// are tried again at the next run: one slow moment must not leave the page computing for good.
import { describe, expect, it, vi } from 'vitest';
import { CONFIGS } from '../model/config.ts';
import { VOCAB_SIZE } from '../tasks/tokenizer.ts';
import { CheckedAdapters, cpuEngine, NO_WORKER_SENTENCE } from './engine.ts';

const config = { vocabSize: VOCAB_SIZE, ...CONFIGS.micro };

describe('cpuEngine without workers', () => {
  it('runs on the page, says so each run, and tries the workers once a session', async () => {
    const g = globalThis as { Worker?: unknown };
    const had = g.Worker;
    const made = { n: 0 };
    g.Worker = class { constructor() { made.n++; throw new Error('blocked by the page\'s content-security policy'); } };
    try {
      const session = new CheckedAdapters();
      const first: string[] = [], second: string[] = [];
      const a = await cpuEngine(config, 1, null, first, session);
      expect(made.n).toBe(1);
      expect(session.workersFailed).toBe(true);
      const b = await cpuEngine(config, 1, null, second, session);
      expect(made.n).toBe(1); // not tried again
      expect([first, second]).toEqual([[NO_WORKER_SENTENCE], [NO_WORKER_SENTENCE]]);
      expect([a.name, b.name]).toEqual(['cpu', 'cpu']);
      await cpuEngine(config, 1, null, [], new CheckedAdapters()); // another page (session) tries again
      expect(made.n).toBe(2);
      a.dispose();
      b.dispose();
    } finally {
      g.Worker = had;
    }
  });

  it('workers that started but did not answer in time are tried again at the next run', async () => {
    const g = globalThis as { Worker?: unknown };
    const had = g.Worker;
    const made = { n: 0 };
    g.Worker = class { // starts, never answers
      constructor() { made.n++; }
      addEventListener() {}
      removeEventListener() {}
      postMessage() {}
      terminate() {}
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      const session = new CheckedAdapters();
      const notices: string[] = [];
      const first = cpuEngine(config, 1, null, notices, session);
      await vi.advanceTimersByTimeAsync(20_001); // the start's time limit
      const a = await first;
      expect(a.name).toBe('cpu');
      expect(notices).toEqual([NO_WORKER_SENTENCE]);
      expect(session.workersFailed).toBe(false);
      const tried = made.n;
      const second = cpuEngine(config, 1, null, [], session);
      await vi.advanceTimersByTimeAsync(20_001);
      (await second).dispose();
      expect(made.n).toBeGreaterThan(tried); // tried again
      a.dispose();
    } finally {
      vi.useRealTimers();
      g.Worker = had;
    }
  });
});

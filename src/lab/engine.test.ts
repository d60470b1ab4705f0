// Where the CPU engine's workers cannot start (a content-security policy, an old browser), the
// engine runs on the page's thread and the session remembers it: the page's later runs (a reset,
// a lesson, a recovery) do not try again, so a start that hangs waits out its limit only once.
import { describe, expect, it } from 'vitest';
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
});

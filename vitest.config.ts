import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The slowest files start first (measured on a fresh clone, seconds of one worker): with two
 * workers, a long file that starts last runs alone at the end (learning-add ran 95 s alone there).
 */
const SLOW_FIRST = ['src/rl/lessons.null.test.ts', 'src/rl/lessons.test.ts', 'scripts/dawn.test.ts', 'src/rl/learning-add.test.ts', 'scripts/train.test.ts'];

class SlowFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => { const i = SLOW_FIRST.findIndex((p) => f.moduleId.endsWith(p)); return i < 0 ? SLOW_FIRST.length : i; };
    const sorted = await super.sort(files);
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // a hang guard, not a speed target: a lesson's effect test trains for minutes on a loaded 2-core
    // machine (lesson 6: 30 s idle, 260 s beside two busy loops); speed lives in npm run bench
    testTimeout: 600_000,
    pool: 'forks',
    // two files at a time: the learning and lesson tests are single-threaded CPU work, and CI has 2 cores
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 120_000,
    pool: 'forks',
    // two files at a time: the learning and lesson tests are single-threaded CPU work, and CI has 2 cores
    maxWorkers: 2,
  },
});

import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { testTimeoutMs } from './test/depth.js';

// `npm test`. vitest's default for a run is one worker fewer than the cores, which on 2 cores is
// one: most of the suite waits on child processes (the built CLI, kpt, git), so a worker per core.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    maxWorkers: availableParallelism(),
    testTimeout: testTimeoutMs,
    hookTimeout: testTimeoutMs,
  },
});

// How deep the suite goes. `npm test` is what a contributor runs before each commit: within
// 3 minutes on 2 cores (CONTRIBUTING.md). `npm run test:deep` (vitest.deep.config.ts sets
// TEST_DEPTH=deep; .ci/run runs it) adds the full property and fuzz repetitions and the inputs
// of millions of lines that guard against a stack overflow.
export const deep = process.env.TEST_DEPTH === 'deep';

/** A repetition count: `quick` for `npm test`, `full` under `npm run test:deep`. */
export const depth = (quick: number, full: number): number => (deep ? full : quick);

/**
 * vitest's per-test and per-hook timeout, a guard against a hang, never a speed bound: the
 * slowest test of `npm test` takes under a tenth of it on a loaded 2-core machine.
 */
export const testTimeoutMs = 180_000;

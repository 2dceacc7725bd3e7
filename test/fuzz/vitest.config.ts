// `npm run fuzz`: the mutation fuzzer (test/fuzz/fuzz.fuzz.ts) for FUZZ_MINUTES minutes (default
// 10). Not part of `npm test`, whose glob is test/**/*.test.ts; `FUZZ_MINUTES=1 FUZZ_SEED=1 npm run
// fuzz` is the CI mode (seed 1 runs clean through its first 40,000 mutants, a minute being 10,000
// to 20,000). test/fuzz/regressions.test.ts (in `npm test`) replays the saved findings, for what
// they break but their time; with FUZZ_COST_REPLAY=<report.json> (set by `npm run bench`) this
// config runs test/fuzz/cost.replay.ts instead, which times the timing findings.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const minutes = Number(process.env.FUZZ_MINUTES ?? 10);

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: [process.env.FUZZ_COST_REPLAY ? 'test/fuzz/cost.replay.ts' : 'test/fuzz/**/*.fuzz.ts'],
    // The run itself, then minimising what it found.
    testTimeout: (minutes * 60 + 900) * 1000,
  },
});

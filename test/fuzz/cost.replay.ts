// The fuzzer's timing findings (cost.ts), timed again: each one's time per KB against its saved
// parent's in this process, and the absolute bound. Not in `npm test` (times are no test results)
// nor in `npm run fuzz`: `npm run bench` (bench/adversarial.mjs) runs it through the fuzz config
// with FUZZ_COST_REPLAY=<report.json>, and prints the report it writes.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadFindings, timedRun } from './check.js';
import { type CostReplay, isCostFinding, replayCost } from './cost.js';
import { loadSeeds } from './seeds.js';

const report: CostReplay[] = [];

// Warm as the fuzzer is when it measures: every seed run a few times first.
beforeAll(() => {
  for (let k = 0; k < 3; k++) for (const seed of loadSeeds()) timedRun(seed.text);
});

for (const f of loadFindings().filter((f) => isCostFinding(f.description))) {
  it(`${f.hash}: ${f.description.slice(0, 120)}`, () => {
    const replay = replayCost(f);
    report.push(replay);
    expect(replay.verdict, replay.detail).toBeUndefined();
  });
}

afterAll(() => {
  if (process.env.FUZZ_COST_REPLAY)
    writeFileSync(process.env.FUZZ_COST_REPLAY, JSON.stringify(report));
});

// The fuzzer's timing findings (cost.ts), timed again: each one's time per KB against its saved
// parent's in this process, and the absolute bound. Not in `npm test` (times are no test results)
// nor in `npm run fuzz`: `npm run bench` (bench/adversarial.mjs) runs it through the fuzz config
// with FUZZ_COST_REPLAY=<report.json>, and prints the report it writes.
import { writeFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { loadFindings } from './check.js';
import { type CostReplay, isCostFinding, replayCost } from './cost.js';

const report: CostReplay[] = [];

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

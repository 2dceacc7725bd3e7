// `impact` plans each group of applications that render the same names on its own: hundreds of
// small plans where a tree holds many overlays. A plan's fixed cost is counted here: the reader's
// string cache (ScalarCache, 1.3 MB of tables to fill) is built for an input of many items only,
// where repeats pay for it (on main every plan built one: 2,000 overlays took 1.3 s in it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { impactCli } from '../src/impact-cli.js';
import { run } from '../src/run.js';

const built = vi.hoisted(() => ({ caches: 0 }));
vi.mock('../src/krm/yaml/quick-parse.js', async (original) => {
  const actual = await original<typeof import('../src/krm/yaml/quick-parse.js')>();
  class Counted extends actual.ScalarCache {
    constructor() {
      super();
      built.caches++;
    }
  }
  return { ...actual, ScalarCache: Counted };
});

const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: x
spec:
  template:
    spec:
      containers:
        - name: c
          image: i
`;

const scratch = mkdtempSync(path.join(tmpdir(), 'impact-plan-cost-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("a plan's fixed cost, counted", () => {
  it('20 overlays rendering one name: 42 plans, no string cache built', () => {
    for (const side of ['base', 'head']) {
      for (let i = 0; i < 20; i++) {
        mkdirSync(path.join(scratch, side, `o${i}`), { recursive: true });
        writeFileSync(path.join(scratch, side, `o${i}`, 'd.yaml'), deployment('same'));
      }
    }
    built.caches = 0;
    const out = impactCli(['base', 'head'], '9.9.9', scratch);
    expect(out.stdout).toContain('Nothing rolls');
    expect(built.caches).toBe(0);
  });

  it('an input of many items still reads through one', () => {
    const many = Array.from({ length: 200 }, (_, i) => deployment(`d${i}`)).join('---\n');
    built.caches = 0;
    expect(run(many, {}).exitCode).toBe(0);
    expect(built.caches).toBe(1);
  });
});

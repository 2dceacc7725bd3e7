// Where the string cache (ScalarCache: 1.3 MB of tables to fill) is built, counted: for an input of
// many items only, where repeats pay for it. `impact` plans each group of applications that render
// the same names on its own, hundreds of small plans where a tree holds many overlays (on main
// every plan built one: 2,000 overlays took 1.3 s in it); the proofs' re-reads of edited items
// share one (apply-edits.ts) where many items are edited, none for a few.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { impactCli } from '../src/impact-cli.js';
import { run } from '../src/run.js';
import { appTemplate, externalSecret, helmRelease, resourceList } from './helpers.js';

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

const scratch = mkdtempSync(path.join(tmpdir(), 'scalar-cache-cost-'));
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

describe("the proofs' cache, counted", () => {
  /** Runs an ExternalSecret and `releases` HelmReleases reading its Secret: each edit is proven. */
  const caches = (releases: number) => {
    built.caches = 0;
    const items = [externalSecret('db', { namespace: 'shop' })];
    for (let i = 0; i < releases; i++) items.push(helmRelease(`r${i}`, appTemplate('db')));
    const out = run(resourceList(items));
    expect(out.exitCode).toBe(0);
    expect(out.stdout.match(/postRenderers:/g)).toHaveLength(releases);
    return built.caches;
  };

  it('is built for many edited items, and not for a few', () => {
    // A few: neither the reader nor the proofs build one (fdb9a90 built the proofs' one: 1).
    expect(caches(3)).toBe(0);
    // Many: the reader's and the proofs' own.
    expect(caches(200)).toBe(2);
  });
});

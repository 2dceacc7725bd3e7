// Work counted (never timed) on shapes the adversarial families found quadratic: what one item or
// one dependency costs does not grow with how many others the input declares.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SecretReader } from '../src/model/config.js';
import { mayNameSecrets } from '../src/rules/workloads/operator-references.js';
import { run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
} from './helpers.js';

// Counted where the ExternalSecrets' dependencies are read (rules/sources/eso-dependencies.ts).
const reads = vi.hoisted(() => ({ stringMap: 0, normalize: 0 }));
vi.mock('../src/rules/sources/fields.js', async (original) => {
  const actual = await original<typeof import('../src/rules/sources/fields.js')>();
  return {
    ...actual,
    stringMap: (...args: Parameters<typeof actual.stringMap>) => {
      reads.stringMap++;
      return actual.stringMap(...args);
    },
  };
});
vi.mock('../src/rules/sources/normalize.js', async (original) => {
  const actual = await original<typeof import('../src/rules/sources/normalize.js')>();
  return {
    ...actual,
    normalize: (...args: Parameters<typeof actual.normalize>) => {
      reads.normalize++;
      return actual.normalize(...args);
    },
  };
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** What `run` returns, and the entries `Array.prototype.includes` searched while it ran. */
function scannedByIncludes<T>(run: () => T): { out: T; scanned: number } {
  const includes = Array.prototype.includes;
  let scanned = 0;
  vi.spyOn(Array.prototype, 'includes').mockImplementation(function (
    this: unknown[],
    ...args: [unknown, number?]
  ) {
    scanned += this.length;
    return includes.apply(this, args);
  });
  const out = run();
  return { out, scanned };
}

describe('declared reader kinds (bench/adversarial declared-reader-kinds)', () => {
  it('asks the option about a kind once, not each declared entry per item', () => {
    let kindsRead = 0;
    const option: SecretReader[] = Array.from({ length: 200 }, (_, i) => {
      const entry = { group: 'example.com', path: 'spec.secretName' } as SecretReader;
      Object.defineProperty(entry, 'kind', {
        get: () => {
          kindsRead++;
          return `Kind${i}`;
        },
      });
      return entry;
    });
    for (let item = 0; item < 500; item++) {
      expect(mayNameSecrets('Undeclared', option)).toBe(false);
    }
    expect(mayNameSecrets('Kind7', option)).toBe(true);
    // Each entry's kind once; main read all 200 for each of the 501 items (100,200).
    expect(kindsRead).toBeLessThanOrEqual(option.length);
  });
});

describe('ordering: depends-on (bench/adversarial depends-on-entries)', () => {
  it("keeps a workload's entries unique without scanning those kept for each", () => {
    const sources = 300;
    const env = Array.from(
      { length: sources },
      (_, i) => `- {name: V${i}, valueFrom: {secretKeyRef: {name: s${i}, key: password}}}`,
    );
    const items = [
      ...Array.from({ length: sources }, (_, i) => externalSecret(`s${i}`, { namespace: 'a' })),
      deployment('app', `env:\n${env.join('\n')}`, { namespace: 'a' }),
    ];
    const { out, scanned } = scannedByIncludes(() =>
      runOk(resourceList(items), { ordering: 'depends-on' }),
    );
    expect(out.stdout).toContain('config.kubernetes.io/depends-on');
    // Entries searched by `includes` in the whole run; main scanned the workload's kept entries
    // for each of its 300 dependencies (≈45,000).
    expect(scanned).toBeLessThan(10 * sources);
  });
});

describe('ordering: kapp (bench/adversarial kapp-change-rules)', () => {
  it("looks a group's rule up among the item's change rules once, not scanning them per group", () => {
    const sources = 150;
    const env = Array.from(
      { length: sources },
      (_, i) => `- {name: V${i}, valueFrom: {secretKeyRef: {name: s${i}, key: password}}}`,
    );
    // Rules of its own (kapp's annotation prefix, other keys) the item already has.
    const rules = Array.from(
      { length: sources },
      (_, i) => `    kapp.k14s.io/change-rule.own-${i}: "upsert after upserting own-${i}"`,
    );
    const workload = deployment('app', `env:\n${env.join('\n')}`, { namespace: 'a' }).replace(
      'metadata:\n  name: app\n',
      `metadata:\n  name: app\n  annotations:\n${rules.join('\n')}\n`,
    );
    const items = [
      ...Array.from({ length: sources }, (_, i) => externalSecret(`s${i}`, { namespace: 'a' })),
      workload,
    ];
    const { out, scanned } = scannedByIncludes(() =>
      runOk(resourceList(items), { ordering: 'kapp' }),
    );
    expect(out.stdout).toContain('kapp.k14s.io/change-rule.secret-rollout-');
    // Main scanned the item's 150 rules for each of its 150 groups (22,500).
    expect(scanned).toBeLessThan(10 * sources);
  });
});

describe('a dependency many ExternalSecrets read (bench/adversarial template-dependencies)', () => {
  const readers = 60;
  const count = (read: string) => {
    Object.assign(reads, { stringMap: 0, normalize: 0 });
    const items = Array.from({ length: readers }, (_, i) =>
      externalSecret(`e${i}`, { namespace: 'a', extra: read }),
    );
    return (dependency: string) => {
      runOk(resourceList([dependency, ...items]));
      return { ...reads };
    };
  };

  it("reads a templateFrom ConfigMap's data once, not once per ExternalSecret", () => {
    const configMap = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\n  namespace: a\ndata:\n  k: v\n`;
    const templateFrom = `    template:\n      templateFrom:\n      - configMap:\n          name: tpl\n          items:\n          - key: k\n`;
    const withTarget = (extra: string) => `  target:\n    name: x\n${extra}`;
    const { stringMap } = count(withTarget(templateFrom))(configMap);
    // Main: once per reader (60), as many as there are ExternalSecrets.
    expect(stringMap).toBeLessThanOrEqual(readers / 4);
  });

  it("normalizes a generator's spec once, not once per ExternalSecret", () => {
    const generator = `apiVersion: generators.external-secrets.io/v1alpha1\nkind: Fake\nmetadata:\n  name: g\n  namespace: a\nspec:\n  data:\n    k: v\n`;
    const dataFrom = `  dataFrom:\n  - sourceRef:\n      generatorRef:\n        apiVersion: generators.external-secrets.io/v1alpha1\n        kind: Fake\n        name: g\n`;
    const { normalize } = count(dataFrom)(generator);
    // Each ExternalSecret's own spec once, and the generator's once; main: the generator's again
    // for each reader (2 × 60).
    expect(normalize).toBeLessThanOrEqual(readers + 5);
  });
});

describe('many sources of one Secret read by many pod templates (bench/adversarial check-covers)', () => {
  it('stops at the budget of source reads with one error naming the Secret, and changes nothing', () => {
    const n = 1_500;
    const items = [
      ...Array.from({ length: n }, (_, i) =>
        externalSecret(`e${i}`, { namespace: 'a', target: 'app' }),
      ),
      ...Array.from({ length: n }, (_, i) =>
        deployment(`d${i}`, envFrom('app'), { namespace: 'a' }),
      ),
    ];
    const input = resourceList(items);
    const out = run(input);
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    // n × n = 2,250,000 reads against one a character of input (≈0.7 M) and 1,048,576.
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(
        /^the pod templates of this input read more than [\d,]+ sources in all \(one per character of its [\d,]+, \+ 1,048,576\): a reference reads every source writing its Secret, and Secret a\/app has 1,500; write each Secret from one source$/,
      ),
    ]);
    expect(itemsOf(out.stdout)).toEqual(itemsOf(input));
  });
});

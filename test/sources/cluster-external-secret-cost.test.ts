// What reading ClusterExternalSecrets costs, counted (never timed): the Namespace objects' labels
// and the workloads' pod templates are read once per run, not once per ClusterExternalSecret, and
// the ExternalSecrets they make (one per selected namespace) are bounded by the input's size
// (bench/adversarial ces-namespace-objects, ces-workload-namespaces, ces-selected-namespaces).
import { describe, expect, it, vi } from 'vitest';
import { labelSelector } from '../../src/rules/sources/label-selector.js';
import { run } from '../../src/run.js';
import { deployment, resourceList, resultsOf, runOk } from '../helpers.js';

const { counted, counting } = vi.hoisted(() => {
  const counted = { labels: 0, templates: 0, sources: 0, specReads: 0 };
  /** `f`, counting its calls under `key` where `when` (its arguments) holds. */
  const counting =
    <F extends (...args: never[]) => unknown>(
      key: keyof typeof counted,
      f: F,
      when: (...args: Parameters<F>) => boolean = () => true,
    ) =>
    (...args: Parameters<F>) => {
      if (when(...args)) counted[key]++;
      return f(...args) as ReturnType<F>;
    };
  return { counted, counting };
});
vi.mock('../../src/rules/sources/fields.js', async (original) => {
  const actual = await original<typeof import('../../src/rules/sources/fields.js')>();
  // A Namespace's labels, as the selectors read them (nothing else reads that field so).
  const labels = (_: unknown, field: string) => field === 'metadata.labels';
  return { ...actual, stringMap: counting('labels', actual.stringMap, labels) };
});
vi.mock('../../src/rules/workloads/shapes.js', async (original) => {
  const actual = await original<typeof import('../../src/rules/workloads/shapes.js')>();
  return { ...actual, podTemplatesOf: counting('templates', actual.podTemplatesOf) };
});
vi.mock('../../src/rules/sources/eso-dependencies.js', async (original) => {
  const actual = await original<typeof import('../../src/rules/sources/eso-dependencies.js')>();
  return { ...actual, templateReads: counting('specReads', actual.templateReads) };
});
vi.mock('../../src/rules/sources/operator-secret.js', async (original) => {
  const actual = await original<typeof import('../../src/rules/sources/operator-secret.js')>();
  return { ...actual, operatorSecret: counting('sources', actual.operatorSecret) };
});

const namespace = (i: number) => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: n-${i}\n`;

/** A ClusterExternalSecret making Secret `s-${i}` where the `select` lines under `spec:` say. */
const ces = (i: number, select: string) => `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: ces-${i}
spec:
${select}  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: s-${i}}
    data:
    - secretKey: k
      remoteRef: {key: x, version: "1"}
`;

const namingOne = (i: number) => ces(i, '  namespaces: [n-0]\n');
const selectingAll = (i: number) =>
  ces(
    i,
    '  namespaceSelectors:\n  - matchExpressions:\n    - {key: kubernetes.io/metadata.name, operator: Exists}\n',
  );
const times = <T>(n: number, make: (i: number) => T) =>
  Array.from({ length: n }, (_, i) => make(i));

function countedRun(items: readonly string[]) {
  Object.assign(counted, { labels: 0, templates: 0, sources: 0, specReads: 0 });
  const input = resourceList(items);
  const out = run(input);
  return { input, out, ...counted };
}

/**
 * With `namespaces` Namespaces, ClusterExternalSecret ces-0 selecting by `select` (`tests`
 * requirements tested in all, past the input's bound) is refused before it tests them.
 */
function expectTestsRefused(namespaces: number, select: string, tests: number, what: string) {
  const { input, out } = countedRun([...times(namespaces, namespace), ces(0, select)]);
  expect(tests).toBeGreaterThan(input.length + 64 * 65_536);
  expect(out.exitCode).toBe(1);
  const message = `: ${what} tested against ${namespaces.toLocaleString('en')} namespaces would pass that, after 0 for those before it`;
  expect(resultsOf(out.stdout)).toContainEqual(
    expect.objectContaining({
      severity: 'error',
      message: expect.stringMatching(
        new RegExp(`^ClusterExternalSecret ces-0: not read: .*${message}$`),
      ),
    }),
  );
}

describe('ClusterExternalSecrets', () => {
  const n = 60;

  it("read each Namespace's labels once per run, not once per ClusterExternalSecret", () => {
    // main: n × n label reads (3,600), each ClusterExternalSecret reading every Namespace's.
    const { out, labels } = countedRun([...times(n, namespace), ...times(n, namingOne)]);
    expect(out.exitCode).toBe(0);
    expect(labels).toBe(n);
  });

  it('read the pod templates of each item once per run without Namespace objects', () => {
    const workload = (i: number) =>
      deployment(`d-${i}`, 'env: [{name: A, value: b}]', { namespace: `n-${i}` });
    // main: every ClusterExternalSecret read every item's pod templates (n × 2n, 7,200), besides
    // the consumers' once per item.
    const { out, templates } = countedRun([...times(n, workload), ...times(n, namingOne)]);
    expect(out.exitCode).toBe(0);
    expect(templates).toBeLessThanOrEqual(3 * 2 * n);
  });

  it('make at most 1 ExternalSecret per 64 characters of input + 65,536, else an error', () => {
    // 300 ClusterExternalSecrets each selecting 300 Namespaces: 90,000 ExternalSecrets, past the
    // bound of this ≈100 KB input (main made them all, and exit 0).
    const size = 300;
    const { input, out, sources } = countedRun([
      ...times(size, namespace),
      ...times(size, selectingAll),
    ]);
    const bound = Math.floor(input.length / 64) + 65_536;
    expect(size * size).toBeGreaterThan(bound);
    expect(sources).toBeLessThanOrEqual(bound);
    expect(out.exitCode).toBe(1);
    // Nothing changed: the items come back as they came in, then the results.
    expect(out.stdout.startsWith(input)).toBe(true);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(size);
    // Its own rule: a budget passed, not a malformed field.
    expect(new Set(errors.map((r) => (r.tags as { rule?: string } | undefined)?.rule))).toEqual(
      new Set(['source-budget']),
    );
    for (const { message } of errors) {
      expect(message).toMatch(
        /^ClusterExternalSecret ces-\d+: not read: the ClusterExternalSecrets of this input may make at most [\d,]+ ExternalSecrets .*: (the [\d,]+ namespaces it selects|more than [\d,]+ namespaces it selects|its 1 selector tested against 300 namespaces) would pass that, after [\d,]+ for those before it$/,
      );
      // Counts and kinds, no text of the input's (its selector, its store).
      expect(message).not.toMatch(/metadata\.name|vault|\bs-\d/);
    }
  });

  it('test selectors against namespaces within the same bound (64 tests an ExternalSecret)', () => {
    // One ClusterExternalSecret with 3,000 selectors, none matching, and 1,600 Namespaces: 4.8
    // million tests, past the ≈4.4 million this ≈160 KB input allows (main ran them, and exit 0).
    const selectors = times(3_000, (i) => `  - matchLabels: {x: "${i}"}\n`).join('');
    expectTestsRefused(
      1_600,
      `  namespaceSelectors:\n${selectors}`,
      3_000 * 1_600,
      'its 3,000 selectors',
    );
  });

  it('have the items they read found once, not once per namespace selected', () => {
    // The Secrets' readers ask once, the read plan at most once (main: once per source, n).
    const { out, specReads } = countedRun([...times(n, namespace), selectingAll(0)]);
    expect(out.exitCode).toBe(0);
    expect(specReads).toBeLessThanOrEqual(2);
  });

  it("count each selector's requirements a test against a namespace", () => {
    // One selector of 5,000 requirements, all met (DoesNotExist on keys no Namespace has), and
    // 1,000 Namespaces: 5 million requirements tested, past the ≈4.5 million this ≈300 KB input
    // allows (main tested them all, and exit 0).
    const absent = times(5_000, (i) => `    - {key: absent-${i}, operator: DoesNotExist}\n`);
    const select = `  namespaceSelectors:\n  - matchExpressions:\n${absent.join('')}`;
    expectTestsRefused(1_000, select, 5_000 * 1_000, 'its 1 selector');
  });

  it('look In and NotIn values up in a set, not by a scan of the list', () => {
    const values = times(1_000, (i) => `v${i}`);
    const selector = labelSelector(
      { matchExpressions: [{ key: 'team', operator: 'In', values }] },
      'spec.namespaceSelector',
    );
    const includes = vi.spyOn(Array.prototype, 'includes');
    const matched = times(100, (i) => selector.matches({ team: `v${i * 10}` }));
    const scans = includes.mock.calls.length;
    includes.mockRestore();
    expect(matched.every(Boolean)).toBe(true);
    // main: a scan of the 1,000 values for each of the 100 matches.
    expect(scans).toBe(0);
  });

  it('make every ExternalSecret within the bound', () => {
    const { out, sources } = countedRun([...times(20, namespace), ...times(20, selectingAll)]);
    expect(out.exitCode).toBe(0);
    expect(sources).toBe(20 * 20);
    runOk(resourceList([namespace(0), selectingAll(0)]));
  });
});

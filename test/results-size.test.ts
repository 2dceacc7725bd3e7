// What a result says grows with what it is about, not with the input: a list a warning repeats
// for each of n resources (the others writing a Secret, the namespaces making a name, the pods
// mounting a class, the keys a Secret has) names five and counts the rest. Listing them all was
// n² of output (bench/adversarial duplicate-writers, cross-namespace-lists, csi-mount-lists,
// missing-key-lists: 1 MB of input wrote up to 1.1 GB of results, 4 MB failed).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { generate as csiMountLists } from '../bench/adversarial/csi-mount-lists.mjs';
import type { Resource } from '../src/model/resource.js';
import type { SecretSource } from '../src/rules/sources/source.js';
import { listNames } from '../src/rules/stage.js';
import { check } from '../src/run.js';
import { deployment, envFrom, externalSecret, resourceList, resultsOf, runOk } from './helpers.js';

const n = 40;
const range = (count: number) => Array.from({ length: count }, (_, i) => i);

/** The messages of the warnings whose text holds `words`, at least `count` of them. */
function messages(input: string, words: string, count = n): string[] {
  const found = resultsOf(runOk(input).stdout)
    .map((r) => String(r.message))
    .filter((m) => m.includes(words));
  expect(found.length).toBeGreaterThanOrEqual(count);
  return found;
}

/** Each message names five of the n and counts the rest: its length does not grow with n. */
function expectCounted(found: readonly string[], more: number) {
  for (const message of found) {
    expect(message).toContain(`and ${more} more`);
    expect(message.length).toBeLessThan(700);
  }
}

describe('a list a warning repeats for each of many resources', () => {
  it('duplicate-writer: each source names five of the others writing its Secret', () => {
    const sources = range(n).map((i) => externalSecret(`e${i}`, { namespace: 'a', target: 'app' }));
    expectCounted(messages(resourceList(sources), 'all write'), n - 1 - 5);
  });

  it('cross-namespace: each reader names five of the namespaces making the name', () => {
    const items = [
      ...range(n).map((i) => externalSecret('x', { namespace: `ns-${i}` })),
      ...range(n).map((i) => deployment(`d${i}`, envFrom('x'), { namespace: 'a' })),
    ];
    expectCounted(messages(resourceList(items), 'only in namespace'), n - 5);
  });

  it('csi-sync-mount: each reader names five of the workloads mounting the class', () => {
    // The adversarial family's stream: a SecretProviderClass, then mounters and readers in turn.
    const stream = csiMountLists(30_000) as string;
    const mounters = stream.split('secretProviderClass: vault').length - 1;
    expect(mounters).toBeGreaterThan(20);
    const out = runOk(stream);
    const found = out.stderr
      .split('\n')
      .filter((line) => line.includes('does not mount that class'));
    expect(found.length).toBeGreaterThanOrEqual(mounters - 1);
    expectCounted(found, mounters - 5);
  });

  it('missing-key: each reference names five of the keys its Secret has', () => {
    const extra = range(n)
      .map((i) => `  - secretKey: key-${i}\n    remoteRef:\n      key: x\n`)
      .join('');
    const reads = range(n).map(
      (i) => `- name: V${i}\n  valueFrom:\n    secretKeyRef:\n      name: s\n      key: miss-${i}`,
    );
    const items = [
      externalSecret('s', { namespace: 'a', extra }),
      deployment('api', `env:\n${reads.join('\n')}`, { namespace: 'a' }),
    ];
    // The two keys every helper ExternalSecret has, and n more.
    expectCounted(messages(resourceList(items), 'produces only'), n + 2 - 5);
  });

  it('check: each stale checksum names five of the sources it covers', () => {
    const items = [
      ...range(n).map((i) => externalSecret(`e${i}`, { namespace: 'a', target: 'app' })),
      ...range(n).map((i) => deployment(`d${i}`, envFrom('app'), { namespace: 'a' })),
    ];
    const out = check(resourceList(items));
    expect(out.exitCode).toBe(1);
    const found = resultsOf(out.stdout)
      .map((r) => String(r.message))
      .filter((m) => m.includes('it covers'));
    expect(found.length).toBeGreaterThanOrEqual(n);
    expectCounted(found, n - 5);
  });

  it("a note naming a template's sources names fifty and counts the rest", () => {
    const source = (i: number) =>
      ({
        resource: { kind: 'ExternalSecret', namespace: 'a', name: `e${i}` } as Resource,
      }) as SecretSource;
    const twenty = listNames(range(20).map(source));
    expect(twenty).toBe(
      range(20)
        .map((i) => `ExternalSecret a/e${i}`)
        .join(', '),
    );
    const many = listNames(range(3 * n).map(source));
    expect(many).toMatch(/ExternalSecret a\/e49 and 70 more$/);
    expect(many).not.toContain('ExternalSecret a/e50');
  });
});

// Items that alias an anchor in another item only parse within their document, and any edit there
// might change the items that alias it: edits are proven by reading the document again. That
// re-read is counted through the parse function the proof uses (reparseItem): one for all edits,
// not one per edited item (issue #20 §1; main read the document again once or twice per edit).
import { describe, expect, it, vi } from 'vitest';
import { maxAliasedList } from '../src/krm/items.js';
import { run } from '../src/run.js';

const reparsed = vi.hoisted(() => ({ documents: 0 }));
vi.mock('../src/krm/yaml/splice.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../src/krm/yaml/splice.js')>();
  return {
    ...actual,
    reparseItem: (text: string, entry: boolean) => {
      if (text.includes('kind: ResourceList')) reparsed.documents++;
      return actual.reparseItem(text, entry);
    },
  };
});

const source = `- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    name: db
    namespace: shop
    labels: &labels
      team: shop
  spec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: db}
    data:
    - secretKey: password
      remoteRef: {key: db/password, version: "1"}
`;

/** A Deployment reading the Secret `db`; its labels alias the source's, or are its own. */
const deployment = (i: number, labels = '*labels') => `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api-${i}
    namespace: shop
    labels: ${labels}
  spec:
    template:
      metadata: {labels: {app: api-${i}}}
      spec:
        containers:
        - name: app
          envFrom:
          - secretRef:
              name: db
`;

const list = (items: string[]) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items.join('')}`;

/** Runs the list; the number of times its document was read again to prove the edits. */
function counted(text: string) {
  reparsed.documents = 0;
  const out = run(text);
  return { out, documents: reparsed.documents };
}

describe('edits in a document whose items alias anchors in other items', () => {
  it('read the document again once, whatever the number of edited items', () => {
    const deployments = (n: number) => Array.from({ length: n }, (_, i) => deployment(i));
    const small = counted(list([source, ...deployments(4)]));
    const large = counted(list([source, ...deployments(40)]));
    for (const { out } of [small, large]) expect(out.exitCode).toBe(0);
    expect(large.out.stdout.match(/checksum\/external-secrets: /g)).toHaveLength(40);
    expect(small.documents).toBe(1);
    expect(large.documents).toBe(1);
  });

  it('proves items that do not alias together with those that do', () => {
    const items = [source, deployment(0), deployment(1, '{team: own}'), deployment(2)];
    const { out, documents } = counted(list(items));
    expect(out.exitCode).toBe(0);
    expect(out.stdout.match(/checksum\/external-secrets: /g)).toHaveLength(3);
    expect(documents).toBe(1);
  });

  // api-0's pod template is anchored and api-1's is that alias: an annotation in api-0's would
  // appear in api-1's too, and api-1's own cannot be written without changing api-0's.
  const shared = deployment(0).replace('template:', 'template: &tpl');
  const alias = `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: api-1
    namespace: shop
    labels: *labels
  spec:
    template: *tpl
`;

  it('still refuses each edit that fails its proof, with its own error, and changes nothing', () => {
    const text = list([source, shared, alias, deployment(2), deployment(3)]);
    const { out } = counted(text);
    expect(out.exitCode).toBe(1);
    const errors = out.stdout.split('\n').filter((l) => l.startsWith('  message: "item'));
    expect(errors).toEqual([
      '  message: "item 1 (Deployment api-0): the edit is inside a YAML anchor that other items alias: it would change them too"',
      '  message: "item 2 (Deployment api-1): could not insert the annotation without changing anything else"',
    ]);
    expect(out.stdout.startsWith(text)).toBe(true);
  });

  it('finds a failing edit among many in a few re-reads, not one per edit', () => {
    const deployments = (n: number) => Array.from({ length: n }, (_, i) => deployment(i + 2));
    const small = counted(list([source, shared, alias, ...deployments(16)]));
    const large = counted(list([source, shared, alias, ...deployments(64)]));
    for (const { out } of [small, large]) {
      expect(out.exitCode).toBe(1);
      expect(out.stdout.match(/severity: error/g)).toHaveLength(2);
    }
    // Four times the edits: two more halvings, two re-reads each (13 and 17 here; main read
    // the document again once or twice per edit, then the first failing run did the same).
    expect(large.documents).toBeLessThanOrEqual(small.documents + 4);
    expect(large.documents).toBeLessThan(64 / 2);
  });

  it('are read only in a list of at most 1 MiB; past it each aliasing item is an error, nothing changes', () => {
    // Filler Deployments of their own labels make the list large; two alias the source's anchor.
    const own = (i: number) => deployment(i, '{team: own}');
    const filler = Array.from({ length: Math.ceil(maxAliasedList / own(0).length) }, (_, i) =>
      own(i + 10),
    );
    const text = list([source, deployment(0), deployment(1), ...filler]);
    expect(text.length).toBeGreaterThan(maxAliasedList);
    const { out, documents } = counted(text);
    expect(out.exitCode).toBe(1);
    const errors = out.stdout.split('\n').filter((l) => l.startsWith('  message: "item'));
    expect(errors).toEqual(
      [1, 2].map(
        (i) =>
          `  message: "item ${i}: aliases a YAML anchor of another item in a ResourceList larger than 1 MiB, which is read whole to prove each edit: define the anchor in this item, or split the list"`,
      ),
    );
    expect(out.stdout.startsWith(text)).toBe(true);
    expect(documents).toBe(0);
  });
});

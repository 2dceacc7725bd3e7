// The store-ref lint: an ExternalSecret's store reference whose kind ESO's CRD does not accept, or
// whose store the input lacks while it has one of the other kind by that name, or a near name.
// A store the input lacks with nothing near is no finding: stores often live outside it.
import { describe, expect, it } from 'vitest';
import { swapped } from '../src/model/near.js';
import { run } from '../src/run.js';
import { resourceList, resultsOf } from './helpers.js';

type Obj = Record<string, unknown>;

const store = (kind: string, name: string, namespace?: string) =>
  `apiVersion: external-secrets.io/v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}spec:\n  provider: {fake: {data: []}}\n`;
/** An ExternalSecret in shop reading its store through `ref` (the secretStoreRef's fields). */
const es = (name: string, ref: string, extra = '') =>
  `apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n  secretStoreRef: {${ref}}\n  data:\n    - secretKey: a\n      remoteRef: {key: k, version: "1"}\n${extra}`;

const storeRefResults = (...items: string[]) =>
  resultsOf(run(resourceList(items)).stdout).filter(
    (r) => (r.tags as Obj | undefined)?.rule === 'store-ref',
  );
const at = (r: Obj) => (r.field as Obj | undefined)?.path;

describe('store-ref', () => {
  it('warns of a kind ESO does not accept, at its field, without quoting it', () => {
    const [result, ...rest] = storeRefResults(
      store('ClusterSecretStore', 'vault'),
      es('db', 'kind: ClusterSecretstore, name: vault'),
    );
    expect(rest).toEqual([]);
    expect(result).toMatchObject({
      severity: 'warning',
      message:
        'ExternalSecret shop/db names its store with a kind ESO does not accept: its CRD allows SecretStore or ClusterSecretStore only (SecretStore when left out), so applying it fails. Set kind: ClusterSecretStore',
    });
    expect(at(result as Obj)).toBe('spec.secretStoreRef.kind');
    // No store in the input is needed to know a kind is wrong.
    const [alone] = storeRefResults(es('db', 'kind: Vault, name: vault'));
    expect(alone?.message).toMatch(/does not accept: .* Set kind: SecretStore$/);
  });

  it('warns of a store the input lacks next to a near name, a swap included', () => {
    for (const [made, read] of [
      ['vault', 'vautl'],
      ['vault', 'vaul'],
      ['vault-prod', 'vault-prd'],
    ] as const) {
      const [result, ...rest] = storeRefResults(
        store('ClusterSecretStore', made),
        es('db', `kind: ClusterSecretStore, name: ${read}`),
      );
      expect(rest, read).toEqual([]);
      expect(result?.message, read).toBe(
        `ExternalSecret shop/db reads ClusterSecretStore ${read}, which the input does not have, while it has ClusterSecretStore ${made}: if that is the one meant, fix the name on one side; if the store comes from elsewhere (the cluster), silence store-ref for this ExternalSecret (secret-rollout/silence) or set it off`,
      );
      expect(at(result as Obj), read).toBe('spec.secretStoreRef.name');
    }
  });

  it('warns of a store of the other kind by that name: kind left out is SecretStore', () => {
    const [result] = storeRefResults(store('ClusterSecretStore', 'vault'), es('db', 'name: vault'));
    expect(result?.message).toContain(
      'reads SecretStore vault, which the input does not have, while it has ClusterSecretStore vault (kind is SecretStore when left out)',
    );
    expect(at(result as Obj)).toBe('spec.secretStoreRef.kind');
    // However short the name: no near name is looked for under 4 characters, the same one is.
    const [short] = storeRefResults(store('ClusterSecretStore', 'aws'), es('db', 'name: aws'));
    expect(short?.message).toContain('while it has ClusterSecretStore aws (kind');
  });

  it('finds the reference in data[].sourceRef.storeRef, and in a ClusterExternalSecret', () => {
    const entry =
      '    - secretKey: b\n      remoteRef: {key: k, version: "1"}\n      sourceRef:\n        storeRef: {kind: ClusterSecretStore, name: vautl}\n';
    const [result] = storeRefResults(
      store('ClusterSecretStore', 'vault'),
      es('db', 'kind: ClusterSecretStore, name: vault', entry),
    );
    expect(at(result as Obj)).toBe('spec.data[1].sourceRef.storeRef.name');
    const ces = `apiVersion: external-secrets.io/v1\nkind: ClusterExternalSecret\nmetadata: {name: all}\nspec:\n  namespaceSelectors: [{matchLabels: {team: a}}]\n  externalSecretSpec:\n    secretStoreRef: {kind: ClusterSecretstore, name: vault}\n    data:\n      - secretKey: a\n        remoteRef: {key: k, version: "1"}\n`;
    const ns = (name: string) =>
      `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels: {team: a}\n`;
    // One per reference, however many namespaces the ClusterExternalSecret selects.
    const results = storeRefResults(store('ClusterSecretStore', 'vault'), ces, ns('a'), ns('b'));
    expect(results.map(at)).toEqual(['spec.externalSecretSpec.secretStoreRef.kind']);
  });

  it('says nothing of a store in the input, or far from every one, and reaches SecretStores in its namespace only', () => {
    expect(
      storeRefResults(
        store('ClusterSecretStore', 'vault'),
        store('SecretStore', 'local', 'shop'),
        es('a', 'kind: ClusterSecretStore, name: vault'),
        es('b', 'name: local'),
        es('c', 'kind: SecretStore, name: local'),
        // Elsewhere: the cluster's.
        es('d', 'kind: ClusterSecretStore, name: aws-prod'),
        // Short names are never near (as near-name's).
        es('e', 'kind: ClusterSecretStore, name: vlt'),
      ),
    ).toEqual([]);
    // A SecretStore in its namespace is named so.
    const [local] = storeRefResults(
      store('SecretStore', 'vault', 'shop'),
      es('a', 'kind: SecretStore, name: vautl'),
    );
    expect(local?.message).toContain('while it has SecretStore vault in its namespace:');
    // A SecretStore of that name in another namespace is not near: it is not readable from here.
    expect(storeRefResults(store('SecretStore', 'vault', 'other'), es('a', 'name: vautl'))).toEqual(
      [],
    );
  });

  it('is silenced and set off as any lint', () => {
    const items = [store('ClusterSecretStore', 'vault'), es('db', 'kind: Cluster, name: vault')];
    expect(storeRefResults(...items)).toHaveLength(1);
    const off = resultsOf(
      run(resourceList(items), { settings: { storeRefSeverity: 'off' } }).stdout,
    );
    expect(off.filter((r) => (r.tags as Obj).rule === 'store-ref')).toEqual([]);
    const silenced = items[1]?.replace(
      '  namespace: shop\n',
      '  namespace: shop\n  annotations: {secret-rollout/silence: store-ref}\n',
    ) as string;
    expect(storeRefResults(items[0] as string, silenced)).toEqual([]);
  });

  it('compares names from a budget, and says when it ran out', () => {
    // 200 stores and 200 references to missing stores, all of one length: 40,000 comparisons
    // wanted, 10,000 + 64 per reference allowed.
    const stores = Array.from({ length: 200 }, (_, i) =>
      store('ClusterSecretStore', `store-${1000 + i}-aa`),
    );
    const refs = Array.from({ length: 200 }, (_, i) =>
      es(`e${i}`, `kind: ClusterSecretStore, name: other-${1000 + i}-bb`),
    );
    const results = storeRefResults(...stores, ...refs);
    expect(results.map((r) => [r.severity, r.message])).toEqual([
      [
        'warning',
        'ExternalSecret shop/e73 and the store references after it were compared with only some of the stores of the input (many, of near lengths): a misspelt store name among them may go unreported',
      ],
    ]);
  });

  it('model/near swapped: two neighbouring characters, nothing else', () => {
    expect(swapped('vault', 'vautl')).toBe(true);
    expect(swapped('vault', 'avult')).toBe(true);
    expect(swapped('vault', 'vault')).toBe(false);
    expect(swapped('vault', 'vatlu')).toBe(false);
    expect(swapped('vault', 'vautlx')).toBe(false);
    expect(swapped('ab', 'ba')).toBe(true);
  });
});

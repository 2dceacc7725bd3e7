// ClusterExternalSecret: one ExternalSecret per selected namespace, the ExternalSecret's content
// rules, one wave below every consumer in every namespace.
import { describe, expect, it } from 'vitest';
import { labelSelector } from '../../src/rules/sources/label-selector.js';
import { deployment, envFrom, externalSecret, secretKeyRef } from '../helpers.js';
import {
  annotated,
  checksums,
  messagesAbout,
  moved,
  render,
  sourceTests,
  waveOf,
} from './harness.js';

const ces = (opts: { select?: string; version?: string; extra?: string; meta?: string } = {}) =>
  `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: shared
${opts.meta ?? ''}spec:
  externalSecretName: shared-es
  refreshTime: 1m
${opts.select ?? '  namespaceSelectors:\n  - matchLabels: {team: a}\n'}  externalSecretSpec:
    refreshInterval: 1h
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    target: {name: shared-creds}
    data:
    - secretKey: password
      remoteRef: {key: shared, property: password, version: "${opts.version ?? '1'}"}
    - secretKey: user
      remoteRef: {key: shared, property: user}
${opts.extra ?? ''}`;

const namespace = (name: string, labels = '') =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n${labels ? `  labels: {${labels}}\n` : ''}`;

const store = `apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: vault
spec:
  provider:
    vault: {server: "https://vault"}
`;

const world = (cesText = ces()) => [
  store,
  cesText,
  namespace('a1', 'team: a'),
  namespace('a2', 'team: a'),
  namespace('b1', 'team: b'),
  deployment('app', envFrom('shared-creds'), { namespace: 'a1' }),
  deployment('early', secretKeyRef('shared-creds', 'user'), { namespace: 'a2', wave: '-4' }),
  deployment('app', envFrom('shared-creds'), { namespace: 'b1' }),
  deployment('other', envFrom('other'), { namespace: 'a1' }),
];
const t = sourceTests({ kind: 'ClusterExternalSecret', name: 'shared', text: ces(), world });

describe('ClusterExternalSecret', () => {
  t.itChecksums(
    'checksums consumers in the selected namespaces and goes one wave below all of them',
    {
      consumers: ['a1/app', 'a2/early'],
      wave: '-5',
      more: (rendered) => expect(waveOf(rendered, 'ClusterSecretStore', 'vault')).toBe('-6'),
    },
  );

  it('has the same checksum as the ExternalSecret it creates', () => {
    const es = externalSecret('shared-es', { namespace: 'a1', target: 'shared-creds' });
    const body = es.slice(es.indexOf('spec:\n') + 'spec:\n'.length).replace(/^(?=.)/gm, '  ');
    const spec = `apiVersion: external-secrets.io/v1beta1
kind: ClusterExternalSecret
metadata:
  name: shared
spec:
  namespaces: [a1]
  externalSecretSpec:
${body}`;
    const consumer = deployment('app', envFrom('shared-creds'), { namespace: 'a1' });
    expect(checksums([spec, consumer])['a1/app']).toBe(checksums([es, consumer])['a1/app']);
  });

  it('moves exactly the checksums of its consumers when what decides the content changes', () => {
    // a2/early reads only `user`, whose entry did not change.
    expect(moved(world(), world(ces({ version: '2' })))).toEqual(['a1/app']);
    const moreData = ces({ extra: '    - secretKey: host\n      remoteRef: {key: shared}\n' });
    expect(moved(world(), world(moreData))).toEqual(['a1/app']);
    const userBumped = ces().replace('property: user}', 'property: user, version: "2"}');
    expect(moved(world(), world(userBumped))).toEqual(['a1/app', 'a2/early']);
  });

  t.itMovesNone(
    'does not move on labels, annotations, refresh settings or the ExternalSecret name',
    ces({ meta: '  labels: {x: y}\n  annotations: {note: n}\n' })
      .replace('externalSecretName: shared-es', 'externalSecretName: renamed')
      .replace('refreshTime: 1m', 'refreshTime: 5m\n  externalSecretMetadata: {labels: {a: b}}')
      .replace('refreshInterval: 1h', 'refreshInterval: 5m\n    refreshPolicy: OnChange'),
  );

  it('ORs namespaces, namespaceSelector and namespaceSelectors; reads the name label', () => {
    const select =
      '  namespaces: [b1]\n  namespaceSelector: {matchLabels: {team: c}}\n  namespaceSelectors:\n  - matchExpressions:\n    - {key: kubernetes.io/metadata.name, operator: In, values: [a2]}\n';
    const items = [...world(ces({ select })), namespace('c1', 'team: c')];
    items.push(deployment('app', envFrom('shared-creds'), { namespace: 'c1' }));
    expect(annotated(items)).toEqual(['a2/early', 'b1/app', 'c1/app']);
  });

  it('without Namespace objects: says so, and assumes what clusterExternalSecretNamespaces says', () => {
    const items = world().filter((i) => !i.startsWith('apiVersion: v1\nkind: Namespace'));
    const selected = render(items);
    const [skipped] = messagesAbout(selected, 'ClusterExternalSecret', 'shared');
    expect(skipped).toContain('skipped: selects no namespace');
    expect(skipped).toContain('spec.namespaceSelectors[0] cannot be evaluated');
    expect(waveOf(selected, 'ClusterExternalSecret', 'shared')).toBeUndefined();
    expect(annotated(items)).toEqual([]);

    const all = render(items, { clusterExternalSecretNamespaces: 'all' });
    expect(messagesAbout(all, 'ClusterExternalSecret', 'shared')).toContainEqual(
      expect.stringContaining('match every namespace with a workload'),
    );
    expect(annotated(items, { clusterExternalSecretNamespaces: 'all' })).toEqual([
      'a1/app',
      'a2/early',
      'b1/app',
    ]);
  });

  it('evaluates a selector on the name label alone without Namespace objects', () => {
    const select =
      '  namespaceSelectors:\n  - matchExpressions:\n    - {key: kubernetes.io/metadata.name, operator: NotIn, values: [b1]}\n';
    const items = world(ces({ select })).filter((i) => !i.includes('kind: Namespace'));
    const rendered = render(items);
    expect(messagesAbout(rendered, 'ClusterExternalSecret', 'shared').join()).not.toContain(
      'cannot be evaluated',
    );
    expect(annotated(items)).toEqual(['a1/app', 'a2/early']);
  });

  it('names five of the namespaces it assumes selected, and counts the rest', () => {
    const spaces = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8'];
    const items = [
      store,
      ces(),
      ...spaces.map((ns) => deployment('app', envFrom('shared-creds'), { namespace: ns })),
    ];
    const [note] = messagesAbout(
      render(items, { clusterExternalSecretNamespaces: 'all' }),
      'ClusterExternalSecret',
      'shared',
    ).filter((m) => m.includes('selected: '));
    expect(note).toMatch(/; selected: n1, n2, n3, n4, n5 and 3 more$/);
  });

  it('evaluates label selectors like Kubernetes', () => {
    const matches = (selector: unknown, labels: Record<string, string>) =>
      labelSelector(selector as never, 's').matches(labels);
    expect(matches({}, {})).toBe(true);
    expect(matches(null, { a: '1' })).toBe(false);
    expect(matches({ matchLabels: { a: '1' } }, { a: '1', b: '2' })).toBe(true);
    const expr = (operator: string, values?: string[]) => ({
      matchLabels: { a: '1' },
      matchExpressions: [{ key: 'b', operator, ...(values ? { values } : {}) }],
    });
    expect(matches(expr('In', ['2', '3']), { a: '1', b: '3' })).toBe(true);
    expect(matches(expr('In', ['2']), { a: '1' })).toBe(false);
    expect(matches(expr('NotIn', ['2']), { a: '1' })).toBe(true);
    expect(matches(expr('NotIn', ['2']), { a: '1', b: '2' })).toBe(false);
    expect(matches(expr('Exists'), { a: '1', b: '' })).toBe(true);
    expect(matches(expr('DoesNotExist'), { a: '1', b: '' })).toBe(false);
    expect(matches(expr('Exists'), { a: '2', b: '' })).toBe(false);
  });

  t.itReportsMalformed([
    [
      ces().replace(/ {2}externalSecretSpec:[\s\S]*$/, ''),
      'spec.externalSecretSpec',
      'not a mapping',
    ],
    [
      ces().replace('{key: shared, property: user}', '{property: user}'),
      'spec.externalSecretSpec.data[1].remoteRef.key',
      'has no key',
    ],
    [
      ces({ select: '  namespaceSelectors:\n  - matchExpressions: [{key: t, operator: Is}]\n' }),
      'spec.namespaceSelectors[0].matchExpressions[0].operator',
      'must be one of In, NotIn, Exists, DoesNotExist',
    ],
    [
      ces({ select: '  namespaceSelectors:\n  - matchExpressions: [{key: t, operator: In}]\n' }),
      'spec.namespaceSelectors[0].matchExpressions[0].values',
      'operator In needs at least one value',
    ],
    [ces({ select: '  namespaces: [a1, 3]\n' }), 'spec.namespaces[1]', 'is not a string'],
    [
      ces().replace('target: {name: shared-creds}', 'target: {name: [x]}'),
      'spec.externalSecretSpec.target.name',
      'is not a string',
    ],
  ]);
});

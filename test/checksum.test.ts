// The checksum: which changes move it, which do not, and pinned values (changing a pinned value
// is a breaking change for every user's rollouts).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  deployment,
  envFrom,
  externalSecret,
  find,
  itemsOf,
  resourceList,
  runOk,
  secretKeyRef,
  templateAnnotation,
} from './helpers.js';

const checksums = (items: string[]) => {
  const out = itemsOf(runOk(resourceList(items)).stdout);
  return Object.fromEntries(
    out
      .filter((i) => i.kind !== 'ExternalSecret')
      .map((i) => [(i.metadata as { name: string }).name, templateAnnotation(i)]),
  );
};

const base = () => [
  externalSecret('db'),
  externalSecret('api'),
  deployment('uses-db', envFrom('db')),
  deployment('uses-api', envFrom('api')),
  deployment('uses-both', `${envFrom('db')}\n- secretRef:\n    name: api`),
  deployment('uses-none', envFrom('other')),
];

describe('checksum', () => {
  it('annotates exactly the consumers', () => {
    const sums = checksums(base());
    expect(sums['uses-db']).toMatch(/^[0-9a-f]{64}$/);
    expect(sums['uses-api']).toMatch(/^[0-9a-f]{64}$/);
    expect(sums['uses-both']).toMatch(/^[0-9a-f]{64}$/);
    expect(sums['uses-none']).toBeUndefined();
    expect(new Set(Object.values(sums)).size).toBe(4);
  });

  it('moves exactly the consumers of a bumped version', () => {
    const before = checksums(base());
    const bumped = base();
    bumped[0] = externalSecret('db', { version: '2' });
    const after = checksums(bumped);
    expect(after['uses-db']).not.toBe(before['uses-db']);
    expect(after['uses-both']).not.toBe(before['uses-both']);
    expect(after['uses-api']).toBe(before['uses-api']);
  });

  it('does not move on refreshInterval, refreshPolicy, policies, labels or annotations', () => {
    const before = checksums(base());
    const changed = base();
    changed[0] = (changed[0] as string)
      .replace('refreshInterval: 1h', 'refreshInterval: 5m\n  refreshPolicy: Periodic')
      .replace('  name: db\n', '  name: db\n  labels: {team: a}\n  annotations: {note: x}\n')
      .replace(
        '  data:\n',
        '  target:\n    creationPolicy: Merge\n    deletionPolicy: Delete\n  data:\n',
      );
    expect(checksums(changed)).toEqual(before);
  });

  it('does not move when a server-side default is spelled out', () => {
    const before = checksums(base());
    const spelled = base();
    spelled[0] = (spelled[0] as string)
      .replace(
        '      version: "1"\n',
        '      version: "1"\n      conversionStrategy: Default\n      decodingStrategy: None\n      metadataPolicy: None\n',
      )
      .replace('    kind: ClusterSecretStore\n', '    kind: ClusterSecretStore\n  dataFrom: []\n');
    expect(checksums(spelled)).toEqual(before);
  });

  it('is independent of item order', () => {
    const forward = checksums(base());
    expect(checksums([...base()].reverse())).toEqual(forward);
  });

  it('counts only the keys a template reads, unless a template or dataFrom decides the keys', () => {
    const items = (es: string) => [es, deployment('reads-user', secretKeyRef('db', 'user'))];
    const before = checksums(items(externalSecret('db')))['reads-user'];
    expect(checksums(items(externalSecret('db', { version: '9' })))['reads-user']).toBe(before);
    const withTemplate = (v: string) =>
      externalSecret('db', { version: v }).replace(
        '  data:\n',
        '  target:\n    template:\n      data:\n        user: "{{ .user }}"\n  data:\n',
      );
    expect(checksums(items(withTemplate('1')))['reads-user']).not.toBe(
      checksums(items(withTemplate('9')))['reads-user'],
    );
    // A key that data[] does not produce: unsure, so all of the ExternalSecret counts.
    const unknownKey = (v: string) => [
      externalSecret('db', { version: v }),
      deployment('reads-other', secretKeyRef('db', 'other')),
    ];
    expect(checksums(unknownKey('1'))['reads-other']).not.toBe(
      checksums(unknownKey('9'))['reads-other'],
    );
  });

  it('matches on the target name and the namespace', () => {
    const sums = checksums([
      externalSecret('db-es', { target: 'db-secret', namespace: 'prod' }),
      deployment('same-ns', envFrom('db-secret'), { namespace: 'prod' }),
      deployment('other-ns', envFrom('db-secret'), { namespace: 'dev' }),
      deployment('no-ns', envFrom('db-secret')),
      deployment('by-es-name', envFrom('db-es'), { namespace: 'prod' }),
    ]);
    expect(sums['same-ns']).toBeDefined();
    expect(sums['other-ns']).toBeUndefined();
    expect(sums['no-ns']).toBeUndefined();
    expect(sums['by-es-name']).toBeUndefined();
  });

  it('follows every reference style in every container list and CronJobs', () => {
    const initContainer = deployment('init', '').replace(
      '      containers:\n',
      `      initContainers:\n      - name: init\n        ${secretKeyRef('db', 'password').replace(/\n/g, '\n        ')}\n      containers:\n`,
    );
    const ephemeral = deployment('ephemeral', '').replace(
      '      containers:\n',
      '      ephemeralContainers:\n      - name: debug\n        envFrom:\n        - secretRef: {name: db}\n      containers:\n',
    );
    const volume = deployment('volume', '').replace(
      /\n$/,
      '\n      volumes:\n      - name: s\n        secret:\n          secretName: db\n',
    );
    const projected = deployment('projected', '').replace(
      /\n$/,
      '\n      volumes:\n      - name: s\n        projected:\n          sources:\n          - configMap: {name: c}\n          - secret: {name: db, items: [{key: password, path: p}]}\n',
    );
    const pullSecret = deployment('pull', '').replace(
      /\n$/,
      '\n      imagePullSecrets:\n      - name: db\n',
    );
    const cronJob = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: cron
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - name: c
            envFrom:
            - secretRef:
                name: db
`;
    const items = [
      externalSecret('db'),
      deployment('env', secretKeyRef('db', 'password')),
      initContainer,
      ephemeral,
      volume,
      projected,
      pullSecret,
      cronJob,
    ];
    const sums = checksums(items);
    for (const name of ['env', 'init', 'ephemeral', 'volume', 'projected', 'cron']) {
      expect(sums[name], name).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(sums.pull).toBeUndefined();
    const config =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  imagePullSecrets: "true"\n';
    const withPull = itemsOf(runOk(resourceList(items, config)).stdout);
    expect(templateAnnotation(find(withPull, 'Deployment', 'pull'))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('pins the documented algorithm: sha256 of canonical JSON', () => {
    const sums = checksums([
      `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
spec:
  refreshInterval: 1h
  secretStoreRef: {name: vault, kind: SecretStore}
  data:
  - secretKey: password
    remoteRef: {key: db/prod, property: password, version: "3"}
`,
      deployment('app', envFrom('db')),
    ]);
    // Written by hand from the README's description, not produced by the code under test.
    const canonical =
      '[{"content":{"data":[{"remoteRef":{"key":"db/prod","property":"password","version":"3"},"secretKey":"password"}],"secretStoreRef":{"name":"vault"}},"secret":"db"}]';
    const expected = createHash('sha256').update(canonical).digest('hex');
    expect(sums.app).toBe(expected);
    // Pinned: `printf '%s' "$canonical" | sha256sum`. Changing it re-rolls every user's pods.
    expect(expected).toBe('e172919eff7c67fff00d1d49d741a26e71281a5f2654803bceabae3a2ce40d06');
  });
});

describe('bare Pods', () => {
  it('are not annotated, and an info result says why', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    envFrom:
    - secretRef: {name: db}
`;
    const out = runOk(resourceList([externalSecret('db'), pod])).stdout;
    const items = itemsOf(out);
    expect(
      (find(items, 'Pod', 'p').metadata as Record<string, unknown>).annotations,
    ).toBeUndefined();
    expect(out).toMatch(/bare Pod is not restarted/);
  });
});

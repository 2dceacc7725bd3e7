// Infisical InfisicalSecret: one Secret per managedKubeSecretReferences[] entry (or the deprecated
// managedSecretReference), each in its secretNamespace.
import { describe, expect, it } from 'vitest';
import { deployment } from '../helpers.js';
import { annotated, configMapEnv, moved, reader, sourceTests } from './harness.js';

const refs = `  managedKubeSecretReferences:
  - secretName: shop-env
    secretNamespace: shop
    creationPolicy: Orphan
  - secretName: shop-jobs-env
    secretNamespace: jobs
    template:
      includeAllSecrets: true
      data:
        DATABASE_URL: "postgres://{{ .DB_USER.Value }}@db/shop"
`;
const infisical = (opts: { refs?: string; spec?: string } = {}) =>
  `apiVersion: secrets.infisical.com/v1alpha1
kind: InfisicalSecret
metadata:
  name: shop-infisical
  namespace: platform
spec:
  hostAPI: https://app.infisical.com/api
  resyncInterval: 60
  authentication:
    universalAuth:
      credentialsRef:
        secretName: universal-auth-credentials
        secretNamespace: platform
      secretsScope:
        projectSlug: shop
        envSlug: prod
        secretsPath: /
${opts.spec ?? ''}${opts.refs ?? refs}`;

const world = (text = infisical()) => [
  text,
  reader('shop/api', 'shop-env'),
  reader('jobs/worker', 'shop-jobs-env'),
  reader('platform/stray', 'shop-env'),
];
const both = ['shop/api', 'jobs/worker'];
const t = sourceTests({
  kind: 'InfisicalSecret',
  name: 'shop-infisical',
  text: infisical(),
  world,
});

describe('InfisicalSecret', () => {
  t.itChecksums(
    'checksums the consumers of each managed Secret in its namespace, one wave below all',
    { consumers: both },
  );

  t.itMovesOn('moves every consumer on %s', both, [
    ['the environment', 'envSlug: prod', 'envSlug: staging'],
    ['the secrets path', 'secretsPath: /', 'secretsPath: /shop'],
    ['the host', 'app.infisical.com', 'eu.infisical.com'],
  ]);

  it("moves one Secret's consumers on its own type and template only", () => {
    const templated = infisical().replace('@db/shop', '@db2/shop');
    expect(moved(world(), world(templated))).toEqual(['jobs/worker']);
    const typed = infisical().replace(
      'creationPolicy: Orphan',
      'creationPolicy: Orphan\n    secretType: kubernetes.io/basic-auth',
    );
    expect(moved(world(), world(typed))).toEqual(['shop/api']);
  });

  t.itMovesNone(
    'does not move on sync settings, ownership, Secret metadata or defaults written out',
    infisical({
      spec: '  syncConfig: {resyncInterval: 1h, instantUpdates: true}\n',
    })
      .replace('resyncInterval: 60', 'resyncInterval: 300')
      .replace('creationPolicy: Orphan', 'creationPolicy: Owner\n    secretType: Opaque')
      .replace(
        'includeAllSecrets: true',
        'includeAllSecrets: true\n      metadata: {labels: {a: b}}',
      ),
  );

  it('reads the deprecated managedSecretReference the same way', () => {
    const single = infisical({
      refs: '  managedSecretReference:\n    secretName: shop-env\n    secretNamespace: shop\n',
    });
    expect(annotated(world(single))).toEqual(['shop/api']);
    const list = infisical({
      refs: '  managedKubeSecretReferences:\n  - secretName: shop-env\n    secretNamespace: shop\n',
    });
    expect(moved(world(single), world(list))).toEqual([]);
  });

  it('follows the ConfigMaps it writes too', () => {
    const configMaps = infisical({
      refs: '  managedKubeConfigMapReferences:\n  - {configMapName: shop-cm, configMapNamespace: shop}\n',
    });
    const cmReader = deployment('cm-reader', configMapEnv('shop-cm'), { namespace: 'shop' });
    expect(annotated([...world(configMaps), cmReader])).toEqual(['shop/cm-reader']);
    const moved2 = configMaps.replace('envSlug: prod', 'envSlug: dev');
    expect(moved([...world(configMaps), cmReader], [...world(moved2), cmReader])).toEqual([
      'shop/cm-reader',
    ]);
    // A Secret of the same name is another object.
    expect(annotated([...world(configMaps.replace('shop-cm', 'shop-env')), cmReader])).toEqual([]);
  });

  t.itReportsMalformed([
    [
      infisical().replace('    secretNamespace: jobs\n', ''),
      'spec.managedKubeSecretReferences[1].secretNamespace',
      'is missing',
    ],
    [
      infisical().replace('  - secretName: shop-env\n', '  - secretName: ""\n'),
      'spec.managedKubeSecretReferences[0].secretName',
      'is missing',
    ],
    [infisical({ refs: '' }), 'spec.managedKubeSecretReferences', 'is missing'],
    [
      infisical({ spec: '  managedSecretReference: {secretName: a, secretNamespace: shop}\n' }),
      'spec.managedSecretReference',
      'not both',
    ],
    [
      infisical().replace(
        'secretName: shop-jobs-env\n    secretNamespace: jobs',
        'secretName: shop-env\n    secretNamespace: shop',
      ),
      'spec.managedKubeSecretReferences[1].secretName',
      'names Secret shop/shop-env again',
    ],
  ]);
});

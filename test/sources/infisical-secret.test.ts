// Infisical InfisicalSecret: one Secret per managedKubeSecretReferences[] entry (or the deprecated
// managedSecretReference), each in its secretNamespace.
import { describe, expect, it } from 'vitest';
import { deployment, envFrom } from '../helpers.js';
import {
  annotated,
  configMapEnv,
  expectError,
  expectOnlyAnnotationLines,
  moved,
  render,
  waveOf,
} from './harness.js';

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
  deployment('api', envFrom('shop-env'), { namespace: 'shop' }),
  deployment('worker', envFrom('shop-jobs-env'), { namespace: 'jobs' }),
  deployment('stray', envFrom('shop-env'), { namespace: 'platform' }),
];
const both = ['shop/api', 'jobs/worker'];

describe('InfisicalSecret', () => {
  it('checksums the consumers of each managed Secret in its namespace, one wave below all', () => {
    const rendered = render(world());
    expect(annotated(world())).toEqual(both);
    expect(waveOf(rendered, 'InfisicalSecret', 'shop-infisical')).toBe('-1');
    expectOnlyAnnotationLines(rendered);
  });

  it.each([
    ['the environment', 'envSlug: prod', 'envSlug: staging'],
    ['the secrets path', 'secretsPath: /', 'secretsPath: /shop'],
    ['the host', 'app.infisical.com', 'eu.infisical.com'],
  ])('moves every consumer on %s', (_, from, to) => {
    expect(moved(world(), world(infisical().replace(from, to)))).toEqual(both);
  });

  it("moves one Secret's consumers on its own type and template only", () => {
    const templated = infisical().replace('@db/shop', '@db2/shop');
    expect(moved(world(), world(templated))).toEqual(['jobs/worker']);
    const typed = infisical().replace(
      'creationPolicy: Orphan',
      'creationPolicy: Orphan\n    secretType: kubernetes.io/basic-auth',
    );
    expect(moved(world(), world(typed))).toEqual(['shop/api']);
  });

  it('does not move on sync settings, ownership, Secret metadata or defaults written out', () => {
    const changed = infisical({
      spec: '  syncConfig: {resyncInterval: 1h, instantUpdates: true}\n',
    })
      .replace('resyncInterval: 60', 'resyncInterval: 300')
      .replace('creationPolicy: Orphan', 'creationPolicy: Owner\n    secretType: Opaque')
      .replace(
        'includeAllSecrets: true',
        'includeAllSecrets: true\n      metadata: {labels: {a: b}}',
      );
    expect(moved(world(), world(changed))).toEqual([]);
  });

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
    const reader = deployment('cm-reader', configMapEnv('shop-cm'), { namespace: 'shop' });
    expect(annotated([...world(configMaps), reader])).toEqual(['shop/cm-reader']);
    const moved2 = configMaps.replace('envSlug: prod', 'envSlug: dev');
    expect(moved([...world(configMaps), reader], [...world(moved2), reader])).toEqual([
      'shop/cm-reader',
    ]);
    // A Secret of the same name is another object.
    expect(annotated([...world(configMaps.replace('shop-cm', 'shop-env')), reader])).toEqual([]);
  });

  it.each([
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
  ])('reports a malformed field: %#', (text, field, message) => {
    expectError(world(text), field, message);
  });
});

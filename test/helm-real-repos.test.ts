// What running on real Flux home-ops repositories found (docs/helm-release.md, "Tried on real
// repositories"): each test is one shape those repositories use, cited by repository, commit
// and path, written here in the smallest form that shows it.
import { describe, expect, it } from 'vitest';
import { externalSecret, resourceList, resultsOf, runOk } from './helpers.js';

type Obj = Record<string, unknown>;

const helmRelease = (name: string, values: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: ${name}
  namespace: network
spec:
  interval: 1h
  chartRef: {kind: OCIRepository, name: ${name}}
  values:
${values.replace(/^/gm, '    ')}
`;

/** A run as a Flux user runs it: no order to write. */
const runFlux = (items: string[]) => runOk(resourceList(items), { ordering: 'none' });

const rulesOf = (output: string, rule: string) =>
  resultsOf(output).filter((r) => (r.tags as Obj)?.rule === rule);

describe('HelmReleases as real repositories write them', () => {
  // onedr0p/home-ops@d9078e4dd5 kubernetes/apps/network/cloudflare-dns/app/helmrelease.yaml
  // (external-dns chart: `podAnnotations`); ishioni/homelab-ops@0268d322d
  // kubernetes/apps/monitor/gatus/app (gatus chart: `deploymentAnnotations`). Reloader reads the
  // workload's annotations, then its pod template's (docs/operators.md §9a).
  it.each([
    ['podAnnotations', 'spec.values.podAnnotations[secret.reloader.stakater.com/reload]'],
    [
      'deploymentAnnotations',
      'spec.values.deploymentAnnotations[secret.reloader.stakater.com/reload]',
    ],
  ])('double-restart reads Reloader annotations in %s of the values', (key, path) => {
    const values = `${key}:
  secret.reloader.stakater.com/reload: dns-secret
env:
  - name: CF_API_TOKEN
    valueFrom:
      secretKeyRef: {name: dns-secret, key: token}`;
    const out = runFlux([
      externalSecret('dns', { namespace: 'network', target: 'dns-secret' }),
      helmRelease('dns', values),
    ]);
    const warned = rulesOf(out.stdout, 'double-restart');
    expect(warned.map((r) => (r.field as Obj)?.path)).toEqual([path]);
  });

  // Charts that take a Secret's name under a key of their own, read by their pods:
  // 1Password/connect-helm-charts@723165452a6ad07cf38b64ebbbcb798d51c92962
  // charts/connect/templates/connect-deployment.yaml mounts `connect.credentialsName` (its key
  // `connect.credentialsKey`) as a volume (onedr0p/home-ops@d9078e4dd5
  // kubernetes/apps/external-secrets/onepassword-connect/app); democratic-csi/charts@79a3c025
  // stable/democratic-csi/templates/{controller,node}.yaml mount `driver.existingConfigSecret`
  // (ishioni/homelab-ops@0268d322d kubernetes/apps/storage/democratic-csi/nfs).
  it.each([
    [
      'connect:\n  credentialsName: creds\n  credentialsKey: 1password-credentials.json',
      'spec.values.connect.credentialsName',
    ],
    ['driver:\n  existingConfigSecret: creds', 'spec.values.driver.existingConfigSecret'],
  ])('a release reads the Secret named at %s', (values, path) => {
    const out = runFlux([
      externalSecret('creds', { namespace: 'network' }),
      helmRelease('app', values),
    ]);
    const reads = rulesOf(out.stdout, 'helm-release-reads');
    expect(reads.map((r) => (r.field as Obj)?.path)).toEqual([path]);
    expect(rulesOf(out.stdout, 'unread-source')).toEqual([]);
  });

  // Every ExternalSecret in the 85 directories tried reads a 1Password store that lives in
  // another Flux Kustomization (onedr0p/home-ops@d9078e4dd5 kubernetes/apps/default/*/app): ESO's
  // onepassword providers reject remoteRef.version (docs/operators.md §8c), so advice to pin,
  // given as if the store surely could, would break the sync.
  it('unpinned-version does not take a store missing from the input to pin', () => {
    const es = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: app, namespace: network}
spec:
  secretStoreRef: {kind: ClusterSecretStore, name: onepassword}
  target: {name: app-secret}
  dataFrom:
    - extract: {key: app}`;
    const values = 'envFrom:\n  - secretRef: {name: app-secret}';
    const out = runFlux([es, helmRelease('app', values)]);
    const [warned] = rulesOf(out.stdout, 'unpinned-version');
    expect(warned?.message).toBe(
      'the checksum of ExternalSecret network/app cannot follow a rotation of the remote value (dataFrom[0].extract has no fixed version): the input has no ClusterSecretStore onepassword: if its provider can pin, pin dataFrom[].extract.version so that a new version rolls its consumers; onepassword, onepasswordSDK, delinea and secretserver reject a version (the sync fails) and 23 other providers ignore it: for those, set unpinnedVersionSeverity to info or off',
    );
  });

  // bjw-s/home-ops@143c271bba615426248632e0f36c97b7caf3beb5 (ESO 0.10.4) writes every
  // ExternalSecret as v1beta1, three in most app directories (the app's and two volsync ones):
  // 67 warnings saying the same thing. One per apiVersion and kind, naming them, as
  // unpinned-version folds per store.
  it('kind-near-miss folds ExternalSecrets at one unserved version into one warning', () => {
    const v1beta1 = (name: string) =>
      externalSecret(name, { namespace: 'network' }).replace(
        'external-secrets.io/v1',
        'external-secrets.io/v1beta1',
      );
    const values = 'envFrom:\n  - secretRef: {name: a}\n  - secretRef: {name: b}';
    const out = runFlux([v1beta1('a'), v1beta1('b'), helmRelease('app', values)]);
    const warned = rulesOf(out.stdout, 'kind-near-miss');
    expect(warned.map((r) => r.message)).toEqual([
      '2 ExternalSecrets (ExternalSecret network/a and ExternalSecret network/b) use external-secrets.io/v1beta1: they are read as ExternalSecrets, but ESO v0.17.0 and later do not serve it (served: false in their CRDs), so applying it fails there. Set apiVersion: external-secrets.io/v1',
    ]);
  });

  // onedr0p/home-ops@d9078e4dd5 kubernetes/apps/flux-system/flux-instance/app: a Flux Receiver
  // reads its webhook token from an ExternalSecret's Secret; Flux sources read their credentials
  // the same way (spec.secretRef, a LocalObjectReference: docs/operators.md, "Secret readers").
  it.each([
    ['notification.toolkit.fluxcd.io/v1', 'Receiver', 'spec.secretRef.name'],
    ['source.toolkit.fluxcd.io/v1', 'OCIRepository', 'spec.secretRef.name'],
    ['source.toolkit.fluxcd.io/v1', 'GitRepository', 'spec.verify.secretRef.name'],
  ])('a Flux %s %s reads the Secret at %s', (apiVersion, kind, path) => {
    const reader = `apiVersion: ${apiVersion}
kind: ${kind}
metadata: {name: reader, namespace: network}
spec:
  ${path.split('.').slice(1, -1).join(': {')}: {name: token}${'}'.repeat(path.split('.').length - 3)}`;
    const out = runFlux([externalSecret('token', { namespace: 'network' }), reader]);
    expect(rulesOf(out.stdout, 'secret-reader').map((r) => (r.field as Obj)?.path)).toEqual([path]);
    expect(rulesOf(out.stdout, 'unread-source')).toEqual([]);
  });

  // bjw-s/home-ops@143c271bba kubernetes/main/apps/home-automation/zigbee2mqtt/app reads one
  // Secret in four env entries; app-template releases read it in a container and an init
  // container (ishioni/homelab-ops@0268d322d selfhosted/vaultwarden/app): one info per Secret.
  it('helm-release-reads is one info per Secret, at the first place it is read', () => {
    const values = `controllers:
  main:
    initContainers:
      init-db:
        envFrom:
          - secretRef: {name: app-secret}
    containers:
      app:
        env:
          USER: {valueFrom: {secretKeyRef: {name: app-secret, key: user}}}
          PASSWORD: {valueFrom: {secretKeyRef: {name: app-secret, key: password}}}`;
    const out = runFlux([
      externalSecret('app', { namespace: 'network', target: 'app-secret' }),
      helmRelease('app', values),
    ]);
    const reads = rulesOf(out.stdout, 'helm-release-reads');
    expect(reads.map((r) => [r.message, (r.field as Obj)?.path])).toEqual([
      [
        'its release reads Secret app-secret of ExternalSecret network/app at 3 places, the first named here',
        'spec.values.controllers.main.initContainers.init-db.envFrom[0].secretRef.name',
      ],
    ]);
  });
});

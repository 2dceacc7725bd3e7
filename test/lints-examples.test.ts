// The missing-key, kind-near-miss and csi-sync-mount lints have no false positives on real inputs:
// every example package and every ESO documentation example gets exactly the warnings listed here
// (each checked by hand to be true), found as the difference between runs with the lints on and off.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import { esoExampleFiles, examplePackage, readEsoExample, repoRoot } from './helpers.js';

const off = { kindNearMissSeverity: 'off', missingKeySeverity: 'off', csiSyncMountSeverity: 'off' };

/** Warnings of a stream run with the lints on that the same run with them off lacks. */
function newWarnings(text: string, settings: Record<string, string> = {}): string[] {
  const lines = (extra: Record<string, string>) => {
    const out = run(text, { settings: { ...settings, ...extra } });
    return out.stderr.split('\n').filter((l) => l.startsWith('warning: '));
  };
  const before = new Set(lines(off));
  return lines({}).filter((l) => !before.has(l));
}

// biome-ignore lint/suspicious/noExplicitAny: parsed documents
type Obj = Record<string, any>;

describe('no false positives', () => {
  const examples = path.join(repoRoot, 'examples');
  const packages = readdirSync(examples).filter((p) =>
    statSync(path.join(examples, p)).isDirectory(),
  );

  /** The true positives: the trap packages of the lints (their goldens show the same). */
  const expectedInPackages: Record<string, string[]> = {
    'lint-kind-near-miss': [
      'warning: ExternalSecrets payments/stripe (external-secrets.io/v1) looks like an ' +
        'ExternalSecret (external-secrets.io/v1), but its kind is a plural, so secret-rollout ' +
        'does not read it (no checksum, no wave). To count, set apiVersion: ' +
        'external-secrets.io/v1 and kind: ExternalSecret [ExternalSecrets payments/stripe kind] ' +
        '(kind-near-miss)',
    ],
    'lint-missing-key': [
      'warning: Deployment shop/orders-api reads key pasword of Secret orders-db-credentials, ' +
        'but ExternalSecret shop/orders-db produces only password, username: check the key ' +
        'names on both sides [Deployment shop/orders-api ' +
        'spec.template.spec.containers[0].env[1].valueFrom.secretKeyRef.key] (missing-key)',
    ],
    'lint-csi-sync-mount': [
      'warning: CronJob payments/payments-reconcile reads Secret payments-db, which ' +
        'SecretProviderClass payments/payments-vault syncs, but does not mount that class: the ' +
        'Secrets Store CSI driver creates and updates a synced Secret only while a pod mounts its ' +
        'class, here only pods of Deployment payments/payments-api. Its pods can be created before ' +
        'the driver writes the Secret (CreateContainerConfigError, or a secret volume that cannot ' +
        'mount) and work only while those pods run. Mount the class in this pod template: a csi ' +
        'volume with driver secrets-store.csi.k8s.io and volumeAttributes.secretProviderClass: ' +
        'payments-vault [CronJob payments/payments-reconcile] (csi-sync-mount)',
    ],
  };

  it('lists true positives only for packages that exist', () => {
    expect(Object.keys(expectedInPackages).filter((p) => !packages.includes(p))).toEqual([]);
  });

  it.each(packages)('examples/%s: no new warning but the listed ones', (pkg) => {
    const { text, settings } = examplePackage(path.join(examples, pkg));
    expect(newWarnings(text, settings)).toEqual(expectedInPackages[pkg] ?? []);
  });

  /** The true positives: ESO's own old-version examples (ESO ≥ 0.17 rejects them). */
  const expected: Record<string, string[]> = {
    'clusterexternalsecret-v1beta1.yaml': ['ClusterExternalSecret external-secrets.io/v1beta1'],
    'externalsecret-v1beta1.yaml': ['ExternalSecret external-secrets.io/v1beta1'],
    'getallsecrets-find-by-tags.yaml': ['ExternalSecret external-secrets.io/v1beta1'],
    'passworddepot-external-secret.yaml': ['ExternalSecret external-secrets.io/v1alpha1'],
  };

  it.each(esoExampleFiles())('testdata/eso/examples/%s: only the listed warnings', (file) => {
    const text = readEsoExample(file);
    // Consumers reading, by name, every key the ExternalSecrets list: none may be reported.
    let docs: Obj[] = [];
    try {
      docs = (loadAll(text) as Obj[]).filter(Boolean);
    } catch {
      // full-external-secret.yaml repeats a key: it fails as a whole
    }
    const consumers = docs
      .filter((d) => d.kind === 'ExternalSecret' && Array.isArray(d.spec?.data))
      .map((es, i) => {
        const env = es.spec.data.map(
          (d: Obj, k: number) =>
            `        - name: K${k}\n          valueFrom:\n            secretKeyRef: {name: ${JSON.stringify(es.spec?.target?.name || es.metadata?.name || 'x')}, key: ${JSON.stringify(d.secretKey)}}\n`,
        );
        return `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: c${i}\n${es.metadata?.namespace ? `  namespace: ${es.metadata.namespace}\n` : ''}spec:\n  template:\n    spec:\n      containers:\n      - name: c\n        env:\n${env.join('')}`;
      });
    const input = `${text.endsWith('\n') ? text : `${text}\n`}${consumers.join('')}`;
    const found = newWarnings(input).map((line) => {
      const [, kind, apiVersion] = /^warning: (\S+) .*?\((\S+)\) (is read|looks)/.exec(line) ?? [];
      return `${kind} ${apiVersion}`;
    });
    expect(found).toEqual(expected[file] ?? []);
  });
});

// Real ExternalSecrets from ESO's docs (testdata/eso/examples, see testdata/SOURCES.md):
// every one is handled without error, except the file with a duplicated key.
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import {
  checksumKey,
  esoExampleFiles,
  insertedLines,
  readEsoExample as read,
  waveKey,
} from './helpers.js';

const files = esoExampleFiles();

// biome-ignore lint/suspicious/noExplicitAny: parsed documents, asserted field by field
type Obj = Record<string, any>;

describe('ESO documentation examples', () => {
  it('are all there', () => {
    expect(files.length).toBeGreaterThanOrEqual(25);
  });

  it('rejects the duplicated dataFrom key with a clear error', () => {
    const out = run(read('full-external-secret.yaml'));
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /^error: document 0 \(ExternalSecret [^)]+\): invalid YAML: Map keys must be unique at line \d+, column \d+ \(invalid-input\)\n$/,
    );
  });

  it('rejects the schema skeleton whose label selector operator is the placeholder `string`', () => {
    // (tests/__snapshot__ in ESO: every field filled with a placeholder; ESO rejects it too)
    const out = run(read('clusterexternalsecret-v1beta1.yaml'));
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toContain(
      'spec.namespaceSelector.matchExpressions[0].operator must be one of In, NotIn, Exists, DoesNotExist',
    );
  });

  const invalid = ['full-external-secret.yaml', 'clusterexternalsecret-v1beta1.yaml'];
  for (const file of files.filter((f) => !invalid.includes(f))) {
    it(`handles ${file}`, () => {
      const text = read(file);
      const docs = (loadAll(text) as Obj[]).filter(Boolean);
      const secrets = docs
        .filter(
          (d) => d.kind === 'ExternalSecret' && d.apiVersion.startsWith('external-secrets.io/'),
        )
        .filter((d) => !d.spec?.target?.manifest || d.spec.target.manifest.kind === 'ConfigMap');
      // One consumer per produced Secret (or ConfigMap), in the ExternalSecret's namespace.
      const consumers = secrets.map(
        (es, i) => `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: consumer-${i}
${es.metadata.namespace ? `  namespace: ${es.metadata.namespace}\n` : ''}spec:
  template:
    spec:
      containers:
      - name: c
        envFrom:
        - ${es.spec?.target?.manifest ? 'configMapRef' : 'secretRef'}:
            name: ${es.spec?.target?.name || es.metadata.name}
`,
      );
      const input = `${text.endsWith('\n') ? text : `${text}\n`}${consumers.join('')}`;
      const out = run(input);
      expect(out.stderr).not.toMatch(/^error/m);
      expect(out.exitCode).toBe(0);
      const outDocs = (loadAll(out.stdout) as Obj[]).filter(Boolean);
      expect(outDocs.length).toBe(docs.length + consumers.length);
      for (const doc of outDocs) {
        if (doc.kind === 'Deployment') {
          expect(doc.spec.template.metadata.annotations[checksumKey], doc.metadata.name).toMatch(
            /^[0-9a-f]{64}$/,
          );
        }
        if (doc.kind === 'ExternalSecret') {
          expect(doc.metadata.annotations[waveKey]).toMatch(/^-\d+$/);
        }
      }
      // A custom resource target: no pod reads it, and that is said (a ConfigMap's is read above).
      const custom = docs.filter(
        (d) => d.kind === 'ExternalSecret' && d.spec?.target?.manifest && !secrets.includes(d),
      );
      if (custom.length > 0)
        expect(out.stderr).toMatch(/which no PodSpec field reads.*\(manifest-target\)/);
      // Nothing but inserted annotation lines: the input survives in order.
      for (const line of insertedLines(input, out.stdout)) {
        expect(line).toMatch(
          /^ *(annotations:|metadata:|checksum\/(external-secrets|dependencies): "|argocd\.argoproj\.io\/sync-wave: ")/,
        );
      }
    });
  }
});

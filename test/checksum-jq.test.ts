// The README's jq recipe (docs/checksum.jq) is an independent implementation of the documented
// algorithm: it must agree with the function on every ExternalSecret of ESO's docs.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { dump, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import {
  checksumKey,
  esoExampleFiles,
  readEsoExample,
  repoRoot,
  templateAnnotation,
} from './helpers.js';

const recipe = path.join(repoRoot, 'docs/checksum.jq');

function jq(input: unknown): string {
  try {
    return execFileSync('jq', ['-rj', '-f', recipe], { input: JSON.stringify(input) }).toString();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error('jq is not on PATH: apt-get install -y jq (.ci/run does)');
    }
    throw error;
  }
}

type Obj = Record<string, unknown> & { metadata?: Obj; spec?: Obj; kind?: string };

describe('docs/checksum.jq agrees with the function', () => {
  const files = esoExampleFiles().filter((f) => f !== 'full-external-secret.yaml');
  for (const file of files) {
    const text = readEsoExample(file);
    const secrets = (loadAll(text) as Obj[]).filter(
      (d) => d?.kind === 'ExternalSecret' && !(d.spec?.target as Obj | undefined)?.manifest,
    );
    if (secrets.length === 0) continue;
    it(file, () => {
      for (const es of secrets) {
        const secret =
          ((es.spec?.target as Obj | undefined)?.name as string) || (es.metadata?.name as string);
        const consumer = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: consumer\n${
          es.metadata?.namespace ? `  namespace: ${es.metadata.namespace}\n` : ''
        }spec:\n  template:\n    spec:\n      containers:\n      - name: c\n        envFrom:\n        - secretRef:\n            name: ${secret}\n`;
        const esYaml = dump(es);
        const out = run(`${esYaml}\n---\n${consumer}`);
        expect(out.exitCode, out.stderr).toBe(0);
        const value = /checksum\/external-secrets: "([0-9a-f]{64})"/.exec(out.stdout)?.[1];
        const expected = createHash('sha256')
          .update(jq([es]))
          .digest('hex');
        expect(value, `${checksumKey} of ${secret}`).toBe(expected);
      }
    });
  }
});

describe('docs/checksum.jq agrees with the function on rendered ExternalSecrets with dependencies', () => {
  // The examples that hold an ExternalSecret with its templateFrom Secret or its generators.
  for (const file of ['template-v2-from-secret.yaml', 'generator-password-multiple-keys.yaml']) {
    it(file, () => {
      const docs = (loadAll(readEsoExample(file)) as Obj[]).filter(Boolean);
      const secrets = docs.filter((d) => d.kind === 'ExternalSecret');
      const consumers = secrets.map(
        (es, i) =>
          `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: consumer-${i}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        envFrom:\n        - secretRef:\n            name: ${((es.spec?.target as Obj | undefined)?.name as string) || es.metadata?.name}\n`,
      );
      const out = run([...docs.map((d) => dump(d)), ...consumers].join('---\n'));
      expect(out.exitCode, out.stderr).toBe(0);
      const rendered = (loadAll(out.stdout) as Obj[]).filter(Boolean);
      const withDeps = rendered.filter(
        (d) =>
          d.kind === 'ExternalSecret' &&
          JSON.stringify(d.metadata).includes('checksum/dependencies'),
      );
      expect(withDeps.length).toBeGreaterThan(0);
      secrets.forEach((_, i) => {
        const es = rendered.filter((d) => d.kind === 'ExternalSecret')[i] as Obj;
        const consumer = rendered.find((d) => d.metadata?.name === `consumer-${i}`) as Obj;
        expect(templateAnnotation(consumer)).toBe(
          createHash('sha256')
            .update(jq([es]))
            .digest('hex'),
        );
      });
    });
  }
});

// Kubernetes refuses an object whose annotations total more than 262,144 bytes of keys and values
// (apimachinery ValidateAnnotationsSize, UTF-8 bytes): an edit that would take a mapping over it
// is not written, whichever stage planned it, and an error names the resource and the field.
import { describe, expect, it } from 'vitest';
import type { Edit } from '../src/model/edit.js';
import type { Resource } from '../src/model/resource.js';
import { annotationsLimit, limitAnnotations } from '../src/rules/annotation-limit.js';
import { run } from '../src/run.js';
import {
  checksumKey,
  deployment,
  envFrom,
  externalSecret,
  resourceList,
  resultsOf,
  waveKey,
} from './helpers.js';

type Obj = Record<string, unknown>;

/** The checksum annotation a run writes: its key and 64 hex digits. */
const checksumBytes = checksumKey.length + 64;
const blobKey = 'example.com/blob';

/** A Deployment reading ExternalSecret db, its pod template's annotations `bytes` long (ASCII). */
const bigTemplate = (bytes: number, char = 'B') => {
  const value = char.repeat(bytes - blobKey.length);
  return deployment('api', envFrom('db')).replace(
    '    metadata:\n      labels:',
    `    metadata:\n      annotations:\n        ${blobKey}: "${value}"\n      labels:`,
  );
};

const limitResults = (stdout: string) =>
  resultsOf(stdout).filter((r) => (r.tags as Obj).rule === 'annotation-limit');

describe('annotation-limit', () => {
  it('writes a checksum that fills the limit exactly, and refuses one byte more', () => {
    const fits = run(
      resourceList([externalSecret('db'), bigTemplate(annotationsLimit.bytes - checksumBytes)]),
    );
    expect(fits.exitCode).toBe(0);
    expect(limitResults(fits.stdout)).toEqual([]);
    expect(fits.stdout).toContain(`${checksumKey}: `);

    const input = resourceList([
      externalSecret('db'),
      bigTemplate(annotationsLimit.bytes - checksumBytes + 1),
    ]);
    const over = run(input);
    expect(over.exitCode).toBe(1);
    expect(limitResults(over.stdout)).toEqual([
      {
        severity: 'error',
        message: `Deployment api: spec.template.metadata.annotations[${checksumKey}] not written: with it spec.template.metadata.annotations would hold 262145 bytes of keys and values, over the 262144 Kubernetes allows (the API server refuses the object). Make room in that mapping: large data belongs in a ConfigMap`,
        tags: { rule: 'annotation-limit' },
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
        field: { path: `spec.template.metadata.annotations[${checksumKey}]` },
      },
    ]);
    // An error leaves every item as it came.
    expect(over.stdout).not.toContain(`${checksumKey}: `);
  });

  it('counts UTF-8 bytes, as the API server does, not characters', () => {
    // 'é' is two bytes: half as many characters as the ASCII case, the same bytes.
    const bytes = annotationsLimit.bytes - checksumBytes - blobKey.length;
    const value = 'é'.repeat(Math.floor(bytes / 2)) + (bytes % 2 ? 'B' : '');
    const template = (extra: string) =>
      deployment('api', envFrom('db')).replace(
        '    metadata:\n      labels:',
        `    metadata:\n      annotations:\n        ${blobKey}: "${value}${extra}"\n      labels:`,
      );
    expect(limitResults(run(resourceList([externalSecret('db'), template('')])).stdout)).toEqual(
      [],
    );
    expect(
      limitResults(run(resourceList([externalSecret('db'), template('é')])).stdout),
    ).toHaveLength(1);
  });

  it("refuses an ordering annotation on an item's own metadata too", () => {
    const es = externalSecret('db').replace(
      'metadata:\n  name: db\n',
      `metadata:\n  name: db\n  annotations:\n    ${blobKey}: "${'x'.repeat(annotationsLimit.bytes)}"\n`,
    );
    const out = run(resourceList([es, deployment('api', envFrom('db'))]));
    expect(out.exitCode).toBe(1);
    expect(limitResults(out.stdout).map((r) => (r.field as Obj).path)).toEqual([
      `metadata.annotations[${waveKey}]`,
    ]);
  });

  it('leaves out every edit of a mapping over the limit and keeps the others', () => {
    const resource = {
      index: 3,
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'api',
      annotations: {},
      value: {
        metadata: { annotations: { a: 'x'.repeat(annotationsLimit.bytes - 10) } },
        spec: { template: { metadata: {} } },
      },
    } as unknown as Resource;
    const edits: Edit[] = [
      { item: 3, path: ['metadata', 'annotations'], key: 'k1', value: '12345' },
      { item: 3, path: ['spec', 'template', 'metadata', 'annotations'], key: 'c', value: 'v' },
      { item: 3, path: ['metadata', 'annotations'], key: 'k2', value: '12345' },
      { item: 3, path: ['data'], key: 'annotations', value: 'y'.repeat(annotationsLimit.bytes) },
    ];
    const limited = limitAnnotations(edits, [resource]);
    expect(limited.edits).toEqual([edits[1], edits[3]]);
    expect(limited.results.map((r) => r.field?.path)).toEqual([
      'metadata.annotations[k1]',
      'metadata.annotations[k2]',
    ]);
    // Replacing a value counts it once: the same edit of key `a` fits.
    const replace: Edit = { item: 3, path: ['metadata', 'annotations'], key: 'a', value: 'short' };
    expect(limitAnnotations([replace], [resource]).edits).toEqual([replace]);
    // No annotation edit: the list as given, nothing measured.
    const none: Edit[] = [edits[3] as Edit];
    expect(limitAnnotations(none, [resource]).edits).toBe(none);
  });

  it('measures a mapping once however many edits it gets', () => {
    // kapp's change rules: an edit per group an item waits for, all into metadata.annotations.
    // Measured per edit, g edits of a mapping of m keys cost g × m (s16-review: 2.8 MB, 25 s).
    const keys = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    let listed = 0;
    const annotations = new Proxy(keys, {
      ownKeys(target) {
        listed++;
        return Reflect.ownKeys(target);
      },
    });
    const resource = {
      index: 0,
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'api',
      annotations: {},
      value: { metadata: { annotations } },
    } as unknown as Resource;
    const edits: Edit[] = Array.from({ length: 40 }, (_, g) => ({
      item: 0,
      path: ['metadata', 'annotations'],
      key: `change-rule.${g}`,
      value: 'upsert after upserting g',
    }));
    expect(limitAnnotations(edits, [resource]).edits).toBe(edits);
    expect(listed).toBe(1);
  });
});

// The reference table (src/rules/workloads/references.ts) against the Kubernetes API's field list
// (src/rules/workloads/reference-fields.ts, exhaustive over kubernetes-types at compile time): every
// field classified `Secret`/`ConfigMap` is a path in the table with that kind, and nothing else is.
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../src/model/json.js';
import type { Resource } from '../src/model/resource.js';
import {
  containerRoles,
  csiVolumeSourceRoles,
  envFromSourceRoles,
  envVarRoles,
  envVarSourceRoles,
  ephemeralContainerRoles,
  podSpecRoles,
  projectedVolumeSourceRoles,
  type Role,
  volumeProjectionRoles,
  volumeRoles,
} from '../src/rules/workloads/reference-fields.js';
import { Places, secretReferences, secretUses } from '../src/rules/workloads/references.js';

/** A workload of this value, read as a tree. */
const resourceOf = (value: JsonObject): Resource => ({
  index: 0,
  value,
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  name: 'd',
  namespace: undefined,
  annotations: {},
  file: undefined,
});

const fieldsWith = (roles: Record<string, Role>, wanted: Role): string[] =>
  Object.keys(roles)
    .filter((field) => roles[field] === wanted)
    .sort();

/** `prefix.field → kind` for every Secret/ConfigMap field of `roles`. */
function referencesIn(roles: Record<string, Role>, prefix: string): [string, string][] {
  return (['Secret', 'ConfigMap', 'SecretProviderClass'] as const).flatMap((kind) =>
    fieldsWith(roles, kind).map((field): [string, string] => [`${prefix}${field}`, kind]),
  );
}

describe('reference table', () => {
  it('descends into exactly the fields classified nested', () => {
    // The walk below hard-codes where each nested field leads; a field newly marked nested
    // must be added to it.
    expect(fieldsWith(podSpecRoles, 'nested')).toEqual([
      'containers',
      'ephemeralContainers',
      'initContainers',
      'volumes',
    ]);
    expect(fieldsWith(containerRoles, 'nested')).toEqual(['env', 'envFrom']);
    expect(fieldsWith(ephemeralContainerRoles, 'nested')).toEqual(['env', 'envFrom']);
    expect(fieldsWith(envVarRoles, 'nested')).toEqual(['valueFrom']);
    expect(fieldsWith(volumeRoles, 'nested')).toEqual(['csi', 'projected']);
    expect(fieldsWith(projectedVolumeSourceRoles, 'nested')).toEqual(['sources']);
  });

  it('has a path for every field that names a Secret or ConfigMap, and no other', () => {
    const expected = [
      ...(['containers', 'initContainers', 'ephemeralContainers'] as const).flatMap((list) => [
        ...referencesIn(envVarSourceRoles, `${list}[].env[].valueFrom.`),
        ...referencesIn(envFromSourceRoles, `${list}[].envFrom[].`),
      ]),
      ...referencesIn(volumeRoles, 'volumes[].'),
      ...referencesIn(volumeProjectionRoles, 'volumes[].projected.sources[].'),
      ...referencesIn(csiVolumeSourceRoles, 'volumes[].csi.'),
      // PodSpec-level references are lists of LocalObjectReference.
      ...referencesIn(podSpecRoles, '').map(([path, kind]): [string, string] => [
        `${path}[]`,
        kind,
      ]),
    ];
    // A row's field is its path, or for a nested name (`volumeAttributes.secretProviderClass`)
    // the field of the reference object that holds it.
    const table = secretReferences.map((ref): [string, string] => {
      const [head, ...rest] = ref.nameField.split('.');
      return [rest.length > 0 ? `${ref.path}.${head}` : ref.path, ref.kind];
    });
    expect(table.length).toBe(new Set(table.map(([path]) => path)).size);
    expect(new Map(table)).toEqual(new Map(expected));
  });
});

describe('where a reference is', () => {
  const podSpec = {
    containers: [
      { env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }] },
    ],
    volumes: [{ name: 'v', secret: { secretName: 'tls', items: [{ key: 'crt', path: 'c' }] } }],
  };
  const at = ['spec', 'template', 'spec'];

  it('is copied only when asked for: a walk keeps no trail per reference', () => {
    // main: every keyed reference kept a copy of its trail (`at`), read only when reported.
    const uses = secretUses(podSpec, at);
    expect(uses.map((u) => u.secretName)).toEqual(['db', 'tls']);
    expect(uses.filter((u) => 'at' in u || 'named' in u)).toEqual([]);
  });

  it('is found again by a second walk', () => {
    const value = resourceOf({ spec: { template: { spec: podSpec } } });
    const places = new Places();
    expect(places.keys(value, at, 0)).toEqual([
      ...at,
      'containers',
      0,
      'env',
      0,
      'valueFrom',
      'secretKeyRef',
      'key',
    ]);
    expect(places.named(value, at, 1)).toEqual([...at, 'volumes', 0, 'secret', 'secretName']);
    expect(places.keys(value, at, 1)).toEqual([...at, 'volumes', 0, 'secret', 'items']);
  });
});

describe('the order of the uses', () => {
  it('is the table order, then document order, as if each row were walked on its own', () => {
    const env = (name: string) => ({ name, valueFrom: { secretKeyRef: { name, key: 'k' } } });
    const podSpec: JsonObject = {
      volumes: [{ name: 'v', secret: { secretName: 'vol' } }],
      containers: [
        { env: [env('a1')], envFrom: [{ secretRef: { name: 'f1' } }] },
        {
          env: [env('a2'), { name: 'c', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } }],
        },
      ],
      initContainers: [{ envFrom: [{ secretRef: { name: 'f3' } }] }],
    };
    const names = () => secretUses(podSpec, []).map((use) => use.secretName);
    const inTableOrder = ['a1', 'a2', 'f1', 'cm', 'f3', 'vol'];
    expect(names()).toEqual(inTableOrder);
    // Twice: what the first walk noted of its rows is not carried over.
    expect(names()).toEqual(inTableOrder);
    // Placed in that order: asked once (the use found in a walk that copies only its place) and
    // again (every place copied), each as a walk keeping every place finds it.
    const value = resourceOf({ spec: podSpec });
    const kept = secretUses(podSpec, ['spec'], true);
    const once = inTableOrder.map((_, use) => new Places().named(value, ['spec'], use));
    const places = new Places();
    const again = inTableOrder.map((_, use) => places.named(value, ['spec'], use));
    expect(once).toEqual(kept.map((use) => use.named));
    expect(again).toEqual(once);
    expect(once[5]).toEqual(['spec', 'volumes', 0, 'secret', 'secretName']);
  });
});

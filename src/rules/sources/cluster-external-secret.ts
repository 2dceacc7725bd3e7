// ESO ClusterExternalSecret (external-secrets.io v1, v1beta1; cluster-scoped): one ExternalSecret
// from `spec.externalSecretSpec` in every selected namespace, so one source per namespace.
import type { DeclaredTemplate } from '../../model/config.js';
import { canonicalJson, sha256Hex } from '../../model/hash.js';
import type { JsonObject } from '../../model/json.js';
import { getPath } from '../../model/path.js';
import { ItemError, type Resource, readAnnotations } from '../../model/resource.js';
import { selectedNamespaces } from '../../model/result-rules.js';
import { describe, resourceResult } from '../../model/results.js';
import { podTemplatesOf } from '../workloads/shapes.js';
import {
  type Dependencies,
  dependenciesAnnotation,
  readDependencies,
  resyncRegenerates,
  templateReads,
} from './eso-dependencies.js';
import { contentWith, readExternalSecretSpec, targetNotes, targetOf } from './external-secret.js';
import { objectField, optionalList, optionalObject, optionalString, stringMap } from './fields.js';
import { type LabelSelector, labelSelector } from './label-selector.js';
import { operatorSecret } from './operator-secret.js';
import type { Inventory, SecretSource, SourceKind } from './source.js';

/** The API server sets this label on every Namespace to its name. */
const nameLabel = 'kubernetes.io/metadata.name';

/** What an unevaluated selector is taken to match, per `clusterExternalSecretNamespaces`. */
const assumptions = {
  selected:
    'they match no namespace (clusterExternalSecretNamespaces=selected: add the Namespace objects to the input, or set it to all)',
  all: 'they match every namespace with a workload in the input (clusterExternalSecretNamespaces=all)',
} as const;

export const clusterExternalSecret: SourceKind = {
  group: 'external-secrets.io',
  kind: 'ClusterExternalSecret',
  read(resource, inventory) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const at = 'spec.externalSecretSpec';
    const esValue = objectField(spec, 'externalSecretSpec', at);
    const esSpec = readExternalSecretSpec(esValue, at);
    const esName =
      optionalString(spec.externalSecretName, 'spec.externalSecretName') || resource.name;
    const secretName = esSpec.targetName || esName;
    if (secretName === '') {
      throw new ItemError('has no spec.externalSecretName nor metadata.name', 'metadata.name');
    }

    const { namespaces, unevaluated } = selectNamespaces(spec, inventory);
    const note =
      unevaluated.length === 0
        ? undefined
        : `${unevaluated.join(', ')} cannot be evaluated: the input has no Namespace objects; assuming ${assumptions[inventory.config.clusterExternalSecretNamespaces]}`;
    if (namespaces.length === 0) {
      return { skipped: `selects no namespace in the input${note ? `; ${note}` : ''}` };
    }
    // Each ExternalSecret resolves its templateFrom and namespaced generators in its own
    // namespace (docs/operators.md §8b): one set of dependencies per selected namespace.
    const dependencies = namespaces.map((namespace) =>
      readDependencies(resource, esValue, inventory, { at, namespace }),
    );
    const own = ownAnnotations(spec, namespaces, dependencies);
    // The annotation is one for every namespace, so a change in one syncs all of them again; where
    // that makes a new value (a generator), every namespace's consumers follow the annotation.
    const everywhere = own && resyncRegenerates(esValue) ? own.hash : undefined;
    return namespaces.map((namespace, i) => {
      const { resources, hash, notes } = dependencies[i] as Dependencies;
      return operatorSecret(resource, inventory.config, {
        ...targetOf(esSpec),
        namespace,
        secretName,
        stores: esSpec.stores,
        // This note goes on the first source only: the transform reports the notes of every source.
        notes: [
          ...(i === 0 ? targetNotes(resource, esSpec, at) : []),
          ...(i === 0 && note
            ? [
                resourceResult(
                  selectedNamespaces,
                  resource,
                  `${note}; selected: ${namespaces.join(', ')}`,
                ),
              ]
            : []),
          ...notes,
        ],
        content: contentWith(esSpec, everywhere ?? hash),
        producedKeys: esSpec.producedKeys,
        dependencies: resources,
        ...(own && { ownAnnotations: own.annotations }),
      });
    });
  },
  inputReads: (resource) => templateReads(getPath(resource.value, 'spec.externalSecretSpec')),
};

/**
 * `checksum/dependencies` for `spec.externalSecretMetadata.annotations`, which ESO (v0.9.2 and
 * later) copies onto every ExternalSecret it creates, and so syncs them (docs/operators.md §8b):
 * SHA-256 of the canonical JSON mapping of each selected namespace with dependencies in the input
 * to their hash there. Undefined when no namespace has any.
 */
function ownAnnotations(
  spec: JsonObject,
  namespaces: readonly string[],
  dependencies: readonly Dependencies[],
): { hash: string; annotations: NonNullable<SecretSource['ownAnnotations']> } | undefined {
  const byNamespace: Record<string, string> = {};
  namespaces.forEach((namespace, i) => {
    const { hash } = dependencies[i] as Dependencies;
    if (hash !== undefined) byNamespace[namespace] = hash;
  });
  if (Object.keys(byNamespace).length === 0) return undefined;
  // The edit goes into this mapping: it must be one.
  const metadata = 'spec.externalSecretMetadata';
  const annotations = optionalObject(spec.externalSecretMetadata, metadata)?.annotations;
  readAnnotations(annotations, `${metadata}.annotations`);
  const hash = sha256Hex(canonicalJson(byNamespace));
  return {
    hash,
    annotations: {
      metadata: ['spec', 'externalSecretMetadata'],
      values: { [dependenciesAnnotation]: hash },
    },
  };
}

/**
 * `spec.namespaces` ∪ every namespace a selector matches (ORed, the deprecated
 * `namespaceSelector` included). Selectors are evaluated against the Namespace objects in the
 * input; without any, a selector that reads only the name label is evaluated against the
 * namespaces of the input's workloads, and the others are `unevaluated` (the assumption decides).
 */
function selectNamespaces(
  spec: JsonObject,
  { config, resources }: Inventory,
): { namespaces: string[]; unevaluated: string[] } {
  const selected = new Set<string>();
  optionalList(spec.namespaces, 'spec.namespaces').forEach((ns, i) => {
    selected.add(optionalString(ns, `spec.namespaces[${i}]`) ?? '');
  });
  const selectors: { field: string; selector: LabelSelector }[] = [];
  if (spec.namespaceSelector !== undefined && spec.namespaceSelector !== null) {
    const field = 'spec.namespaceSelector';
    selectors.push({ field, selector: labelSelector(spec.namespaceSelector, field) });
  }
  optionalList(spec.namespaceSelectors, 'spec.namespaceSelectors').forEach((s, i) => {
    const field = `spec.namespaceSelectors[${i}]`;
    selectors.push({ field, selector: labelSelector(s, field) });
  });

  const namespaceObjects = resources.filter((r) => r.apiVersion === 'v1' && r.kind === 'Namespace');
  const unevaluated: string[] = [];
  if (namespaceObjects.length > 0) {
    for (const ns of namespaceObjects) {
      const labels = { ...namespaceLabels(ns), [nameLabel]: ns.name };
      if (selectors.some(({ selector }) => selector.matches(labels))) selected.add(ns.name);
    }
  } else {
    const seen = workloadNamespaces(resources, config.podTemplates);
    for (const { field, selector } of selectors) {
      const byNameOnly = [...selector.keys].every((key) => key === nameLabel);
      if (!byNameOnly) unevaluated.push(field);
      for (const ns of seen) {
        const match = byNameOnly
          ? selector.matches({ [nameLabel]: ns })
          : config.clusterExternalSecretNamespaces === 'all';
        if (match) selected.add(ns);
      }
    }
  }
  selected.delete('');
  return { namespaces: [...selected].sort(), unevaluated };
}

function namespaceLabels(ns: Resource): Record<string, string | null> {
  const labels = getPath(ns.value, 'metadata.labels');
  try {
    return stringMap(labels, 'metadata.labels');
  } catch {
    const message = `${describe(ns)} has metadata.labels that are not a mapping of strings`;
    throw new ItemError(`cannot evaluate its namespace selectors: ${message}`);
  }
}

/** Namespaces of the resources with a pod template: where consumers can be. */
function workloadNamespaces(
  resources: readonly Resource[],
  declared: readonly DeclaredTemplate[],
): string[] {
  const namespaces = new Set<string>();
  for (const r of resources) {
    if (r.namespace !== undefined && podTemplatesOf(r, declared).length > 0) {
      namespaces.add(r.namespace);
    }
  }
  return [...namespaces];
}

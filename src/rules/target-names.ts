// Stage 2 with `targetNames: hashed` (docs/target-names.md): each ExternalSecret's Secret is named
// `<base name>-<hash of what decides its content>`, written as `spec.target.name`, and every
// reference to it in the input is rewritten, as kustomize's namereference does for generated
// ConfigMaps and Secrets. A new pod then names a Secret that holds the new content or does not
// exist yet: it cannot start on the old value, whatever the deployer. The base name is recorded on
// the ExternalSecret, so a second run recognises its own suffix (never a suffix on a suffix) and a
// changed content moves it. The sources handed on see the content as it is after the edits, so
// the checksums of this run are those of the next one.
import type { Config } from '../model/config.js';
import { annotationEdit, type MappingEdit } from '../model/edit.js';
import { canonicalJson, sha256Hex } from '../model/hash.js';
import { isObject, type Json, type JsonObject } from '../model/json.js';
import { fieldPath } from '../model/path.js';
import { ItemError, objectKey, type Resource } from '../model/resource.js';
import {
  dependencyNotInInput,
  targetNameAsText,
  targetNameKept,
  targetNameOrphans,
  targetNameUnsafe,
  targetRenamed,
} from '../model/result-rules.js';
import { describe, type Result, refOf, resourceResult } from '../model/results.js';
import { groupOf } from '../model/scope.js';
import { type Producers, swapSources } from './producers.js';
import { notInInput } from './sources/eso-dependencies.js';
import { sourceKindOf } from './sources/index.js';
import type { SecretSource } from './sources/source.js';
import { helmReads, isHelmRelease } from './workloads/helm-release.js';
import { secretsNamedBy } from './workloads/operator-references.js';
import { secretUses } from './workloads/references.js';
import { podTemplatesOf } from './workloads/shapes.js';

/** Where the ExternalSecret records the name its hashed names are made from. */
export const baseNameAnnotation = 'secret-rollout/target-base-name';

export interface TargetNames {
  /** The producers, their renamed sources' content as after the edits. */
  producers: Producers;
  edits: MappingEdit[];
  results: Result[];
}

interface NameRead {
  namespace: string | undefined;
  name: string;
  field: string;
}

/** What reads a Secret by a name this stage cannot rewrite, and why a new name would break it. */
const nameReaders: readonly {
  reads: (resource: Resource, config: Config) => readonly NameRead[];
  why: string;
}[] = [
  // A chart builds the name from values we do not rewrite: the renamed Secret would not be found.
  {
    reads: (resource) =>
      isHelmRelease(resource) ? helmReads(resource).filter((read) => read.kind === 'Secret') : [],
    why: ' through Helm values, which targetNames: hashed cannot rewrite',
  },
  // An operator resource (a CNPG Cluster, a KEDA TriggerAuthentication) names the Secret in its
  // own spec and its controller re-reads it by that name: a rename would break it at the next
  // read, and rewriting its spec would change a resource this function only orders.
  {
    reads: (resource, config) => secretsNamedBy(resource, config.secretReferences),
    why: ', which a hashed name would break',
  },
];

/** Each Secret's readers by name (nameReaders), by objectKey: one line each, its first field. */
function readersByName(resources: readonly Resource[], config: Config): Map<string, string[]> {
  const readers = new Map<string, Map<Resource, string>>();
  for (const resource of resources) {
    for (const { reads, why } of nameReaders) {
      let found: readonly NameRead[];
      try {
        found = reads(resource, config);
      } catch (error) {
        // A malformed field: the consumers' stage reports it for this item.
        if (!(error instanceof ItemError)) throw error;
        continue;
      }
      for (const { namespace, name, field } of found) {
        const key = objectKey('Secret', namespace, name);
        const lines = readers.get(key) ?? new Map<Resource, string>();
        readers.set(key, lines);
        if (!lines.has(resource)) {
          lines.set(resource, `${describe(resource)} reads its Secret by name (${field})${why}`);
        }
      }
    }
  }
  return new Map([...readers].map(([key, lines]) => [key, [...lines.values()]]));
}

/** A Secret name is a DNS subdomain: at most 253 characters. */
const maxName = 253;
const suffixLength = 10;
/** kustomize's suffix: `-` and ten characters of its alphabet, after a recorded base name. */
const suffixed = (base: string, name: string) =>
  name.length === base.length + 1 + suffixLength &&
  name.startsWith(`${base}-`) &&
  /^[2-9b-df-z]+$/.test(name.slice(base.length + 1));

/**
 * kustomize's suffix for generated ConfigMaps and Secrets (kubernetes-sigs/kustomize
 * api/hasher/hasher.go, `Encode`): the first ten hex digits of the SHA-256, with 0 1 3 a e
 * mapped to g h k m t so that the suffix spells no words and reads as no number.
 */
export function hashSuffix(text: string): string {
  const map: Readonly<Record<string, string>> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...sha256Hex(text).slice(0, suffixLength)].map((c) => map[c] ?? c).join('');
}

interface Rename {
  from: string;
  to: string;
}

const templateFrom = ['spec', 'target', 'template', 'templateFrom'];
const creationPolicy = { path: 'spec.target.creationPolicy' };
const manifestField = { path: 'spec.target.manifest' };

export function planTargetNames(
  resources: readonly Resource[],
  producers: Producers,
  config: Config,
): TargetNames {
  if (config.targetNames !== 'hashed') return { producers, edits: [], results: [] };
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  // First every ExternalSecret's base name, then the names, each on first need.
  const hashed = new Map<SecretSource, string>();
  /** ClusterExternalSecrets already noted: one source per namespace, one note. */
  const kept = new Set<Resource>();
  const nameReadersOf = readersByName(resources, config);
  for (const source of producers.sources) {
    const base = baseName(source, results, kept);
    if (base === undefined) continue;
    const readers = nameReadersOf.get(objectKey('Secret', source.namespace, source.secretName));
    if (readers) {
      const message = `${describe(source.resource)}: not renamed: ${readers.join('; ')}`;
      results.push(resourceResult(targetNameUnsafe, source.resource, message));
      continue;
    }
    // Several writers of one Secret (duplicate-writer): each hash would give another Secret, and
    // the consumers could name only one of them.
    const writers = producers.producing('Secret', source.namespace, source.secretName) ?? [];
    if (writers.length > 1) {
      const message = `${describe(source.resource)}: not renamed: ${writers.length} sources write its Secret, which hashed names would split`;
      results.push(resourceResult(targetNameUnsafe, source.resource, message));
      continue;
    }
    hashed.set(source, base);
  }
  /** Each hashed Secret's name; `renames`, those the run changes. */
  const named = new Map<SecretSource, string>();
  const tooLong = new Set<SecretSource>();
  const visiting = new Set<SecretSource>();
  // An ExternalSecret that renders from another's Secret (templateFrom) hashes that Secret's
  // hashed name: when that content changes, so do both names. The name is the same whether the
  // input names the Secret as before or as after a run, so a second run hashes the same text.
  const readName = (namespace: string | undefined, name: string): string => {
    for (const dependency of producers.producing('Secret', namespace, name) ?? []) {
      const base = hashed.get(dependency);
      if (base === undefined) continue;
      // A cycle, which ESO could never render: its base name ends it.
      if (visiting.has(dependency)) return base;
      return nameFor(dependency, base) ?? dependency.secretName;
    }
    return name;
  };
  const nameFor = (source: SecretSource, base: string): string | undefined => {
    const known = named.get(source);
    if (known !== undefined || tooLong.has(source)) return known;
    const { resource } = source;
    visiting.add(source);
    const content = withTemplateNames(source.content('all'), (name) =>
      readName(resource.namespace, name),
    );
    visiting.delete(source);
    // Not the name itself: a target that held only the name is as if absent, as before the run.
    if (isObject(content.target)) {
      const { name: _name, ...target } = content.target;
      if (Object.keys(target).length > 0) content.target = target;
      else delete content.target;
    }
    const to = `${base}-${hashSuffix(canonicalJson(content))}`;
    if (to.length > maxName) {
      const message = `${describe(resource)}: its Secret's hashed name would be longer than ${maxName} characters; not renamed`;
      results.push(resourceResult(targetNameUnsafe, resource, message));
      tooLong.add(source);
      return undefined;
    }
    named.set(source, to);
    return to;
  };
  const renames = new Map<SecretSource, Rename>();
  for (const [source, base] of hashed) {
    const to = nameFor(source, base);
    if (to === undefined) continue;
    const { resource } = source;
    if (resource.annotations[baseNameAnnotation] !== base) {
      edits.push(annotationEdit(resource.index, ['metadata'], baseNameAnnotation, base));
    }
    if (source.secretName !== to) {
      edits.push({ item: resource.index, path: ['spec', 'target'], key: 'name', value: to });
      renames.set(source, { from: source.secretName, to });
    }
  }
  const renamedTo = (namespace: string | undefined, name: string) => {
    for (const source of producers.producing('Secret', namespace, name) ?? []) {
      const rename = renames.get(source);
      if (rename) return rename.to;
    }
    return undefined;
  };
  /** References to each hashed Secret, rewritten or already naming it: the same on each run. */
  const references = new Map<SecretSource, number>();
  const count = (namespace: string | undefined, name: string) => {
    for (const source of producers.producing('Secret', namespace, name) ?? []) {
      if (named.has(source)) references.set(source, (references.get(source) ?? 0) + 1);
    }
  };
  /** ExternalSecrets whose templateFrom reads a renamed Secret, with what each read names now. */
  const readers = new Map<Resource, Map<string, string>>();
  for (const resource of named.size > 0 ? resources : []) {
    try {
      if (sourceKindOf(resource)) {
        const notes = new Map<string, string>();
        if (rewriteTemplateReads(resource, renamedTo, edits, count, notes)) {
          readers.set(resource, notes);
        }
        continue;
      }
      for (const { shape, podSpec } of podTemplatesOf(resource, config.podTemplates)) {
        for (const use of secretUses(podSpec, shape.podSpec, true)) {
          if (use.kind !== 'Secret') continue;
          count(resource.namespace, use.secretName);
          const to = renamedTo(resource.namespace, use.secretName);
          if (!to || !use.named) continue;
          const key = use.named.at(-1) as string;
          edits.push({ item: resource.index, path: use.named.slice(0, -1), key, value: to });
        }
      }
    } catch (error) {
      // A malformed reference field: the consumers' stage reports it for this item.
      if (!(error instanceof ItemError)) throw error;
    }
  }
  for (const [source, name] of named) {
    const n = references.get(source) ?? 0;
    const message = `${describe(source.resource)}: its Secret is named ${name} after its content (targetNames: hashed), and ${n} reference${n === 1 ? '' : 's'} in the input name${n === 1 ? 's' : ''} it; names read as text (annotations, Helm values, Argo CD Applications, fields outside the reference table) are not rewritten`;
    results.push(resourceResult(targetRenamed, source.resource, message));
  }
  readAsText(resources, named, hashed, results);
  return { producers: afterEdits(producers, renames, readers, renamedTo), edits, results };
}

/**
 * Annotations that name a hashed Secret (Reloader's `secret.reloader.stakater.com/reload: db`,
 * comma-separated lists): another tool reads that name as text, which is not rewritten. Any of
 * the Secret's names counts (its base, the input's, the new one), so each run warns alike.
 */
function readAsText(
  resources: readonly Resource[],
  named: ReadonlyMap<SecretSource, string>,
  hashed: ReadonlyMap<SecretSource, string>,
  results: Result[],
): void {
  const byName = new Map<string, SecretSource>();
  const key = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;
  for (const [source, to] of named) {
    for (const name of [hashed.get(source) as string, source.secretName, to]) {
      byName.set(key(source.namespace, name), source);
    }
  }
  if (byName.size === 0) return;
  for (const resource of resources) {
    if (sourceKindOf(resource)) continue;
    const found = new Set<SecretSource>();
    for (const value of Object.values(resource.annotations)) {
      for (const token of value.split(',')) {
        const source = byName.get(key(resource.namespace, token.trim()));
        if (source) found.add(source);
      }
    }
    for (const source of found) {
      const message = `${describe(resource)}: an annotation names the Secret of ${describe(source.resource)}, which targetNames: hashed renames to ${named.get(source)}; annotations are not rewritten`;
      results.push(
        resourceResult(targetNameAsText, resource, message, { path: 'metadata.annotations' }),
      );
    }
  }
}

/**
 * The name a hashed Secret's name is made from, or undefined when this source is not renamed
 * (with the reason as a result). The recorded base name counts while `target.name` is that name
 * or that name with a suffix; a target name set by hand since is the new base.
 */
function baseName(
  source: SecretSource,
  results: Result[],
  kept: Set<Resource>,
): string | undefined {
  const { resource } = source;
  if (groupOf(resource.apiVersion) !== 'external-secrets.io') return undefined;
  if (resource.kind === 'ClusterExternalSecret') {
    // Its ExternalSecrets are made in the namespaces its selectors match in the cluster, which
    // the input may not show: consumers there would keep the old name, whose Secret ESO deletes.
    const message = `${describe(resource)}: its Secrets keep their name (targetNames: hashed renames ExternalSecrets only): the namespaces it selects are decided in the cluster, where consumers the input does not show would keep reading the old name`;
    if (!kept.has(resource)) results.push(resourceResult(targetNameKept, resource, message));
    kept.add(resource);
    return undefined;
  }
  if (resource.kind !== 'ExternalSecret') return undefined;
  const target = isObject(resource.value.spec) ? resource.value.spec.target : undefined;
  if (source.produces !== 'Secret') {
    // A generic target keeps its name: what reads a ConfigMap or a custom resource by name
    // (templateFrom, operators, Helm values) is not all rewritten here, and a ConfigMap's pods
    // roll by their checksum.
    const rolls = source.produces === 'ConfigMap' ? '; the pods that read it roll by checksum' : '';
    const what = source.produces === 'ConfigMap' ? 'ConfigMap' : 'custom resource';
    const message = `${describe(resource)}: its ${what} keeps its name (target.manifest; targetNames: hashed renames Secret targets only)${rolls}`;
    results.push(resourceResult(targetNameKept, resource, message, manifestField));
    return undefined;
  }
  const policy = (isObject(target) && target.creationPolicy) || 'Owner';
  if (policy !== 'Owner' && policy !== 'Orphan') {
    const why =
      policy === 'None'
        ? 'creationPolicy None writes no Secret'
        : 'ESO merges into a Secret that must exist under that name, which a hashed name never does';
    const message = `${describe(resource)}: not renamed: ${why}`;
    results.push(resourceResult(targetNameUnsafe, resource, message, creationPolicy));
    return undefined;
  }
  if (policy === 'Orphan') {
    const message = `${describe(resource)}: creationPolicy Orphan: ESO leaves the Secret of each previous name in the cluster, for you to delete (docs/target-names.md)`;
    results.push(resourceResult(targetNameOrphans, resource, message, creationPolicy));
  }
  const recorded = resource.annotations[baseNameAnnotation];
  const current = source.secretName;
  if (recorded && (current === recorded || suffixed(recorded, current))) return recorded;
  return current;
}

/** A copy of an ExternalSecret's content with each templateFrom Secret's name mapped. */
function withTemplateNames(content: Json, map: (name: string) => string): JsonObject {
  const copy: JsonObject = { ...(content as JsonObject) };
  const target = copy.target;
  if (!isObject(target) || !isObject(target.template)) return copy;
  const list = target.template.templateFrom;
  if (!Array.isArray(list)) return copy;
  const mapped = list.map((entry) => {
    const secret = isObject(entry) ? entry.secret : undefined;
    if (!isObject(entry) || !isObject(secret) || typeof secret.name !== 'string') return entry;
    return { ...entry, secret: { ...secret, name: map(secret.name) } };
  });
  copy.target = { ...target, template: { ...target.template, templateFrom: mapped } };
  return copy;
}

/**
 * An ExternalSecret's templateFrom reads: counted, and those of renamed Secrets rewritten;
 * whether there were any of those.
 */
function rewriteTemplateReads(
  resource: Resource,
  renamedTo: (namespace: string | undefined, name: string) => string | undefined,
  edits: MappingEdit[],
  count: (namespace: string | undefined, name: string) => void,
  /** The Secret each rewritten read names now, by its field: its notes name it so. */
  notes: Map<string, string>,
): boolean {
  if (resource.kind !== 'ExternalSecret') return false;
  const spec = resource.value.spec;
  const target = isObject(spec) ? spec.target : undefined;
  const template = isObject(target) ? target.template : undefined;
  const list = isObject(template) ? template.templateFrom : undefined;
  if (!Array.isArray(list)) return false;
  let any = false;
  list.forEach((entry, i) => {
    const secret = isObject(entry) ? entry.secret : undefined;
    if (!isObject(secret) || typeof secret.name !== 'string') return;
    count(resource.namespace, secret.name);
    const to = renamedTo(resource.namespace, secret.name);
    if (!to) return;
    const path = [...templateFrom, i, 'secret'];
    edits.push({ item: resource.index, path, key: 'name', value: to });
    notes.set(fieldPath(path), `Secret ${resource.namespace ? `${resource.namespace}/` : ''}${to}`);
    any = true;
  });
  return any;
}

/**
 * The producers as the next run reads them: a renamed source has its new Secret name and, in its
 * content, `target.name`; an ExternalSecret reading a renamed Secret the new name in its
 * templateFrom. Lookups stay by the names the input has, which its references still use.
 */
function afterEdits(
  producers: Producers,
  renames: ReadonlyMap<SecretSource, Rename>,
  readers: ReadonlyMap<Resource, ReadonlyMap<string, string>>,
  renamedTo: (namespace: string | undefined, name: string) => string | undefined,
): Producers {
  if (renames.size === 0) return producers;
  const replaced = new Map<SecretSource, SecretSource>();
  for (const source of producers.sources) {
    const rename = renames.get(source);
    const { resource } = source;
    if (!rename && !readers.has(resource)) continue;
    // One copy per content object: checksums cache canonical JSON per object (checksums.ts).
    const copies = new WeakMap<JsonObject, JsonObject>();
    const content = (keys: Parameters<SecretSource['content']>[0]): Json => {
      const before = source.content(keys);
      if (!isObject(before)) return before;
      let after = copies.get(before);
      if (after === undefined) {
        after = withTemplateNames(before, (name) => renamedTo(resource.namespace, name) ?? name);
        if (rename)
          after.target = { ...(isObject(after.target) ? after.target : {}), name: rename.to };
        copies.set(before, after);
      }
      return after;
    };
    // The checksums cover the Secret's name too: the new one, as the next run reads it.
    replaced.set(source, { ...source, content, ...(rename && { secretName: rename.to }) });
  }
  const swap = (source: SecretSource) => replaced.get(source) ?? source;
  // A read of a Secret no item is (an ExternalSecret makes it) is noted by the name it now has.
  const byRef = new Map(
    [...readers].map(([resource, notes]) => [refOf(resource), { resource, notes }]),
  );
  const results = producers.results.map((result) => {
    const reader = result.resourceRef && byRef.get(result.resourceRef);
    const field = result.field?.path;
    const what = reader && field !== undefined && reader.notes.get(field);
    if (!reader || !what || result.tags?.rule !== dependencyNotInInput.id) return result;
    return notInInput(reader.resource, field as string, what);
  });
  return swapSources(producers, swap, results);
}

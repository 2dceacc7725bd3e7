// Stage 3b: annotations a source carries on itself (an ExternalSecret's `checksum/dependencies`):
// the operator watches only the source, so a change of what else it reads must show there.
import { annotationEdit, annotationField, type MappingEdit } from '../model/edit.js';
import { getPath } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import { checksum } from '../model/result-rules.js';
import { deferredInfo, describe, type Result } from '../model/results.js';
import type { Producers } from './producers.js';
import { esoSpecOf, unfollowedDependencies } from './sources/eso-dependencies.js';
import type { SecretSource } from './sources/source.js';

export interface SourceAnnotationPlan {
  /** Annotations whose value the input does not have yet. */
  edits: readonly MappingEdit[];
  /** One info per annotation: what it covers; whether the operator acts on it (ESO). */
  results: readonly Result[];
}

type OwnAnnotations = NonNullable<SecretSource['ownAnnotations']>;

/** `consumersOf`: whether a workload reads a source decides how loud an unfollowed annotation is. */
export function planSourceAnnotations(
  { sources }: Producers,
  consumersOf: ReadonlyMap<SecretSource, readonly Resource[]>,
): SourceAnnotationPlan {
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  // A cluster kind is one source per namespace, each with the same annotations: its resource is
  // annotated once, and the annotation covers the dependencies of every namespace.
  const annotated = new Map<
    Resource,
    { own: OwnAnnotations; covers: Resource[]; consumed: boolean }
  >();
  for (const source of sources) {
    const { resource, ownAnnotations, dependencies = [] } = source;
    if (!ownAnnotations) continue;
    const entry = annotated.get(resource) ?? { own: ownAnnotations, covers: [], consumed: false };
    entry.covers.push(...dependencies.filter((d) => !entry.covers.includes(d)));
    entry.consumed ||= (consumersOf.get(source)?.length ?? 0) > 0;
    annotated.set(resource, entry);
  }
  for (const [resource, { own, covers, consumed }] of annotated) {
    const site = esoSpecOf(resource);
    const unfollowed = site && unfollowedDependencies(resource, site, covers, consumed);
    if (unfollowed) results.push(unfollowed);
    const { metadata, values } = own;
    for (const [key, value] of Object.entries(values)) {
      if (getPath(resource.value, [...metadata, 'annotations', key]) !== value) {
        edits.push(annotationEdit(resource.index, metadata, key, value));
      }
      results.push(
        deferredInfo(checksum, resource, () => ({
          message: `${key} covers ${covers.map(describe).join(', ')}`,
          field: { path: annotationField(metadata, key), proposedValue: value },
        })),
      );
    }
  }
  return { edits, results };
}

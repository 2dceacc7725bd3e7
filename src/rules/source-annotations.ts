// Stage 3b: annotations a source carries on itself (an ExternalSecret's `checksum/dependencies`):
// the operator watches only the source, so a change of what else it reads must show there.
import { annotationEdit, annotationField, type MappingEdit } from '../model/edit.js';
import type { Resource } from '../model/resource.js';
import { deferredInfo, describe, type Result } from '../model/results.js';
import type { SourceIndex } from './source-index.js';

export interface SourceAnnotationPlan {
  /** Annotations whose value the input does not have yet. */
  edits: readonly MappingEdit[];
  /** One info per annotation: what it covers. */
  results: readonly Result[];
}

export function planSourceAnnotations({ sources }: SourceIndex): SourceAnnotationPlan {
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  // A cluster kind is one source per namespace: its resource is annotated once.
  const done = new Set<Resource>();
  for (const { resource, ownAnnotations, dependencies = [] } of sources) {
    if (!ownAnnotations || done.has(resource)) continue;
    done.add(resource);
    for (const [key, value] of Object.entries(ownAnnotations)) {
      if (resource.annotations[key] !== value) {
        edits.push(annotationEdit(resource.index, ['metadata'], key, value));
      }
      results.push(
        deferredInfo(resource, () => ({
          message: `${key} covers ${dependencies.map(describe).join(', ')}`,
          field: { path: annotationField(['metadata'], key), proposedValue: value },
        })),
      );
    }
  }
  return { edits, results };
}

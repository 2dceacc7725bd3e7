// The only change this function makes: set one key in a mapping of an item (an annotation, a
// data key of Argo CD's argocd-cm, or a reference's name inside a list entry, targetNames),
// creating the mappings on the way when missing.
import { fieldPath, type Keys, type Trail } from './path.js';

export interface MappingEdit {
  /** Index of the item in the input. */
  item: number;
  /**
   * Path to the mapping (`['metadata', 'annotations']`, `['data']`, …); a number steps into an
   * existing list entry, which is never created.
   */
  path: Trail;
  key: string;
  /** May span lines (written as a block scalar). */
  value: string;
}

/** Sets an annotation in the metadata mapping at `metadataPath`. */
export function annotationEdit(
  item: number,
  metadataPath: Keys,
  key: string,
  value: string,
): MappingEdit {
  return { item, path: [...metadataPath, 'annotations'], key, value };
}

/** The `field.path` of a result about an annotation: `spec.template.metadata.annotations[key]`. */
export function annotationField(metadataPath: Keys, key: string): string {
  return fieldPath([...metadataPath, 'annotations'], key);
}

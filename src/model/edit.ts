// The only change this function makes: set one key in a mapping of an item (an annotation, or a
// data key of Argo CD's argocd-cm), creating the mappings on the way when missing.
export interface MappingEdit {
  /** Index of the item in the input. */
  item: number;
  /** Path to the mapping (`['metadata', 'annotations']`, `['data']`, …). */
  path: readonly string[];
  key: string;
  /** May span lines (written as a block scalar). */
  value: string;
}

/** Sets an annotation in the metadata mapping at `metadataPath`. */
export function annotationEdit(
  item: number,
  metadataPath: readonly string[],
  key: string,
  value: string,
): MappingEdit {
  return { item, path: [...metadataPath, 'annotations'], key, value };
}

/** The `field.path` of a result about a key: `spec.template.metadata.annotations[key]`. */
export function keyField(path: readonly string[], key: string): string {
  return `${path.join('.')}[${key}]`;
}

export function annotationField(metadataPath: readonly string[], key: string): string {
  return keyField([...metadataPath, 'annotations'], key);
}

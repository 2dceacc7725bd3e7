// The only change this function makes: set one annotation in a metadata mapping.
export interface AnnotationEdit {
  /** Index of the item in the input. */
  item: number;
  /** Path to the metadata mapping (`['metadata']`, `['spec', 'template', 'metadata']`, …). */
  metadataPath: readonly string[];
  key: string;
  value: string;
}

export function annotationField(metadataPath: readonly string[], key: string): string {
  return `${metadataPath.join('.')}.annotations[${key}]`;
}

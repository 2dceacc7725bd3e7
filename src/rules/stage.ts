// What the stages share: a malformed item stops the rule for that item only; keys and groups.
// Below every stage, so that the stages import each other in their order only.
import { ItemError, type Resource } from '../model/resource.js';
import { describe, type Result, resourceResult } from '../model/results.js';
import type { SecretSource } from './sources/source.js';
import type { KeySet } from './workloads/references.js';

/** Runs one rule on one resource; a malformed field (ItemError) becomes an error result for it. */
export function guarded(results: Result[], resource: Resource, rule: () => void): void {
  try {
    rule();
  } catch (error) {
    if (!(error instanceof ItemError)) throw error;
    const field = error.field ? { path: error.field } : undefined;
    results.push(
      resourceResult(resource, 'error', `${describe(resource)}: ${error.message}`, field),
    );
  }
}

/** The keys read by two reads of one Secret. */
export function unionKeys(a: KeySet, b: KeySet): KeySet {
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}

/** The sources' resources, each named once (one resource can be a source per namespace). */
export const listNames = (sources: readonly SecretSource[]) =>
  sources.length === 1
    ? describe((sources[0] as SecretSource).resource)
    : [...new Set(sources.map((s) => describe(s.resource)))].join(', ');

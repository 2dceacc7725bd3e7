// What the stages share: a malformed item stops the rule for that item only; keys and groups.
import { ItemError, type Resource } from '../model/resource.js';
import { malformedField } from '../model/result-rules.js';
import { describe, type Result, resourceResult } from '../model/results.js';

/** Runs one rule on one resource; a malformed field (ItemError) becomes an error result for it. */
export function guarded(results: Result[], resource: Resource, rule: () => void): void {
  try {
    rule();
  } catch (error) {
    if (!(error instanceof ItemError)) throw error;
    const field = error.field ? { path: error.field } : undefined;
    results.push(
      resourceResult(malformedField, resource, `${describe(resource)}: ${error.message}`, field),
    );
  }
}

/** Adds `value` to the group of `key`, a new group when it is the first. */
export function addTo<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const group = groups.get(key);
  if (group) group.push(value);
  else groups.set(key, [value]);
}

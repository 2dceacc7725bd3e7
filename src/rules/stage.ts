// What the stages share: a malformed item stops the rule for that item only.
import { ItemError, type Resource } from '../model/resource.js';
import { describe, type Result, resourceResult } from '../model/results.js';

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

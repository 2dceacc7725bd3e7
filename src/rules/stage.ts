// What the stages share: a malformed item stops the rule for that item only; keys and groups.
// Below every stage, so that the stages import each other in their order only.
import { countedList } from '../model/fold.js';
import { ItemError, type Resource } from '../model/resource.js';
import { malformedField } from '../model/result-rules.js';
import { describe, type Result, RuledItemError, resourceResult } from '../model/results.js';
import { type SecretSource, sourceNames } from './sources/source.js';
import type { KeySet } from './workloads/references.js';

/** Runs one rule on one resource; a malformed field (ItemError) becomes an error result for it. */
export function guarded(results: Result[], resource: Resource, rule: () => void): void {
  try {
    rule();
  } catch (error) {
    if (!(error instanceof ItemError)) throw error;
    results.push(malformed(resource, error));
  }
}

/**
 * `read(resource)`, or undefined with its malformed field an error result, as `guarded` does: for
 * a rule asked once per item (the wave plan's nodes), with no closure made per call.
 */
export function guardedRead<T>(
  results: Result[],
  resource: Resource,
  read: (resource: Resource) => T,
): T | undefined {
  try {
    return read(resource);
  } catch (error) {
    if (!(error instanceof ItemError)) throw error;
    results.push(malformed(resource, error));
    return undefined;
  }
}

/** The error result of a malformed field. */
function malformed(resource: Resource, error: ItemError): Result {
  const field = error.field ? { path: error.field } : undefined;
  const rule = error instanceof RuledItemError ? error.rule : malformedField;
  return resourceResult(rule, resource, `${describe(resource)}: ${error.message}`, field);
}

/** The keys read by two reads of one Secret. */
export function unionKeys(a: KeySet, b: KeySet): KeySet {
  if (a === 'all' || b === 'all') return 'all';
  return new Set([...a, ...b]);
}

/**
 * The sources' resources, each named once (one resource can be a source per namespace), up to
 * fifty and the rest counted: what a template reads is named in full (twenty a pod on the fan-in
 * bench), but thousands of sources writing one Secret made each note on its readers name them
 * all (bench/adversarial check-covers: readers × writers).
 */
export const listNames = (sources: readonly SecretSource[]) =>
  sources.length === 1
    ? describe((sources[0] as SecretSource).resource)
    : countedList(sourceNames(sources), 50);

/**
 * One note per Secret a resource names, made at the first place that names it, the others
 * counted: a reader naming one Secret in 10,000 list entries, or a chart reading it in every
 * container, is one note, not one per place.
 */
export class FirstPlaces<Note> {
  private readonly notes = new Map<string, { note: Note; at: number }>();

  /** The note of `secret` counted once more; undefined the first time (then `add` it). */
  again(secret: string): Note | undefined {
    const known = this.notes.get(secret);
    if (known === undefined) return undefined;
    known.at++;
    return known.note;
  }

  /** The note of a Secret `again` did not know, at its first place. */
  add(secret: string, note: Note): Note {
    this.notes.set(secret, { note, at: 1 });
    return note;
  }

  /** Each note, in the order of the Secrets' first places, with how many places name it. */
  forEach(visit: (note: Note, at: number) => void): void {
    for (const { note, at } of this.notes.values()) visit(note, at);
  }
}

// Check mode (`mode: check`, `secret-rollout check`): a CI gate that changes nothing. Every edit
// a render would make becomes an error result naming the resource, the field, the value a render
// writes and the command that writes it. Pure: the planned edits in, results out.

import type { MappingEdit } from '../model/edit.js';
import type { Json } from '../model/json.js';
import { fieldPath, getPath } from '../model/path.js';
import type { Resource } from '../model/resource.js';
import { notRendered } from '../model/result-rules.js';
import { describe, type Result, resourceResult } from '../model/results.js';
import type { Checksum } from './checksums.js';

/** A value short enough to quote in a message; longer ones (the health script) are only named. */
const quotable = (value: string) => !value.includes('\n') && value.length <= 100;

/**
 * A current value of the form the function writes (a checksum, a wave, a boolean): shown as it
 * is. Anything else is text of the input, which results never quote (README "Results").
 */
const ours = (value: Json | undefined): value is string =>
  typeof value === 'string' && /^(?:[0-9a-f]{64}|[+-]?\d{1,20}|true|false)$/.test(value);

/** Who ran the check, which says how to render: kpt, kustomize (LOG_TO_STDERR), or a stream. */
export type CheckedBy = 'kpt' | 'kustomize' | 'stream';
const renderWith: Readonly<Record<CheckedBy, string>> = {
  kpt: 'run kpt fn render',
  kustomize: 'render with secret-rollout as a kustomize transformer',
  stream: 'render the manifests with secret-rollout (secret-rollout < in.yaml > out.yaml)',
};

/**
 * One error per edit, in the order of the edits (every planned edit changes its item). A checksum
 * names what it covers (`checksums`, the plan's), so a stale one points at the edited source.
 */
export function checkResults(
  resources: readonly Resource[],
  edits: readonly MappingEdit[],
  checksums: ReadonlyMap<Resource, readonly Checksum[]>,
  by: CheckedBy,
): Result[] {
  const byIndex = new Map(resources.map((r) => [r.index, r]));
  const covers = (resource: Resource, edit: MappingEdit): string | undefined => {
    const checksum = checksums
      .get(resource)
      ?.find(
        (c) =>
          c.annotation === edit.key &&
          fieldPath([...c.shape.metadata, 'annotations'], c.annotation) ===
            fieldPath(edit.path, edit.key),
      );
    return checksum && [...new Set(checksum.sources.map((s) => describe(s.resource)))].join(', ');
  };
  const results: Result[] = [];
  for (const edit of edits) {
    const resource = byIndex.get(edit.item);
    if (!resource) continue;
    const current: Json | undefined = getPath(resource.value, [...edit.path, edit.key]);
    const field: NonNullable<Result['field']> = {
      path: fieldPath(edit.path, edit.key),
      proposedValue: edit.value,
    };
    if (ours(current)) field.currentValue = current;
    const sources = covers(resource, edit);
    let now: string;
    if (current === undefined) now = `is not set${sources ? ` (it covers ${sources})` : ''}`;
    else {
      now = ours(current) ? `is ${JSON.stringify(current)}` : 'differs';
      if (sources) now += `, not the checksum of ${sources}`;
    }
    const value = quotable(edit.value)
      ? JSON.stringify(edit.value)
      : `the value in field.proposedValue (${edit.value.split('\n').length} lines)`;
    const message = `${describe(resource)}: ${edit.key} ${now}; ${renderWith[by]} to set ${edit.key} to ${value}`;
    results.push(resourceResult(notRendered, resource, message, field));
  }
  return results;
}

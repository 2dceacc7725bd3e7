// The `secret-rollout/silence` annotation: rule ids, comma-separated, whose results on the
// resource that carries it are dropped. Read here, below the stages (in lints/, which may import no stage), because a lint that names
// several resources in one result (unpinned-version's groups) must leave silenced ones out itself.
import type { Resource } from '../../model/resource.js';

export const silenceKey = 'secret-rollout/silence';

/** The annotation's entries, trimmed, each with its position (1-based, as messages name it). */
export function silenceEntries(resource: Resource): { id: string; entry: number }[] {
  const list = resource.annotations[silenceKey];
  if (list === undefined) return [];
  return list
    .split(',')
    .map((raw, i) => ({ id: raw.trim(), entry: i + 1 }))
    .filter(({ id }) => id !== '');
}

/** Whether the resource silences rule `id`. */
export const silences = (resource: Resource, id: string): boolean =>
  silenceEntries(resource).some((e) => e.id === id);

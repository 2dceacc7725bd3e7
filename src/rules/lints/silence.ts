// The `secret-rollout/silence` annotation: rule ids, comma-separated, whose results on the
// resource that carries it are dropped. Read here, below the stages (in lints/, which may import no stage), because a lint that names
// several resources in one result (unpinned-version's groups) must leave silenced ones out itself.
import type { Resource } from '../../model/resource.js';

export const silenceKey = 'secret-rollout/silence';

/** One entry of the annotation: a rule id, and its position (1-based, as messages name it). */
export interface SilenceEntry {
  id: string;
  entry: number;
}

/** What a resource without the annotation (nearly all) gets: one list for all, never a new one. */
const noEntries: readonly SilenceEntry[] = [];

/** The annotation's entries, trimmed, each with its position. */
export function silenceEntries(resource: Resource): readonly SilenceEntry[] {
  const list = resource.annotations[silenceKey];
  if (list === undefined) return noEntries;
  return list
    .split(',')
    .map((raw, i) => ({ id: raw.trim(), entry: i + 1 }))
    .filter(({ id }) => id !== '');
}

/** Whether the resource silences rule `id` (no closure made for one without the annotation). */
export const silences = (resource: Resource, id: string): boolean =>
  resource.annotations[silenceKey] !== undefined &&
  silenceEntries(resource).some((e) => e.id === id);

// `secret-rollout/ignore: "true"` on a workload's metadata or on one pod template's: the function
// sets no checksum there (its sources are still ordered before it: see consumers.ts).
import { annotationField } from '../../model/edit.js';
import type { Keys } from '../../model/path.js';
import { ItemError } from '../../model/resource.js';

export const optOutKey = 'secret-rollout/ignore';

/**
 * Whether annotations at `metadata` opt out. Anything but "true" or "false" is an error: a
 * mistyped opt-out ("yes") silently annotating the workload is the surprise it exists to prevent.
 */
export function optedOut(annotations: Readonly<Record<string, string>>, metadata: Keys): boolean {
  const value = annotations[optOutKey];
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  const field = annotationField(metadata, optOutKey);
  throw new ItemError(`${field} must be "true" or "false"`, field);
}

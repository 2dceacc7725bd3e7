// Stage 3b: the operator resources that read a source's Secret through a field of the reader
// table (workloads/operator-references.ts) or the `secretReferences` option: a CNPG Cluster's
// backup credentials, a KEDA TriggerAuthentication, an ESO store's or generator's auth. They are
// ordered after the sources (wave-plan.ts) and named in an info each; no checksum, since their
// controllers re-read the Secret themselves. Not consumers: no lint counts them as workloads.
import type { Config } from '../model/config.js';
import type { Resource } from '../model/resource.js';
import { secretReader } from '../model/result-rules.js';
import { type Result, resourceResult } from '../model/results.js';
import type { Producers } from './producers.js';
import type { SecretSource } from './sources/source.js';
import { FirstPlaces, guardedRead, listNames } from './stage.js';
import { mayNameSecrets, secretsNamedBy } from './workloads/operator-references.js';

export interface Readers {
  /** The resources that read each source's Secret through a reader field, in input order. */
  readersOf: ReadonlyMap<SecretSource, ReadonlySet<Resource>>;
  /** An info per reader and Secret (at its first field, counting the others); malformed items' errors. */
  results: readonly Result[];
}

export function findReaders(
  resources: readonly Resource[],
  producers: Producers,
  config: Config,
): Readers {
  const readersOf = new Map<SecretSource, Set<Resource>>();
  const results: Result[] = [];
  // One function for the run: a closure per reader item, with its context, was most of what the
  // stage allocated (an ESO store is a reader: 1,700 of them on mixed at 10k items).
  const read = (resource: Resource) => {
    const named = secretsNamedBy(resource, config.secretReferences);
    if (named.length === 0) return;
    const noted = new FirstPlaces<{ field: string; text: string }>();
    for (const { namespace, name, field } of named) {
      const sources = producers.producing('Secret', namespace, name);
      // A source never orders itself (an ExternalSecret's store reading its own Secret is the
      // wave plan's cycle, between two resources).
      const others = sources?.filter((s) => s.resource !== resource) ?? [];
      if (others.length === 0) continue;
      for (const source of others) {
        readersOf.set(source, (readersOf.get(source) ?? new Set()).add(resource));
      }
      const secret = `${namespace === undefined ? '' : `${namespace}/`}${name}`;
      if (noted.again(secret)) continue;
      noted.add(secret, {
        field,
        text: `names Secret ${secret}, which ${listNames(others)} writes: ordered after it; its controller re-reads the Secret, so no checksum`,
      });
    }
    noted.forEach(({ field, text }, at) => {
      const places = at > 1 ? ` (named at ${at} places, the first here)` : '';
      const message = `${field} ${text}${places}`;
      results.push(resourceResult(secretReader, resource, message, { path: field }));
    });
  };
  // An index loop: with inlining off (large inputs), for-of allocated an iterator result per item.
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as Resource;
    // Most items are of no reader kind: no list or map for them.
    if (mayNameSecrets(resource.kind, config.secretReferences))
      guardedRead(results, resource, read);
  }
  return { readersOf, results };
}

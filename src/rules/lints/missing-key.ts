// A reference that reads a key its Secret (or ConfigMap) will not have: a typo in
// `secretKeyRef.key` or a volume's `items[].key` only shows when the pod fails to start (or, when
// optional, runs without the value). Only sources whose keys the spec alone decides can tell.
import { countedList, nameList } from '../../model/fold.js';
import { fieldPath } from '../../model/path.js';
import { describe } from '../../model/results.js';
import { keysProduced, type SecretSource, sourceNames } from '../sources/source.js';
import { Places } from '../workloads/references.js';
import type { Lint } from './lint.js';

/** A key as a message names it: quoted when empty or odd. */
const keyText = (k: string) => (/^[-._a-zA-Z0-9]+$/.test(k) ? k : JSON.stringify(k));

/** Keys as a message lists them: sorted, quoted when empty or odd. */
const listKeys = (keys: Iterable<string>) => [...keys].sort().map(keyText).join(', ');

/** What a Secret's sources say in each warning about it, made once per Secret. */
interface Said {
  readonly produced: ReadonlySet<string> | null;
  readonly by: string;
  readonly only: string;
}

export const missingKey: Lint = {
  id: 'missing-key',
  severity: 'warning',
  summary: 'A reference reads a key its Secret or ConfigMap will not have',
  help: 'Fix the key on one side: the source alone decides the keys of what it produces.',
  check({ keyedReads }, { report }) {
    // Only the reads with a missing key are here (consumers.ts readsMissingKey): few, a consumer's
    // together, so a PodSpec is walked once or twice for its first and once for all the others.
    const places = new Places();
    // Per Secret (its sources' list), not per read: many reads of one Secret with many sources
    // or keys each sorted and wrote them all (bench/adversarial missing-key-lists, duplicate-writers).
    const said = new Map<readonly SecretSource[], Said>();
    const sayOf = (sources: readonly SecretSource[]): Said => {
      let told = said.get(sources);
      if (!told) {
        const produced = keysProduced(sources);
        const sorted = produced === null ? [] : [...produced].sort();
        told = {
          produced,
          by: nameList(sourceNames(sources)),
          only:
            sorted.length === 0
              ? 'produces no keys'
              : `produces only ${countedList(sorted.map(keyText))}`,
        };
        said.set(sources, told);
      }
      return told;
    };
    for (const { consumer, sources, keys, podSpec, use } of keyedReads) {
      const { produced, by, only } = sayOf(sources);
      if (produced === null) continue;
      const missing = [...keys].filter((key) => !produced.has(key));
      if (missing.length === 0) continue;
      const first = sources[0];
      if (!first) continue;
      report(
        consumer,
        `${describe(consumer)} reads key${missing.length > 1 ? 's' : ''} ${listKeys(missing)} of ` +
          `${first.produces} ${first.secretName}, but ${by} ${only}: ` +
          'check the key names on both sides',
        fieldPath(places.keys(consumer, podSpec, use)),
      );
    }
  },
};

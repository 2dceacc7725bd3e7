// A reference that reads a key its Secret (or ConfigMap) will not have: a typo in
// `secretKeyRef.key` or a volume's `items[].key` only shows when the pod fails to start (or, when
// optional, runs without the value). Only sources whose keys the spec alone decides can tell.
import { fieldPath } from '../../model/path.js';
import { describe } from '../../model/results.js';
import { keysProduced } from '../sources/source.js';
import { Places } from '../workloads/references.js';
import type { Lint } from './lint.js';

/** Keys as a message lists them: sorted, quoted when empty or odd. */
const listKeys = (keys: Iterable<string>) =>
  [...keys]
    .sort()
    .map((k) => (/^[-._a-zA-Z0-9]+$/.test(k) ? k : JSON.stringify(k)))
    .join(', ');

export const missingKey: Lint = {
  id: 'missing-key',
  severity: 'warning',
  summary: 'A reference reads a key its Secret or ConfigMap will not have',
  help: 'Fix the key on one side: the source alone decides the keys of what it produces.',
  check({ keyedReads }, { report }) {
    // Only the reads with a missing key are here (consumers.ts readsMissingKey): few, a consumer's
    // together, so a PodSpec is walked once or twice for its first and once for all the others.
    const places = new Places();
    for (const { consumer, sources, keys, podSpec, use } of keyedReads) {
      const produced = keysProduced(sources);
      if (produced === null) continue;
      const missing = [...keys].filter((key) => !produced.has(key));
      if (missing.length === 0) continue;
      const first = sources[0];
      if (!first) continue;
      const by = [...new Set(sources.map((s) => describe(s.resource)))].join(' and ');
      report(
        consumer,
        `${describe(consumer)} reads key${missing.length > 1 ? 's' : ''} ${listKeys(missing)} of ` +
          `${first.produces} ${first.secretName}, but ${by} ` +
          `${produced.size === 0 ? 'produces no keys' : `produces only ${listKeys(produced)}`}: ` +
          'check the key names on both sides',
        fieldPath(places.keys(consumer.value, podSpec, use)),
      );
    }
  },
};

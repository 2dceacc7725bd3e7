// An item given twice (same group, kind, namespace and name): streams concatenated by hand
// (`cat a.yaml b.yaml`), a file listed twice. No apply keeps both: one wins, and which one is the
// deployer's choice. Said once per item, at its first copy, with how many there are; the copies
// are read and edited each as any item (the same edits where they are the same text).
import { clusterObjectKey } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { Lint } from './lint.js';

export const duplicateItem: Lint = {
  id: 'duplicate-item',
  severity: 'warning',
  summary: 'An item is in the input more than once (the same group, kind, namespace and name)',
  help: 'Keep one copy: an apply keeps only one of them, and which one is not yours to choose.',
  check({ resources }, { report }) {
    const copies = new Map<string, number>();
    const first = new Map<string, (typeof resources)[number]>();
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i] as (typeof resources)[number];
      if (r.name === undefined) continue;
      const key = clusterObjectKey(r.apiVersion, r.kind, r.namespace, r.name);
      const seen = copies.get(key);
      if (seen === undefined) first.set(key, r);
      copies.set(key, (seen ?? 0) + 1);
    }
    copies.forEach((count, key) => {
      if (count < 2) return;
      const resource = first.get(key) as (typeof resources)[number];
      report(
        resource,
        `${describe(resource)} is in the input ${count} times: an apply keeps only one of them; keep one copy`,
      );
    });
  },
};

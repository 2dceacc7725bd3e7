// An item given twice (same group, kind, namespace and name): streams concatenated by hand
// (`cat a.yaml b.yaml`), a file listed twice. No apply keeps both: one wins, and which one is the
// deployer's choice. Said once per item, at its first copy, with how many there are; the copies
// are read and edited each as any item (the same edits where they are the same text).
import { clusterObjectKey, type Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { Lint } from './lint.js';

export const duplicateItem: Lint = {
  id: 'duplicate-item',
  severity: 'warning',
  summary: 'An item is in the input more than once (the same group, kind, namespace and name)',
  help: 'Keep one copy: an apply keeps only one of them, and which one is not yours to choose.',
  check({ resources }, { report }) {
    // By name first, keyed by the items' own strings: an identity string made for every item was
    // 3 MiB of fan-in's peak at 10k items, where a name is shared by a few items at most.
    const byName = new Map<string, Resource | Resource[]>();
    for (let i = 0; i < resources.length; i++) {
      const r = resources[i] as Resource;
      if (r.name === undefined) continue;
      const had = byName.get(r.name);
      if (had === undefined) byName.set(r.name, r);
      else if (Array.isArray(had)) had.push(r);
      else byName.set(r.name, [had, r]);
    }
    byName.forEach((named) => {
      if (!Array.isArray(named)) return;
      const copies = new Map<string, Resource[]>();
      for (const r of named) {
        const key = clusterObjectKey(r.apiVersion, r.kind, r.namespace, r.name as string);
        const same = copies.get(key);
        if (same) same.push(r);
        else copies.set(key, [r]);
      }
      copies.forEach((same) => {
        const [first] = same as [Resource];
        if (same.length < 2) return;
        report(
          first,
          `${describe(first)} is in the input ${same.length} times: an apply keeps only one of them; keep one copy`,
        );
      });
    });
  },
};

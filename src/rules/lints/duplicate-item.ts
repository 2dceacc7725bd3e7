// An item given twice (same group, kind, namespace and name): streams concatenated by hand
// (`cat a.yaml b.yaml`), a file listed twice. No apply keeps both: one wins, and which one is the
// deployer's choice. Said once per item, at its first copy, with how many there are; the copies
// are read and edited each as any item (the same edits where they are the same text).
import type { Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { Lint } from './lint.js';

export const duplicateItem: Lint = {
  id: 'duplicate-item',
  severity: 'warning',
  summary: 'An item is in the input more than once (the same group, kind, namespace and name)',
  help: 'Keep one copy: an apply keeps only one of them, and which one is not yours to choose.',
  check({ copies }, { report }) {
    // The run found them once (model/copies.ts): each list of copies is said at its first.
    copies.forEach((same, r) => {
      const [first] = same as [Resource];
      // Without a name no object is theirs to be (an apply refuses them; a List's apply is its
      // items'), though their sources still count once (producers).
      if (r !== first || first.name === '') return;
      report(
        first,
        `${describe(first)} is in the input ${same.length} times: an apply keeps only one of them; keep one copy`,
      );
    });
  },
};

// A workload reading a Secret that sources produce only in other namespaces: likely a missing or
// wrong namespace on one side (references never cross namespaces).
import { objectKey } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { SecretSource } from '../sources/source.js';
import type { Lint } from './lint.js';

export const crossNamespace: Lint = {
  id: 'cross-namespace',
  severity: 'warning',
  summary: 'A workload reads a Secret that sources produce only in other namespaces',
  help: 'Fix the namespace on one side.',
  check({ resources, bystanders, sources, unresolved }, { report }) {
    if (unresolved.size === 0) return;
    // Plain Secrets and ConfigMaps in the input, parsed or copied through.
    const plain = new Set<string>();
    for (const items of [resources, bystanders]) {
      for (const r of items) {
        // A copied-through item whose name could not be read is no Secret a reference names.
        const plainKind = r.kind === 'Secret' || r.kind === 'ConfigMap';
        if (r.apiVersion === 'v1' && plainKind && r.name !== undefined) {
          plain.add(objectKey(r.kind, r.namespace, r.name));
        }
      }
    }
    const byName = new Map<string, SecretSource[]>();
    for (const s of sources) {
      const key = `${s.produces}/${s.secretName}`;
      const same = byName.get(key);
      if (same) same.push(s);
      else byName.set(key, [s]);
    }
    for (const [resource, refs] of unresolved) {
      for (const { kind, name, field } of refs) {
        if (plain.has(objectKey(kind, resource.namespace, name))) continue;
        const elsewhere = byName.get(`${kind}/${name}`) ?? [];
        const [first] = elsewhere;
        if (!first) continue;
        const where = [...new Set(elsewhere.map((s) => s.namespace ?? '(none)'))].join(', ');
        report(
          resource,
          `${describe(resource)} reads ${kind} ${name}, which ${describe(first.resource)} ` +
            `produces only in namespace ${where}: references never cross namespaces; check the ` +
            'namespace of both',
          field,
        );
      }
    }
  },
};

// A workload reading a Secret that sources produce only in other namespaces: likely a missing or
// wrong namespace on one side (references never cross namespaces).
import { describe } from '../results.js';
import type { SecretSource } from '../sources/source.js';
import type { Lint } from './lint.js';

export const crossNamespace: Lint = {
  option: 'crossNamespaceSeverity',
  check({ resources, bystanders, sources, unresolved }, { report }) {
    // Plain Secrets and ConfigMaps in the input, parsed or copied through.
    const plain = new Set(
      [...resources, ...bystanders]
        .filter((r) => r.apiVersion === 'v1' && (r.kind === 'Secret' || r.kind === 'ConfigMap'))
        .map((r) => `${r.kind}/${r.namespace ?? ''}/${r.name}`),
    );
    const byName = new Map<string, SecretSource[]>();
    for (const s of sources) {
      const key = `${s.produces}/${s.secretName}`;
      byName.set(key, [...(byName.get(key) ?? []), s]);
    }
    for (const [resource, refs] of unresolved) {
      for (const { kind, name, field } of refs) {
        if (plain.has(`${kind}/${resource.namespace ?? ''}/${name}`)) continue;
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

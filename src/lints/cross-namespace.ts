// A workload reading a Secret that sources produce only in other namespaces: likely a missing or
// wrong namespace on one side (references never cross namespaces).
import { describe } from '../results.js';
import type { Lint } from './lint.js';

export const crossNamespace: Lint = {
  option: 'crossNamespaceSeverity',
  check({ resources, sources, unresolved }, report) {
    const plain = new Set(
      resources
        .filter((r) => r.apiVersion === 'v1' && (r.kind === 'Secret' || r.kind === 'ConfigMap'))
        .map((r) => `${r.kind}/${r.namespace ?? ''}/${r.name}`),
    );
    for (const [resource, refs] of unresolved) {
      for (const { kind, name } of refs) {
        if (plain.has(`${kind}/${resource.namespace ?? ''}/${name}`)) continue;
        const elsewhere = sources.filter((s) => s.produces === kind && s.secretName === name);
        if (elsewhere.length === 0) continue;
        const where = [...new Set(elsewhere.map((s) => s.namespace ?? '(no namespace)'))].join(
          ', ',
        );
        const ns = resource.namespace ?? '(no namespace)';
        report(
          resource,
          `${describe(resource)} in ${ns} reads ${kind} ${name}, which ` +
            `${describe(elsewhere[0]?.resource ?? resource)} produces only in ${where}: a reference ` +
            'never crosses namespaces; check the namespace of both',
        );
      }
    }
  },
};

// A workload reading a Secret that sources produce only in other namespaces: likely a missing or
// wrong namespace on one side (references never cross namespaces).
import { addTo, mapUnder, nameList } from '../../model/fold.js';
import { fieldPath } from '../../model/path.js';
import type { Bystander, Resource } from '../../model/resource.js';
import { describe } from '../../model/results.js';
import type { SecretSource } from '../sources/source.js';
import { Places } from '../workloads/references.js';
import type { Lint, UnresolvedRef } from './lint.js';

const setDefault =
  'if its deployer applies it in a namespace (Argo CD destination.namespace, Flux targetNamespace, ' +
  "kubectl or kpt live -n, else the kubeconfig context's), set the option defaultNamespace to " +
  'that namespace, else set its metadata.namespace';

export const crossNamespace: Lint = {
  id: 'cross-namespace',
  severity: 'warning',
  summary: 'A workload reads a Secret that sources produce only in other namespaces',
  help: 'Fix the namespace on one side; a namespace the deployer supplies is the defaultNamespace option.',
  check({ resources, bystanders, sources, unresolved }, { report }) {
    if (unresolved.size === 0 || sources.length === 0) return;
    // By kind, then name: a reference is looked up without a key text built for it (most
    // references the lints get are to names made nowhere).
    const byName = new Map<string, Map<string, SecretSource[]>>();
    // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
    // source.
    for (let i = 0; i < sources.length; i++) {
      const s = sources[i] as SecretSource;
      addTo(mapUnder(byName, s.produces), s.secretName, s);
    }
    // What a name's sources say, the same in each workload's warning: written once per name (a
    // name made in many namespaces was listed again for every workload reading it).
    const said = new Map<
      SecretSource[],
      { first: SecretSource; where: string; unsetThere: boolean }
    >();
    const producedElsewhere = (elsewhere: SecretSource[]) => {
      let told = said.get(elsewhere);
      if (!told) {
        told = {
          first: elsewhere[0] as SecretSource,
          // Five named, the rest counted: every workload's warning repeats it (all of them
          // named was workloads × namespaces: bench/adversarial cross-namespace-lists).
          where: nameList([...new Set(elsewhere.map((s) => s.namespace ?? '(none)'))]),
          unsetThere: elsewhere.every((s) => s.namespace === undefined),
        };
        said.set(elsewhere, told);
      }
      return told;
    };
    // Plain Secrets and ConfigMaps in the input, parsed or copied through: gathered at the first
    // reference to a name that sources produce (most missing names are made nowhere).
    let plain: PlainItems | undefined;
    // Where each warning is: a workload's PodSpec walked once or twice for its first, and once for
    // all the others, not once per warning.
    const places = new Places();
    // forEach: a for…of over the map allocates an entry per workload.
    unresolved.forEach((refs, resource) => {
      // One warning per workload and Secret, however many references read it: at the first
      // reference's field, naming the others' (as missing-key names each reference's field).
      // By the name's sources: one list per kind and name.
      let bySecret: Map<SecretSource[], UnresolvedRef[]> | undefined;
      // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
      // reference.
      for (let i = 0; i < refs.length; i++) {
        const ref = refs[i] as UnresolvedRef;
        const elsewhere = byName.get(ref.kind)?.get(ref.name);
        if (elsewhere === undefined) continue;
        plain ??= plainItems(resources, bystanders);
        if (
          plain
            .get(ref.kind)
            ?.get(resource.namespace ?? '')
            ?.has(ref.name)
        )
          continue;
        bySecret ??= new Map();
        addTo(bySecret, elsewhere, ref);
      }
      // forEach: a for…of over the map allocates an entry and an iterator result per name.
      bySecret?.forEach((same, elsewhere) => {
        const { first, where, unsetThere } = producedElsewhere(elsewhere);
        const { kind, name } = same[0] as UnresolvedRef;
        const fields = same.map((ref) => fieldPath(places.named(resource, ref.podSpec, ref.use)));
        const all = fields.length > 1 ? ` (${fields.length} references: ${nameList(fields)})` : '';
        // A side without a namespace is most often not wrong but unset: the deployer gives it one.
        const unset =
          resource.namespace === undefined
            ? `: the workload's namespace is unset, not different; ${setDefault}`
            : unsetThere
              ? `: the source's namespace is unset, not different; ${setDefault}`
              : ': references never cross namespaces; check the namespace of both';
        report(
          resource,
          `${describe(resource)} reads ${kind} ${name}${all}, which ${describe(first.resource)} ` +
            `produces only in namespace ${where}${unset}`,
          fields[0],
        );
      });
    });
  },
};

/** Items by kind, then namespace ('' for none, as in an objectKey), then name. */
type PlainItems = Map<string, Map<string, Map<string, Resource | Bystander>>>;

/**
 * Every plain Secret and ConfigMap of the input, parsed or copied through, by kind, namespace and
 * name: no key string built per item or per reference.
 */
function plainItems(resources: readonly Resource[], bystanders: readonly Bystander[]): PlainItems {
  const plain: PlainItems = new Map();
  for (const items of [resources, bystanders]) {
    // An index loop: with inlining off (large inputs), for-of allocated an iterator result per item.
    for (let i = 0; i < items.length; i++) {
      const r = items[i] as Resource | Bystander;
      // A copied-through item whose name could not be read is no Secret a reference names.
      const plainKind = r.kind === 'Secret' || r.kind === 'ConfigMap';
      if (r.apiVersion === 'v1' && plainKind && r.name !== undefined) {
        mapUnder(mapUnder(plain, r.kind), r.namespace ?? '').set(r.name, r);
      }
    }
  }
  return plain;
}

// ESO ClusterExternalSecret (external-secrets.io v1, v1beta1; cluster-scoped): one ExternalSecret
// from `spec.externalSecretSpec` in every selected namespace, so one source per namespace.
import type { Config } from '../../model/config.js';
import { countedList } from '../../model/fold.js';
import { canonicalJson, sha256Hex } from '../../model/hash.js';
import type { JsonObject } from '../../model/json.js';
import { grouped } from '../../model/numbers.js';
import { getPath } from '../../model/path.js';
import { ItemError, type Resource, readAnnotations } from '../../model/resource.js';
import { selectedNamespaces, sourceBudget } from '../../model/result-rules.js';
import { describe, RuledItemError, resourceResult } from '../../model/results.js';
import { podTemplatesOf } from '../workloads/shapes.js';
import {
  type Dependencies,
  dependenciesAnnotation,
  dependencyReferences,
  type Reference,
  resolveDependencies,
  resyncRegenerates,
  templateReads,
} from './eso-dependencies.js';
import { contentWith, readExternalSecretSpec, targetNotes, targetOf } from './external-secret.js';
import { objectField, optionalList, optionalObject, optionalString, stringMap } from './fields.js';
import { type LabelSelector, labelSelector } from './label-selector.js';
import { operatorSecret } from './operator-secret.js';
import type { Inventory, SecretSource, SourceKind } from './source.js';

/** The API server sets this label on every Namespace to its name. */
const nameLabel = 'kubernetes.io/metadata.name';

/** What an unevaluated selector is taken to match, per `clusterExternalSecretNamespaces`. */
const assumptions = {
  selected:
    'they match no namespace (clusterExternalSecretNamespaces=selected: add the Namespace objects to the input, or set it to all)',
  all: 'they match every namespace with a workload in the input (clusterExternalSecretNamespaces=all)',
} as const;

export const clusterExternalSecret: SourceKind = {
  group: 'external-secrets.io',
  kind: 'ClusterExternalSecret',
  read(resource, inventory) {
    const spec = objectField(resource.value, 'spec', 'spec');
    const at = 'spec.externalSecretSpec';
    const esValue = objectField(spec, 'externalSecretSpec', at);
    const esSpec = readExternalSecretSpec(esValue, at);
    const esName =
      optionalString(spec.externalSecretName, 'spec.externalSecretName') || resource.name;
    const secretName = esSpec.targetName || esName;
    if (secretName === '') {
      throw new ItemError('has no spec.externalSecretName nor metadata.name', 'metadata.name');
    }

    const run = runOf(inventory);
    const { namespaces, unevaluated } = selectNamespaces(spec, run, inventory.config);
    const note =
      unevaluated.length === 0
        ? undefined
        : `${unevaluated.join(', ')} cannot be evaluated: the input has no Namespace objects; assuming ${assumptions[inventory.config.clusterExternalSecretNamespaces]}`;
    if (namespaces.length === 0) {
      return { skipped: `selects no namespace in the input${note ? `; ${note}` : ''}` };
    }
    const references = dependencyReferences(esValue, at);
    run.spend(
      namespaces.length * perExternalSecret * externalSecretWeight(references),
      `the ${grouped(namespaces.length)} namespaces it selects`,
    );
    // Each ExternalSecret resolves its templateFrom and namespaced generators in its own
    // namespace (docs/operators.md §8b): one set of dependencies per selected namespace, none
    // shared by all where the spec names none (most).
    const dependencies = namespaces.map((namespace) =>
      references.length === 0
        ? noDependencies
        : resolveDependencies(resource, references, inventory, namespace),
    );
    const own = ownAnnotations(spec, namespaces, dependencies);
    // The annotation is one for every namespace, so a change in one syncs all of them again; where
    // that makes a new value (a generator), every namespace's consumers follow the annotation.
    const everywhere = own && resyncRegenerates(esValue) ? own.hash : undefined;
    // These notes go on the first source only: the transform reports the notes of every source.
    const first = targetNotes(resource, esSpec, at);
    if (note) {
      // Up to thousands of namespaces (assumed all): five named, the rest counted.
      const message = `${note}; selected: ${countedList(namespaces)}`;
      first.push(resourceResult(selectedNamespaces, resource, message));
    }
    const { produces, writtenKind } = targetOf(esSpec);
    // Field by field, no spread per namespace (operator-secret.ts says why): one source each of
    // up to thousands of namespaces.
    return namespaces.map((namespace, i) => {
      const { resources, hash, notes } = dependencies[i] as Dependencies;
      return operatorSecret(resource, inventory.config, {
        produces,
        writtenKind,
        namespace,
        secretName,
        stores: esSpec.stores,
        notes: i === 0 ? [...first, ...notes] : notes,
        content: contentWith(esSpec, everywhere ?? hash),
        producedKeys: esSpec.producedKeys,
        dependencies: resources,
        ownAnnotations: own?.annotations,
      });
    });
  },
  inputReads: (resource) => templateReads(getPath(resource.value, 'spec.externalSecretSpec')),
};

/** The dependencies of a spec that names none, in every namespace: read only. */
const noDependencies: Dependencies = Object.freeze({
  resources: Object.freeze([]),
  hash: undefined,
  notes: Object.freeze([]),
});

/**
 * `checksum/dependencies` for `spec.externalSecretMetadata.annotations`, which ESO (v0.9.2 and
 * later) copies onto every ExternalSecret it creates, and so syncs them (docs/operators.md §8b):
 * SHA-256 of the canonical JSON mapping of each selected namespace with dependencies in the input
 * to their hash there. Undefined when no namespace has any.
 */
function ownAnnotations(
  spec: JsonObject,
  namespaces: readonly string[],
  dependencies: readonly Dependencies[],
): { hash: string; annotations: NonNullable<SecretSource['ownAnnotations']> } | undefined {
  const byNamespace: Record<string, string> = {};
  namespaces.forEach((namespace, i) => {
    const { hash } = dependencies[i] as Dependencies;
    if (hash !== undefined) byNamespace[namespace] = hash;
  });
  if (Object.keys(byNamespace).length === 0) return undefined;
  // The edit goes into this mapping: it must be one.
  const metadata = 'spec.externalSecretMetadata';
  const annotations = optionalObject(spec.externalSecretMetadata, metadata)?.annotations;
  readAnnotations(annotations, `${metadata}.annotations`);
  const hash = sha256Hex(canonicalJson(byNamespace));
  return {
    hash,
    annotations: {
      metadata: ['spec', 'externalSecretMetadata'],
      values: { [dependenciesAnnotation]: hash },
    },
  };
}

/**
 * The work the ClusterExternalSecrets of one run may do, in units of 1/64 of one ExternalSecret
 * made: each ExternalSecret costs a source, its dependencies and notes, and every stage after
 * works on each, so a few ClusterExternalSecrets selecting every one of many Namespaces made
 * ClusterExternalSecrets × Namespaces of them (bench/adversarial ces-selected-namespaces:
 * 256 KB of input, 720,000 ExternalSecrets, 16.9 s and 878 MiB). The pairs are what the cluster
 * would make; a bound proportional to the input, as the checksums' (checksums.ts), keeps every
 * run linear: 1 unit per character of input, + 65,536 ExternalSecrets (500 namespaces each
 * selected by 100 ClusterExternalSecrets fit in any input; ≈1 s of work here).
 */
const perExternalSecret = 64;
const baseExternalSecrets = 65_536;

/**
 * What one ExternalSecret of a ClusterExternalSecret costs, in ExternalSecrets: its dependencies
 * are resolved once per namespace, each reference and each key it reads.
 */
function externalSecretWeight(references: readonly Reference[]): number {
  let weight = 1;
  for (const { keys } of references) weight += 1 + keys.length;
  return weight;
}

type Labels = Readonly<Record<string, string>>;

/**
 * What the ClusterExternalSecrets of one run share, read once: the Namespace objects with their
 * labels, the namespaces of the workloads (once per ClusterExternalSecret was ClusterExternalSecrets
 * × items: bench/adversarial ces-namespace-objects, ces-workload-namespaces), and the work spent.
 */
class ClusterRun {
  private namespaceObjects: { name: string; labels: Labels }[] | undefined;
  /** The first Namespace whose labels are not a mapping of strings, described. */
  private badLabels: string | undefined;
  private workloads: string[] | undefined;
  /** Units spent (`perExternalSecret` each ExternalSecret, 1 each selector requirement tested). */
  private spent = 0;
  private readonly budget: number;

  constructor(private readonly inventory: Inventory) {
    this.budget = inventory.inputCharacters + perExternalSecret * baseExternalSecrets;
  }

  /**
   * The input's v1 Namespaces, with the name label the API server sets; a Namespace with labels
   * that are not a mapping of strings makes every ClusterExternalSecret an error (ItemError).
   */
  namespaces(): readonly { name: string; labels: Labels }[] {
    if (this.namespaceObjects === undefined) {
      this.namespaceObjects = [];
      for (const ns of this.inventory.resources) {
        if (ns.apiVersion !== 'v1' || ns.kind !== 'Namespace') continue;
        const labels = namespaceLabels(ns);
        if (labels === undefined) {
          this.badLabels ??= `${describe(ns)} has metadata.labels that are not a mapping of strings`;
        }
        this.namespaceObjects.push({ name: ns.name, labels: { ...labels, [nameLabel]: ns.name } });
      }
    }
    if (this.badLabels !== undefined) {
      throw new ItemError(`cannot evaluate its namespace selectors: ${this.badLabels}`);
    }
    return this.namespaceObjects;
  }

  /** Namespaces of the resources with a pod template: where consumers can be. */
  workloadNamespaces(): readonly string[] {
    if (this.workloads === undefined) {
      const namespaces = new Set<string>();
      const declared = this.inventory.config.podTemplates;
      for (const r of this.inventory.resources) {
        if (r.namespace !== undefined && podTemplatesOf(r, declared).length > 0) {
          namespaces.add(r.namespace);
        }
      }
      this.workloads = [...namespaces];
    }
    return this.workloads;
  }

  /** Spends `units` on `what` (this ClusterExternalSecret's ask), or throws past the budget. */
  spend(units: number, what: string): void {
    if (units > this.left()) throw this.over(what);
    this.spent += units;
  }

  /** The units left to spend. */
  left(): number {
    return this.budget - this.spent;
  }

  /** The error of a ClusterExternalSecret asking for `what`, past the budget: counts only. */
  over(what: string): RuledItemError {
    const most = Math.floor(this.budget / perExternalSecret);
    const before = Math.ceil(this.spent / perExternalSecret);
    return new RuledItemError(
      `not read: the ClusterExternalSecrets of this input may make at most ${grouped(most)} ExternalSecrets (1 per ${perExternalSecret} characters of input, + ${grouped(baseExternalSecrets)}; one whose spec names templateFrom or generator references counts once more for each reference and key read, and ${perExternalSecret} selector requirements tested against a namespace count as one): ${what} would pass that, after ${grouped(before)} for those before it`,
      sourceBudget,
    );
  }
}

const runs = new WeakMap<Inventory, ClusterRun>();

/** The run's shared state: the inventory is made once per run (producers.ts). */
function runOf(inventory: Inventory): ClusterRun {
  let run = runs.get(inventory);
  if (run === undefined) {
    run = new ClusterRun(inventory);
    runs.set(inventory, run);
  }
  return run;
}

/**
 * `spec.namespaces` ∪ every namespace a selector matches (ORed, the deprecated
 * `namespaceSelector` included). Selectors are evaluated against the Namespace objects in the
 * input; without any, a selector that reads only the name label is evaluated against the
 * namespaces of the input's workloads, and the others are `unevaluated` (the assumption decides).
 */
function selectNamespaces(
  spec: JsonObject,
  run: ClusterRun,
  config: Config,
): { namespaces: string[]; unevaluated: string[] } {
  const selected = new Set<string>();
  optionalList(spec.namespaces, 'spec.namespaces').forEach((ns, i) => {
    selected.add(optionalString(ns, `spec.namespaces[${i}]`) ?? '');
  });
  const selectors: { field: string; selector: LabelSelector }[] = [];
  if (spec.namespaceSelector !== undefined && spec.namespaceSelector !== null) {
    const field = 'spec.namespaceSelector';
    selectors.push({ field, selector: labelSelector(spec.namespaceSelector, field) });
  }
  optionalList(spec.namespaceSelectors, 'spec.namespaceSelectors').forEach((s, i) => {
    const field = `spec.namespaceSelectors[${i}]`;
    selectors.push({ field, selector: labelSelector(s, field) });
  });

  const namespaceObjects = run.namespaces();
  const unevaluated: string[] = [];
  // A namespace costs each selector's requirements (at least one) to test.
  let requirements = 0;
  for (const { selector } of selectors) requirements += Math.max(1, selector.requirements);
  const tests = (count: number) =>
    `its ${grouped(selectors.length)} selector${selectors.length === 1 ? '' : 's'} tested against ${grouped(count)} namespaces`;
  // The tests are spent first; the namespaces they select stop at what is left of the budget
  // (an ExternalSecret each, at least), before they are sorted, made sources or counted again.
  const most = () => Math.floor(run.left() / perExternalSecret) + 1;
  let room = 0;
  const select = (name: string) => {
    selected.add(name);
    if (selected.size > room) throw run.over(`more than ${grouped(room)} namespaces it selects`);
  };
  if (namespaceObjects.length > 0) {
    if (selectors.length > 0) {
      run.spend(requirements * namespaceObjects.length, tests(namespaceObjects.length));
      room = most();
      for (const { name, labels } of namespaceObjects) {
        if (selectors.some(({ selector }) => selector.matches(labels))) select(name);
      }
    }
  } else if (selectors.length > 0) {
    const seen = run.workloadNamespaces();
    run.spend(requirements * seen.length, tests(seen.length));
    room = most();
    for (const { field, selector } of selectors) {
      const byNameOnly = [...selector.keys].every((key) => key === nameLabel);
      if (!byNameOnly) unevaluated.push(field);
      for (const ns of seen) {
        const match = byNameOnly
          ? selector.matches({ [nameLabel]: ns })
          : config.clusterExternalSecretNamespaces === 'all';
        if (match) select(ns);
      }
    }
  }
  selected.delete('');
  return { namespaces: [...selected].sort(), unevaluated };
}

/** The Namespace's labels; undefined when they are not a mapping of strings. */
function namespaceLabels(ns: Resource): Record<string, string | null> | undefined {
  try {
    return stringMap(getPath(ns.value, 'metadata.labels'), 'metadata.labels');
  } catch {
    return undefined;
  }
}

// The read plan (model/read-plan.ts): what the reader parses, projects or copies through, decided
// here from what the rules read, so that the reader lists no kinds. Parsed values of workloads are
// most of a run's memory and garbage, and the rules read their metadata and the few PodSpec fields
// that name a Secret or ConfigMap; sources are read whole (their content is hashed); items of
// built-in kinds no rule reads are not built at all.
import type { Config, DeclaredTemplate, SecretReader } from '../model/config.js';
import { type FactsOf, newWriter, TemplateFacts } from '../model/facts.js';
import { mapUnder } from '../model/fold.js';
import { isObject, type Json, type JsonObject } from '../model/json.js';
import type { Keys } from '../model/path.js';
import type { PassesByName, ReadPlan } from '../model/read-contract.js';
import {
  type Bystander,
  ItemError,
  objectKey,
  type Projection,
  type Resource,
} from '../model/resource.js';
import { groupOf } from '../model/scope.js';
import { lints } from './lints/index.js';
import type { Lint } from './lints/lint.js';
import { dependencyGroups, sourceKindOf, sourceKinds, storeKinds } from './sources/index.js';
import { helmReleaseGroup } from './workloads/helm-release.js';
import { readerPaths } from './workloads/operator-references.js';
import { secretReferences, writeFacts } from './workloads/references.js';
import {
  barePod,
  declaredShapes,
  kindKey,
  type PodTemplate,
  type PodTemplateShape,
  podTemplateShapes,
  shapesOf,
  templatesIn,
} from './workloads/shapes.js';

/**
 * Built-in kinds known to carry no pod template and that no rule reads beyond their identity: on
 * real inputs a third or more of the items are Services, RBAC, CRDs and the like, and parsing them
 * is most of the cost. Anything else, including every custom resource (CRDs may have pod
 * templates), is parsed. Plain ConfigMaps and Secrets pass through too unless a rule reads their
 * content (see passesThrough); their names still count (lints, and ESO templateFrom reads them by
 * name).
 */
export const kindsNoRuleReads: ReadonlySet<string> = new Set([
  'v1/Service',
  'v1/ServiceAccount',
  'v1/Endpoints',
  'v1/PersistentVolumeClaim',
  'v1/LimitRange',
  'v1/ResourceQuota',
  'rbac.authorization.k8s.io/v1/Role',
  'rbac.authorization.k8s.io/v1/RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
  'networking.k8s.io/v1/Ingress',
  'networking.k8s.io/v1/IngressClass',
  'networking.k8s.io/v1/NetworkPolicy',
  'discovery.k8s.io/v1/EndpointSlice',
  'policy/v1/PodDisruptionBudget',
  'autoscaling/v1/HorizontalPodAutoscaler',
  'autoscaling/v2/HorizontalPodAutoscaler',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
  'apiregistration.k8s.io/v1/APIService',
  'admissionregistration.k8s.io/v1/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration',
  'scheduling.k8s.io/v1/PriorityClass',
  'storage.k8s.io/v1/StorageClass',
  'kpt.dev/v1/Kptfile',
]);

/**
 * What sources read of other kinds beyond what every item is built with (`itemMetadata`): a
 * ClusterExternalSecret selects Namespaces by their labels (sources/cluster-external-secret.ts).
 */
const sourceReads: NonNullable<Lint['reads']> = [
  { group: '', kind: 'Namespace', fields: ['metadata.labels'] },
];

/**
 * What the rules read of an item's metadata, and of a pod template's, its annotations: not its
 * labels, which were two mappings of each workload (0.6 MB of the fan-in bench's heap at 10k).
 */
const itemMetadata = ['name', 'namespace', 'annotations'];

/**
 * The seam to the lint table: the only place the plan reads it. The fields each kind's lints
 * read, by kindKey.
 */
function lintFields(table: readonly Lint[]): ReadonlyMap<string, readonly string[]> {
  const fieldsOf = new Map<string, string[]>();
  for (const { group, kind, fields } of [...sourceReads, ...table.flatMap((l) => l.reads ?? [])]) {
    const key = kindKey(group, kind);
    fieldsOf.set(key, [...(fieldsOf.get(key) ?? []), ...fields]);
  }
  return fieldsOf;
}

/**
 * The lints' fields by kind, and the fields of the reader table and the secretReferences option
 * (workloads/operator-references.ts): a reader kind is built with the fields that name its
 * Secrets, and never passes through (PersistentVolume). Cached per option value.
 */
const withReadersOf = new WeakMap<
  ReadonlyMap<string, readonly string[]>,
  WeakMap<readonly SecretReader[], ReadonlyMap<string, readonly string[]>>
>();
function withReaders(
  fieldsOf: ReadonlyMap<string, readonly string[]>,
  option: readonly SecretReader[],
): ReadonlyMap<string, readonly string[]> {
  let byOption = withReadersOf.get(fieldsOf);
  if (!byOption) {
    byOption = new WeakMap();
    withReadersOf.set(fieldsOf, byOption);
  }
  let merged = byOption.get(option);
  if (!merged) {
    const all = new Map(fieldsOf);
    for (const [key, paths] of readerPaths(option))
      all.set(key, [...(all.get(key) ?? []), ...paths]);
    merged = all;
    byOption.set(option, merged);
  }
  return merged;
}

type ProjectionFor = ReadPlan['projection'];

/** Per lint table, its fields by kind and its projections per podTemplates option. */
const plans = new WeakMap<
  readonly Lint[],
  {
    fieldsOf: ReadonlyMap<string, readonly string[]>;
    /** By podTemplates option, then by secretReferences option. */
    projections: WeakMap<
      readonly DeclaredTemplate[],
      WeakMap<readonly SecretReader[], ProjectionFor>
    >;
  }
>();

/**
 * The plan for a run with these options. `table`: the lints whose reads it honours (tests give
 * their own). Projections are built once per podTemplates option, each kind's on first use.
 */
export function readPlan(config: Config, table: readonly Lint[] = lints): ReadPlan {
  let planned = plans.get(table);
  if (!planned) {
    planned = { fieldsOf: lintFields(table), projections: new WeakMap() };
    plans.set(table, planned);
  }
  const { projections } = planned;
  const fieldsOf = withReaders(planned.fieldsOf, config.secretReferences);
  let byReaders = projections.get(config.podTemplates);
  if (!byReaders) {
    byReaders = new WeakMap();
    projections.set(config.podTemplates, byReaders);
  }
  let projection = byReaders.get(config.secretReferences);
  if (!projection) {
    projection = projectionsOf(config.podTemplates, fieldsOf);
    byReaders.set(config.secretReferences, projection);
  }
  return {
    passesThrough: passing(config, fieldsOf),
    projection,
    later: { candidate: readByName, wanted: inputReads },
    defaultNamespace: config.defaultNamespace || undefined,
    facts: factsReader(config.podTemplates, fieldsOf),
  };
}

/**
 * The plan's extractor (docs/design/facts-reader.md, step 1): each pod template's references
 * written to columns of this plan's own, so of this run's (impact reads BASE and HEAD with a plan
 * each), and its PodSpec taken out of the item's value, which dies young. An item keeps its
 * trees where a fact cannot say its PodSpec (a malformed reference field: the rules' walk of it
 * then throws the error it throws today) or where a rule reads more of it than the references
 * (readsUnder).
 */
function factsReader(
  declared: readonly DeclaredTemplate[],
  fieldsOf: ReadonlyMap<string, readonly string[]>,
): FactsOf {
  const writer = newWriter();
  /** By apiVersion and kind: whether its PodSpecs may be read as facts. */
  const asFacts = new Map<string, Map<string, boolean>>();
  return (value, apiVersion, kind) => {
    const ofVersion = mapUnder(asFacts, apiVersion);
    let may = ofVersion.get(kind);
    if (may === undefined) {
      may = !readsUnder(shapesOf(apiVersion, kind, declared), fieldsOf, apiVersion, kind);
      ofVersion.set(kind, may);
    }
    if (!may) return undefined;
    const templates = templatesIn(value, shapesOf(apiVersion, kind, declared));
    if (templates.length === 0) return undefined;
    // Where the item's rows start: an error in a later template takes back the earlier ones
    // (and drops a chunk begun for them).
    const marked = writer.columns;
    const mark = marked.count;
    // Made at its length, kept to the end where several: a list grown by push has room for 17.
    const facts = new Array<TemplateFacts>(templates.length);
    try {
      for (let t = 0; t < templates.length; t++) {
        const { shape, podSpec } = templates[t] as PodTemplate;
        const start = writeFacts(podSpec as JsonObject, shape.podSpec, writer);
        const { columns } = writer;
        facts[t] = new TemplateFacts(columns, shape.podSpec, start, columns.count);
      }
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      writer.columns = marked;
      marked.count = mark;
      return undefined;
    }
    for (let t = 0; t < templates.length; t++) {
      takeOut(value, (templates[t] as PodTemplate).shape.podSpec);
    }
    // One template's facts without a list (ResourceFacts); the list of one dies young.
    return facts.length === 1 ? (facts[0] as TemplateFacts) : facts;
  };
}

/**
 * Whether a rule reads an item of this kind under one of its PodSpecs beyond the references: a
 * field a lint or a reader declares there or above it (the whole `spec`), or another template's
 * metadata (a declared template inside a PodSpec).
 */
function readsUnder(
  shapes: readonly PodTemplateShape[],
  fieldsOf: ReadonlyMap<string, readonly string[]>,
  apiVersion: string,
  kind: string,
): boolean {
  const fields = (fieldsOf.get(kindKey(groupOf(apiVersion), kind)) ?? []).map((field) =>
    field.split('.').map((step) => (step.endsWith('[]') ? step.slice(0, -2) : step)),
  );
  const read = [...fields, ...shapes.map((shape) => shape.metadata)];
  const within = (inner: readonly string[], outer: readonly string[]) =>
    outer.every((step, k) => inner[k] === step);
  return shapes.some(({ podSpec }) =>
    read.some((path) => within(path, podSpec) || within(podSpec, path)),
  );
}

/**
 * Takes the PodSpec at `at` out of `value`, its references facts now: one shared empty mapping
 * stands where it was. Deleting the key instead turned each template mapping into a dictionary
 * (V8's slow properties), ≈1 MB more live after reading on dense and fan-out.
 */
function takeOut(value: JsonObject, at: Keys): void {
  let holder: Json | undefined = value;
  for (let k = 0; k < at.length - 1 && isObject(holder); k++) holder = holder[at[k] as string];
  if (isObject(holder)) holder[at[at.length - 1] as string] = takenOut;
}
const takenOut: JsonObject = Object.freeze({});

const always: PassesByName = () => true;

/**
 * Which kinds pass through: kinds no rule reads, and ConfigMaps and Secrets unless a rule reads
 * them (argocd-cm; the opt-in content checksums). Never a kind the podTemplates option says has a
 * pod template, whatever the list assumes, nor one a lint says it reads.
 */
function passing(
  config: Config,
  fieldsOf: ReadonlyMap<string, readonly string[]>,
): ReadPlan['passesThrough'] {
  const configMaps: PassesByName | undefined =
    config.configMapChecksumAnnotation === ''
      ? (name) => name !== undefined && !(config.argocdHealthCheck && name === 'argocd-cm')
      : undefined;
  const secrets = config.secretChecksumAnnotation === '' ? always : undefined;
  return (apiVersion, kind) => {
    const id = `${apiVersion}/${kind}`;
    const plain = id === 'v1/ConfigMap' ? configMaps : id === 'v1/Secret' ? secrets : undefined;
    if (!plain && !kindsNoRuleReads.has(id)) return undefined;
    const group = groupOf(apiVersion);
    if (config.podTemplates.some((t) => t.kind === kind && t.group === group)) return undefined;
    if (fieldsOf.has(kindKey(group, kind))) return undefined;
    return plain ?? always;
  };
}

type Tree = Map<string, Tree | true>;

/** Adds `path` (keys; a `[]` step is its list's elements, which share the list's projection). */
function add(tree: Tree, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const key = head.endsWith('[]') ? head.slice(0, -2) : head;
  if (rest.length === 0) {
    tree.set(key, true);
    return;
  }
  const child = tree.get(key) ?? new Map();
  if (child === true) return;
  tree.set(key, child);
  add(child, rest);
}

/**
 * Every field a rule reads of an item that is not a source: see podTemplatesOf, secretUses; for
 * one kind also its declared pod templates and what lints read of it (`fields`).
 */
function buildProjection(
  shapes: readonly PodTemplateShape[] = [],
  fields: readonly string[] = [],
): Projection {
  const tree: Tree = new Map();
  for (const key of ['apiVersion', 'kind']) tree.set(key, true);
  for (const field of itemMetadata) add(tree, ['metadata', field]);
  for (const shape of [...podTemplateShapes, barePod, ...shapes]) {
    add(tree, shape.metadata.length > 1 ? shape.annotations : []);
    for (const ref of secretReferences) add(tree, [...shape.podSpec, ...ref.path.split('.')]);
  }
  for (const field of fields) add(tree, field.split('.'));
  return tree;
}

let built: Projection | undefined;
/** The projection of kinds nothing declares: built on first use (a run on no items builds none). */
export function nonSourceProjection(): Projection {
  built ??= buildProjection();
  return built;
}

/**
 * What to build of an item of this kind: everything for sources, stores and what sources read
 * (and for kinds not known before parsing), else the fields the rules read, which for kinds with
 * declared pod templates (the podTemplates option) or fields a lint reads are more than for the
 * others.
 */
function projectionsOf(
  declared: readonly DeclaredTemplate[],
  fieldsOf: ReadonlyMap<string, readonly string[]>,
): ProjectionFor {
  const shapes = declaredShapes(declared);
  // Kinds with a projection of their own, each built when an item of that kind first comes.
  const special = new Set([...shapes.keys(), ...fieldsOf.keys()]);
  const byKind = new Map<string, Projection>();
  const decide = (apiVersion: string, kind: string): Projection => {
    const group = groupOf(apiVersion);
    const known = (k: { kind: string; group: string }) => k.kind === kind && k.group === group;
    if (sourceKinds.some(known) || storeKinds.some(known) || dependencyGroups.has(group)) {
      return true;
    }
    // A HelmRelease is read whole: its values can name a Secret anywhere (helm-values.ts).
    if (group === helmReleaseGroup && kind === 'HelmRelease') return true;
    const key = kindKey(group, kind);
    if (!special.has(key)) return nonSourceProjection();
    let projection = byKind.get(key);
    if (projection === undefined) {
      projection = buildProjection(shapes.get(key), fieldsOf.get(key));
      byKind.set(key, projection);
    }
    return projection;
  };
  // Each answer once per apiVersion and kind: the items of a kind ask again and again.
  const answers = new Map<string, Map<string, Projection>>();
  return (apiVersion, kind) => {
    if (apiVersion === undefined || kind === undefined) return true;
    const ofVersion = mapUnder(answers, apiVersion);
    let answer = ofVersion.get(kind);
    if (answer === undefined) {
      answer = decide(apiVersion, kind);
      ofVersion.set(kind, answer);
    }
    return answer;
  };
}

/** Bystanders a source may read by name: plain ConfigMaps and Secrets (ESO templateFrom). */
const readByName = ({ apiVersion, kind, name }: Bystander) =>
  apiVersion === 'v1' && (kind === 'ConfigMap' || kind === 'Secret') && Boolean(name);

/**
 * Whether sources read this plain ConfigMap or Secret (ESO templateFrom): the reader builds these
 * though their kind would pass through unparsed.
 */
function inputReads(resources: readonly Resource[]): (object: Bystander) => boolean {
  const keys = new Set<string>();
  for (const resource of resources) {
    // The kind first: a string comparison, where sourceKindOf would split every apiVersion.
    if (!readerKinds.has(resource.kind)) continue;
    for (const read of sourceKindOf(resource)?.inputReads?.(resource) ?? []) {
      keys.add(objectKey(read.kind, resource.namespace ?? anyNamespace, read.name));
    }
  }
  return ({ kind, namespace, name = '' }) =>
    keys.has(objectKey(kind, namespace, name)) || keys.has(objectKey(kind, anyNamespace, name));
}

/**
 * Where a reader without a namespace reads (a ClusterExternalSecret: in each namespace it
 * selects): building the object in every namespace costs only its parse. No namespace is `*`.
 */
const anyNamespace = '*';

const readerKinds = new Set(sourceKinds.filter((k) => k.inputReads).map((k) => k.kind));

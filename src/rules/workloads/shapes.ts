// Where a resource keeps its pod template, found by shape rather than by kind, so Argo Rollouts,
// Knative Services and other CRDs with a pod template work without a list of kinds; kinds that
// keep it elsewhere are declared (built in below, or the podTemplates option).
import type { DeclaredTemplate } from '../../model/config.js';
import { type PodSpecRead, templateCount, templateOf } from '../../model/facts.js';
import { isObject, type Json } from '../../model/json.js';
import { getPath, type Keys, parseKeys } from '../../model/path.js';
import type { Resource } from '../../model/resource.js';
import { groupOf } from '../../model/scope.js';

export interface PodTemplateShape {
  /** Where the PodSpec is. */
  podSpec: Keys;
  /** Where the pod template's metadata is: the checksum goes in its annotations. */
  metadata: Keys;
  annotations: Keys;
}

/** A shape from the path to the pod template (`''` for a bare Pod, whose spec is the PodSpec). */
function shape(template: string, podSpec = `${template}.spec`): PodTemplateShape {
  const metadata = parseKeys(template === '' ? 'metadata' : `${template}.metadata`);
  return { podSpec: parseKeys(podSpec), metadata, annotations: [...metadata, 'annotations'] };
}

const shapePaths = [
  // Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, Argo Rollout, Knative Service, …
  'spec.template',
  // CronJob
  'spec.jobTemplate.spec.template',
];
export const podTemplateShapes: readonly PodTemplateShape[] = shapePaths.map((p) => shape(p));

/** Kinds whose pod template is where no shape looks, as the podTemplates option declares them. */
export const builtInTemplates: readonly DeclaredTemplate[] = [
  // KEDA ScaledJob: spec.jobTargetRef is a batch/v1 JobSpec (docs/operators.md §7).
  { group: 'keda.sh', kind: 'ScaledJob', path: 'spec.jobTargetRef.template' },
];

/** A bare Pod consumes Secrets too, but annotating it restarts nothing. */
export const barePod: PodTemplateShape = shape('', 'spec');

export interface PodTemplate {
  shape: PodTemplateShape;
  podSpec: PodSpecRead;
}

/** `group/Kind`, how declared templates are keyed. */
export const kindKey = (group: string, kind: string) => `${group}/${kind}`;

const compiled = new WeakMap<
  readonly DeclaredTemplate[],
  ReadonlyMap<string, PodTemplateShape[]>
>();

/**
 * The declared shapes per `group/Kind`: built in and `declared` (the podTemplates option). They
 * add to the shape search, which still runs for those kinds: a path it already covers is skipped.
 */
export function declaredShapes(
  declared: readonly DeclaredTemplate[],
): ReadonlyMap<string, readonly PodTemplateShape[]> {
  let byKind = compiled.get(declared);
  if (byKind === undefined) {
    const paths = new Map<string, Set<string>>();
    for (const { group, kind, path } of [...builtInTemplates, ...declared]) {
      if (shapePaths.includes(path)) continue;
      const key = kindKey(group, kind);
      paths.set(key, (paths.get(key) ?? new Set()).add(path));
    }
    byKind = new Map([...paths].map(([key, set]) => [key, [...set].map((p) => shape(p))]));
    compiled.set(declared, byKind);
  }
  return byKind;
}

/** The kinds that have declared shapes, per option value. */
const kindsCompiled = new WeakMap<readonly DeclaredTemplate[], ReadonlySet<string>>();
function declaredKinds(declared: readonly DeclaredTemplate[]): ReadonlySet<string> {
  let kinds = kindsCompiled.get(declared);
  if (kinds === undefined) {
    kinds = new Set([...builtInTemplates, ...declared].map((d) => d.kind));
    kindsCompiled.set(declared, kinds);
  }
  return kinds;
}

/** The shapes a pod template of this kind is looked for at (`declared`: the podTemplates option). */
export function shapesOf(
  apiVersion: string,
  kind: string,
  declared: readonly DeclaredTemplate[],
): readonly PodTemplateShape[] {
  if (kind === 'Pod' && apiVersion === 'v1') return barePods;
  // The kind first: most items are of no declared kind, and need no `group/Kind` key written.
  const own = declaredKinds(declared).has(kind)
    ? declaredShapes(declared).get(kindKey(groupOf(apiVersion), kind))
    : undefined;
  return own ? [...podTemplateShapes, ...own] : podTemplateShapes;
}
const barePods = [barePod];

/**
 * The pod templates of an item's value at `shapes` (shapesOf): a bare Pod's spec is one if it is
 * a mapping, any other PodSpec must at least hold a `containers` field.
 */
export function templatesIn(
  value: Json,
  shapes: readonly PodTemplateShape[],
): readonly PodTemplate[] {
  let templates: PodTemplate[] | undefined;
  // An index loop: with inlining off (large inputs), for-of allocated an iterator result per
  // shape and item.
  for (let i = 0; i < shapes.length; i++) {
    const shape = shapes[i] as PodTemplateShape;
    const podSpec = getPath(value, shape.podSpec);
    if (isObject(podSpec) && (shape === barePod || podSpec.containers !== undefined)) {
      templates = withTemplate(templates, { shape, podSpec });
    }
  }
  return templates ?? noTemplates;
}

/**
 * No pod template: one list for every item without one. A list is made at its first template, as
 * long as it: pushed into `[]`, a workload's one template had room for 17 (≈150 bytes), and every
 * item asked got a list (this module allocated 3.7 MB on fan-in at 10k items, now 1.7: sampled).
 */
const noTemplates: readonly PodTemplate[] = [];
const withTemplate = (templates: PodTemplate[] | undefined, template: PodTemplate) => {
  if (templates === undefined) return [template];
  templates.push(template);
  return templates;
};

/**
 * The pod templates of a resource (`declared`: the podTemplates option): from its facts where its
 * PodSpecs were read as facts (found as templatesIn finds them), else from its value.
 */
export function podTemplatesOf(
  resource: Resource,
  declared: readonly DeclaredTemplate[],
): readonly PodTemplate[] {
  const shapes = shapesOf(resource.apiVersion, resource.kind, declared);
  const { facts } = resource;
  if (facts === undefined) return templatesIn(resource.value, shapes);
  let templates: PodTemplate[] | undefined;
  for (let t = 0; t < templateCount(facts); t++) {
    const podSpec = templateOf(facts, t);
    // The shape whose path the facts were read at.
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i] as PodTemplateShape;
      if (podSpec.isAt(shape.podSpec)) {
        templates = withTemplate(templates, { shape, podSpec });
        break;
      }
    }
  }
  return templates ?? noTemplates;
}

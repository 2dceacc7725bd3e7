// Where a resource keeps its pod template, found by shape rather than by kind, so Argo Rollouts,
// Knative Services and other CRDs with a pod template work without a list of kinds.
import { getPath, type Keys, parseKeys } from '../../model/path.js';
import { isObject, type Json, type Resource } from '../../model/resource.js';

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

export const podTemplateShapes: readonly PodTemplateShape[] = [
  // Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, Argo Rollout, Knative Service, …
  shape('spec.template'),
  // CronJob
  shape('spec.jobTemplate.spec.template'),
];

/** A bare Pod consumes Secrets too, but annotating it restarts nothing. */
export const barePod: PodTemplateShape = shape('', 'spec');

export interface PodTemplate {
  shape: PodTemplateShape;
  podSpec: { [key: string]: Json };
}

/** The pod templates of a resource: the PodSpec must at least hold a `containers` list. */
export function podTemplatesOf(resource: Resource): PodTemplate[] {
  if (resource.kind === 'Pod' && resource.apiVersion === 'v1') {
    const podSpec = getPath(resource.value, barePod.podSpec);
    return isObject(podSpec) ? [{ shape: barePod, podSpec }] : [];
  }
  const templates: PodTemplate[] = [];
  for (const shape of podTemplateShapes) {
    const podSpec = getPath(resource.value, shape.podSpec);
    if (isObject(podSpec) && podSpec.containers !== undefined) templates.push({ shape, podSpec });
  }
  return templates;
}

// The rules of the results no lint reports: reading, options, edits, each planning stage's notes
// and warnings. Lints declare their own in their modules; rules/rule-table.ts lists both, this
// module's exports as they are (so a rule declared here is in the table). Declarations only, in
// model/ so that every stage (sources and order too) and run.ts can name a result's rule.
import type { Rule } from './results.js';

// Results that make the run fail or say what it could not do: never lowered nor silenced.

export const invalidInput: Rule = {
  id: 'invalid-input',
  severity: 'error',
  fixed: true,
  summary: 'The input or an item cannot be read: invalid YAML or JSON, too large, malformed',
};
export const listNotRead: Rule = {
  id: 'list-not-read',
  severity: 'warning',
  fixed: true,
  summary:
    'A List whose items are not read: in a List, in JSON or flow style, with its `items:` not found, or with a possible anchor',
  help: 'Give the items as separate YAML documents (---), or as items of a ResourceList.',
};
export const invalidConfig: Rule = {
  id: 'invalid-config',
  severity: 'error',
  fixed: true,
  summary: 'The options cannot be read, or come from two places',
};
export const editRefused: Rule = {
  id: 'edit-refused',
  severity: 'error',
  fixed: true,
  summary: 'An edit could not be proven to change only the field it sets',
};
export const annotationLimit: Rule = {
  id: 'annotation-limit',
  severity: 'error',
  fixed: true,
  summary:
    "An annotation not written: it would take the object's annotations over Kubernetes' 256 KiB limit",
};
export const malformedField: Rule = {
  id: 'malformed-field',
  severity: 'error',
  fixed: true,
  summary: 'A field a rule reads is malformed: the rule skips that item',
};
export const checksumBudget: Rule = {
  id: 'checksum-budget',
  severity: 'error',
  fixed: true,
  summary: 'The checksums would take more work than the input size allows',
};
export const sourceBudget: Rule = {
  id: 'source-budget',
  severity: 'error',
  fixed: true,
  summary: 'ClusterExternalSecrets would make more ExternalSecrets than the input size allows',
};
export const noWaveOrder: Rule = {
  id: 'no-wave-order',
  severity: 'error',
  fixed: true,
  summary: 'No order exists: a dependency cycle, or a sync-wave below the lowest',
};
export const notRendered: Rule = {
  id: 'not-rendered',
  severity: 'error',
  fixed: true,
  summary: 'Check mode: an annotation a render would set or change',
};
export const otherOrdering: Rule = {
  id: 'other-ordering',
  severity: 'error',
  fixed: true,
  summary:
    'Check mode: the input carries the order annotations of another `ordering` than the one asked for',
};
export const moreResults: Rule = {
  id: 'more-results',
  severity: 'info',
  fixed: true,
  summary:
    'The count of info results past the first 200, by rule (`plan` lists every checksum and wave)',
};

// What the plan does and why: info unless it is a trap.

export const checksum: Rule = {
  id: 'checksum',
  severity: 'info',
  summary: 'A pod template gets the checksum of the sources it reads (a source, of what it reads)',
};
export const syncWave: Rule = {
  id: 'sync-wave',
  severity: 'info',
  summary: 'A store, source or consumer gets (or keeps) its sync-wave',
};
export const secretReader: Rule = {
  id: 'secret-reader',
  severity: 'info',
  summary: 'An operator resource reads a Secret a source writes: ordered after it, no checksum',
};
export const waveConflict: Rule = {
  id: 'wave-conflict',
  severity: 'error',
  summary: 'A sync-wave written in the input contradicts the order',
  help: 'Lower the wave of what must come first, or raise the wave the message names.',
};
export const dependsOn: Rule = {
  id: 'depends-on',
  severity: 'info',
  summary: 'An item gets (or keeps) the depends-on entries of what must come before it',
};
export const changeRule: Rule = {
  id: 'kapp-change-rule',
  severity: 'info',
  summary: 'An item gets (or keeps) kapp change rules for what must come before it',
};
export const orderSkipped: Rule = {
  id: 'order-skipped',
  severity: 'warning',
  summary: 'An order edge is not written: an item has no namespace, or a key holds another value',
  help: 'Set metadata.namespace on the item, or remove the annotation the message names.',
};
export const clusterScopedNamespace: Rule = {
  id: 'cluster-scoped-namespace',
  severity: 'warning',
  summary:
    'With depends-on ordering: a cluster-scoped item has a metadata.namespace, which kpt live apply and Config Sync refuse',
  help: "Remove metadata.namespace from the item (kustomize's `namespace:` writes it on kinds it does not know as cluster-scoped).",
};
export const bareTemplate: Rule = {
  id: 'bare-pod',
  severity: 'info',
  summary: 'A bare Pod reads a source: an annotation change does not restart it',
};
export const optedOut: Rule = {
  id: 'opted-out',
  severity: 'info',
  summary: 'A workload opted out of checksums with secret-rollout/ignore',
};
export const sourceSkipped: Rule = {
  id: 'source-skipped',
  severity: 'info',
  summary: 'A source that produces no Secret to follow, skipped',
};
export const manifestTarget: Rule = {
  id: 'manifest-target',
  severity: 'info',
  summary:
    'An ExternalSecret writes a custom resource, or a v1 Secret through the generic path (target.manifest): ordered only',
};
export const duplicateWriter: Rule = {
  id: 'duplicate-writer',
  severity: 'warning',
  summary: 'Several sources write one Secret',
  help: 'Keep one source per Secret; each consumer’s checksum covers all of them meanwhile.',
};
export const secretChecksumKey: Rule = {
  id: 'secret-checksum-key',
  severity: 'warning',
  summary: 'Without secretChecksumKey, checksums cover no Secret values',
  help: 'Set secretChecksumKey to a random key kept secret (openssl rand -hex 32).',
};
export const selectedNamespaces: Rule = {
  id: 'selected-namespaces',
  severity: 'info',
  summary: 'The namespaces a ClusterExternalSecret is assumed to select',
};
export const kesMigration: Rule = {
  id: 'kes-migration',
  severity: 'info',
  summary: 'A Kubernetes External Secrets resource, with how to migrate it to ESO',
};
export const unfollowedRenewal: Rule = {
  id: 'unfollowed-renewal',
  severity: 'info',
  summary: 'A VSO Secret whose renewal by the operator no checksum can follow',
};
export const vsoDestination: Rule = {
  id: 'vso-destination',
  severity: 'info',
  summary: 'A VSO destination with create: false writes into an existing Secret',
};
export const targetRenamed: Rule = {
  id: 'target-renamed',
  severity: 'info',
  summary:
    'targetNames hashed: an ExternalSecret’s Secret named after its content, references rewritten',
};
export const targetNameAsText: Rule = {
  id: 'target-name-as-text',
  severity: 'warning',
  summary: 'targetNames hashed: an annotation names a renamed Secret as text, not rewritten',
  help: 'Point the tool at the new name, or keep this ExternalSecret on targetNames: keep.',
};
export const targetNameKept: Rule = {
  id: 'target-name-kept',
  severity: 'info',
  summary:
    'targetNames hashed: a ClusterExternalSecret’s Secrets, or a ConfigMap or custom resource target, keep their names',
};
export const helmReleaseRead: Rule = {
  id: 'helm-release-reads',
  severity: 'info',
  summary:
    "A Flux HelmRelease reads a source's Secret (valuesFrom, a values path, or secret-rollout/consumes)",
};
export const postRendererLeftover: Rule = {
  id: 'post-renderer-leftover',
  severity: 'warning',
  summary:
    "A HelmRelease whose checksum is at a values path still has secret-rollout's post-renderer entry: kept updated",
  help: 'Remove the entry named in field.path: the checksum at the values path reaches the pods without it.',
};
export const targetNameUnsafe: Rule = {
  id: 'target-name-unsafe',
  severity: 'warning',
  summary: 'targetNames hashed: an ExternalSecret not renamed, as a hashed name would break it',
  help: 'creationPolicy Merge, CreateOrMerge or None: ESO writes into a Secret that must exist under its name; use Owner, or silence this.',
};
export const targetNameOrphans: Rule = {
  id: 'target-name-orphans',
  severity: 'warning',
  summary:
    'targetNames hashed with creationPolicy Orphan: each previous Secret stays in the cluster',
  help: 'Use creationPolicy Owner (ESO then deletes the previous Secret), or delete them as docs/target-names.md says.',
};
export const dependencyNotInInput: Rule = {
  id: 'dependency-not-in-input',
  severity: 'info',
  summary: 'An ExternalSecret reads a ConfigMap, Secret or generator the input does not have',
};
export const dependencyMissingKey: Rule = {
  id: 'dependency-missing-key',
  severity: 'warning',
  summary: 'An ExternalSecret template reads a key its ConfigMap or Secret does not have',
  help: 'Fix the key on one side: ESO cannot render the template.',
};
export const dependencyRefresh: Rule = {
  id: 'dependency-refresh',
  severity: 'warning',
  summary: 'An ExternalSecret that does not sync again when its dependencies change',
  help: 'Use refreshPolicy OnChange, or a refreshInterval above 0.',
};
export const sealedSecretMetadata: Rule = {
  id: 'sealed-secret-metadata',
  severity: 'warning',
  summary: 'A SealedSecret template names a name or namespace the controller ignores',
  help: 'Remove spec.template.metadata.name and namespace, or make them the SealedSecret’s own.',
};
export const healthCheck: Rule = {
  id: 'health-check',
  severity: 'info',
  summary: 'The ExternalSecret health check installed into argocd-cm',
};
export const healthCheckKept: Rule = {
  id: 'health-check-kept',
  severity: 'warning',
  summary: 'An argocd-cm customizes ExternalSecret health already: left unchanged',
  help: 'Compare it with `secret-rollout argocd-health`, or set argocdHealthCheck: false.',
};
export const silenceAnnotation: Rule = {
  id: 'silence-annotation',
  severity: 'warning',
  summary: 'A secret-rollout/silence entry that names no rule, or one that cannot be silenced',
  help: 'Write the rule ids the results show, comma-separated.',
};

// Every field of the PodSpec types that references.ts walks, classified, checked against the
// Kubernetes API's own types (kubernetes-types, generated from its OpenAPI). `satisfies Roles<T>`
// is exhaustive: when an upgrade of kubernetes-types adds a field, this file stops compiling until
// someone decides whether the field names a Secret or ConfigMap. test/references.test.ts checks
// that the table's paths are exactly the `Secret`/`ConfigMap` fields reached via `nested` ones.
// Types only at run time: nothing in the bundle imports this module.
import type {
  Container,
  CSIVolumeSource,
  EnvFromSource,
  EnvVar,
  EnvVarSource,
  EphemeralContainer,
  PodSpec,
  ProjectedVolumeSource,
  Volume,
  VolumeProjection,
} from 'kubernetes-types/core/v1.js';

/**
 * - `Secret` / `ConfigMap` / `SecretProviderClass`: names one whose data the containers read;
 *   must be in the table.
 * - `nested`: holds objects classified below (the test descends into exactly these).
 * - `credentials`: names a Secret the kubelet or a volume driver reads to mount storage; the
 *   containers never see its data, so it is neither checksummed nor ordered.
 * - `none`: names no Secret or ConfigMap.
 */
export type Role =
  | 'Secret'
  | 'ConfigMap'
  | 'SecretProviderClass'
  | 'nested'
  | 'credentials'
  | 'none';
type Roles<T> = Record<keyof T, Role>;

export const podSpecRoles = {
  activeDeadlineSeconds: 'none',
  affinity: 'none',
  automountServiceAccountToken: 'none',
  containers: 'nested',
  dnsConfig: 'none',
  dnsPolicy: 'none',
  enableServiceLinks: 'none',
  ephemeralContainers: 'nested',
  hostAliases: 'none',
  hostIPC: 'none',
  hostNetwork: 'none',
  hostPID: 'none',
  hostUsers: 'none',
  hostname: 'none',
  // Read at image pull time; in the table as an opt-in (README, `imagePullSecrets`).
  imagePullSecrets: 'Secret',
  initContainers: 'nested',
  nodeName: 'none',
  nodeSelector: 'none',
  os: 'none',
  overhead: 'none',
  preemptionPolicy: 'none',
  priority: 'none',
  priorityClassName: 'none',
  readinessGates: 'none',
  // Names ResourceClaims (dynamic resource allocation), not Secrets.
  resourceClaims: 'none',
  restartPolicy: 'none',
  runtimeClassName: 'none',
  schedulerName: 'none',
  schedulingGates: 'none',
  securityContext: 'none',
  serviceAccount: 'none',
  serviceAccountName: 'none',
  setHostnameAsFQDN: 'none',
  shareProcessNamespace: 'none',
  subdomain: 'none',
  terminationGracePeriodSeconds: 'none',
  tolerations: 'none',
  topologySpreadConstraints: 'none',
  volumes: 'nested',
} as const satisfies Roles<PodSpec>;

export const containerRoles = {
  args: 'none',
  command: 'none',
  env: 'nested',
  envFrom: 'nested',
  image: 'none',
  imagePullPolicy: 'none',
  lifecycle: 'none',
  livenessProbe: 'none',
  name: 'none',
  ports: 'none',
  readinessProbe: 'none',
  resizePolicy: 'none',
  resources: 'none',
  restartPolicy: 'none',
  securityContext: 'none',
  startupProbe: 'none',
  stdin: 'none',
  stdinOnce: 'none',
  terminationMessagePath: 'none',
  terminationMessagePolicy: 'none',
  tty: 'none',
  volumeDevices: 'none',
  volumeMounts: 'none',
  workingDir: 'none',
} as const satisfies Roles<Container>;

// The table walks ephemeral containers like the others, so their fields must be the same.
export const ephemeralContainerRoles = {
  ...containerRoles,
  targetContainerName: 'none',
} as const satisfies Roles<EphemeralContainer>;

export const envVarRoles = {
  name: 'none',
  value: 'none',
  valueFrom: 'nested',
} as const satisfies Roles<EnvVar>;

export const envVarSourceRoles = {
  configMapKeyRef: 'ConfigMap',
  fieldRef: 'none',
  resourceFieldRef: 'none',
  secretKeyRef: 'Secret',
} as const satisfies Roles<EnvVarSource>;

export const envFromSourceRoles = {
  configMapRef: 'ConfigMap',
  prefix: 'none',
  secretRef: 'Secret',
} as const satisfies Roles<EnvFromSource>;

export const volumeRoles = {
  awsElasticBlockStore: 'none',
  azureDisk: 'none',
  azureFile: 'credentials',
  cephfs: 'credentials',
  cinder: 'credentials',
  configMap: 'ConfigMap',
  csi: 'nested',
  downwardAPI: 'none',
  emptyDir: 'none',
  ephemeral: 'none',
  fc: 'none',
  flexVolume: 'credentials',
  flocker: 'none',
  gcePersistentDisk: 'none',
  gitRepo: 'none',
  glusterfs: 'none',
  hostPath: 'none',
  iscsi: 'credentials',
  name: 'none',
  nfs: 'none',
  persistentVolumeClaim: 'none',
  photonPersistentDisk: 'none',
  portworxVolume: 'none',
  projected: 'nested',
  quobyte: 'none',
  rbd: 'credentials',
  scaleIO: 'credentials',
  secret: 'Secret',
  storageos: 'credentials',
  vsphereVolume: 'none',
} as const satisfies Roles<Volume>;

// The table reads these of the Secrets Store CSI driver's volumes only (its rows' `when`): for
// other drivers nodePublishSecretRef holds storage credentials the containers never see.
export const csiVolumeSourceRoles = {
  driver: 'none',
  fsType: 'none',
  nodePublishSecretRef: 'Secret',
  readOnly: 'none',
  volumeAttributes: 'SecretProviderClass',
} as const satisfies Roles<CSIVolumeSource>;

export const projectedVolumeSourceRoles = {
  defaultMode: 'none',
  sources: 'nested',
} as const satisfies Roles<ProjectedVolumeSource>;

export const volumeProjectionRoles = {
  // Names a ClusterTrustBundle, a cluster-scoped object of its own kind.
  clusterTrustBundle: 'none',
  configMap: 'ConfigMap',
  downwardAPI: 'none',
  secret: 'Secret',
  serviceAccountToken: 'none',
} as const satisfies Roles<VolumeProjection>;

// Arbitraries for random inputs: ExternalSecrets (with the fields that decide the Secret and
// "noise" the checksum must ignore), stores, workloads that reference Secrets in every way a
// PodSpec can, bystanders, a configuration. Each ExternalSecret carries its `essential` spec —
// built alongside, not derived by the code under test — which is what its checksum covers.
import fc from 'fast-check';
import type { Json, Obj } from './render.js';

export interface Options {
  checksumAnnotation: string;
  syncWaves: boolean;
  externalSecretWave: number;
  storeWave: number;
  severity: 'error' | 'warning' | 'info';
  imagePullSecrets: boolean;
  /** `secretReferences` names the custom reader kind (`readerOption`); off: only the table's. */
  secretReferences: boolean;
}

/** The secretReferences entry for the custom reader kind the scenarios draw (buildReader). */
export const readerOption = 'example.com/Backup:spec.credentials.name';

export const defaults: Options = {
  checksumAnnotation: 'checksum/external-secrets',
  syncWaves: true,
  externalSecretWave: -1,
  storeWave: -2,
  severity: 'error',
  imagePullSecrets: false,
  secretReferences: false,
};

export interface Item {
  value: Obj;
  /** ExternalSecrets only: the normalised spec the checksum covers. */
  essential?: Obj;
}

export interface Scenario {
  items: Item[];
  options: Options;
  /** How the options are given: functionConfig (ConfigMap or typed) or, for streams, settings. */
  configStyle: 'none' | 'configmap' | 'typed';
  /** Which options are written out (the rest stay default). */
  configKeys: (keyof Options)[];
}

const namespaces = [undefined, 'shop', 'prod', ''] as const;
const secretNames = ['db', 'api-keys', 'tls'];
const dataKeys = ['username', 'password', 'token', 'ca.crt'];
const storeNames = ['vault', 'aws'];
const wave = fc.integer({ min: -4, max: 4 });
const esWave = fc.integer({ min: -8, max: 0 });
const storeWave = fc.integer({ min: -12, max: 0 });

const nsArb = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: fc.constant('shop'), weight: 3 },
  { arbitrary: fc.constantFrom(...namespaces.slice(2)), weight: 1 },
);

/** `arb` about present/(present+absent) of the time, else undefined (what shrinking goes to). */
function maybe<T>(
  arb: fc.Arbitrary<T>,
  present: number,
  absent: number,
): fc.Arbitrary<T | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(undefined), weight: absent },
    { arbitrary: arb, weight: present },
  );
}

/** Item metadata: name, namespace, labels, orchestrator and other annotations. */
function metadataOf(
  name: string,
  ns: string | undefined,
  extra: { labels: boolean; orchestrator: number; annotations: Record<string, string> },
): Obj {
  const metadata: Obj = { name };
  if (ns !== undefined) metadata.namespace = ns;
  if (extra.labels) metadata.labels = { 'app.kubernetes.io/name': name, team: 'a' };
  const annotations: Obj = { ...extra.annotations };
  if (extra.orchestrator >= 1) annotations['config.kubernetes.io/index'] = '0';
  if (extra.orchestrator >= 2) annotations['internal.config.kubernetes.io/path'] = `${name}.yaml`;
  if (extra.orchestrator >= 3) {
    annotations['config.kubernetes.io/path'] = `manifests/${name}.yaml`;
    annotations['internal.config.kubernetes.io/index'] = '2';
    annotations['internal.config.kubernetes.io/seqindent'] = 'compact';
  }
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  return metadata;
}

const metaExtra = fc.record({
  labels: fc.boolean(),
  orchestrator: fc.integer({ min: 0, max: 3 }),
});

// ---------- ExternalSecrets ----------

const remoteDefaults: [string, string][] = [
  ['conversionStrategy', 'Default'],
  ['decodingStrategy', 'None'],
  ['metadataPolicy', 'None'],
  ['nullBytePolicy', 'Ignore'],
];

const noiseArb = fc.array(fc.boolean(), { minLength: 12, maxLength: 12 });

/** A remoteRef (or extract/find body) and its essential part. */
function remote(base: Obj, noise: boolean[], nonDefault: boolean): { value: Obj; essential: Obj } {
  const value: Obj = { ...base };
  const essential: Obj = { ...base };
  remoteDefaults.forEach(([k, v], i) => {
    if (noise[i]) value[k] = v;
  });
  if (nonDefault) {
    value.decodingStrategy = 'Base64';
    essential.decodingStrategy = 'Base64';
  }
  return { value, essential };
}

const storeRefArb = fc.record({
  name: fc.constantFrom(...storeNames),
  kind: fc.constantFrom(undefined, 'SecretStore', 'ClusterSecretStore'),
});

function storeRef(ref: { name: string; kind: string | undefined }): {
  value: Obj;
  essential: Obj;
} {
  const value: Obj = { name: ref.name };
  const essential: Obj = { name: ref.name };
  if (ref.kind !== undefined) value.kind = ref.kind;
  if (ref.kind !== undefined && ref.kind !== 'SecretStore') essential.kind = ref.kind;
  return { value, essential };
}

const dataEntryArb = fc.record({
  secretKey: fc.constantFrom(...dataKeys),
  key: fc.constantFrom('db/creds', 'team a/api', 'tls', 'x'),
  property: fc.option(fc.constantFrom('user', 'pass', 'tls.crt'), { nil: undefined }),
  version: fc.option(fc.constantFrom('1', 'AWSCURRENT', 'v2'), { nil: undefined }),
  noise: noiseArb,
  nonDefault: fc.boolean(),
  store: fc.option(storeRefArb, { nil: undefined }),
});

const dataFromArb = fc.record({
  kind: fc.constantFrom('extract', 'find', 'generator', 'rewrite'),
  key: fc.constantFrom('db/all', 'shared'),
  noise: noiseArb,
  store: fc.option(storeRefArb, { nil: undefined }),
});

const esArb = fc.record({
  name: fc.constantFrom(...secretNames),
  ns: nsArb,
  apiVersion: fc.constantFrom(
    'external-secrets.io/v1',
    'external-secrets.io/v1beta1',
    'external-secrets.io/v1alpha1',
  ),
  targetName: fc.option(fc.constantFrom(...secretNames, ''), { nil: undefined }),
  targetNoise: fc.subarray(['creationPolicy', 'deletionPolicy', 'immutable']),
  template: maybe(
    fc.record({
      type: fc.constantFrom(undefined, 'Opaque', 'kubernetes.io/tls'),
      engineNoise: fc.boolean(),
      mergeNoise: fc.boolean(),
      multiLine: fc.boolean(),
    }),
    1,
    3,
  ),
  templateNull: fc.boolean(),
  manifest: fc.integer({ min: 0, max: 15 }),
  data: fc.array(dataEntryArb, { maxLength: 3 }),
  emptyData: fc.boolean(),
  dataFrom: maybe(fc.array(dataFromArb, { minLength: 1, maxLength: 2 }), 1, 3),
  emptyDataFrom: fc.boolean(),
  store: maybe(storeRefArb, 3, 1),
  refresh: fc.constantFrom(undefined, '1h', '15m0s'),
  refreshPolicy: fc.boolean(),
  wave: maybe(esWave, 1, 4),
  meta: metaExtra,
});
type EsDesc = typeof esArb extends fc.Arbitrary<infer T> ? T : never;

function buildExternalSecret(d: EsDesc, name: string, targetName: string | undefined): Item {
  const spec: Obj = {};
  const essential: Obj = {};
  if (d.refresh) spec.refreshInterval = d.refresh;
  if (d.refreshPolicy) spec.refreshPolicy = 'Periodic';
  if (d.store) {
    const ref = storeRef(d.store);
    spec.secretStoreRef = ref.value;
    essential.secretStoreRef = ref.essential;
  }
  const target: Obj = {};
  const targetEssential: Obj = {};
  if (targetName !== undefined) {
    target.name = targetName;
    targetEssential.name = targetName;
  }
  for (const k of d.targetNoise)
    target[k] = k === 'immutable' ? false : k === 'creationPolicy' ? 'Owner' : 'Retain';
  if (d.template) {
    const t: Obj = {};
    const te: Obj = {};
    if (d.template.type) {
      t.type = d.template.type;
      te.type = d.template.type;
    }
    if (d.template.engineNoise) t.engineVersion = 'v2';
    if (d.template.mergeNoise) t.mergePolicy = 'Replace';
    const data: Obj = d.template.multiLine
      ? { 'config.ini': '[db]\nuser = {{ .username }}\npassword = {{ .password }}\n' }
      : { url: 'postgres://{{ .username }}:{{ .password }}@db:5432/app' };
    t.data = data;
    te.data = data;
    target.template = t;
    targetEssential.template = te;
  } else if (d.templateNull) {
    target.template = null;
  }
  if (d.manifest === 0) {
    target.manifest = { apiVersion: 'v1', kind: 'ConfigMap' };
    targetEssential.manifest = { apiVersion: 'v1', kind: 'ConfigMap' };
  }
  if (Object.keys(target).length > 0) spec.target = target;
  if (Object.keys(targetEssential).length > 0) essential.target = targetEssential;

  if (d.data.length > 0) {
    const data: Json[] = [];
    const dataEssential: Json[] = [];
    for (const e of d.data) {
      const base: Obj = { key: e.key };
      if (e.property) base.property = e.property;
      if (e.version) base.version = e.version;
      const r = remote(base, e.noise, e.nonDefault);
      const entry: Obj = { secretKey: e.secretKey, remoteRef: r.value };
      const entryEssential: Obj = { secretKey: e.secretKey, remoteRef: r.essential };
      if (e.store) {
        const ref = storeRef(e.store);
        entry.sourceRef = { storeRef: ref.value };
        if (Object.keys(ref.essential).length > 0) {
          entryEssential.sourceRef = { storeRef: ref.essential };
        }
      }
      data.push(entry);
      dataEssential.push(entryEssential);
    }
    spec.data = data;
    essential.data = dataEssential;
  } else if (d.emptyData) {
    spec.data = [];
  }
  if (d.dataFrom) {
    const list: Json[] = [];
    const listEssential: Json[] = [];
    for (const e of d.dataFrom) {
      let value: Obj;
      let ess: Obj;
      if (e.kind === 'extract' || e.kind === 'rewrite') {
        const r = remote({ key: e.key }, e.noise, false);
        value = { extract: r.value };
        ess = { extract: r.essential };
        if (e.kind === 'rewrite') {
          const rewrite = [{ regexp: { source: '^db-', target: '' } }];
          value.rewrite = rewrite;
          ess.rewrite = rewrite;
        }
      } else if (e.kind === 'find') {
        const r = remote({ name: { regexp: '^db-.*' } }, e.noise, false);
        value = { find: r.value };
        ess = { find: r.essential };
      } else {
        const generatorRef: Obj = { kind: 'Password', name: 'pw' };
        const generatorEssential: Obj = { ...generatorRef };
        if (e.noise[0]) generatorRef.apiVersion = 'generators.external-secrets.io/v1alpha1';
        value = { sourceRef: { generatorRef } };
        ess = { sourceRef: { generatorRef: generatorEssential } };
      }
      if (e.store && e.kind !== 'generator') {
        const ref = storeRef(e.store);
        value.sourceRef = { storeRef: ref.value };
        ess.sourceRef = { storeRef: ref.essential };
      }
      list.push(value);
      listEssential.push(ess);
    }
    spec.dataFrom = list;
    essential.dataFrom = listEssential;
  } else if (d.emptyDataFrom) {
    spec.dataFrom = [];
  }
  const annotations: Record<string, string> = {};
  if (d.wave !== undefined) annotations['argocd.argoproj.io/sync-wave'] = String(d.wave);
  return {
    value: {
      apiVersion: d.apiVersion,
      kind: 'ExternalSecret',
      metadata: metadataOf(name, d.ns, { ...d.meta, annotations }),
      spec,
    },
    essential,
  };
}

// ---------- stores ----------

const storeArb = fc.record({
  kind: fc.constantFrom('SecretStore', 'ClusterSecretStore'),
  name: fc.constantFrom(...storeNames),
  ns: nsArb,
  wave: maybe(storeWave, 1, 3),
  meta: metaExtra,
});
type StoreDesc = typeof storeArb extends fc.Arbitrary<infer T> ? T : never;

function buildStore(d: StoreDesc): Item {
  const annotations: Record<string, string> = {};
  if (d.wave !== undefined) annotations['argocd.argoproj.io/sync-wave'] = String(d.wave);
  const ns = d.kind === 'ClusterSecretStore' ? undefined : d.ns;
  return {
    value: {
      apiVersion: 'external-secrets.io/v1',
      kind: d.kind,
      metadata: metadataOf(d.name, ns, { ...d.meta, annotations }),
      spec: { provider: { vault: { server: 'https://vault.example.com:8200', path: 'secret' } } },
    },
  };
}

// ---------- operator readers (docs/secret-readers.md) ----------

/** A KEDA TriggerAuthentication (in the reader table), or a custom kind only the option names. */
const readerArb = fc.record({
  kind: fc.constantFrom('TriggerAuthentication', 'Backup'),
  secret: fc.constantFrom(...secretNames),
  ns: nsArb,
  wave: maybe(wave, 1, 2),
  meta: metaExtra,
});
type ReaderDesc = typeof readerArb extends fc.Arbitrary<infer T> ? T : never;

function buildReader(d: ReaderDesc, name: string): Item {
  const annotations: Record<string, string> = {};
  if (d.wave !== undefined) annotations['argocd.argoproj.io/sync-wave'] = String(d.wave);
  const metadata = metadataOf(name, d.ns, { ...d.meta, annotations });
  const value: Obj =
    d.kind === 'TriggerAuthentication'
      ? {
          apiVersion: 'keda.sh/v1alpha1',
          kind: d.kind,
          metadata,
          spec: { secretTargetRef: [{ parameter: 'host', name: d.secret, key: 'host' }] },
        }
      : {
          apiVersion: 'example.com/v1',
          kind: d.kind,
          metadata,
          spec: { credentials: { name: d.secret, key: 'password' } },
        };
  return { value };
}

// ---------- workloads ----------

const refName = fc.oneof(
  { arbitrary: fc.constantFrom(...secretNames), weight: 6 },
  { arbitrary: fc.constant('other'), weight: 1 },
);

const envArb = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      name: fc.constant('PLAIN'),
      value: fc.constantFrom('x', 'two words', '8080', ''),
    }),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        name: fc.constant('FROM_SECRET'),
        secret: refName,
        key: fc.option(fc.constantFrom(...dataKeys, 'absent'), { nil: undefined, freq: 6 }),
        optional: fc.boolean(),
      })
      .map(({ name, secret, key, optional }): Obj => {
        const ref: Obj = { name: secret };
        if (key !== undefined) ref.key = key;
        if (optional) ref.optional = true;
        return { name, valueFrom: { secretKeyRef: ref } };
      }),
  },
  {
    weight: 1,
    arbitrary: refName.map(
      (n): Obj => ({ name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: n, key: 'k' } } }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Obj>({
      name: 'POD',
      valueFrom: { fieldRef: { fieldPath: 'metadata.name' } },
    }),
  },
);

const envFromArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record({ name: refName, prefix: fc.boolean() })
      .map(
        ({ name, prefix }): Obj =>
          prefix ? { prefix: 'DB_', secretRef: { name } } : { secretRef: { name } },
      ),
  },
  { weight: 1, arbitrary: refName.map((name): Obj => ({ configMapRef: { name } })) },
);

const containerArb = fc.record({
  image: fc.constantFrom('nginx:1.27', 'ghcr.io/example/api:1.4.2'),
  env: fc.array(envArb, { maxLength: 2 }),
  envFrom: fc.array(envFromArb, { maxLength: 2 }),
  args: fc.option(fc.constantFrom(['serve'], ['sh', '-c', 'echo start\nexec app\n']), {
    nil: undefined,
  }),
});
type ContainerDesc = typeof containerArb extends fc.Arbitrary<infer T> ? T : never;

function container(d: ContainerDesc, name: string): Obj {
  const c: Obj = { name, image: d.image };
  if (d.args) c.args = [...d.args];
  if (d.env.length > 0) c.env = d.env;
  if (d.envFrom.length > 0) c.envFrom = d.envFrom;
  return c;
}

const itemsArb = fc.option(
  fc.array(
    fc
      .record({ key: fc.constantFrom(...dataKeys, 'absent'), withKey: fc.boolean() })
      .map(({ key, withKey }): Obj => (withKey ? { key, path: `${key}.txt` } : { path: 'p' })),
    { maxLength: 2 },
  ),
  { nil: undefined },
);

const volumeArb = fc.oneof(
  fc.record({ secretName: refName, items: itemsArb, mode: fc.boolean() }).map((v): Obj => {
    const secret: Obj = { secretName: v.secretName };
    if (v.items) secret.items = v.items;
    if (v.mode) secret.defaultMode = 420;
    return { name: 'secret-vol', secret };
  }),
  fc
    .array(
      fc.oneof(
        fc.record({ name: refName, items: itemsArb }).map((s): Obj => {
          const secret: Obj = { name: s.name };
          if (s.items) secret.items = s.items;
          return { secret };
        }),
        refName.map((name): Obj => ({ configMap: { name } })),
        fc.constant<Obj>({ serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }),
      ),
      { minLength: 1, maxLength: 3 },
    )
    .map((sources): Obj => ({ name: 'projected-vol', projected: { sources } })),
  refName.map((name): Obj => ({ name: 'cm-vol', configMap: { name } })),
  fc.constant<Obj>({ name: 'scratch', emptyDir: {} }),
);

const podSpecArb = fc.record({
  containers: fc.oneof(
    { arbitrary: fc.array(containerArb, { minLength: 1, maxLength: 2 }), weight: 6 },
    { arbitrary: fc.constant<ContainerDesc[]>([]), weight: 1 },
  ),
  initContainers: maybe(fc.array(containerArb, { minLength: 1, maxLength: 1 }), 1, 2),
  ephemeralContainers: maybe(fc.array(containerArb, { minLength: 1, maxLength: 1 }), 1, 5),
  volumes: maybe(fc.array(volumeArb, { minLength: 1, maxLength: 2 }), 1, 1),
  imagePullSecrets: maybe(
    fc.array(
      refName.map((name): Obj => ({ name })),
      { minLength: 1, maxLength: 2 },
    ),
    1,
    3,
  ),
});
type PodSpecDesc = typeof podSpecArb extends fc.Arbitrary<infer T> ? T : never;

function podSpec(d: PodSpecDesc): Obj {
  const spec: Obj = {};
  if (d.initContainers)
    spec.initContainers = d.initContainers.map((c, i) => container(c, `init-${i}`));
  spec.containers = d.containers.map((c, i) => container(c, `c${i}`));
  if (d.ephemeralContainers) {
    spec.ephemeralContainers = d.ephemeralContainers.map((c, i) => container(c, `debug-${i}`));
  }
  if (d.volumes) spec.volumes = d.volumes.map((v, i) => ({ ...v, name: `${v.name}-${i}` }));
  if (d.imagePullSecrets) spec.imagePullSecrets = d.imagePullSecrets;
  if (d.initContainers === undefined && d.volumes === undefined) spec.restartPolicy = 'Always';
  return spec;
}

/** Pod template metadata variants: absent, null, {}, labels, existing annotations in all forms. */
const templateMetaArb = fc.constantFrom(
  'absent',
  'labels',
  'annotations',
  'empty-annotations',
  'null-annotations',
  'null',
  'empty',
);

function templateMetadata(variant: string): Obj | null | undefined {
  switch (variant) {
    case 'labels':
      return { labels: { app: 'web' } };
    case 'annotations':
      return { labels: { app: 'web' }, annotations: { 'prometheus.io/scrape': 'true' } };
    case 'empty-annotations':
      return { annotations: {} };
    case 'null-annotations':
      return { labels: { app: 'web' }, annotations: null };
    case 'null':
      return null;
    case 'empty':
      return {};
    default:
      return undefined;
  }
}

const workloadKinds = [
  ['apps/v1', 'Deployment'],
  ['apps/v1', 'StatefulSet'],
  ['apps/v1', 'DaemonSet'],
  ['batch/v1', 'Job'],
  ['batch/v1', 'CronJob'],
  ['v1', 'Pod'],
  ['argoproj.io/v1alpha1', 'Rollout'],
  // Its pods are rendered in the cluster: the PodSpec is the chart's values (model.ts).
  ['helm.toolkit.fluxcd.io/v2', 'HelmRelease'],
] as const;

const workloadArb = fc.record({
  kind: fc.integer({ min: 0, max: workloadKinds.length - 1 }),
  name: fc.constantFrom('web', 'worker', 'api', 'db'),
  ns: nsArb,
  wave: maybe(
    fc.oneof(
      wave.map((w) => ['argocd.argoproj.io/sync-wave', String(w)] as const),
      wave.map((w) => ['helm.sh/hook-weight', String(w)] as const),
      fc.constant(['helm.sh/hook-weight', 'soon'] as const),
    ),
    1,
    1,
  ),
  templateMeta: templateMetaArb,
  podSpec: podSpecArb,
  existingChecksum: fc.constantFrom('none', 'none', 'correct', 'stale'),
  stale: fc.constantFrom('0000', 'deadbeef', '"quoted"', ''),
  meta: metaExtra,
});
export type WorkloadDesc = typeof workloadArb extends fc.Arbitrary<infer T> ? T : never;

/** Where a workload kind keeps its pod template's metadata, by this test's own table. */
export function templatePathOf(kind: string, apiVersion: string): string[] | undefined {
  if (kind === 'Pod' && apiVersion === 'v1') return undefined;
  if (kind === 'HelmRelease') return undefined;
  return kind === 'CronJob'
    ? ['spec', 'jobTemplate', 'spec', 'template', 'metadata']
    : ['spec', 'template', 'metadata'];
}

function buildWorkload(d: WorkloadDesc, name: string): Item & { desc: WorkloadDesc } {
  const [apiVersion, kind] = workloadKinds[d.kind] as readonly [string, string];
  const annotations: Record<string, string> = {};
  if (d.wave) annotations[d.wave[0]] = d.wave[1];
  const metadata = metadataOf(name, d.ns, { ...d.meta, annotations });
  const spec = podSpec(d.podSpec);
  let value: Obj;
  if (kind === 'Pod') {
    value = { apiVersion, kind, metadata, spec };
  } else if (kind === 'HelmRelease') {
    value = { apiVersion, kind, metadata, spec: { interval: '1h', values: { pod: spec } } };
  } else {
    const template: Obj = {};
    const meta = templateMetadata(d.templateMeta);
    if (meta !== undefined) template.metadata = meta;
    template.spec = spec;
    const body: Obj = { selector: { matchLabels: { app: 'web' } }, template };
    value =
      kind === 'CronJob'
        ? {
            apiVersion,
            kind,
            metadata,
            spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template } } },
          }
        : {
            apiVersion,
            kind,
            metadata,
            spec: kind === 'Job' ? { template } : { replicas: 2, ...body },
          };
  }
  return { value, desc: d };
}

// ---------- bystanders ----------

const bystanderArb = fc.record({
  kind: fc.constantFrom('ConfigMap', 'Service', 'Secret', 'PushSecret', 'Password', 'NoTemplate'),
  name: fc.constantFrom(...secretNames),
  ns: nsArb,
  meta: metaExtra,
});
type BystanderDesc = typeof bystanderArb extends fc.Arbitrary<infer T> ? T : never;

function buildBystander(d: BystanderDesc, name: string): Item {
  const metadata = metadataOf(name, d.ns, { ...d.meta, annotations: {} });
  switch (d.kind) {
    case 'ConfigMap':
      return {
        value: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata,
          data: {
            'app.properties': 'mode=prod\nlevel=info\n',
            greeting: 'hello world',
            script: 'set -e\n\necho "done"',
            empty: '',
            quoted: 'it\'s "fine": yes # not a comment',
          },
        },
      };
    case 'Service':
      return {
        value: {
          apiVersion: 'v1',
          kind: 'Service',
          metadata,
          spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
        },
      };
    case 'Secret':
      return {
        value: {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata,
          type: 'Opaque',
          stringData: { password: 'x' },
        },
      };
    case 'PushSecret':
      return {
        value: {
          apiVersion: 'external-secrets.io/v1alpha1',
          kind: 'PushSecret',
          metadata,
          spec: { selector: { secret: { name: 'db' } }, secretStoreRefs: [{ name: 'vault' }] },
        },
      };
    case 'Password':
      // Not an ExternalSecret although it is in an external-secrets.io group.
      return {
        value: {
          apiVersion: 'generators.external-secrets.io/v1alpha1',
          kind: 'ExternalSecret',
          metadata,
          spec: { length: 32, target: { name: 'db' } },
        },
      };
    default:
      // A Deployment-like resource whose template has no `containers`: not a pod template.
      return {
        value: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata,
          spec: {
            template: {
              spec: { initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'db' } }] }] },
            },
          },
        },
      };
  }
}

// ---------- configuration ----------

const optionsArb = fc.record({
  checksumAnnotation: fc.constantFrom('checksum/external-secrets', 'example.com/secret-checksum'),
  syncWaves: fc.boolean(),
  externalSecretWave: fc.integer({ min: -3, max: 1 }),
  storeWave: fc.integer({ min: -4, max: 0 }),
  severity: fc.constantFrom('error', 'warning', 'info'),
  imagePullSecrets: fc.boolean(),
  secretReferences: fc.boolean(),
}) as fc.Arbitrary<Options>;

const configArb = fc.record({
  style: fc.constantFrom('none', 'none', 'configmap', 'typed'),
  options: optionsArb,
  keys: fc.subarray([
    'checksumAnnotation',
    'syncWaves',
    'externalSecretWave',
    'storeWave',
    'severity',
    'imagePullSecrets',
    'secretReferences',
  ] as (keyof Options)[]),
});

// ---------- scenario ----------

/** Makes names unique per (kind, namespace), so outputs of permuted inputs can be matched. */
function uniqueName(seen: Set<string>, kind: string, ns: string | undefined, name: string): string {
  let candidate = name;
  for (let n = 2; seen.has(`${kind}/${ns ?? ''}/${candidate}`); n++) candidate = `${name}-${n}`;
  seen.add(`${kind}/${ns ?? ''}/${candidate}`);
  return candidate;
}

export const scenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    es: fc.array(esArb, { minLength: 1, maxLength: 4 }),
    stores: fc.array(storeArb, { maxLength: 2 }),
    workloads: fc.array(workloadArb, { minLength: 1, maxLength: 3 }),
    bystanders: fc.array(bystanderArb, { maxLength: 1 }),
    readers: fc.array(readerArb, { maxLength: 2 }),
    config: configArb,
    order: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  })
  .map(({ es, stores, workloads, bystanders, readers, config, order }) => {
    const seen = new Set<string>();
    const items: Item[] = [];
    for (const d of es) {
      const name = uniqueName(seen, 'ExternalSecret', d.ns || undefined, d.name);
      // A renamed ExternalSecret keeps writing the Secret it was drawn for.
      const target = name !== d.name && !d.targetName ? d.name : d.targetName;
      items.push(buildExternalSecret(d, name, target));
    }
    for (const d of stores) {
      const ns = d.kind === 'ClusterSecretStore' ? undefined : d.ns || undefined;
      if (seen.has(`${d.kind}/${ns ?? ''}/${d.name}`)) continue;
      seen.add(`${d.kind}/${ns ?? ''}/${d.name}`);
      items.push(buildStore(d));
    }
    for (const d of workloads) {
      const [, kind] = workloadKinds[d.kind] as readonly [string, string];
      items.push(buildWorkload(d, uniqueName(seen, kind, d.ns || undefined, d.name)));
    }
    for (const d of bystanders) {
      const kind = d.kind === 'NoTemplate' ? 'Deployment' : d.kind;
      items.push(buildBystander(d, uniqueName(seen, kind, d.ns || undefined, `${d.name}-x`)));
    }
    for (const d of readers) {
      items.push(buildReader(d, uniqueName(seen, d.kind, d.ns || undefined, `${d.secret}-reader`)));
    }
    // Interleave: a stable sort by random keys.
    const keyed = items.map((item, i) => ({ item, k: order[i % order.length] ?? 0, i }));
    keyed.sort((a, b) => a.k - b.k || a.i - b.i);
    const options: Options = { ...defaults };
    const configKeys = config.style === 'none' ? [] : config.keys;
    for (const k of configKeys)
      (options as unknown as Record<string, unknown>)[k] = config.options[k];
    return {
      items: keyed.map((x) => x.item),
      options,
      configStyle: config.style,
      configKeys,
    };
  });

/** The functionConfig for a scenario, or the stream settings. */
export function functionConfigOf(s: Scenario): Obj | undefined {
  if (s.configStyle === 'none') return undefined;
  const names: Record<keyof Options, string> = {
    checksumAnnotation: 'checksumAnnotation',
    syncWaves: 'syncWaves',
    externalSecretWave: 'externalSecretWave',
    storeWave: 'storeWave',
    severity: 'waveConflictSeverity',
    imagePullSecrets: 'imagePullSecrets',
    secretReferences: 'secretReferences',
  };
  const fields: Obj = {};
  for (const k of s.configKeys) {
    const on = s.options[k];
    // secretReferences: the entry or none (an empty string, an empty list).
    const v =
      k !== 'secretReferences'
        ? on
        : s.configStyle === 'configmap'
          ? on
            ? readerOption
            : ''
          : on
            ? [readerOption]
            : [];
    fields[names[k]] = s.configStyle === 'configmap' ? String(v) : v;
  }
  if (s.configStyle === 'configmap') {
    const cm: Obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'secret-rollout' } };
    if (Object.keys(fields).length > 0) cm.data = fields;
    return cm;
  }
  return {
    apiVersion: 'fn.kpt.dev/v1alpha1',
    kind: 'SecretRollout',
    metadata: { name: 'cfg' },
    ...fields,
  };
}

export function settingsOf(s: Scenario): Record<string, string> | undefined {
  const fc = functionConfigOf(s);
  if (!fc) return undefined;
  const data = (
    s.configStyle === 'configmap'
      ? fc.data
      : { ...fc, apiVersion: undefined, kind: undefined, metadata: undefined }
  ) as Record<string, Json> | undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data ?? {})) if (v !== undefined) out[k] = String(v);
  return Object.keys(out).length > 0 ? out : undefined;
}

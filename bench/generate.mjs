// Deterministic generator of realistic inputs for the benchmark and its correctness check.
// It also records, from what it generated (never from the function), which pod templates must
// receive the checksum and which items must receive a sync wave.
//
// CLI: node bench/generate.mjs N [--seed S] [--format rl|stream|dir] [--out PATH] [--expected]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// mulberry32: small seeded PRNG, so the same N and seed always give the same bytes.
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (arr) => arr[Math.floor(next() * arr.length)];
  const chance = (p) => next() < p;
  return { next, int, pick, chance };
}

// A tiny YAML emitter over a structure whose scalars are already-formatted text, so that the
// generator controls quoting, flow maps, block scalars and comments exactly.
// M(...entries) map; entry = [key, value, trailingComment?] or ['#', commentText]
// S(...items) sequence; B(style, ...lines) block scalar; strings are emitted verbatim.
const M = (...e) => ({ m: e.filter(Boolean) });
const S = (...i) => ({ s: i.filter(Boolean) });
const B = (b, ...lines) => ({ b, lines });
const sq = (s) => `'${s}'`;
const dq = (s) => `"${s}"`;

function emitMap(map, d, out, wide, first) {
  let i = 0;
  for (const [k, v, c] of map.m) {
    if (v?.m && v.m.length === 0 && v.optional) continue;
    const pad = i++ === 0 && first !== undefined ? first : ' '.repeat(d);
    const tc = c ? ` # ${c}` : '';
    if (k === '#') out.push(`${pad}# ${v}`);
    else if (typeof v === 'string') out.push(`${pad}${k}: ${v}${tc}`);
    else if (v.b) {
      out.push(`${pad}${k}: ${v.b}${tc}`);
      for (const l of v.lines) out.push(l ? ' '.repeat(d + 2) + l : '');
    } else if (v.m) {
      out.push(v.m.length ? `${pad}${k}:${tc}` : `${pad}${k}: {}${tc}`);
      emitMap(v, d + 2, out, wide);
    } else {
      out.push(`${pad}${k}:${tc}`);
      const dd = wide ? d + 2 : d;
      for (const item of v.s) {
        const dash = `${' '.repeat(dd)}- `;
        if (typeof item === 'string') out.push(dash + item);
        else emitMap(item, dd + 2, out, wide, dash);
      }
    }
  }
}

const TEAMS = ['payments', 'orders', 'auth', 'search', 'billing', 'catalog', 'shipping', 'ledger'];
const APPS = ['api', 'worker', 'web', 'gateway', 'indexer', 'sync', 'notifier', 'reporter'];
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'CronJob', 'Job']);
const ES_API = 'external-secrets.io/v1';

export const itemId = (kind, ns, name) => `${kind}/${ns ?? ''}/${name}`;

const WORKLOADS = (share) => [
  ['Deployment', share * 0.6],
  ['StatefulSet', share * 0.15],
  ['CronJob', share * 0.1],
  ['Job', share * 0.15],
];
const STORES = [
  ['SecretStore', 0.005],
  ['ClusterSecretStore', 0.002],
];

/** ExternalSecrets in the share `es`, a few stores, lean workloads for the rest. */
function sourceDense(es, more) {
  return {
    plan: [['ExternalSecret', es], ...STORES, ...WORKLOADS(1 - es - 0.007)],
    fill: 'Deployment',
    namespaces: (n) => Math.max(3, Math.round(n / 250)),
    lean: true,
    ...more,
  };
}

/**
 * The shapes of package the bench runs (issue #24): each is the kinds in their proportions, the
 * kind that fills up to N, how many namespaces, and how a workload references Secrets
 * (`refs`: how many, `own`: the share that names an ExternalSecret's Secret of its namespace, the
 * rest an ordinary Secret; `styles`: which reference styles; `distinct`: no name twice in a pod;
 * `lean`: one container with its references and image only, as in the 4.5 MB of 10k items).
 * `mixed` is the original shape, its draws unchanged: the same seed gives the same bytes as before.
 */
export const SHAPES = {
  // Few sources among many kinds: 15 % ExternalSecrets, a quarter of items no workload.
  mixed: {
    plan: [
      ['ExternalSecret', 0.15],
      ['SecretStore', 0.015],
      ['ClusterSecretStore', 0.005],
      ['Deployment', 0.25],
      ['StatefulSet', 0.08],
      ['CronJob', 0.06],
      ['Job', 0.06],
      ['ConfigMap', 0.14],
      ['Service', 0.14],
      ['ServiceAccount', 0.04],
      ['Secret', 0.03],
    ],
    fill: 'Ingress',
    namespaces: (n) => Math.max(3, Math.round(n / 250)),
  },
  // One item in six an ExternalSecret, the rest workloads reading them (1–3 references each).
  dense: sourceDense(1 / 6, { refs: (r) => r.int(1, 3), own: 0.9 }),
  // One source read by many consumers: one ExternalSecret in 500 items, ≈500 workloads on each.
  'fan-out': sourceDense(0.002, {
    namespaces: (n) => Math.max(1, Math.round(n / 2500)),
    refs: (r) => r.int(1, 2),
    own: 0.95,
  }),
  // Many sources per consumer: 20 envFrom / secretKeyRef references in every pod, a fifth of the
  // items ExternalSecrets.
  'fan-in': sourceDense(0.2, {
    refs: () => 20,
    own: 0.95,
    styles: ['env', 'envFlow', 'envFrom'],
    distinct: true,
  }),
};

/**
 * Generate n items (item 0 is a Kptfile) of one shape (SHAPES). Returns
 * { items, expected: { checksum: Set<id>, syncWave: Map<id, wave string>, podTemplates } }
 * where each item is { id, kind, file, index, render(kpt) } and render(true) adds kpt annotations.
 */
export function generate(n, seed = 1, shapeName = 'mixed') {
  const shape = SHAPES[shapeName];
  if (!shape) throw new Error(`unknown shape ${shapeName}: one of ${Object.keys(SHAPES)}`);
  const r = rng(seed);
  const nsCount = shape.namespaces(n);
  const namespaces = Array.from({ length: nsCount }, (_, i) =>
    i < TEAMS.length ? TEAMS[i] : `${TEAMS[i % TEAMS.length]}-${Math.floor(i / TEAMS.length)}`,
  );

  // Kinds in the requested proportions, shuffled (item 0 stays the Kptfile).
  const kinds = [];
  for (const [k, p] of shape.plan)
    for (let i = 0; i < Math.max(1, Math.round(p * n)); i++) kinds.push(k);
  while (kinds.length < n - 1) kinds.push(shape.fill);
  kinds.length = n - 1;
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  kinds.unshift('Kptfile');

  // First pass: names, namespaces, and which Secret names ExternalSecrets produce.
  const produced = new Map(namespaces.map((ns) => [ns, []])); // ns -> Secret names from ESs
  const decoys = new Map(namespaces.map((ns) => [ns, []])); // ES metadata.name != target.name
  const plain = new Map(namespaces.map((ns) => [ns, []])); // ordinary Secrets
  const stores = new Map(namespaces.map((ns) => [ns, []]));
  const clusterStores = [];
  const meta = kinds.map((kind, i) => {
    const ns = kind === 'Kptfile' || kind === 'ClusterSecretStore' ? null : r.pick(namespaces);
    const app = `${ns ?? 'platform'}-${r.pick(APPS)}`;
    const m = { kind, ns, app, name: `${app}-${i}`, i };
    if (kind === 'ExternalSecret') {
      m.name = `${app}-${r.pick(['db', 'api-keys', 'tls', 'creds', 'config'])}-${i}`;
      const t = r.next();
      m.targetStyle = t < 0.3 ? 'other' : t < 0.45 ? 'none' : 'same';
      m.secret = m.targetStyle === 'other' ? `${app}-secret-${i}` : m.name;
      produced.get(ns).push(m.secret);
      if (m.targetStyle === 'other') decoys.get(ns).push(m.name);
    } else if (kind === 'Secret') plain.get(ns).push(m.name);
    else if (kind === 'SecretStore') stores.get(ns).push(m.name);
    else if (kind === 'ClusterSecretStore') {
      m.name = `${r.pick(['vault', 'aws', 'gcp'])}-${i}`;
      clusterStores.push(m.name);
    }
    return m;
  });
  const producedSets = new Map([...produced].map(([ns, a]) => [ns, new Set(a)]));

  const expected = { checksum: new Set(), syncWave: new Map(), podTemplates: 0 };
  const perFile = new Map();
  const consumerWave = new Map(); // "ns/secret" -> lowest wave of a workload consuming it
  const lowest = (map, key, w) =>
    map.set(key, Math.min(map.get(key) ?? Number.POSITIVE_INFINITY, w));
  const secrets = [];
  const storesBuilt = [];
  const keyedReads = []; // [namespace, reads] of each workload
  const items = meta.map((m) => {
    const builder = BUILDERS[m.kind];
    const ctx = {
      r,
      m,
      shape,
      produced,
      decoys,
      plain,
      stores,
      clusterStores,
      producedSets,
      namespaces,
    };
    const built = builder(ctx);
    const id = itemId(m.kind, m.ns, m.name);
    if (built.checksum) expected.checksum.add(id);
    if (built.keyed?.length) keyedReads.push([m.ns, built.keyed]);
    for (const key of built.consumes ?? []) lowest(consumerWave, key, built.wave);
    if (m.kind === 'ExternalSecret') secrets.push({ id, key: `${m.ns}/${m.secret}`, built });
    if (m.kind.endsWith('SecretStore')) storesBuilt.push({ id, built });
    const file =
      m.kind === 'Kptfile'
        ? 'Kptfile'
        : `pkg-${Math.floor(m.i / 1000)}/res-${Math.floor(m.i / 10)}.yaml`;
    const index = perFile.get(file) ?? 0; // position within its file, as kpt numbers it
    perFile.set(file, index + 1);
    return { id, kind: m.kind, file, index, wide: built.wide, doc: built.doc, annos: built.annos };
  });
  // A reference names a key its Secret has (reading one it lacks is a mistake: the pod does not
  // start): where the ExternalSecret's keys are known, a key it does not make becomes one it does,
  // chosen without a draw, so every other byte of the items stays as the seed made it.
  const secretKeys = new Map(secrets.map(({ key, built }) => [key, built.keys]));
  for (const [ns, reads] of keyedReads) {
    for (const { name, k, key, set } of reads) {
      const keys = secretKeys.get(`${ns}/${name}`);
      if (keys?.length && !keys.includes(key)) set(keys[k % keys.length]);
    }
  }
  // Sync waves (the function's documented rule, Argo CD order): an explicit wave is kept; else an
  // ExternalSecret goes to min(-1, lowest consumer wave - 1) and a store to
  // min(-2, lowest wave of the ExternalSecrets using it - 1).
  const storeWave = new Map();
  for (const { id, key, built } of secrets) {
    const w = built.presetWave ?? Math.min(-1, (consumerWave.get(key) ?? 0) - 1);
    expected.syncWave.set(id, String(w));
    lowest(storeWave, built.store, Number(w));
  }
  for (const { id, built } of storesBuilt) {
    const w = built.presetWave ?? Math.min(-2, (storeWave.get(id) ?? 0) - 1);
    expected.syncWave.set(id, String(w));
  }
  expected.podTemplates = expected.checksum.size;
  return { items, expected };
}

/** Render one item; with kpt = true, add the annotations kpt puts on every item it passes. */
export function render(item, kpt) {
  const added = kpt
    ? [
        ['config.kubernetes.io/index', sq(item.index)],
        ['config.kubernetes.io/path', sq(item.file)],
        ['internal.config.kubernetes.io/index', sq(item.index)],
        ['internal.config.kubernetes.io/path', sq(item.file)],
        ['internal.config.kubernetes.io/seqindent', sq(item.wide ? 'wide' : 'compact')],
      ]
    : [];
  item.annos.m.push(...added);
  const out = [];
  emitMap(item.doc, 0, out, item.wide);
  item.annos.m.length -= added.length;
  return out;
}

export function toResourceList(items) {
  const out = ['apiVersion: config.kubernetes.io/v1', 'kind: ResourceList', 'items:'];
  for (const it of items) {
    const lines = render(it, true);
    out.push(`- ${lines[0]}`);
    for (let i = 1; i < lines.length; i++) out.push(lines[i] ? `  ${lines[i]}` : '');
  }
  return `${out.join('\n')}\n`;
}

/** Files as a user keeps them in git: ~10 items per file, no orchestrator annotations. */
export function toFiles(items) {
  const files = new Map();
  for (const it of items) {
    const text = `${render(it, false).join('\n')}\n`;
    files.set(it.file, files.has(it.file) ? `${files.get(it.file)}---\n${text}` : text);
  }
  return files;
}

export const toStream = (items) => [...toFiles(items).values()].join('---\n');

export function writeDir(items, dir) {
  for (const [file, text] of toFiles(items)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
}

// ---------------------------------------------------------------------------------------------

function metadata({ r, m }, labels = [], annos = []) {
  const annotations = M(...annos);
  annotations.optional = true;
  return {
    annotations,
    meta: M(
      ['name', r.chance(0.1) ? dq(m.name) : m.name],
      m.ns && ['namespace', m.ns],
      [
        'labels',
        M(
          ['app.kubernetes.io/name', m.app],
          ['app.kubernetes.io/part-of', m.ns ?? 'platform'],
          ...labels,
        ),
      ],
      ['annotations', annotations],
    ),
  };
}

// Explicit waves are chosen below anything computed (consumers use 0, 1, -5): a conflict is an
// error in the function, which is not what this benchmark measures.
function waveAnnos(r, p, value) {
  const preset = r.chance(p) ? value : undefined;
  return { preset, annos: preset ? [['argocd.argoproj.io/sync-wave', dq(preset)]] : [] };
}

const BUILDERS = {
  Kptfile: () => {
    const annos = M(['config.kubernetes.io/local-config', dq('true')]);
    return {
      wide: false,
      annos,
      doc: M(
        ['apiVersion', 'kpt.dev/v1'],
        ['kind', 'Kptfile'],
        ['metadata', M(['name', 'bench'], ['annotations', annos])],
        ['info', M(['description', 'generated benchmark package for secret-rollout'])],
      ),
    };
  },

  ExternalSecret: (ctx) => {
    const { r, m, stores, clusterStores } = ctx;
    const { preset, annos } = waveAnnos(r, 0.05, '-10');
    const { meta, annotations } = metadata(ctx, [], annos);
    const local = stores.get(m.ns);
    const [storeKind, storeNs, store] =
      local.length && r.chance(0.5)
        ? ['SecretStore', m.ns, r.pick(local)]
        : ['ClusterSecretStore', null, r.pick(clusterStores)];
    const storeRef = M(['name', store], ['kind', storeKind]);
    const templated = m.targetStyle !== 'none' && r.chance(0.3);
    const target =
      m.targetStyle === 'none'
        ? null
        : M(
            ['name', m.secret],
            ['creationPolicy', 'Owner'],
            templated && [
              'template',
              M(
                ['engineVersion', 'v2'],
                [
                  'data',
                  M(
                    ['DATABASE_URL', dq('postgres://{{ .username }}:{{ .password }}@db:5432/app')],
                    [
                      'config.yaml',
                      B('|', 'user: {{ .username }}', 'pool: 10', '# rendered by ESO'),
                    ],
                  ),
                ],
              ),
            ],
          );
    const dataKeys = ['password', 'username', 'token'].slice(0, r.int(1, 3));
    const data = S(
      ...dataKeys.map((key) =>
        M(
          ['secretKey', key],
          ['remoteRef', M(['key', `secret/${m.ns}/${m.app}`], ['property', key])],
        ),
      ),
    );
    // Drawn in the order the generator always drew them, so the same seed gives the same items.
    const wide = r.chance(0.5);
    const refreshInterval = r.pick(['1h', '15m', sq('0')]);
    const withData = r.chance(0.8);
    const withDataFrom = r.chance(0.4);
    return {
      wide,
      annos: annotations,
      presetWave: preset,
      store: itemId(storeKind, storeNs, store),
      // The keys of its Secret, where this spec alone decides them (undefined: not known here).
      // A template (mergePolicy Replace, the default) makes exactly its data keys; without one,
      // data[].secretKey are the keys unless dataFrom adds the remote secret's. No data and no
      // dataFrom: ESO's webhook rejects the ExternalSecret, there are no keys to speak of.
      keys: templated
        ? ['DATABASE_URL', 'config.yaml']
        : withData && !withDataFrom
          ? dataKeys
          : undefined,
      doc: M(
        ['#', `managed by team ${m.ns}`],
        ['apiVersion', ES_API],
        ['kind', 'ExternalSecret'],
        ['metadata', meta],
        [
          'spec',
          M(
            ['refreshInterval', refreshInterval],
            ['secretStoreRef', storeRef],
            target && ['target', target],
            withData && ['data', data],
            withDataFrom && ['dataFrom', S(M(['extract', M(['key', `secret/${m.ns}/common`])]))],
          ),
        ],
      ),
    };
  },

  SecretStore: (ctx) => {
    const { r, m } = ctx;
    const { preset, annos } = waveAnnos(r, 0.1, '-20');
    const { meta, annotations } = metadata(ctx, [], annos);
    return {
      wide: r.chance(0.5),
      annos: annotations,
      presetWave: preset,
      doc: M(
        ['apiVersion', ES_API],
        ['kind', 'SecretStore'],
        ['metadata', meta],
        [
          'spec',
          M([
            'provider',
            M([
              'vault',
              M(
                ['server', dq('https://vault.example.com:8200')],
                ['path', 'secret'],
                ['version', 'v2'],
                ['auth', M(['kubernetes', M(['mountPath', 'kubernetes'], ['role', sq(m.ns)])])],
              ),
            ]),
          ]),
        ],
      ),
    };
  },

  ClusterSecretStore: (ctx) => {
    const { r } = ctx;
    const { preset, annos } = waveAnnos(r, 0.1, '-20');
    const { meta, annotations } = metadata(ctx, [], annos);
    return {
      wide: r.chance(0.5),
      annos: annotations,
      presetWave: preset,
      doc: M(
        ['apiVersion', ES_API],
        ['kind', 'ClusterSecretStore'],
        ['metadata', meta],
        [
          'spec',
          M(
            [
              'provider',
              M([
                'aws',
                M(
                  ['service', 'SecretsManager'],
                  ['region', 'eu-west-1', 'keep in sync with the cluster region'],
                  [
                    'auth',
                    M([
                      'jwt',
                      M(['serviceAccountRef', '{name: external-secrets, namespace: eso}']),
                    ]),
                  ],
                ),
              ]),
            ],
            [
              'conditions',
              S(M(['namespaceSelector', M(['matchLabels', M(['eso/enabled', dq('true')])])])),
            ],
          ),
        ],
      ),
    };
  },

  Deployment: (ctx) => workload(ctx),
  StatefulSet: (ctx) => workload(ctx),
  CronJob: (ctx) => workload(ctx),
  Job: (ctx) => workload(ctx),

  ConfigMap: (ctx) => {
    const { r, m, produced } = ctx;
    const { meta, annotations } = metadata(ctx);
    const es = produced.get(m.ns);
    const trap = es.length ? r.pick(es) : 'none';
    return {
      wide: r.chance(0.5),
      annos: annotations,
      doc: M(
        ['apiVersion', 'v1'],
        ['kind', 'ConfigMap'],
        ['metadata', meta],
        [
          'data',
          M(
            ['LOG_LEVEL', dq('info')],
            ['FEATURE_FLAGS', sq('a,b,c')],
            // Text that looks like a workload consuming a Secret, inside a block scalar.
            [
              'pod-snippet.yaml',
              B(
                '|',
                'env:',
                '  - name: PASSWORD',
                '    valueFrom:',
                `      secretKeyRef: {name: ${trap}, key: password}`,
                '',
                '# a comment inside the block',
                'volumes:',
                `  - secret: {secretName: ${trap}}`,
              ),
            ],
            [
              'motd',
              B(
                '>-',
                'Welcome to the',
                `${m.ns} cluster.`,
                '',
                'Be kind: "quotes" and #hashes stay.',
              ),
            ],
            r.chance(0.3) && [
              'nginx.conf',
              B('|-', 'server {', '  listen 8080;', '  location / { return 200; }', '}'),
            ],
          ),
        ],
      ),
    };
  },

  Service: (ctx) => {
    const { r, m } = ctx;
    const { meta, annotations } = metadata(ctx);
    return {
      wide: r.chance(0.5),
      annos: annotations,
      doc: M(
        ['apiVersion', 'v1'],
        ['kind', 'Service'],
        ['metadata', meta],
        [
          'spec',
          M(
            ['type', r.pick(['ClusterIP', 'NodePort'])],
            ['selector', M(['app.kubernetes.io/name', m.app])],
            [
              'ports',
              S(
                M(['name', 'http'], ['port', '80'], ['targetPort', '8080']),
                '{name: metrics, port: 9090}',
              ),
            ],
          ),
        ],
      ),
    };
  },

  ServiceAccount: (ctx) => {
    const { meta, annotations } = metadata(
      ctx,
      [],
      [['eks.amazonaws.com/role-arn', dq('arn:aws:iam::123456789012:role/app')]],
    );
    return {
      wide: false,
      annos: annotations,
      doc: M(['apiVersion', 'v1'], ['kind', 'ServiceAccount'], ['metadata', meta]),
    };
  },

  Secret: (ctx) => {
    const { r } = ctx;
    const { meta, annotations } = metadata(ctx);
    return {
      wide: false,
      annos: annotations,
      doc: M(
        ['apiVersion', 'v1'],
        ['kind', 'Secret'],
        ['metadata', meta],
        ['type', r.pick(['Opaque', 'kubernetes.io/tls'])],
        [
          'data',
          M(['tls.crt', 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg=='], ['tls.key', sq('c2VjcmV0')]),
        ],
      ),
    };
  },

  Ingress: (ctx) => {
    const { r, m } = ctx;
    const { meta, annotations } = metadata(
      ctx,
      [],
      [['nginx.ingress.kubernetes.io/rewrite-target', '/']],
    );
    return {
      wide: r.chance(0.5),
      annos: annotations,
      doc: M(
        ['apiVersion', 'networking.k8s.io/v1'],
        ['kind', 'Ingress'],
        ['metadata', meta],
        [
          'spec',
          M([
            'rules',
            S(
              M(
                ['host', `${m.name}.example.com`],
                [
                  'http',
                  M([
                    'paths',
                    S(
                      M(
                        ['path', '/'],
                        ['pathType', 'Prefix'],
                        ['backend', M(['service', M(['name', m.app], ['port', '{number: 80}'])])],
                      ),
                    ),
                  ]),
                ],
              ),
            ),
          ]),
        ],
      ),
    };
  },
};

function workload(ctx) {
  const { r, m, shape, produced, decoys, plain, producedSets, namespaces } = ctx;
  const pool = (ns) => produced.get(ns) ?? [];
  const quote = (s) => (r.chance(0.7) ? s : r.chance(0.66) ? dq(s) : sq(s));
  // distinct: consecutive names of the namespace's pool from a drawn start (no name twice).
  const start = shape.distinct ? r.int(0, 1 << 20) : 0;
  const secretName = (k) => {
    const t = r.next();
    if (shape.own !== undefined) {
      const own = pool(m.ns);
      if (t >= shape.own || !own.length)
        return plain.get(m.ns).length ? r.pick(plain.get(m.ns)) : `legacy-${m.i}-${k}`;
      return shape.distinct ? own[(start + k) % own.length] : r.pick(own);
    }
    const src =
      t < 0.5
        ? pool(m.ns)
        : t < 0.7
          ? plain.get(m.ns)
          : t < 0.8
            ? pool(r.pick(namespaces))
            : t < 0.9
              ? decoys.get(m.ns)
              : [];
    return src.length ? r.pick(src) : `legacy-${r.int(0, 999)}`;
  };

  // Secret references: which container, which style, which name.
  const containers = { init: null, main: null, sidecar: null };
  const volumes = [];
  const refs = [];
  // References that name a key: { name, k, key, set(key) }. generate() resolves them once every
  // ExternalSecret is built, to a key the Secret has where its keys are known.
  const keyed = [];
  const projectedItem = (name, k) => {
    const key = ['key', 'tls.crt'];
    const path = ['path', 'tls.crt'];
    keyed.push({
      name,
      k,
      key: 'tls.crt',
      set: (v) => {
        key[1] = v;
        path[1] = v;
      },
    });
    return M(key, path);
  };
  const nRefs = shape.refs ? shape.refs(r) : r.chance(0.15) ? 0 : r.int(1, 4);
  const c = (where) => {
    containers[where] ??= { env: [], envFrom: [], mounts: [] };
    return containers[where];
  };
  c('main');
  if (!shape.lean && r.chance(0.1)) c('init');
  if (!shape.lean && r.chance(0.1)) c('sidecar');
  for (let k = 0; k < nRefs; k++) {
    const name = secretName(k);
    refs.push(name);
    const ct = shape.lean
      ? c('main')
      : c(r.chance(0.15) ? 'init' : r.chance(0.1) ? 'sidecar' : 'main');
    const style = r.pick(shape.styles ?? ['env', 'envFlow', 'envFrom', 'volume', 'projected']);
    const q = quote(name);
    if (style === 'env') {
      const key = ['key', 'password'];
      keyed.push({
        name,
        k,
        key: 'password',
        set: (v) => {
          key[1] = v;
        },
      });
      const ref = M(['name', q], key, r.chance(0.2) && ['optional', 'false']);
      ct.env.push(M(['name', `SECRET_${k}`], ['valueFrom', M(['secretKeyRef', ref])]));
    } else if (style === 'envFlow') {
      const [key, flow] = r.chance(0.5)
        ? ['api-key', (v) => `{name: ${q}, key: ${v}}`]
        : ['token', (v) => `{ key: ${v}, name: ${q}, optional: true }`];
      const ref = ['secretKeyRef', flow(key)];
      keyed.push({
        name,
        k,
        key,
        set: (v) => {
          ref[1] = flow(v);
        },
      });
      ct.env.push(M(['name', `TOKEN_${k}`], ['valueFrom', M(ref)]));
    } else if (style === 'envFrom') {
      ct.envFrom.push(
        r.chance(0.3)
          ? M(['secretRef', `{name: ${q}}`])
          : M(r.chance(0.3) && ['prefix', `S${k}_`], ['secretRef', M(['name', q])]),
      );
    } else {
      const vol = `secret-${k}`;
      ct.mounts.push(M(['name', vol], ['mountPath', `/etc/secrets/${k}`], ['readOnly', 'true']));
      volumes.push(
        style === 'volume'
          ? M(['name', vol], ['secret', M(['secretName', q], ['defaultMode', '0440', 'octal'])])
          : M(
              ['name', vol],
              [
                'projected',
                M(
                  ['defaultMode', '420'],
                  [
                    'sources',
                    S(
                      M(['secret', M(['name', q], ['items', S(projectedItem(name, k))])]),
                      M(['configMap', M(['name', `${m.app}-ca`])]),
                      M([
                        'serviceAccountToken',
                        M(['path', 'token'], ['expirationSeconds', '3600']),
                      ]),
                    ),
                  ],
                ),
              ],
            ),
      );
    }
  }
  const checksum = refs.some((n) => producedSets.get(m.ns).has(n));

  // Distractors: ConfigMap references that reuse ExternalSecret-produced names.
  if (!shape.lean && r.chance(0.4)) {
    const trap = pool(m.ns).length ? r.pick(pool(m.ns)) : `${m.app}-config`;
    const main = c('main');
    main.env.push(
      M(
        ['name', 'CONFIG_VALUE'],
        ['valueFrom', M(['configMapKeyRef', `{name: ${trap}, key: value}`])],
      ),
    );
    main.envFrom.push(M(['configMapRef', M(['name', trap])]));
    volumes.push(M(['name', 'config'], ['configMap', M(['name', trap])]));
    main.mounts.push(M(['name', 'config'], ['mountPath', '/etc/config']));
  }

  // lean: the container as a small generated manifest has it, its references and image only.
  const leanContainer = (name, ct) =>
    M(
      ['name', name],
      ['image', `registry.example.com/${m.ns}/${name}:v1`],
      ct.env.length > 0 && ['env', S(...ct.env)],
      ct.envFrom.length > 0 && ['envFrom', S(...ct.envFrom)],
      ct.mounts.length > 0 && ['volumeMounts', S(...ct.mounts)],
    );
  const container = (name, ct, i) =>
    shape.lean
      ? leanContainer(name, ct)
      : M(
          ['name', name],
          [
            'image',
            i === 0
              ? `registry.example.com/${m.ns}/${name}:v1.${r.int(0, 40)}.${r.int(0, 9)}`
              : dq(`busybox:1.36`),
            i === 0 && 'pinned by renovate',
          ],
          i === 1 && ['command', '["/bin/migrate", "--up"]'],
          i === 0 && r.chance(0.5) && ['ports', S(M(['containerPort', '8080'], ['name', 'http']))],
          [
            'env',
            S(
              M(['name', 'LOG_LEVEL'], ['value', dq('info')]),
              r.chance(0.3) &&
                M(
                  ['name', 'POD_NAMESPACE'],
                  ['valueFrom', M(['fieldRef', M(['fieldPath', 'metadata.namespace'])])],
                ),
              ...ct.env,
            ),
          ],
          ct.envFrom.length > 0 && ['envFrom', S(...ct.envFrom)],
          i === 0 && ['resources', '{limits: {cpu: 500m, memory: 256Mi}}'],
          ct.mounts.length > 0 && ['volumeMounts', S(...ct.mounts)],
        );

  const isJob = m.kind === 'Job' || m.kind === 'CronJob';
  const podAnnos = [];
  if (!shape.lean && r.chance(0.4))
    podAnnos.push(['prometheus.io/scrape', dq('true')], ['prometheus.io/port', sq('9090')]);
  // A previous run's value (e.g. committed after kpt fn render) must be replaced, not duplicated.
  if (checksum && r.chance(0.1)) podAnnos.push(['checksum/external-secrets', dq('0'.repeat(64))]);
  const podMeta =
    isJob && !podAnnos.length && r.chance(0.3)
      ? null
      : M(
          ['labels', M(['app.kubernetes.io/name', m.app])],
          podAnnos.length > 0 && ['annotations', M(...podAnnos)],
        );
  const template = M(podMeta && ['metadata', podMeta], [
    'spec',
    M(
      ['serviceAccountName', m.app],
      !shape.lean && ['securityContext', '{runAsNonRoot: true, fsGroup: 2000}'],
      containers.init && ['initContainers', S(container('migrate', containers.init, 1))],
      [
        'containers',
        S(
          container('app', containers.main, 0),
          containers.sidecar && container('proxy', containers.sidecar, 2),
        ),
      ],
      volumes.length > 0 && ['volumes', S(...volumes)],
      isJob && ['restartPolicy', 'OnFailure'],
    ),
  ]);
  const jobSpec = M(['backoffLimit', '3'], ['template', template]);
  const selector = ['selector', M(['matchLabels', M(['app.kubernetes.io/name', m.app])])];
  const spec = {
    Deployment: () => M(['replicas', String(r.int(1, 5))], selector, ['template', template]),
    StatefulSet: () =>
      M(
        ['serviceName', m.app],
        ['replicas', '3'],
        selector,
        ['template', template],
        [
          'volumeClaimTemplates',
          S(
            M(
              ['metadata', M(['name', 'data'])],
              [
                'spec',
                M(
                  ['accessModes', '[ReadWriteOnce]'],
                  ['resources', M(['requests', M(['storage', '10Gi'])])],
                ),
              ],
            ),
          ),
        ],
      ),
    Job: () => jobSpec,
    CronJob: () =>
      M(
        ['schedule', dq(`*/${r.int(2, 30)} * * * *`)],
        ['concurrencyPolicy', 'Forbid'],
        ['jobTemplate', M(['spec', jobSpec])],
      ),
  }[m.kind]();
  const api = {
    Deployment: 'apps/v1',
    StatefulSet: 'apps/v1',
    Job: 'batch/v1',
    CronJob: 'batch/v1',
  }[m.kind];
  const wave = r.chance(0.75) ? 0 : r.chance(0.6) ? 1 : -5; // Argo CD: no annotation = wave 0
  const waveAnno = wave ? [['argocd.argoproj.io/sync-wave', dq(wave)]] : [];
  const { meta, annotations } = metadata(ctx, [], waveAnno);
  return {
    wide: r.chance(0.5),
    annos: annotations,
    checksum,
    wave,
    consumes: refs.filter((n) => producedSets.get(m.ns).has(n)).map((n) => `${m.ns}/${n}`),
    keyed,
    doc: M(['apiVersion', api], ['kind', m.kind], ['metadata', meta], ['spec', spec]),
  };
}

export { WORKLOAD_KINDS };

// CLI
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const opt = (k, d) => (args.includes(k) ? args[args.indexOf(k) + 1] : d);
  const n = Number(args[0] ?? 1000);
  const { items, expected } = generate(n, Number(opt('--seed', 1)));
  if (args.includes('--expected')) {
    console.log(expected.podTemplates);
  } else {
    const format = opt('--format', 'rl');
    const out = opt('--out');
    if (format === 'dir') writeDir(items, out ?? 'bench-input');
    else {
      const text = format === 'stream' ? toStream(items) : toResourceList(items);
      if (out) writeFileSync(out, text);
      else process.stdout.write(text);
    }
  }
}

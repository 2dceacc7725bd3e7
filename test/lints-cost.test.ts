// What the lints spend on a 10k-item input, counted (never timed): work done per distinct thing
// (a Secret's keys, a kind), not again for every item that shares it.
import { describe, expect, it, vi } from 'vitest';
import type { Config } from '../src/model/config.js';
import { findCopies } from '../src/model/copies.js';
import type { Resource } from '../src/model/resource.js';
import { crossNamespace } from '../src/rules/lints/cross-namespace.js';
import { doubleRestart } from '../src/rules/lints/double-restart.js';
import { duplicateItem } from '../src/rules/lints/duplicate-item.js';
import { kindNearMiss } from '../src/rules/lints/kind-near-miss.js';
import type { KeyedRead, Lint, LintContext, LintOutput } from '../src/rules/lints/lint.js';
import { missingKey } from '../src/rules/lints/missing-key.js';
import { nearName } from '../src/rules/lints/near-name.js';
import { silenceEntries, silences } from '../src/rules/lints/silence.js';
import { storeRef } from '../src/rules/lints/store-ref.js';
import { unpinnedVersion } from '../src/rules/lints/unpinned-version.js';
import type { SecretSource } from '../src/rules/sources/source.js';
import { podTemplateShapes } from '../src/rules/workloads/shapes.js';
import { elementsWalked } from './helpers.js';

// Counted where the lints call them: the shared edit distance, the kind tables' look-ups, and the
// key strings built of a kind, namespace and name.
const calls = vi.hoisted(() => ({
  distance: 0,
  sourceKindOf: 0,
  objectKey: 0,
  clusterObjectKey: 0,
  mapUnder: 0,
  describe: 0,
  getPath: 0,
}));
vi.mock('../src/model/results.js', async (original) => {
  const actual = await original<typeof import('../src/model/results.js')>();
  return {
    ...actual,
    describe: (resource: Resource) => {
      calls.describe++;
      return actual.describe(resource);
    },
  };
});
vi.mock('../src/model/fold.js', async (original) => {
  const actual = await original<typeof import('../src/model/fold.js')>();
  return {
    ...actual,
    mapUnder: <K, L, V>(maps: Map<K, Map<L, V>>, key: K) => {
      calls.mapUnder++;
      return actual.mapUnder(maps, key);
    },
  };
});
vi.mock('../src/model/path.js', async (original) => {
  const actual = await original<typeof import('../src/model/path.js')>();
  return {
    ...actual,
    getPath: (...args: Parameters<typeof actual.getPath>) => {
      calls.getPath++;
      return actual.getPath(...args);
    },
  };
});
vi.mock('../src/model/near.js', async (original) => {
  const actual = await original<typeof import('../src/model/near.js')>();
  return {
    ...actual,
    distance: (a: string, b: string, max: number) => {
      calls.distance++;
      return actual.distance(a, b, max);
    },
  };
});
vi.mock('../src/model/resource.js', async (original) => {
  const actual = await original<typeof import('../src/model/resource.js')>();
  return {
    ...actual,
    objectKey: (kind: string, namespace: string | undefined, name: string) => {
      calls.objectKey++;
      return actual.objectKey(kind, namespace, name);
    },
    clusterObjectKey: (...args: Parameters<typeof actual.clusterObjectKey>) => {
      calls.clusterObjectKey++;
      return actual.clusterObjectKey(...args);
    },
  };
});
vi.mock('../src/rules/sources/index.js', async (original) => {
  const actual = await original<typeof import('../src/rules/sources/index.js')>();
  return {
    ...actual,
    sourceKindOf: (resource: Resource) => {
      calls.sourceKindOf++;
      return actual.sourceKindOf(resource);
    },
  };
});

const context = (fields: Partial<LintContext>): LintContext => ({
  resources: [],
  copies: new Map(),
  bystanders: [],
  sources: [],
  consumersOf: new Map(),
  readersOf: new Map(),
  unreadable: new Set(),
  checksummed: new Map(),
  unresolved: new Map(),
  keyedReads: [],
  config: {} as Config,
  ...fields,
});

const reporter = () => {
  const reported: string[] = [];
  const output = {
    report: (_: Resource, message: string) => reported.push(message),
    note: (_: Resource, message: string) => reported.push(message),
    silenced: () => false,
  } as unknown as LintOutput;
  return { reported, output };
};

/** An ExternalSecret's source: the Secret it makes in its namespace. */
/** `n` ClusterSecretStores, the i-th named `name(i)`, as the lints read them. */
const clusterStores = (n: number, name: (i: number) => string) =>
  Array.from(
    { length: n },
    (_, i) =>
      ({
        apiVersion: 'external-secrets.io/v1',
        kind: 'ClusterSecretStore',
        name: name(i),
        annotations: {},
        value: {},
      }) as unknown as Resource,
  );

const esSource = (name: string, secretName: string, namespace: string) =>
  ({
    resource: { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', name },
    produces: 'Secret',
    secretName,
    namespace,
  }) as unknown as SecretSource;

/**
 * `n` ExternalSecrets in namespace shop reading SecretStore vault, each with the `data` given and
 * read by a Deployment, as consumersOf holds them.
 */
const readExternalSecrets = (n: number, data: (i: number) => unknown[]) =>
  new Map(
    Array.from({ length: n }, (_, i) => {
      const es = {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        name: `es-${i}`,
        namespace: 'shop',
        annotations: {},
        value: { spec: { secretStoreRef: { name: 'vault' }, data: data(i) } },
      } as unknown as Resource;
      const source = { resource: es, namespace: 'shop', produces: 'Secret' } as SecretSource;
      const reader = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' } as Resource;
      return [source, [reader]];
    }),
  );

/** A Deployment whose references the tests give as unresolved. */
const workload = (name: string, namespace: string) =>
  ({ kind: 'Deployment', name, namespace, annotations: {}, value: {} }) as unknown as Resource;

describe('lint costs', () => {
  it('duplicate-item makes an identity string only for items that share a name', () => {
    const deployment = (name: string) =>
      ({ ...workload(name, 'shop'), apiVersion: 'apps/v1' }) as unknown as Resource;
    const resources = [
      ...Array.from({ length: 1000 }, (_, i) => deployment(`app-${i}`)),
      deployment('app-7'),
      deployment('app-7'),
    ];
    calls.clusterObjectKey = 0;
    const copies = findCopies(resources);
    // Made once per run (transform), read by the lint, producers and unpinned-version.
    expect(calls.clusterObjectKey).toBe(3);
    const { reported, output } = reporter();
    duplicateItem.check(context({ resources, copies }), output);
    expect(reported).toEqual([
      'Deployment shop/app-7 is in the input 3 times: an apply keeps only one of them; keep one copy',
    ]);
    // Main made one for each of the 1,002 items (3 MiB of fan-in's peak at 10k), then none more.
    expect(calls.clusterObjectKey).toBe(3);
  });

  it("missing-key builds a Secret's keys once, however many references read it", () => {
    let built = 0;
    const source = {
      resource: { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', name: 'db' },
      produces: 'Secret',
      secretName: 'db',
      namespace: 'shop',
      producedKeys: () => {
        built++;
        return new Set(['user', 'password']);
      },
    } as unknown as SecretSource;
    // Producers give every reader of a name the same list of its sources.
    const sources = [source];
    const n = 1000;
    const keyedReads = Array.from(
      { length: n },
      (_, i): KeyedRead => ({
        consumer: {
          kind: 'Deployment',
          name: `app-${i}`,
          namespace: 'shop',
          value: {},
        } as Resource,
        sources,
        keys: new Set(i === 0 ? ['pasword'] : ['user']),
        podSpec: ['spec', 'template', 'spec'],
        use: 0,
      }),
    );
    const { reported, output } = reporter();
    missingKey.check(context({ keyedReads }), output);
    // Built for each read before: n.
    expect(built).toBe(1);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain('reads key pasword of Secret db');
    expect(reported[0]).toContain('produces only password, user');
  });

  it('kind-near-miss judges each apiVersion and kind once, however many items share it', () => {
    const kinds = [
      ['external-secrets.io/v1', 'ExternalSecret'],
      ['external-secrets.io/v1', 'Externalsecret'],
      ['apps/v1', 'Deployment'],
      ['v1', 'ConfigMap'],
    ] as const;
    const n = 1000;
    const resources = Array.from({ length: n }, (_, i) => {
      const [apiVersion, kind] = kinds[i % kinds.length] as (typeof kinds)[number];
      return { apiVersion, kind, name: `item-${i}`, annotations: {}, value: {} } as Resource;
    });
    calls.distance = 0;
    calls.sourceKindOf = 0;
    const { reported, output } = reporter();
    kindNearMiss.check(
      context({ resources, config: { ordering: [] } as unknown as Config }),
      output,
    );
    // Once per item before: n.
    expect(calls.sourceKindOf).toBe(kinds.length);
    // A kind is compared with each known kind (and its group) at most: not once per item.
    expect(calls.distance).toBeGreaterThan(0);
    expect(calls.distance).toBeLessThanOrEqual(kinds.length * 2 * 17);
    expect(reported).toHaveLength(n / kinds.length);
    expect(reported[0]).toContain('looks like an ExternalSecret');
  });

  it('double-restart gathers the VSO resources naming one workload in linear work (counted)', () => {
    const api = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'api',
      namespace: 'shop',
      annotations: {},
      value: {},
    } as unknown as Resource;
    const shape = podTemplateShapes[0] as (typeof podTemplateShapes)[number];
    const checksummed = new Map([[api, [{ shape, annotation: 'checksum/x', sources: [] }]]]);
    const vso = (i: number) =>
      ({
        apiVersion: 'secrets.hashicorp.com/v1beta1',
        kind: 'VaultDynamicSecret',
        name: `creds-${i}`,
        namespace: 'shop',
        annotations: {},
        value: { spec: { rolloutRestartTargets: [{ kind: 'Deployment', name: 'api' }] } },
      }) as unknown as Resource;
    const walked = (n: number) => {
      const resources = [api, ...Array.from({ length: n }, (_, i) => vso(i))];
      const { reported, output } = reporter();
      const elements = elementsWalked(() =>
        doubleRestart.check(context({ resources, checksummed }), output),
      );
      expect(reported).toHaveLength(1);
      expect(reported[0]).toContain(
        `VaultDynamicSecret shop/creds-${n - 1} spec.rolloutRestartTargets[0])`,
      );
      return elements;
    };
    // The list of entries naming it was copied to add each one before: n²/2 elements.
    const n = 2000;
    expect(walked(n)).toBeLessThanOrEqual(10 * n);
  });

  it('double-restart builds no key for a checksummed workload no VSO resource names', () => {
    const n = 500;
    const shape = podTemplateShapes[0] as (typeof podTemplateShapes)[number];
    const deployment = (name: string) =>
      ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name,
        namespace: 'shop',
        annotations: {},
        value: {},
      }) as unknown as Resource;
    const workloads = Array.from({ length: n }, (_, i) => deployment(`app-${i}`));
    const checksummed = new Map(
      workloads.map((w) => [w, [{ shape, annotation: 'checksum/x', sources: [] }]]),
    );
    const vso = {
      apiVersion: 'secrets.hashicorp.com/v1beta1',
      kind: 'VaultDynamicSecret',
      name: 'creds',
      namespace: 'shop',
      annotations: {},
      value: { spec: { rolloutRestartTargets: [{ kind: 'Deployment', name: 'app-7' }] } },
    } as unknown as Resource;
    const { reported, output } = reporter();
    calls.objectKey = 0;
    doubleRestart.check(context({ resources: [vso, ...workloads], checksummed }), output);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain('Deployment shop/app-7 is restarted by');
    // The entry's key, and the named workload's to find it: one per checksummed workload on
    // main (n + 1).
    expect(calls.objectKey).toBe(2);
  });

  it('cross-namespace lists where a name is made once per name, and builds no key per reference', () => {
    const n = 1000;
    const sources = Array.from({ length: n }, (_, i) => esSource('db', 'db', `made-${i}`));
    const unresolved = new Map(
      Array.from({ length: n }, (_, i) => [
        workload('api', `read-${i}`),
        [{ kind: 'Secret' as const, name: 'db', field: 'x', podSpec: [], use: 0 }],
      ]),
    );
    // A plain Secret db in read-0: that workload's read resolves.
    const resources = [{ apiVersion: 'v1', kind: 'Secret', name: 'db', namespace: 'read-0' }];
    calls.objectKey = 0;
    const { reported, output } = reporter();
    const elements = elementsWalked(() =>
      crossNamespace.check(
        context({ resources: resources as Resource[], sources, unresolved }),
        output,
      ),
    );
    expect(reported).toHaveLength(n - 1);
    expect(reported[0]).toContain('Deployment read-1/api reads Secret db');
    expect(reported[n - 2]).toContain('produces only in namespace made-0, made-1, ');
    // Each warning walked every namespace the name is made in before: n² elements (1,009,002).
    expect(elements).toBeLessThanOrEqual(20 * n);
    // The plain items indexed by kind, namespace and name: a key string per item and per
    // reference on main (1,001).
    expect(calls.objectKey).toBe(0);
  });

  it("cross-namespace, near-name and missing-key place a workload's results with one walk", () => {
    const n = 50;
    const at = ['spec', 'template', 'spec'];
    const env = Array.from({ length: n }, (_, i) => ({
      name: `E${i}`,
      valueFrom: { secretKeyRef: { name: `database-${i}`, key: 'pasword' } },
    }));
    // A PodSpec counting its walks: each reads `containers` once.
    let walks = 0;
    const podSpec = {};
    Object.defineProperty(podSpec, 'containers', {
      enumerable: true,
      get: () => {
        walks++;
        return [{ env }];
      },
    });
    const api = {
      kind: 'Deployment',
      name: 'api',
      namespace: 'shop',
      annotations: {},
      value: { spec: { template: { spec: podSpec } } },
    } as unknown as Resource;
    const unresolved = new Map([
      [
        api,
        env.map((_, use) => ({
          kind: 'Secret' as const,
          name: `database-${use}`,
          field: 'spec.template.spec',
          podSpec: at,
          use,
        })),
      ],
    ]);
    const keyedReads = env.map(
      (_, use): KeyedRead => ({
        consumer: api,
        sources: [
          {
            ...esSource(`es-${use}`, `database-${use}`, 'shop'),
            producedKeys: () => new Set(['password']),
          } as SecretSource,
        ],
        keys: new Set(['pasword']),
        podSpec: at,
        use,
      }),
    );
    const checks: [Lint, Partial<LintContext>, string][] = [
      // Each name made only elsewhere, and made one edit away in the workload's namespace.
      [
        crossNamespace,
        { unresolved, sources: env.map((_, i) => esSource('es', `database-${i}`, 'made')) },
        'name',
      ],
      [
        nearName,
        { unresolved, sources: env.map((_, i) => esSource('es', `databse-${i}`, 'shop')) },
        'name',
      ],
      [missingKey, { keyedReads }, 'key'],
    ];
    for (const [lint, fields, field] of checks) {
      const placed: (string | undefined)[] = [];
      const output = {
        report: (_: Resource, _message: string, at?: string) => placed.push(at),
        silenced: () => false,
      } as unknown as LintOutput;
      walks = 0;
      lint.check(context(fields), output);
      expect(placed).toEqual(
        env.map(
          (_, i) => `spec.template.spec.containers[0].env[${i}].valueFrom.secretKeyRef.${field}`,
        ),
      );
      // One walk of the PodSpec per result on main: n. Here one for the first result, one
      // copying every place for the others.
      expect(walks).toBe(2);
    }
    // One result: only its place is copied (spread, 20 elements), not every reference's of the
    // PodSpec, as main did per result (1,055 elements in all; 124 here).
    const one = new Map([[api, unresolved.get(api)?.slice(7, 8) ?? []]]);
    const { reported, output } = reporter();
    const sources = [esSource('es', 'database-7', 'made')];
    walks = 0;
    const elements = elementsWalked(() =>
      crossNamespace.check(context({ unresolved: one, sources }), output),
    );
    expect(reported).toHaveLength(1);
    expect(walks).toBe(1);
    expect(elements).toBeLessThan(4 * n);
  });

  it('near-name indexes what is made by kind then namespace: no key string per item or read', () => {
    const n = 200;
    const sources = Array.from({ length: n }, (_, i) =>
      esSource(`es-${i}`, 'db-main', `shop-${i}`),
    );
    // Each workload reads, in its namespace, a Secret one edit from the one made there, and a
    // ConfigMap of that name (no ConfigMap is made).
    const unresolved = new Map(
      Array.from({ length: n }, (_, i) => [
        workload(`api-${i}`, `shop-${i}`),
        [
          { kind: 'Secret' as const, name: 'db-mein', field: 'x', podSpec: [], use: 0 },
          { kind: 'ConfigMap' as const, name: 'db-mein', field: 'x', podSpec: [], use: 1 },
        ],
      ]),
    );
    calls.objectKey = 0;
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    expect(reported).toHaveLength(n);
    expect(reported[7]).toContain('reads Secret db-mein, which nothing in the input makes');
    expect(reported[7]).toContain('ExternalSecret es-7 makes Secret db-main in its namespace');
    // A key per source, per index scope and two per distinct read on main: 6n (1,200).
    expect(calls.objectKey).toBe(0);
  });

  it('near-name describes a source that makes a name only when it suggests that name', () => {
    const n = 300;
    const sources = Array.from({ length: n }, (_, i) => esSource(`es-${i}`, `made-${i}`, 'shop'));
    const unresolved = new Map([
      [
        workload('api', 'shop'),
        [
          { kind: 'Secret' as const, name: 'unrelated-thing', field: 'x', podSpec: [], use: 0 },
          { kind: 'Secret' as const, name: 'made-7x', field: 'x', podSpec: [], use: 1 },
        ],
      ],
    ]);
    calls.describe = 0;
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain('ExternalSecret es-7 makes Secret made-7 in its namespace');
    // The workload and the one source named: every source described on main (n + 2).
    expect(calls.describe).toBe(2);
  });

  it("unpinned-version finds a store's key, resource and provider once, not per entry", () => {
    const n = 500;
    const store = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'SecretStore',
      name: 'vault',
      namespace: 'shop',
      annotations: {},
      value: { spec: { provider: { vault: {} } } },
    } as unknown as Resource;
    const consumersOf = readExternalSecrets(n, (i) => [{ remoteRef: { key: `k-${i}` } }]);
    calls.objectKey = 0;
    const { reported, output } = reporter();
    unpinnedVersion.check(context({ resources: [store], consumersOf }), output);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(`${n} ExternalSecrets reading SecretStore vault`);
    expect(reported[0]).toContain(`(${n} entries; in `);
    // The store's key once for the index of stores, once for the entries: once per entry on
    // main (501).
    expect(calls.objectKey).toBe(2);
  });

  it("unpinned-version looks a store's group up once per ExternalSecret, not per entry", () => {
    const n = 200;
    const entries = ['user', 'password', 'token'].map((key) => ({ remoteRef: { key } }));
    const consumersOf = readExternalSecrets(n, () => entries);
    calls.mapUnder = 0;
    const { reported, output } = reporter();
    unpinnedVersion.check(context({ consumersOf }), output);
    expect(reported).toHaveLength(1);
    // Every entry counted, the first member's reasons shown.
    expect(reported[0]).toContain(
      `(${3 * n} entries; in ExternalSecret shop/es-0: data[0].remoteRef has no fixed version; ` +
        'data[1].remoteRef has no fixed version; data[2].remoteRef has no fixed version)',
    );
    // Two look-ups (namespace, then store kind) per ExternalSecret: per entry on main (6n).
    expect(calls.mapUnder).toBe(2 * n);
  });

  it("unpinned-version reads an entry's fields once and a spec's store once", () => {
    const n = 200;
    const entries = ['user', 'password', 'token'].map((key) => ({ remoteRef: { key } }));
    const consumersOf = readExternalSecrets(n, () => entries);
    const { reported, output } = reporter();
    calls.getPath = 0;
    unpinnedVersion.check(context({ consumersOf }), output);
    expect(reported).toHaveLength(1);
    // Per ExternalSecret: its spec (esoSpecOf), data, dataFrom and secretStoreRef, then
    // sourceRef, remoteRef and its version per entry: 4 + 3 × 3; and the reported member's spec
    // once. On main, 18 per ExternalSecret (3601): the generatorRef, the entry's storeRef and
    // the spec's secretStoreRef looked up in every entry.
    expect(calls.getPath).toBe(13 * n + 1);
  });

  // main 0c4fb3f kept an entry per ExternalSecret in a Map of what reads it (2,000 on the fan-in
  // bench, outliving a scavenge to the peak).
  it('unpinned-version keeps what reads each ExternalSecret by item number, not in a Map', () => {
    const n = 200;
    const entries = ['user', 'password', 'token'].map((key) => ({ remoteRef: { key } }));
    const consumersOf = readExternalSecrets(n, () => entries);
    // Item numbers, as the reader gives every resource.
    let index = 0;
    for (const source of consumersOf.keys()) Object.assign(source.resource, { index: index++ });
    const { reported, output } = reporter();
    const set = vi.spyOn(Map.prototype, 'set');
    let sets: number;
    try {
      unpinnedVersion.check(context({ consumersOf }), output);
      sets = set.mock.calls.length;
    } finally {
      set.mockRestore();
    }
    expect(reported).toHaveLength(1);
    // The store's group and its look-ups; main: n more.
    expect(sets).toBeLessThan(10);
  });

  it('unpinned-version makes no identity string per member: the run knows the copies', () => {
    const n = 200;
    const consumersOf = readExternalSecrets(n, (i) => [{ remoteRef: { key: `k-${i}` } }]);
    // es-7 given twice: its copy reads the same store, and is no member again.
    const [[source, readers]] = [...consumersOf].slice(7, 8) as [[SecretSource, Resource[]]];
    const copy = { ...source, resource: { ...source.resource } } as SecretSource;
    consumersOf.set(copy, readers);
    const copies = findCopies([source.resource, copy.resource]);
    calls.clusterObjectKey = 0;
    const { reported, output } = reporter();
    unpinnedVersion.check(context({ consumersOf, copies }), output);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain(`(${n} entries; in `);
    // One per member on main (n + 1).
    expect(calls.clusterObjectKey).toBe(0);
  });

  it('near-name suggests the same names, and skips the distance where the letters rule it out', () => {
    const made = ['postgres', 'redis-auth', 'api-keys', 'gitea-act-runner', 'tls-cert', 'db-main'];
    const sources = made.map((name) => esSource(`es-${name}`, name, 'shop'));
    // A misspelt read and the name suggested for it: within the edits its length allows, else
    // a prefix or suffix added (none: too far).
    const table: [string, string | undefined][] = [
      ['postgress', 'postgres'],
      ['postgre', 'postgres'],
      ['redis-aut', 'redis-auth'],
      ['apikeys', 'api-keys'],
      ['act-runner', 'gitea-act-runner'],
      ['tls-crt', 'tls-cert'],
      ['tls-certs', 'tls-cert'],
      ['tls-cret', 'tls-cert'],
      ['db-mian', undefined],
      ['redis', 'redis-auth'],
      ['db', 'db-main'],
      ['mongo-root', undefined],
      ['smtp-credentials', undefined],
    ];
    const unresolved = new Map(
      table.map(([name], i) => [
        workload(`app-${i}`, 'shop'),
        [{ kind: 'Secret' as const, name, field: 'x', podSpec: [], use: 0 }],
      ]),
    );
    calls.distance = 0;
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    const suggested = new Map(
      reported.map((m) => [
        /reads Secret (\S+),/.exec(m)?.[1],
        /makes Secret (\S+) in/.exec(m)?.[1],
      ]),
    );
    expect(table.map(([name]) => [name, suggested.get(name)])).toEqual(table);
    // Each read of 4 characters or more was compared with every made name of a near length:
    // 45 distances on main; the letters rule most out first (8).
    expect(calls.distance).toBeLessThanOrEqual(10);
  });

  it('near-name compares every missing name of a crowded namespace, spending cells as it reads', () => {
    // 400 Secrets made in one namespace, 14 characters each, and 400 workloads reading as many
    // missing names of that length; the last reads a misspelt name the namespace makes.
    const n = 400;
    const pad = (i: number) => String(i).padStart(4, '0');
    const sources = [
      ...Array.from({ length: n }, (_, i) => esSource(`es-${i}`, `svc-${pad(i)}-creds`, 'shop')),
      esSource('es-db', 'database-password', 'shop'),
    ];
    const unresolved = new Map(
      [...Array.from({ length: n }, (_, i) => `app-${pad(i)}-token`), 'database-pasword'].map(
        (name, i) => [
          workload(`app-${i}`, 'shop'),
          [{ kind: 'Secret' as const, name, field: 'x', podSpec: [], use: 0 }],
        ],
      ),
    );
    calls.distance = 0;
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    // main bab480e charged every name compared the product of the lengths (16 of 14 characters,
    // 3,136 cells a read): its million cells ran out after 319 reads, and the misspelt name read
    // last was compared by prefix and suffix only: nothing was reported.
    expect(reported).toEqual([
      expect.stringContaining(
        'reads Secret database-pasword, which nothing in the input makes, while ExternalSecret es-db makes Secret database-password',
      ),
    ]);
    // The letters rule the other names out before any distance is computed.
    expect(calls.distance).toBeLessThanOrEqual(n);
  });

  it('near-name compares a read with every name of a crowded bucket, not the first 16', () => {
    // 40 Secrets of 17 characters made before the misspelt one's: main 058521a compared a read
    // with the first 16 names of each length and found no near name.
    const pad = (i: number) => String(i).padStart(4, '0');
    const sources = [
      ...Array.from({ length: 40 }, (_, i) =>
        esSource(`es-${i}`, `svc-${pad(i)}-password`, 'shop'),
      ),
      esSource('es-db', 'database-password', 'shop'),
    ];
    const unresolved = new Map([
      [
        workload('app', 'shop'),
        [{ kind: 'Secret' as const, name: 'database-pasword', field: 'x', podSpec: [], use: 0 }],
      ],
    ]);
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    expect(reported).toEqual([
      expect.stringContaining(
        'reads Secret database-pasword, which nothing in the input makes, while ExternalSecret es-db makes Secret database-password',
      ),
    ]);
  });

  it('near-name says, once, where names crafted long and alike run its budget out', () => {
    const n = 50;
    const long = (prefix: string, i: number) =>
      `${prefix}${'x'.repeat(200)}${String(i).padStart(3, '0')}`;
    const sources = Array.from({ length: n }, (_, i) => esSource(`es-${i}`, long('a', i), 'shop'));
    const unresolved = new Map(
      Array.from({ length: n }, (_, i) => [
        workload(`app-${i}`, 'shop'),
        [{ kind: 'Secret' as const, name: long('b', i), field: 'x', podSpec: [], use: 0 }],
      ]),
    );
    calls.distance = 0;
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    // Each read would compute 50 distances of 204 × 204 cells (every name made is of its length):
    // the budget stops most of them.
    expect(calls.distance).toBeLessThan(n * 16);
    const stopped = reported.filter((m) => m.includes('with only some of the names'));
    // main bab480e stopped as silently.
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toMatch(
      /^Deployment shop\/app-\d+ reads Secret bx+\d+, which nothing in the input makes; near-name compared it and \d+ other missing names with only some of the names its namespace makes/,
    );
  });

  it("near-name rules a bucket's names out as affixes by one character, not a text comparison", () => {
    // As on the mixed bench: a namespace's names all start with its name (one bucket by first
    // segment), and each missing name read is checked against every one of them for a prefix or
    // suffix. 50 names made, 200 missing ones read, one of them an affixed name. The reads'
    // texts count their comparisons (a read is the longer name here, whose method is called).
    let compared = 0;
    class Read extends String {
      override startsWith(search: string, at?: number) {
        compared++;
        return super.startsWith(search, at);
      }
      override endsWith(search: string, at?: number) {
        compared++;
        return super.endsWith(search, at);
      }
    }
    const pad = (i: number) => String(i).padStart(4, '0');
    const sources = [
      ...Array.from({ length: 50 }, (_, i) => esSource(`es-${i}`, `shop-api-${pad(i)}`, 'shop')),
      esSource('es-db', 'shop-db', 'shop'),
    ];
    const reads = [
      ...Array.from({ length: 200 }, (_, i) => `shop-worker-${pad(i)}-creds`),
      'shop-db-tls',
    ];
    const unresolved = new Map(
      reads.map((name, i) => [
        workload(`app-${i}`, 'shop'),
        [
          {
            kind: 'Secret' as const,
            name: new Read(name) as unknown as string,
            field: 'x',
            podSpec: [],
            use: 0,
          },
        ],
      ]),
    );
    const { reported, output } = reporter();
    nearName.check(context({ sources, unresolved }), output);
    expect(reported).toEqual([
      expect.stringContaining(
        'reads Secret shop-db-tls, which nothing in the input makes, while ExternalSecret es-db makes Secret shop-db',
      ),
    ]);
    // main eca7969 compared the texts of every name of the bucket with each read: 20,402 calls.
    expect(compared).toBeLessThanOrEqual(reads.length);
  });

  it('store-ref compares store names from a budget: linear in the references, not their product', () => {
    const n = 2000;
    // Stores and references to missing ones, all of one length: n × n comparisons unbounded.
    const resources = clusterStores(n, (i) => `store-${10000 + i}`);
    const sources = Array.from({ length: n }, (_, i) => {
      const source = esSource(`es-${i}`, `s-${i}`, 'shop') as SecretSource & { stores: unknown };
      source.stores = [{ kind: 'ClusterSecretStore', name: `other-${10000 + i}` }];
      return source;
    });
    calls.distance = 0;
    const { reported, output } = reporter();
    storeRef.check(context({ resources, sources }), output);
    // 10,000 and 64 a reference looked up.
    expect(calls.distance).toBeGreaterThan(0);
    expect(calls.distance).toBeLessThanOrEqual(10_000 + 64 * n);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatch(/compared with only some of the stores/);
  });

  it('store-ref looks at the store names of near lengths only, each paid for', () => {
    // Many stores of one length, references to missing names of another: s16-review's input
    // walked every store name per reference, skipping far lengths free of the budget (17 MB, 19 s).
    const n = 2000;
    const resources = clusterStores(
      n,
      (i) => `a-long-store-name-of-forty-nine-characters-${10000 + i}`,
    );
    const sources = Array.from({ length: n }, (_, i) => {
      const source = esSource(`es-${i}`, `s-${i}`, 'shop') as SecretSource & { stores: unknown };
      source.stores = [{ kind: 'ClusterSecretStore', name: `m-${10000 + i}` }];
      return source;
    });
    const iterated = vi.spyOn(
      Set.prototype as unknown as Record<symbol, () => Iterator<unknown>>,
      Symbol.iterator,
    );
    try {
      const { reported, output } = reporter();
      storeRef.check(context({ resources, sources }), output);
      expect(reported).toEqual([]);
      // The names grouped by length once; main walked the set per reference: 2,000.
      expect(iterated.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      iterated.mockRestore();
    }
  });

  it("store-ref finds where a source's references are written once, not per finding", () => {
    // One ExternalSecret whose d entries each name a missing store next to one the input has.
    const d = 100;
    const resources = clusterStores(d, (i) => `vault-${1000 + i}`);
    const refs = Array.from({ length: d }, (_, i) => ({
      kind: 'ClusterSecretStore',
      name: `vautl-${1000 + i}`,
    }));
    const source = esSource('es', 's', 'shop') as SecretSource & { stores: unknown };
    source.stores = refs;
    (source.resource as { value: unknown }).value = {
      spec: { data: refs.map((ref) => ({ secretKey: 'k', sourceRef: { storeRef: ref } })) },
    };
    calls.getPath = 0;
    const { reported, output } = reporter();
    storeRef.check(context({ resources, sources: [source] }), output);
    expect(reported).toHaveLength(d);
    // A read per entry and per list; main read every entry again for each finding: 10,300.
    expect(calls.getPath).toBeLessThanOrEqual(3 * d);
  });

  it('silence entries: one shared empty list for every resource without the annotation', () => {
    // Settling reads the entries of every resource, and lints ask per resource: a new empty
    // list each time on main (10k per run at 10k items).
    const resource = (annotations: Record<string, string>) =>
      ({ kind: 'Deployment', name: 'api', annotations }) as unknown as Resource;
    expect(silenceEntries(resource({}))).toBe(silenceEntries(resource({})));
    expect(silences(resource({}), 'near-name')).toBe(false);
    const silenced = resource({ 'secret-rollout/silence': 'near-name, cross-namespace,' });
    expect(silenceEntries(silenced)).toEqual([
      { id: 'near-name', entry: 1 },
      { id: 'cross-namespace', entry: 2 },
    ]);
    expect(silences(silenced, 'cross-namespace')).toBe(true);
    expect(silences(silenced, 'unpinned-version')).toBe(false);
  });
});

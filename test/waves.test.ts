// Sync waves: stores < ExternalSecrets < consumers on every edge, user waves kept and checked.
import { describe, expect, it, vi } from 'vitest';
import type { Resource } from '../src/model/resource.js';
import { newPlacement, placeWaves, type WaveNode } from '../src/rules/order/waves.js';
import { run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  find,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
  wave,
} from './helpers.js';

const store = (
  kind: string,
  name: string,
  namespace?: string,
  w?: string,
) => `apiVersion: external-secrets.io/v1
kind: ${kind}
metadata:
  name: ${name}
${namespace ? `  namespace: ${namespace}\n` : ''}${w ? `  annotations:\n    argocd.argoproj.io/sync-wave: "${w}"\n` : ''}spec:
  provider:
    vault: {server: "https://vault"}
`;

/** SecretStore st`i`, whose token is Secret `reads`, and ExternalSecret tok`i` from it, in `a`. */
const storeAndSecret = (i: number, reads: string) => [
  `apiVersion: external-secrets.io/v1
kind: SecretStore
metadata: {name: st${i}, namespace: a}
spec:
  provider:
    vault:
      server: https://vault
      auth: {tokenSecretRef: {name: ${reads}, key: t}}
`,
  `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: tok${i}, namespace: a}
spec:
  secretStoreRef: {name: st${i}}
  data:
  - secretKey: t
    remoteRef: {key: k}
`,
];

describe('sync waves', () => {
  it('defaults: stores -2, ExternalSecrets -1, consumers untouched', () => {
    const items = itemsOf(
      runOk(
        resourceList([
          store('ClusterSecretStore', 'vault'),
          externalSecret('db'),
          deployment('app', envFrom('db')),
        ]),
      ).stdout,
    );
    expect(wave(find(items, 'ClusterSecretStore', 'vault'))).toBe('-2');
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-1');
    expect(wave(find(items, 'Deployment', 'app'))).toBeUndefined();
  });

  it('goes below a consumer that is already lower, and its store below that', () => {
    const items = itemsOf(
      runOk(
        resourceList([
          store('ClusterSecretStore', 'vault'),
          externalSecret('db'),
          deployment('early', envFrom('db'), { wave: '-5' }),
          deployment('late', envFrom('db'), { wave: '3' }),
        ]),
      ).stdout,
    );
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-6');
    expect(wave(find(items, 'ClusterSecretStore', 'vault'))).toBe('-7');
  });

  it('orders an ExternalSecret before a pod that pulls with it, even with no checksum', () => {
    const puller = deployment('app', '', { wave: '-3' }).replace(
      /\n$/,
      '\n      imagePullSecrets:\n      - name: regcred\n',
    );
    const items = itemsOf(runOk(resourceList([externalSecret('regcred'), puller])).stdout);
    expect(wave(find(items, 'ExternalSecret', 'regcred'))).toBe('-4');
    expect(find(items, 'Deployment', 'app').spec).not.toHaveProperty(
      'template.metadata.annotations',
    );
  });

  it('uses helm.sh/hook-weight when a consumer has no sync-wave, as Argo CD does', () => {
    const consumer = deployment('app', envFrom('db')).replace(
      '  name: app\n',
      '  name: app\n  annotations:\n    helm.sh/hook-weight: "-3"\n',
    );
    const items = itemsOf(runOk(resourceList([externalSecret('db'), consumer])).stdout);
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-4');
  });

  it('orders a namespaced SecretStore only for ExternalSecrets of its namespace', () => {
    const es = externalSecret('db', { namespace: 'a' }).replace(
      'kind: ClusterSecretStore',
      'kind: SecretStore',
    );
    const items = itemsOf(
      runOk(
        resourceList([
          store('SecretStore', 'vault', 'a'),
          store('SecretStore', 'vault', 'b'),
          es,
          deployment('app', envFrom('db'), { namespace: 'a', wave: '-10' }),
        ]),
      ).stdout,
    );
    const [inA, inB] = items.filter((i) => i.kind === 'SecretStore');
    expect(wave(inA as Record<string, unknown>)).toBe('-12');
    expect(wave(inB as Record<string, unknown>)).toBe('-2');
  });

  it('orders a store and what the operator reads before an ExternalSecret only in its sync phase', () => {
    const hooked = (item: string, hook: string | undefined) =>
      hook
        ? item.replace(
            'metadata:\n',
            `metadata:\n  annotations: {argocd.argoproj.io/hook: ${hook}}\n`,
          )
        : item;
    const template =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl\ndata:\n  t: "{{ .password }}"\n';
    const templateFrom =
      '  target:\n    template:\n      templateFrom:\n      - configMap:\n          name: tpl\n          items:\n          - key: t\n';
    // In the ExternalSecret's phase both go below it; in PreSync neither is ordered after it: the
    // store keeps the store default, the ConfigMap gets no wave.
    for (const [hook, expected] of [
      [undefined, ['-6', '-7', '-7']],
      ['PreSync', ['-6', '-2', undefined]],
    ] as const) {
      const items = itemsOf(
        runOk(
          resourceList([
            hooked(store('ClusterSecretStore', 'vault'), hook),
            hooked(template, hook),
            externalSecret('db', { extra: templateFrom }),
            deployment('early', envFrom('db'), { wave: '-5' }),
          ]),
        ).stdout,
      );
      expect([
        wave(find(items, 'ExternalSecret', 'db')),
        wave(find(items, 'ClusterSecretStore', 'vault')),
        wave(find(items, 'ConfigMap', 'tpl')),
      ]).toEqual(expected);
    }
  });

  // A store with a pod template that reads a Secret: the store is then also a consumer.
  const readingStore = (name: string, secret: string) =>
    `${store('ClusterSecretStore', name)}  template:
    spec:
      containers:
      - name: c
        envFrom:
        - secretRef: {name: ${secret}}
`;

  it('places a store that reads the Secret of an ExternalSecret after it, not at the store default', () => {
    for (const [esWave, expected] of [
      [undefined, ['-3', '-2']],
      ['-1', ['-1', '0']],
    ] as const) {
      const input = resourceList([
        externalSecret('db', { wave: esWave }),
        readingStore('other', 'db'),
      ]);
      const first = runOk(input).stdout;
      const items = itemsOf(first);
      expect([
        wave(find(items, 'ExternalSecret', 'db')),
        wave(find(items, 'ClusterSecretStore', 'other')),
      ]).toEqual(expected);
      expect(runOk(first).stdout).toBe(first);
    }
  });

  it('raises an ExternalSecret above a wave written on its store when its consumers leave room', () => {
    const items = itemsOf(
      runOk(
        resourceList([
          store('ClusterSecretStore', 'vault', undefined, '0'),
          externalSecret('db'),
          deployment('app', envFrom('db'), { wave: '5' }),
        ]),
      ).stdout,
    );
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('1');
  });

  it('never raises a wave past the highest 64-bit wave: the written store wave is reported', () => {
    const out = run(
      resourceList([
        store('ClusterSecretStore', 'vault', undefined, '9223372036854775807'),
        externalSecret('db'),
      ]),
    );
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^ClusterSecretStore vault has sync-wave 9223372036854775807, not below ExternalSecret db \(wave -1\)/,
      ),
    ]);
  });

  it('reports a store that reads the Secret of an ExternalSecret using it as a cycle', () => {
    const out = run(resourceList([externalSecret('db'), readingStore('vault', 'db')]));
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /ClusterSecretStore vault and ExternalSecret db depend on each other|ExternalSecret db and ClusterSecretStore vault depend on each other/,
      ),
    ]);
  });

  it('orders a chain of 3,000 stores, each reading the Secret of the ExternalSecret before it', () => {
    // Store i reads what ExternalSecret i-1 (from store i-1) writes: 6,000 nodes in a line, which
    // a recursive walk of the order overflowed the call stack on (an internal error, exit 1).
    const items = Array.from({ length: 3000 }, (_, i) => storeAndSecret(i, `tok${i - 1}`)).flat();
    const out = run(resourceList(items));
    expect(out.stderr).toBe('');
    expect(out.exitCode).toBe(0);
    const waves = itemsOf(out.stdout).map((item) => Number(wave(item)));
    // Each after the one before it: a store after the ExternalSecret whose Secret it reads.
    expect(waves.every((w, i) => i === 0 || w > (waves[i - 1] as number))).toBe(true);
  });

  it('names every member of a longer cycle, not two that do not depend on each other', () => {
    // Store i reads what ExternalSecret i+1 writes, the last the first's: st0 → tok0 → st2 → …
    const items = [0, 1, 2].flatMap((i) => storeAndSecret(i, `tok${(i + 1) % 3}`));
    const out = run(resourceList(items));
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    // On main: 'ExternalSecret a/tok0 and SecretStore a/st0 depend on each other (a store or
    // generator that reads the Secret of an ExternalSecret that uses it)', which st0 does not.
    expect(errors.map((r) => r.message)).toEqual([
      'ExternalSecret a/tok0, SecretStore a/st2, ExternalSecret a/tok2, SecretStore a/st1, ExternalSecret a/tok1 and 1 more depend on each other, each before the next and the last before the first (stores or generators that read the Secret of an ExternalSecret using them, in a circle): no order exists; break the cycle',
    ]);
  });

  it('keeps a user wave that respects the order', () => {
    const items = itemsOf(
      runOk(resourceList([externalSecret('db', { wave: '-20' }), deployment('app', envFrom('db'))]))
        .stdout,
    );
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-20');
  });

  it('never changes a contradicting user wave: an error result names both and the fix', () => {
    const input = resourceList([
      externalSecret('db', { wave: '5' }),
      deployment('app', envFrom('db')),
    ]);
    const out = run(input);
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      resourceRef: { kind: 'ExternalSecret', name: 'db' },
      field: {
        path: 'metadata.annotations[argocd.argoproj.io/sync-wave]',
        currentValue: '5',
        proposedValue: '-1',
      },
    });
    expect(errors[0]?.message).toMatch(
      /ExternalSecret db has sync-wave 5, not below Deployment app \(wave 0\)/,
    );
    // on error nothing is changed
    expect(out.stdout.slice(0, out.stdout.indexOf('results:'))).toBe(input);
  });

  it('conflict severity is configurable', () => {
    const config =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  waveConflictSeverity: warning\n';
    const out = run(
      resourceList([externalSecret('db', { wave: '5' }), deployment('app', envFrom('db'))], config),
    );
    expect(out.exitCode).toBe(0);
    const warnings = resultsOf(out.stdout).filter((r) => r.severity === 'warning');
    expect(warnings.filter((r) => /has sync-wave 5/.test(String(r.message)))).toHaveLength(1);
  });

  it('proposes a fix for a conflicting wave above the stores this run places, the same on a second run', () => {
    // The store goes just below the ExternalSecret's wave (0), to -2 with these defaults: the
    // ExternalSecret must then go to -1, between it and the Deployment, not to its default -2.
    const config =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  waveConflictSeverity: warning\n  externalSecretWave: "-2"\n  storeWave: "-2"\n';
    const input = resourceList(
      [
        store('ClusterSecretStore', 'vault'),
        externalSecret('db', { wave: '0' }),
        deployment('app', envFrom('db')),
      ],
      config,
    );
    const proposed = (text: string) =>
      resultsOf(text)
        .filter((r) => /has sync-wave 0/.test(String(r.message)))
        .map((r) => (r.field as { proposedValue?: string }).proposedValue);
    const first = runOk(input).stdout;
    expect(wave(find(itemsOf(first), 'ClusterSecretStore', 'vault'))).toBe('-2');
    expect(proposed(first)).toEqual(['-1']);
    expect(runOk(first).stdout).toBe(first);
  });

  it('gives ExternalSecrets without consumers the configured default, and can be turned off', () => {
    const config = (data: string) =>
      `apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: c}\n${data}`;
    const withDefault = itemsOf(
      runOk(
        resourceList(
          [externalSecret('lonely'), store('ClusterSecretStore', 'vault')],
          config('externalSecretWave: -4\nstoreWave: -9\n'),
        ),
      ).stdout,
    );
    expect(wave(find(withDefault, 'ExternalSecret', 'lonely'))).toBe('-4');
    expect(wave(find(withDefault, 'ClusterSecretStore', 'vault'))).toBe('-9');
    const off = itemsOf(
      runOk(resourceList([externalSecret('lonely')], config('syncWaves: false\n'))).stdout,
    );
    expect(wave(find(off, 'ExternalSecret', 'lonely'))).toBeUndefined();
  });

  it('rejects a wave that is not a 64-bit integer', () => {
    for (const bad of ['abc', '1.5', '99999999999999999999']) {
      const out = run(
        resourceList([externalSecret('db'), deployment('app', envFrom('db'), { wave: bad })]),
      );
      expect(out.exitCode, bad).toBe(1);
      const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
      // The message names the field, never the value (issue #20).
      expect(errors.map((r) => r.message)).toEqual([
        'Deployment app: argocd.argoproj.io/sync-wave is not a 64-bit integer',
      ]);
    }
  });
});

/** Three sources of 200 consumers each: waves 0, or -5 and explicit on the sources. */
function fanOut(explicit: boolean): {
  sources: WaveNode[];
  defaults: Map<Resource, bigint>;
  nodes: Map<Resource, WaveNode>;
} {
  const nodes = new Map<Resource, WaveNode>();
  const node = (name: string, before: Resource[], explicit: boolean): WaveNode => {
    const made: WaveNode = {
      resource: { kind: 'Deployment', name, annotations: {} } as unknown as Resource,
      wave: { value: explicit ? -5n : 0n, explicit },
      phase: undefined,
      before,
    };
    nodes.set(made.resource, made);
    return made;
  };
  const consumers = Array.from({ length: 600 }, (_, i) => node(`d${i}`, [], false).resource);
  const sources = [0, 1, 2].map((s) =>
    node(`s${s}`, consumers.slice(s * 200, s * 200 + 200), explicit),
  );
  return { sources, defaults: new Map(sources.map((s) => [s.resource, -1n])), nodes };
}

describe('placing the waves of many consumers', () => {
  it('keeps no record per consumer, and visits the edges again only for a conflict', () => {
    const { sources, defaults, nodes } = fanOut(false);
    const placement = newPlacement();
    const set = vi.spyOn(Map.prototype, 'set');
    try {
      placeWaves(defaults, nodes, placement);
      // main bab480e: a state per consumer reached (600), then the highest wave before each of
      // them for the conflicts' fixes, with no conflict (600 more).
      expect(set.mock.calls.length).toBeLessThanOrEqual(20);
    } finally {
      set.mockRestore();
    }
    expect(placement.edits).toHaveLength(3);
    expect(sources.map((s) => s.wave.value)).toEqual([-1n, -1n, -1n]);
  });

  it('looks a consumer up twice per edge: whether it has a default wave, then its wave', () => {
    const { defaults, nodes } = fanOut(false);
    const get = vi.spyOn(Map.prototype, 'get');
    const has = vi.spyOn(Map.prototype, 'has');
    try {
      placeWaves(defaults, nodes, newPlacement());
      // One `has` per consumer edge (600) while ordering, never its state, and one `get` of its
      // node for the lowest wave after the source (600): successors are resources (a source's
      // list is its consumers' own), and a node each was 1.3 MB on fan-in. A state as well would
      // be 1800.
      const lookUps = get.mock.calls.length + has.mock.calls.length;
      expect(lookUps).toBeLessThanOrEqual(2 * 600 + 20);
    } finally {
      get.mockRestore();
      has.mockRestore();
    }
  });

  it('keeps no record for a consumer after an explicit wave, nor a path place per node visited', () => {
    const { defaults, nodes } = fanOut(true);
    const placement = newPlacement();
    const set = vi.spyOn(Map.prototype, 'set');
    const remove = vi.spyOn(Map.prototype, 'delete');
    try {
      placeWaves(defaults, nodes, placement);
      // On main: the highest explicit wave before each consumer (600) and a path place per
      // source, deleted when it was done (3).
      expect(set.mock.calls.length).toBeLessThanOrEqual(20);
      expect(remove).not.toHaveBeenCalled();
    } finally {
      set.mockRestore();
      remove.mockRestore();
    }
    // Explicit waves below their consumers' are kept, with no conflict.
    expect(placement.edits).toHaveLength(0);
    expect(placement.conflicts.size).toBe(0);
  });
});

// ExternalSecret dependencies (issue #15 item 3): templateFrom ConfigMaps and Secrets and
// generators in the input join the consumers' checksum, and the ExternalSecret carries their hash
// in `checksum/dependencies` (ESO watches none of them), ordered before it.
import crypto, { createHash, createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { impact } from '../../src/impact-run.js';
import { check, plan, run } from '../../src/run.js';
import {
  deployment,
  envFrom,
  find,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
  waveKey,
} from '../helpers.js';
import {
  annotated,
  checksums,
  expectError,
  expectOnlyAnnotationLines,
  messagesAbout,
  moved,
  render,
  waveOf,
} from './harness.js';

const depsKey = 'checksum/dependencies';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const configMap = (
  opts: { name?: string; namespace?: string | null; body?: string; other?: string } = {},
) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${opts.name ?? 'tpl'}
${opts.namespace === null ? '' : `  namespace: ${opts.namespace ?? 'shop'}\n`}data:
  config.yaml: |
    ${opts.body ?? 'user: {{ .user }}'}
  unused.yaml: ${opts.other ?? 'x'}
`;

// ca.crt: "CA" (base64 Q0E=)
const templateSecret = (ca = 'Q0E=') => `apiVersion: v1
kind: Secret
metadata:
  name: tpl-secret
  namespace: shop
data:
  ca.crt: ${ca}
`;

const externalSecret = (
  opts: { namespace?: string | null; from?: string; policy?: string; dataFrom?: string } = {},
) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: app
${opts.namespace === null ? '' : `  namespace: ${opts.namespace ?? 'shop'}\n`}spec:
${opts.policy ?? ''}  secretStoreRef: {name: vault}
  target:
    template:
      templateFrom:
${
  opts.from ??
  `      - configMap:
          name: tpl
          items:
          - key: config.yaml
      - secret:
          name: tpl-secret
          items:
          - key: ca.crt
`
}  data:
  - secretKey: user
    remoteRef: {key: app, property: user, version: "1"}
${opts.dataFrom ?? ''}`;

const consumer = (namespace: string | null = 'shop') =>
  deployment('api', envFrom('app'), namespace === null ? {} : { namespace });
const bystander = deployment('other', envFrom('unrelated'), { namespace: 'shop' });

const world = (cm = configMap(), sec = templateSecret(), es = externalSecret()) => [
  cm,
  sec,
  es,
  consumer(),
  bystander,
];

const esAnnotation = (items: readonly string[], options = {}) => {
  const es = find(render(items, options).items, 'ExternalSecret', 'app');
  return (es.metadata as { annotations?: Record<string, string> }).annotations?.[depsKey];
};

describe('ExternalSecret templateFrom', () => {
  it('hashes the keys read of the ConfigMap and Secret into checksum/dependencies and the consumers', () => {
    const rendered = render(world());
    // Written from the documented algorithm, not by the code under test: canonical JSON of one
    // entry per dependency, in the order the spec names them; of a Secret, without
    // secretChecksumKey, only the keys read that it has.
    const deps = sha256(
      `[{"data":{"config.yaml":"user: {{ .user }}\\n"},"kind":"ConfigMap","name":"tpl"},{"keys":["ca.crt"],"kind":"Secret","name":"tpl-secret"}]`,
    );
    expect(esAnnotation(world())).toBe(deps);
    const content = `{"checksum/dependencies":"${deps}","data":[{"remoteRef":{"key":"app","property":"user","version":"1"},"secretKey":"user"}],"secretStoreRef":{"name":"vault"},"target":{"template":{"templateFrom":[{"configMap":{"items":[{"key":"config.yaml"}],"name":"tpl"}},{"secret":{"items":[{"key":"ca.crt"}],"name":"tpl-secret"}}]}}}`;
    expect(checksums(world())['shop/api']).toBe(sha256(`[{"content":${content},"secret":"app"}]`));
    expect(annotated(world())).toEqual(['shop/api']);
    // Dependencies before the ExternalSecret, which comes before its consumer.
    expect(waveOf(rendered, 'ConfigMap', 'tpl')).toBe('-2');
    expect(waveOf(rendered, 'Secret', 'tpl-secret')).toBe('-2');
    expect(waveOf(rendered, 'ExternalSecret', 'app')).toBe('-1');
    expectOnlyAnnotationLines(rendered, ['checksum/external-secrets', waveKey, depsKey]);
    expect(messagesAbout(rendered, 'ExternalSecret', 'app')).toContain(
      'checksum/dependencies covers ConfigMap shop/tpl, Secret shop/tpl-secret',
    );
  });

  it('a change of a key read moves the consumers and checksum/dependencies, nothing else', () => {
    const changed = world(configMap({ body: 'user: {{ .user | upper }}' }));
    expect(moved(world(), changed)).toEqual(['shop/api']);
    expect(esAnnotation(changed)).not.toBe(esAnnotation(world()));
    // A Secret's value counts only with secretChecksumKey (the warning says so).
    const secretChanged = world(configMap(), templateSecret('Q0I='));
    expect(moved(world(), secretChanged)).toEqual([]);
    expect(esAnnotation(secretChanged)).toBe(esAnnotation(world()));
    const keyed = { secretChecksumKey: 'k3y-0f-at-least-32-random-bytes!' };
    expect(moved(world(), secretChanged, keyed)).toEqual(['shop/api']);
    expect(esAnnotation(secretChanged, keyed)).not.toBe(esAnnotation(world(), keyed));
  });

  it('a key not read (items narrows), labels or binaryData move nothing', () => {
    const unread = [
      configMap({ other: 'y' }),
      configMap().replace('  name: tpl\n', '  name: tpl\n  labels: {a: b}\n'),
      `${configMap()}binaryData:\n  logo.png: iVBORw0KGgo=\n`,
    ];
    for (const cm of unread) {
      expect(moved(world(), world(cm))).toEqual([]);
      expect(esAnnotation(world(cm))).toBe(esAnnotation(world()));
    }
  });

  it('a ConfigMap of the same name in another namespace is not a dependency', () => {
    const elsewhere = (body?: string) =>
      world(configMap({ namespace: 'other', ...(body && { body }) }));
    expect(moved(elsewhere(), elsewhere('changed'))).toEqual([]);
    const rendered = render(elsewhere());
    expect(waveOf(rendered, 'ConfigMap', 'tpl')).toBeUndefined();
    expect(messagesAbout(rendered, 'ExternalSecret', 'app')).toContain(
      'spec.target.template.templateFrom[0].configMap: ConfigMap shop/tpl is not in the input: ESO reads it at each refresh, and no checksum follows it',
    );
  });

  it('without a namespace on both sides they match', () => {
    const items = (body?: string) => [
      configMap({ namespace: null, ...(body && { body }) }),
      externalSecret({
        namespace: null,
        from: '      - configMap:\n          name: tpl\n          items:\n          - key: config.yaml\n',
      }),
      consumer(null),
    ];
    expect(esAnnotation(items())).toMatch(/^[0-9a-f]{64}$/);
    expect(moved(items(), items('changed'))).toEqual(['/api']);
  });

  it('no dependency in the input: no annotation, no wave on ConfigMaps, checksum as before', () => {
    const literal = externalSecret({ from: '      - literal: "{{ .user }}"\n' });
    const items = [configMap(), literal, consumer()];
    const rendered = render(items);
    expect(esAnnotation(items)).toBeUndefined();
    expect(waveOf(rendered, 'ConfigMap', 'tpl')).toBeUndefined();
    expect(rendered.output).not.toContain(depsKey);
  });

  it('a second run changes nothing (idempotent), as ResourceList and as stream', () => {
    const first = runOk(resourceList(world())).stdout;
    const second = runOk(first).stdout;
    expect(second).toBe(first);
    const stream = world().join('---\n');
    const once = runOk(stream).stdout;
    expect(once).toContain(`${depsKey}: "${esAnnotation(world())}"`);
    expect(runOk(once).stdout).toBe(once);
  });

  it('hashes a Secret once, however many ExternalSecrets read it (counted, not timed)', () => {
    const readers = Array.from({ length: 20 }, (_, i) =>
      externalSecret().replace('name: app\n', `name: app-${i}\n`),
    );
    const hmac = vi.spyOn(crypto, 'createHmac');
    try {
      const items = [configMap(), templateSecret(), ...readers, consumer()];
      render(items, { secretChecksumKey: 'k3y', secretChecksumAnnotation: 'checksum/secrets' });
      // One key (ca.crt), one HMAC: not one per reader.
      expect(hmac).toHaveBeenCalledTimes(1);
    } finally {
      hmac.mockRestore();
    }
  });

  it('keys the Secret digests with secretChecksumKey', () => {
    const key = 'k3y-0f-at-least-32-random-bytes!';
    const keyed = esAnnotation(world(), { secretChecksumKey: key });
    const hmac = createHmac('sha256', key).update('CA').digest('hex');
    expect(keyed).toBe(
      sha256(
        `[{"data":{"config.yaml":"user: {{ .user }}\\n"},"kind":"ConfigMap","name":"tpl"},{"data":{"ca.crt":"${hmac}"},"kind":"Secret","name":"tpl-secret"}]`,
      ),
    );
    expect(JSON.stringify(render(world(), { secretChecksumKey: key }).results)).not.toContain(
      'Q0E=',
    );
  });

  // `constructor`: a key named like a member of Object.prototype is looked up as any other.
  it.each(['missing.yaml', 'constructor'])(
    'warns about a key the ConfigMap does not have (ESO cannot render): %s',
    (key) => {
      const from = `      - configMap:\n          name: tpl\n          items:\n          - key: ${key}\n`;
      const rendered = render([configMap(), externalSecret({ from }), consumer()]);
      expect(rendered.results).toContainEqual(
        expect.objectContaining({
          severity: 'warning',
          message: `spec.target.template.templateFrom[0].configMap: ConfigMap shop/tpl has no key ${key}: ESO cannot render the template`,
        }),
      );
    },
  );

  it('reports a malformed templateFrom entry or dependency as an error naming the field', () => {
    const noName = '      - configMap:\n          items:\n          - key: a\n';
    expectError(
      [externalSecret({ from: noName }), consumer()],
      'spec.target.template.templateFrom[0].configMap',
      'has no name',
    );
    const badSecret = templateSecret('not base64!');
    expectError(
      world(configMap(), badSecret),
      'spec.target.template.templateFrom[1].secret',
      'Secret shop/tpl-secret: data[ca.crt] is not base64',
    );
  });

  it.each([
    ['  refreshPolicy: CreatedOnce\n', 'spec.refreshPolicy', 'refreshPolicy CreatedOnce'],
    ['  refreshInterval: "0"\n', 'spec.refreshInterval', 'refreshInterval 0'],
    ['  refreshInterval: 0s\n', 'spec.refreshInterval', 'refreshInterval 0'],
  ])('warns when ESO does not sync on a change of the ExternalSecret: %j', (policy, field, why) => {
    const rendered = render(world(configMap(), templateSecret(), externalSecret({ policy })));
    expect(rendered.results).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        message: `${why}: ESO does not sync again when checksum/dependencies changes, so a change of ConfigMap shop/tpl, Secret shop/tpl-secret does not reach the Secret while its consumers restart; use refreshPolicy OnChange, or a refreshInterval above 0`,
        field: { path: field },
      }),
    );
  });

  it('does not warn under OnChange or a periodic refresh', () => {
    for (const policy of ['  refreshPolicy: OnChange\n', '  refreshInterval: 15m\n', '']) {
      const items = world(configMap(), templateSecret(), externalSecret({ policy }));
      const rendered = render(items, { secretChecksumKey: 'k3y' });
      const warnings = rendered.results.filter((r) => r.severity === 'warning');
      expect(warnings).toEqual([]);
    }
  });

  it('without a workload reading the Secret, or with a generator, says it as an info and never advises a regenerating refresh', () => {
    const once = '  refreshPolicy: CreatedOnce\n';
    const unfollowed = (items: string[]) => {
      const { results } = render(items, { secretChecksumKey: 'k3y' });
      expect(results.filter((r) => r.severity === 'warning')).toEqual([]);
      const notes = results.filter((r) => /does not reach the Secret/.test(String(r.message)));
      expect(notes.map((r) => r.severity)).toEqual(['info']);
      return String(notes[0]?.message);
    };
    // A password made once (issue #22): OnChange would make a new one at every change.
    for (const items of [
      [password(), generated(generatorRef('Password', 'pw'), once)],
      [password(), generated(generatorRef('Password', 'pw'), once), consumer()],
    ]) {
      expect(unfollowed(items)).toBe(
        'refreshPolicy CreatedOnce: ESO does not sync again when checksum/dependencies changes, so a change of Password shop/pw does not reach the Secret; ESO keeps the value it made (refreshPolicy OnChange or a refreshInterval above 0 would make a new one at every sync)',
      );
    }
    expect(unfollowed([configMap(), templateSecret(), externalSecret({ policy: once })])).toMatch(
      /does not reach the Secret \(no workload in the input reads it\); use refreshPolicy OnChange/,
    );
  });

  it('reads a ConfigMap that would otherwise be copied through, only when referenced', () => {
    // The output keeps every other ConfigMap byte for byte; the referenced one gets its wave.
    const items = [configMap({ name: 'unrelated' }), ...world()];
    const input = resourceList(items);
    const out = run(input);
    expect(out.exitCode).toBe(0);
    const output = itemsOf(out.stdout);
    expect(find(output, 'ConfigMap', 'unrelated').metadata).toEqual({
      name: 'unrelated',
      namespace: 'shop',
    });
    expect(waveOf(render(items), 'ConfigMap', 'tpl')).toBe('-2');
  });
});

const password = (spec = 'length: 32') => `apiVersion: generators.external-secrets.io/v1alpha1
kind: Password
metadata:
  name: pw
  namespace: shop
spec:
  ${spec}
`;

const clusterGenerator = (length = 32) => `apiVersion: generators.external-secrets.io/v1alpha1
kind: ClusterGenerator
metadata:
  name: shared-pw
spec:
  kind: Password
  generator:
    passwordSpec:
      length: ${length}
`;

const generated = (
  refs: string,
  policy = '  refreshInterval: "0"\n',
) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: app
  namespace: shop
spec:
${policy}  dataFrom:
${refs}`;

const generatorRef = (kind: string, name: string) =>
  `  - sourceRef:\n      generatorRef:\n        apiVersion: generators.external-secrets.io/v1alpha1\n        kind: ${kind}\n        name: ${name}\n`;

describe('ExternalSecret generators', () => {
  const items = (pw = password(), policy?: string) => [
    pw,
    generated(generatorRef('Password', 'pw'), policy),
    consumer(),
    bystander,
  ];

  it('hashes the generator spec into checksum/dependencies and the consumers; orders it first', () => {
    expect(esAnnotation(items())).toBe(
      sha256('[{"kind":"Password","name":"pw","spec":{"length":32}}]'),
    );
    expect(moved(items(), items(password('length: 40')))).toEqual(['shop/api']);
    const rendered = render(items());
    expect(waveOf(rendered, 'Password', 'pw')).toBe('-2');
    expect(waveOf(rendered, 'ExternalSecret', 'app')).toBe('-1');
  });

  it('spelling out a CRD default moves nothing', () => {
    const base = items(password('digits: 4'));
    const spelled = items(password('digits: 4\n  length: 24\n  noUpper: false\n  encoding: raw'));
    expect(moved(base, spelled)).toEqual([]);
    expect(esAnnotation(spelled)).toBe(esAnnotation(base));
  });

  it('a ClusterGenerator is found by name whatever the namespace', () => {
    const world = (length?: number) => [
      clusterGenerator(length),
      generated(generatorRef('ClusterGenerator', 'shared-pw')),
      consumer(),
    ];
    expect(esAnnotation(world())).toMatch(/^[0-9a-f]{64}$/);
    expect(moved(world(), world(40))).toEqual(['shop/api']);
    // 24 is Password's default, in a ClusterGenerator too: the same as leaving it out.
    const unset = clusterGenerator().replace(
      '\n    passwordSpec:\n      length: 32',
      '\n    passwordSpec: {symbols: 2}',
    );
    const spelled = clusterGenerator().replace('length: 32', 'length: 24\n      symbols: 2');
    expect(esAnnotation([unset, generated(generatorRef('ClusterGenerator', 'shared-pw'))])).toBe(
      esAnnotation([spelled, generated(generatorRef('ClusterGenerator', 'shared-pw'))]),
    );
  });

  it('a generator not in the input is an info; it alone sets no annotation', () => {
    const rendered = render([generated(generatorRef('UUID', 'id')), consumer()]);
    expect(messagesAbout(rendered, 'ExternalSecret', 'app')).toContain(
      'spec.dataFrom[0].sourceRef.generatorRef: generator UUID shop/id is not in the input: ESO reads it at each refresh, and no checksum follows it',
    );
    expect(rendered.output).not.toContain(depsKey);
  });

  it('a generator that makes a new value at every refresh is a rotation that never rolls', () => {
    const periodic = render(items(password(), '  refreshInterval: 1h\n'));
    const lint = periodic.results.filter((r) => r.severity === 'warning');
    expect(lint).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(
          'dataFrom[0] uses generator Password pw, which makes a new value at every refresh (refreshInterval above 0) and restarts no pod',
        ),
      }),
    ]);
    // Run once (refreshInterval 0) or on change only: no silent rotation.
    for (const policy of ['  refreshInterval: "0"\n', '  refreshPolicy: OnChange\n']) {
      const quiet = render(items(password(), policy)).results;
      expect(quiet.filter((r) => /rotation/.test(r.message as string))).toEqual([]);
    }
  });

  it('a generatorRef in data[] is not a dependency (ESO does not implement it there)', () => {
    const inData = `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: app
  namespace: shop
spec:
  data:
  - secretKey: pw
    remoteRef: {key: pw}
    sourceRef:
      generatorRef: {kind: Password, name: pw}
`;
    expect(render([password(), inData, consumer()]).output).not.toContain(depsKey);
  });
});

describe('checksum/dependencies in the YAML', () => {
  it('is inserted into existing annotations and into flow-style metadata, nothing else changes', () => {
    const value = esAnnotation(world());
    const es = (metadata: string) =>
      externalSecret().replace('metadata:\n  name: app\n  namespace: shop\n', metadata);
    for (const metadata of [
      'metadata:\n  name: app\n  namespace: shop\n  annotations:\n    team: billing\n',
      'metadata:\n  annotations:\n    team: billing\n  name: app\n  namespace: shop\n',
    ]) {
      const rendered = render(world(configMap(), templateSecret(), es(metadata)));
      expectOnlyAnnotationLines(rendered, ['checksum/external-secrets', waveKey, depsKey]);
      const out = find(rendered.items, 'ExternalSecret', 'app').metadata as Record<string, unknown>;
      expect(out.annotations).toEqual({ team: 'billing', [waveKey]: '-1', [depsKey]: value });
    }
    const flow = render(
      world(configMap(), templateSecret(), es('metadata: {name: app, namespace: shop}\n')),
    );
    expect(flow.output).toContain(
      `metadata: {annotations: {${waveKey}: "-1", ${depsKey}: "${value}"}, name: app, namespace: shop}\n`,
    );
    const second = runOk(runOk(flow.input).stdout).stdout;
    expect(second).toBe(runOk(flow.input).stdout);
  });

  it('check mode reports a stale checksum/dependencies as an error naming the field', () => {
    const rendered = runOk(resourceList(world())).stdout;
    const stale = rendered.replace('{{ .user }}', '{{ .user | upper }}');
    const out = check(stale);
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.map((r) => (r.field as { path: string }).path)).toEqual([
      'spec.template.metadata.annotations[checksum/external-secrets]',
      'metadata.annotations[checksum/dependencies]',
    ]);
    expect(check(rendered).exitCode).toBe(0);
  });
});

describe('ExternalSecret dependencies in the reports', () => {
  it('plan lists them before the ExternalSecret and shows its checksum/dependencies', () => {
    const out = plan(world().join('---\n'));
    expect(out.exitCode).toBe(0);
    const lines = out.stdout.split('\n').map((l) => l.replace(/ +/g, ' ').trim());
    const deps = esAnnotation(world()) as string;
    expect(lines.slice(1, 4)).toEqual([
      '-2 ConfigMap shop/tpl before shop/app',
      '-2 Secret shop/tpl-secret before shop/app',
      `-1 ExternalSecret shop/app writes Secret shop/app, checksum/dependencies=${deps.slice(0, 12)}…`,
    ]);
    const json = JSON.parse(plan(world().join('---\n'), { format: 'json' }).stdout);
    expect(json.nodes.map((n: { role: string }) => n.role).slice(0, 3)).toEqual([
      'dependency',
      'dependency',
      'source',
    ]);
  });

  it('impact names the ExternalSecret and lists a timer-run generator as a silent rotation', () => {
    const side = (label: string, items: readonly string[]) => {
      const text = items.join('---\n');
      return { label, text, origins: [{ path: 'all.yaml', offset: 0, line: 0, text }] };
    };
    const changed = world(configMap({ body: 'user: {{ .user | upper }}' }));
    const out = impact(side('BASE', world()), side('HEAD', changed), { format: 'json' });
    const report = JSON.parse(out.stdout);
    expect(report.rollouts.map((r: { resource: { name: string } }) => r.resource.name)).toEqual([
      'api',
    ]);
    // Where the dependencies changed, never the hash or the template text (issue #20).
    expect(report.rollouts[0].reasons[0].detail).toBe(
      'metadata.annotations[checksum/dependencies] changed',
    );
    const timer = [password(), generated(generatorRef('Password', 'pw'), ''), consumer()];
    const rotations = JSON.parse(
      impact(side('BASE', world()), side('HEAD', timer), { format: 'json' }).stdout,
    ).silentRotations;
    expect(rotations).toEqual([
      expect.objectContaining({
        why: [
          'dataFrom[0] uses generator Password pw, which makes a new value at every refresh (refreshInterval 1h (the default)) and restarts no pod',
        ],
      }),
    ]); // Already there in BASE: counted, not listed again on every pull request (issue #22).
    const same = impact(side('BASE', timer), side('HEAD', timer), { format: 'json' });
    expect(JSON.parse(same.stdout)).toMatchObject({
      silentRotations: [],
      unchangedSilentRotations: 1,
    });
    expect(impact(side('BASE', timer), side('HEAD', timer)).stdout).toContain(
      '1 more silent rotation is unchanged from the base (not listed).',
    );
    // Read only by a Job, which reads the Secret afresh at each run: no silent rotation.
    const job = deployment('api', envFrom('app'), { namespace: 'shop' }).replace(
      'apps/v1\nkind: Deployment',
      'batch/v1\nkind: Job',
    );
    const jobOnly = [password(), generated(generatorRef('Password', 'pw'), ''), job];
    expect(
      JSON.parse(impact(side('BASE', world()), side('HEAD', jobOnly), { format: 'json' }).stdout)
        .silentRotations,
    ).toEqual([]);
  });
});

// A ClusterExternalSecret creates one ExternalSecret per selected namespace, each resolving its
// templateFrom and namespaced generators in its own namespace; ESO copies
// spec.externalSecretMetadata.annotations onto all of them (docs/operators.md §8b).
describe('ClusterExternalSecret dependencies', () => {
  const cesText = (
    opts: { metadata?: string; policy?: string; from?: string; dataFrom?: string } = {},
  ) => `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata:
  name: app
spec:
  namespaces: [a1, a2]
${opts.metadata ?? ''}  externalSecretSpec:
${opts.policy ?? ''}    secretStoreRef: {name: vault}
    target:
      template:
        templateFrom:
${opts.from ?? '        - configMap:\n            name: tpl\n            items:\n            - key: config.yaml\n'}    data:
    - secretKey: user
      remoteRef: {key: app, property: user, version: "1"}
${opts.dataFrom ?? ''}`;
  const cm = (namespace: string, body = `user: {{ .user }} in ${namespace}`) =>
    configMap({ namespace, body });
  const ces = (items: readonly string[]) =>
    find(render(items).items, 'ClusterExternalSecret', 'app');
  const cesAnnotation = (items: readonly string[]) =>
    (ces(items).spec as { externalSecretMetadata?: { annotations?: Record<string, string> } })
      .externalSecretMetadata?.annotations?.[depsKey];
  const items = (a1 = cm('a1'), a2 = cm('a2'), text = cesText()) => [
    a1,
    a2,
    text,
    consumer('a1'),
    consumer('a2'),
  ];
  // One namespace's hash, written from the documented algorithm (as for an ExternalSecret).
  const nsHash = (namespace: string, body = `user: {{ .user }} in ${namespace}`) =>
    sha256(`[{"data":{"config.yaml":"${body}\\n"},"kind":"ConfigMap","name":"tpl"}]`);

  it('hashes each namespace its own way; the CES carries one hash over all of them', () => {
    const rendered = render(items());
    expect(cesAnnotation(items())).toBe(sha256(`{"a1":"${nsHash('a1')}","a2":"${nsHash('a2')}"}`));
    // Each namespace's consumers: the checksum of an ExternalSecret with that spec there.
    const es = (namespace: string) =>
      externalSecret({
        namespace,
        from: '      - configMap:\n          name: tpl\n          items:\n          - key: config.yaml\n',
      });
    for (const ns of ['a1', 'a2']) {
      expect(checksums(items())[`${ns}/api`]).toBe(
        checksums([cm(ns), es(ns), consumer(ns)])[`${ns}/api`],
      );
    }
    expect(checksums(items())['a1/api']).not.toBe(checksums(items())['a2/api']);
    expect(waveOf(rendered, 'ConfigMap', 'tpl')).toBe('-2');
    expect(waveOf(rendered, 'ClusterExternalSecret', 'app')).toBe('-1');
    expect(find(rendered.items.slice(1), 'ConfigMap', 'tpl').metadata).toMatchObject({
      namespace: 'a2',
      annotations: { [waveKey]: '-2' },
    });
    expectOnlyAnnotationLines(rendered, ['checksum/external-secrets', waveKey, depsKey]);
    // Where ESO copies it onto the ExternalSecrets; not on the CES's own metadata.
    const out = ces(items()) as {
      metadata: Record<string, unknown>;
      spec: Record<string, unknown>;
    };
    expect(out.spec.externalSecretMetadata).toEqual({
      annotations: { [depsKey]: cesAnnotation(items()) },
    });
    expect(out.metadata.annotations).toEqual({ [waveKey]: '-1' });
    expect(messagesAbout(rendered, 'ClusterExternalSecret', 'app')).toContain(
      'checksum/dependencies covers ConfigMap a1/tpl, ConfigMap a2/tpl',
    );
  });

  it('a change in one namespace moves only its consumers and the CES annotation', () => {
    const changed = items(cm('a1', 'changed'));
    expect(moved(items(), changed)).toEqual(['a1/api']);
    expect(cesAnnotation(changed)).not.toBe(cesAnnotation(items()));
    // A namespace the CES does not select is not a dependency.
    expect(moved([...items(), cm('b1')], [...items(), cm('b1', 'changed')])).toEqual([]);
    expect(cesAnnotation([...items(), cm('b1', 'changed')])).toBe(cesAnnotation(items()));
  });

  it('with a generator, every namespace follows the CES annotation (each re-sync regenerates)', () => {
    const pw = (namespace: string, length = 32) =>
      password(`length: ${length}`).replace('namespace: shop', `namespace: ${namespace}`);
    const withPw = (a1Length?: number) =>
      items(
        cm('a1'),
        cm('a2'),
        cesText({
          dataFrom: `    dataFrom:\n${generatorRef('Password', 'pw').replace(/^/gm, '  ')}`,
        }),
      ).concat(pw('a1', a1Length), pw('a2'));
    expect(moved(withPw(), withPw(40))).toEqual(['a1/api', 'a2/api']);
    expect(cesAnnotation(withPw(40))).not.toBe(cesAnnotation(withPw()));
  });

  it('a dependency missing in one namespace is an info there; that namespace moves no more', () => {
    const rendered = render(items(cm('a1'), configMap({ namespace: 'b1' })));
    expect(messagesAbout(rendered, 'ClusterExternalSecret', 'app')).toContain(
      'spec.externalSecretSpec.target.template.templateFrom[0].configMap: ConfigMap a2/tpl is not in the input: ESO reads it at each refresh, and no checksum follows it',
    );
    expect(cesAnnotation(items(cm('a1'), configMap({ namespace: 'b1' })))).toBe(
      sha256(`{"a1":"${nsHash('a1')}"}`),
    );
    const noneAnywhere = [cesText(), consumer('a1'), consumer('a2')];
    expect(render(noneAnywhere).output).not.toContain(depsKey);
  });

  it('warns about a missing key and when ESO does not sync on a change, naming the CES fields', () => {
    const from =
      '        - configMap:\n            name: tpl\n            items:\n            - key: missing.yaml\n';
    const missing = render(items(cm('a1'), cm('a2'), cesText({ from })));
    expect(messagesAbout(missing, 'ClusterExternalSecret', 'app')).toContain(
      'spec.externalSecretSpec.target.template.templateFrom[0].configMap: ConfigMap a1/tpl has no key missing.yaml: ESO cannot render the template',
    );
    const once = render(
      items(cm('a1'), cm('a2'), cesText({ policy: '    refreshPolicy: CreatedOnce\n' })),
    );
    expect(once.results).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        message:
          'refreshPolicy CreatedOnce: ESO does not sync again when checksum/dependencies changes, so a change of ConfigMap a1/tpl, ConfigMap a2/tpl does not reach the Secret while its consumers restart; use refreshPolicy OnChange, or a refreshInterval above 0',
        field: { path: 'spec.externalSecretSpec.refreshPolicy' },
      }),
    );
  });

  it('is inserted into existing externalSecretMetadata annotations or flow mappings; idempotent', () => {
    const value = cesAnnotation(items());
    for (const metadata of [
      '  externalSecretMetadata:\n    labels: {team: billing}\n',
      '  externalSecretMetadata:\n    annotations:\n      team: billing\n',
      '  externalSecretMetadata: {annotations: {team: billing}}\n',
    ]) {
      const input = items(cm('a1'), cm('a2'), cesText({ metadata }));
      const rendered = render(input);
      if (metadata.includes('{annotations')) {
        expect(rendered.output).toContain(
          `externalSecretMetadata: {annotations: {${depsKey}: "${value}", team: billing}}\n`,
        );
      } else expectOnlyAnnotationLines(rendered, ['checksum/external-secrets', waveKey, depsKey]);
      const out = ces(input).spec as { externalSecretMetadata: Record<string, unknown> };
      expect(out.externalSecretMetadata.annotations).toMatchObject({ [depsKey]: value });
      const once = runOk(resourceList(input)).stdout;
      expect(runOk(once).stdout).toBe(once);
    }
  });

  it('check mode names the field; a malformed annotations mapping is an error', () => {
    const rendered = runOk(resourceList(items())).stdout;
    const stale = rendered.replace('user: {{ .user }} in a1', 'user: {{ .user }} in b1');
    const errors = resultsOf(check(stale).stdout).filter((r) => r.severity === 'error');
    expect(errors.map((r) => (r.field as { path: string }).path)).toContain(
      'spec.externalSecretMetadata.annotations[checksum/dependencies]',
    );
    expect(check(rendered).exitCode).toBe(0);
    expectError(
      items(
        cm('a1'),
        cm('a2'),
        cesText({ metadata: '  externalSecretMetadata:\n    annotations: [x]\n' }),
      ),
      'spec.externalSecretMetadata.annotations',
      'not a mapping',
    );
  });
});

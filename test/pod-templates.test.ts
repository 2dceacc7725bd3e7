// Declared pod templates: KEDA ScaledJob built in, the podTemplates option for other kinds; read
// through run() (the quick reader's projection must keep them), plan and check.
import { describe, expect, it } from 'vitest';
import { impact } from '../src/impact-run.js';
import { defaultConfig, maxPerKind, readConfig } from '../src/model/config.js';
import { ruleCatalog } from '../src/rules/rule-table.js';
import { check, plan, run } from '../src/run.js';
import {
  checksumKey,
  deployment,
  envFrom,
  externalSecret,
  find,
  insertedLines,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
  wave,
} from './helpers.js';

type Obj = Record<string, unknown>;
const at = (value: unknown, path: string) =>
  path.split('.').reduce<unknown>((node, key) => (node as Obj | undefined)?.[key], value);

const scaledJob = (name: string, extra = '') => `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata:
  name: ${name}
  namespace: shop
spec:
  pollingInterval: 30
${extra}  jobTargetRef:
    backoffLimit: 2
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: worker
          image: worker:1
          envFrom:
          - secretRef:
              name: db
  triggers:
  - type: rabbitmq
    metadata: {queueName: jobs}
`;

const worker = (name: string, secret = 'db') => `apiVersion: example.com/v1
kind: Worker
metadata:
  name: ${name}
  namespace: shop
spec:
  replicas: 2
  runner:
    template:
      metadata:
        labels: {app: ${name}}
      spec:
        containers:
        - name: run
          image: run:1
          env:
          - name: PASSWORD
            valueFrom:
              secretKeyRef: {name: ${secret}, key: password}
`;

const es = (version = '1') => externalSecret('db', { namespace: 'shop', version });
const api = deployment('api', envFrom('db'), { namespace: 'shop' });
const cm = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: function-input}\ndata:\n${data}`;
const typed = (fields: string) =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: x}\n${fields}`;
const workerOption = '  podTemplates: "example.com/Worker:spec.runner.template"\n';

function rendered(items: string[], config?: string) {
  const out = runOk(resourceList(items, config));
  return { items: itemsOf(out.stdout), results: resultsOf(out.stdout), out };
}

describe('declared pod templates', () => {
  it('KEDA ScaledJob: the checksum goes on spec.jobTargetRef.template, the ExternalSecret before it', () => {
    const { items } = rendered([es(), api, scaledJob('reports')]);
    const job = find(items, 'ScaledJob', 'reports');
    const sum = at(job, 'spec.jobTargetRef.template.metadata.annotations') as Obj;
    // The same sources give the same checksum as the Deployment's.
    expect(sum).toEqual({
      [checksumKey]: at(find(items, 'Deployment', 'api'), 'spec.template.metadata.annotations')?.[
        checksumKey as never
      ],
    });
    expect(sum[checksumKey]).toMatch(/^[0-9a-f]{64}$/);
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-1');
    // Nothing else on the ScaledJob: not its metadata, not its spec.
    expect(at(job, 'metadata.annotations')).toBeUndefined();
  });

  it('moves the ScaledJob on a relevant change only', () => {
    const sum = (items: string[]) =>
      at(
        find(rendered(items).items, 'ScaledJob', 'reports'),
        `spec.jobTargetRef.template.metadata.annotations`,
      );
    const before = sum([es('1'), scaledJob('reports')]);
    expect(sum([es('2'), scaledJob('reports')])).not.toEqual(before);
    const refresh = es('1').replace('refreshInterval: 1h', 'refreshInterval: 5m');
    expect(sum([refresh, scaledJob('reports')])).toEqual(before);
  });

  it('finds a declared kind from a ConfigMap option, a typed list and key=value arguments', () => {
    const annotationOf = (items: Obj[]) =>
      at(find(items, 'Worker', 'w'), 'spec.runner.template.metadata.annotations');
    const plain = rendered([es(), worker('w')]);
    expect(annotationOf(plain.items)).toBeUndefined();
    // Not declared: its reference is not read, so the ExternalSecret has no consumer.
    expect(wave(find(plain.items, 'ExternalSecret', 'db'))).toBe('-1');

    const fromConfigMap = rendered([es(), worker('w'), api], cm(workerOption));
    const sum = annotationOf(fromConfigMap.items) as Obj;
    expect(Object.keys(sum)).toEqual([checksumKey]);
    const fromTyped = rendered(
      [es(), worker('w'), api],
      typed('podTemplates:\n- example.com/Worker:spec.runner.template\n'),
    );
    expect(annotationOf(fromTyped.items)).toEqual(sum);
    const stream = [es(), worker('w'), api].join('---\n');
    const out = run(stream, {
      settings: { podTemplates: 'example.com/Worker:spec.runner.template' },
    });
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      `        annotations:\n          ${checksumKey}: "${sum[checksumKey]}"`,
    );
    // Only the checksum lines and the wave are inserted.
    expect(insertedLines(stream, out.stdout).filter((l) => l !== '')).toEqual([
      '  annotations:',
      `    argocd.argoproj.io/sync-wave: "-1"`,
      '        annotations:',
      `          ${checksumKey}: "${sum[checksumKey]}"`,
      '      annotations:',
      `        ${checksumKey}: "${at(find(fromConfigMap.items, 'Deployment', 'api'), 'spec.template.metadata.annotations')?.[checksumKey as never]}"`,
    ]);
  });

  it('adds to the shape search: a declared kind keeps its spec.template', () => {
    const both = worker('w').replace(
      '  replicas: 2\n',
      '  replicas: 2\n  template:\n    spec:\n      containers:\n      - name: side\n        envFrom:\n        - secretRef: {name: db}\n',
    );
    const { items } = rendered([es(), both], cm(workerOption));
    const w = find(items, 'Worker', 'w');
    expect(at(w, `spec.template.metadata.annotations`)).toHaveProperty([checksumKey]);
    expect(at(w, `spec.runner.template.metadata.annotations`)).toHaveProperty([checksumKey]);
  });

  it('plan and check read the option too', () => {
    const input = resourceList([es(), worker('w')], cm(workerOption));
    const table = plan(input);
    expect(table.stdout).toMatch(/^0\s+Worker\s+shop\/w\s+checksum\/external-secrets=/m);
    const checked = check(input);
    expect(checked.exitCode).toBe(1);
    expect(resultsOf(checked.stdout)).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        field: expect.objectContaining({
          path: 'spec.runner.template.metadata.annotations[checksum/external-secrets]',
        }),
      }),
    );
    const renderedOnce = runOk(input).stdout.replace(/\nresults:[\s\S]*$/, '\n');
    expect(check(renderedOnce).exitCode).toBe(0);
  });

  it('impact counts a declared kind as a workload', () => {
    const sideOf = (label: string, text: string) => ({ label, text, origins: [] });
    const added = (settings: Record<string, string>) => {
      const base = sideOf('BASE', es());
      const head = sideOf('HEAD', [es(), worker('w')].join('---\n'));
      const out = impact(base, head, { format: 'json', settings });
      return (JSON.parse(out.stdout) as { added: { kind: string; name: string }[] }).added;
    };
    expect(added({})).toEqual([]);
    expect(added({ podTemplates: 'example.com/Worker:spec.runner.template' })).toEqual([
      expect.objectContaining({ kind: 'Worker', name: 'w' }),
    ]);
  });

  it('a ClusterExternalSecret assuming all namespaces counts those of declared kinds', () => {
    const ces = `apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata: {name: shared}
spec:
  externalSecretName: db
  namespaceSelectors:
  - matchLabels: {team: shop}
  externalSecretSpec:
    secretStoreRef: {name: vault, kind: ClusterSecretStore}
    data:
    - secretKey: password
      remoteRef: {key: db, property: password, version: "1"}
`;
    const { items } = rendered(
      [ces, worker('w')],
      cm(`${workerOption}  clusterExternalSecretNamespaces: all\n`),
    );
    expect(
      at(find(items, 'Worker', 'w'), 'spec.runner.template.metadata.annotations'),
    ).toHaveProperty([checksumKey]);
  });

  it('a declared kind is read even where the pass-through list would copy it unparsed', () => {
    const pvc = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: odd, namespace: shop}
spec:
  template:
    spec:
      containers:
      - name: c
        envFrom:
        - secretRef: {name: db}
  odd:
    spec:
      containers:
      - name: c
        envFrom:
        - secretRef: {name: db}
`;
    const { items } = rendered(
      [es(), pvc],
      cm('  podTemplates: "/PersistentVolumeClaim:spec.odd"\n'),
    );
    const claim = find(items, 'PersistentVolumeClaim', 'odd');
    expect(at(claim, 'spec.odd.metadata.annotations')).toHaveProperty([checksumKey]);
    // The shape search runs for declared kinds too.
    expect(at(claim, 'spec.template.metadata.annotations')).toHaveProperty([checksumKey]);
  });
});

describe('the podTemplates option', () => {
  it('parses entries, the core group as an empty group, and ignores duplicates', () => {
    const config = readConfig(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: {
          podTemplates:
            ' example.com/Worker:spec.runner.template, /PodTemplate:template,example.com/Worker:spec.runner.template,',
        },
      },
      ruleCatalog,
    );
    expect(config.podTemplates).toEqual([
      { group: 'example.com', kind: 'Worker', path: 'spec.runner.template' },
      { group: '', kind: 'PodTemplate', path: 'template' },
    ]);
    expect(
      readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data: { podTemplates: '' } }, ruleCatalog),
    ).toEqual(defaultConfig);
  });

  it.each([
    [
      'Worker:spec.x',
      'entry 1 is not group/Kind:path.to.template (the core group is empty: /Kind:path)',
    ],
    ['example.com/Worker', 'entry 1 is not group/Kind:path.to.template'],
    [
      'v1/Pod:spec',
      'entry 1 names a version, not an API group: write the group, empty for the core group (/Kind:path)',
    ],
    ['apps/v1/Deployment:spec.template', 'is not group/Kind:path.to.template'],
    ['Example.com/Worker:spec.x', 'entry 1 has an invalid API group'],
    ['example.com/:spec.x', 'entry 1 has an invalid kind'],
    [
      'example.com/Worker:spec.containers[].x',
      'has an invalid path: dotted field names to one object, no []',
    ],
    ['example.com/Worker:', 'has an invalid path'],
  ])('refuses %s with one error naming the option', (entry, message) => {
    const out = run(resourceList([es(), api], cm(`  podTemplates: ${JSON.stringify(entry)}\n`)));
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(
          `functionConfig: data.podTemplates: ${entry === '' ? '' : ''}`,
        ),
        field: { path: 'data.podTemplates' },
      }),
    ]);
    expect(errors[0]?.message).toContain(message);
    expect(String(errors[0]?.message)).not.toContain('\n');
    // The entry is named by its position, never quoted (messages quote no input).
    if (entry !== '') expect(errors[0]?.message).not.toContain(entry);
  });

  it('refuses a 33rd path for one kind, naming its position, and takes 32 (items × paths stay bounded)', () => {
    const paths = (n: number, kind = 'Worker') =>
      Array.from({ length: n }, (_, i) => `example.com/${kind}:spec.t${i}.template`);
    const entries = (list: string[]) => `  podTemplates: ${JSON.stringify(list.join(','))}\n`;
    const ok = run(resourceList([es(), api], cm(entries([...paths(32), ...paths(32, 'Other')]))));
    expect(ok.exitCode).toBe(0);
    const out = run(resourceList([es(), api], cm(entries(paths(33)))));
    expect(out.exitCode).toBe(1);
    const errors = resultsOf(out.stdout).filter((r) => r.severity === 'error');
    expect(errors.map((e) => e.message)).toEqual([
      `functionConfig: data.podTemplates: entry 33 is one more for its kind than the ${maxPerKind} one kind may declare`,
    ]);
  });

  it('refuses a typed value that is not a list of strings', () => {
    const out = run(resourceList([es()], typed('podTemplates:\n- {group: example.com}\n')));
    expect(resultsOf(out.stdout)).toEqual([
      expect.objectContaining({
        severity: 'error',
        message:
          'functionConfig: podTemplates must be a list of group/Kind:path.to.template strings, got a list whose entry 1 is a mapping',
        field: { path: 'podTemplates' },
      }),
    ]);
  });
});

// A Flux HelmRelease as a consumer (docs/helm-release.md): what it reads, where its checksum
// goes, and the post-renderer patch proven with the real `kubectl kustomize` on a rendered
// app-template-like release.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { impact } from '../src/impact-run.js';
import { readConfig } from '../src/model/config.js';
import { toResource } from '../src/model/resource.js';
import { ruleCatalog } from '../src/rules/rule-table.js';
import {
  helmReads,
  patchedKinds,
  patchText,
  postRendererEntry,
  releaseName,
  valuesAnnotations,
} from '../src/rules/workloads/helm-release.js';
import { substitute, valueReads, valuesFound } from '../src/rules/workloads/helm-values.js';
import { plan, run } from '../src/run.js';
import {
  appTemplate,
  externalSecret,
  find,
  findOnPath,
  helmRelease,
  itemsOf,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
  wave,
} from './helpers.js';

type Obj = Record<string, unknown>;

const resource = (text: string) => toResource(0, loadAll(text)[0]);
const es = externalSecret('web-secret', { namespace: 'shop' });

describe('what a HelmRelease reads', () => {
  it('substitutes the built-ins, with the whitespace their dashes trim, and nothing else', () => {
    const builtIns = new Map([
      ['.Release.Name', 'web'],
      ['.Release.Namespace', 'shop'],
    ]);
    expect(substitute('{{ .Release.Name }}-secret', builtIns)).toEqual({
      name: 'web-secret',
      used: ['.Release.Name'],
    });
    expect(substitute('{{- $.Release.Name -}} -db', builtIns)?.name).toBe('web-db');
    expect(substitute('plain', builtIns)).toEqual({ name: 'plain', used: [] });
    // A template we cannot evaluate never matches, and is no error.
    expect(substitute('{{ .Values.name }}-secret', builtIns)).toBeUndefined();
    expect(substitute('{{ .Release.Name | upper }}', builtIns)).toBeUndefined();
    expect(substitute('{{ include "x" . }}', builtIns)).toBeUndefined();
  });

  it('the table: only values whose last keys name a Secret or ConfigMap', () => {
    const reads = valueReads({
      env: [{ valueFrom: { secretKeyRef: { name: 'a', key: 'k' } } }],
      envFrom: [{ secret: 'b' }, { configMap: 'c' }],
      persistence: { cfg: { type: 'secret', name: 'd' }, data: { type: 'pvc', name: 'x' } },
      auth: { existingSecret: 'e' },
      image: { name: 'not-a-secret' },
    });
    expect(reads.map((r) => [r.row.kind, r.text, r.keys])).toEqual([
      ['Secret', 'a', new Set(['k'])],
      ['Secret', 'b', 'all'],
      ['ConfigMap', 'c', 'all'],
      ['Secret', 'd', 'all'],
      ['Secret', 'e', 'all'],
    ]);
  });

  it("walks a release's values once for its reads and for its annotations", () => {
    const hr = resource(helmRelease('web', appTemplate('db')));
    // Each mapping of the values counts the times its keys are listed.
    let listed = 0;
    const counted = (node: unknown): unknown => {
      if (typeof node !== 'object' || node === null) return node;
      if (Array.isArray(node)) return node.map(counted);
      const copy = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, counted(v)]));
      return new Proxy(copy, {
        ownKeys: (target) => {
          listed++;
          return Reflect.ownKeys(target);
        },
      });
    };
    const spec = hr.value.spec as Obj;
    spec.values = counted(spec.values) as Obj;
    expect(helmReads(hr).map((r) => r.name)).toEqual(['db']);
    expect(valuesAnnotations(hr)).toEqual([]);
    // main: 12, each walk listing them (valueReads 7, then valuesAnnotations the 5 not in a list).
    expect(listed).toBe(7);
  });

  it('release name as helm-controller makes it: [targetNamespace-]name, shortened past 53', () => {
    expect(releaseName(resource(helmRelease('web', 'targetNamespace: prod')))).toBe('prod-web');
    expect(releaseName(resource(helmRelease('web', 'releaseName: site')))).toBe('site');
    // internal/release/name_test.go: the first 40 characters, '-', 12 hex digits of the SHA-256.
    const long = 'a'.repeat(30);
    const name = releaseName(resource(helmRelease(long, `targetNamespace: ${'b'.repeat(30)}`)));
    expect(name).toMatch(/^b{30}-a{9}-[0-9a-f]{12}$/);
    expect(name).toHaveLength(53);
  });

  it('valuesFrom, values and the consumes annotation, each with its field', () => {
    const hr = helmRelease(
      'web',
      `valuesFrom:\n  - kind: Secret\n  - kind: Secret\n    name: vals\n    valuesKey: v.yaml\n${appTemplate('{{ .Release.Name }}-secret')}`,
      '  annotations:\n    secret-rollout/consumes: "a, b"\n',
    );
    expect(helmReads(resource(hr)).map((r) => [r.name, r.field, r.keys])).toEqual([
      ['vals', 'spec.valuesFrom[1]', new Set(['v.yaml'])],
      [
        'web-secret',
        'spec.values.controllers.main.containers.app.envFrom[0].secretRef.name',
        'all',
      ],
      ['a', 'metadata.annotations[secret-rollout/consumes]', 'all'],
      ['b', 'metadata.annotations[secret-rollout/consumes]', 'all'],
    ]);
  });
});

/** The release with an entry of the user's and ours with a stale checksum, as an earlier run left it. */
const withStaleEntry = () => {
  const stale = dump(
    {
      postRenderers: [
        { kustomize: { images: [{ name: 'web', newTag: '2' }] } },
        postRendererEntry(new Map([['checksum/external-secrets', 'stale']])),
      ],
    },
    { lineWidth: -1 },
  );
  return resourceList([es, helmRelease('web', `${appTemplate('web-secret')}\n${stale}`)]);
};

describe('a HelmRelease through run()', () => {
  it('is a consumer: an info naming the values path, ordered after its source', () => {
    const out = runOk(
      resourceList([es, helmRelease('web', appTemplate('{{ .Release.Name }}-secret'))]),
    );
    const reads = resultsOf(out.stdout).filter(
      (r) => (r.tags as Obj)?.rule === 'helm-release-reads',
    );
    expect(reads).toHaveLength(1);
    expect(reads[0]?.message).toContain('.Release.Name substituted');
    expect((reads[0]?.field as Obj | undefined)?.path).toBe(
      'spec.values.controllers.main.containers.app.envFrom[0].secretRef.name',
    );
    expect(wave(find(itemsOf(out.stdout), 'ExternalSecret', 'web-secret'))).toBe('-1');
  });

  it('values resolve in the target namespace, valuesFrom in its own', () => {
    const hr = `apiVersion: helm.toolkit.fluxcd.io/v2beta2
kind: HelmRelease
metadata:
  name: web
  namespace: flux-system
spec:
  targetNamespace: shop
  valuesFrom:
    - kind: Secret
      name: web-secret
${appTemplate('{{ .Release.Namespace }}-{{ .Release.Name }}').replace(/^/gm, '  ')}
`;
    const sources = [es, externalSecret('shop-shop-web', { namespace: 'shop' })];
    const out = runOk(resourceList([...sources, hr]));
    const reads = resultsOf(out.stdout).filter(
      (r) => (r.tags as Obj)?.rule === 'helm-release-reads',
    );
    // shop/web-secret is not in flux-system; shop-shop-web is the release's own, in shop.
    expect(reads.map((r) => r.message)).toEqual([
      'its release reads Secret shop-shop-web of ExternalSecret shop/shop-shop-web (.Release.Namespace, .Release.Name substituted)',
    ]);
  });

  it('every ordering form orders its source before it', () => {
    const input = resourceList([es, helmRelease('web', appTemplate('web-secret'))]);
    const out = runOk(input, { ordering: 'depends-on,kapp' });
    const items = itemsOf(out.stdout);
    const hr = find(items, 'HelmRelease', 'web') as { metadata: { annotations: Obj } };
    expect(hr.metadata.annotations['config.kubernetes.io/depends-on']).toBe(
      'external-secrets.io/namespaces/shop/ExternalSecret/web-secret',
    );
    expect(Object.keys(hr.metadata.annotations)).toContainEqual(
      expect.stringMatching(/^kapp\.k14s\.io\/change-rule\.secret-rollout-/),
    );
  });

  it('opted out: no checksum, still ordered', () => {
    const hr = helmRelease(
      'web',
      appTemplate('web-secret'),
      '  annotations:\n    secret-rollout/ignore: "true"\n',
    );
    const out = runOk(resourceList([es, hr]));
    const item = find(itemsOf(out.stdout), 'HelmRelease', 'web') as { spec: Obj };
    expect(item.spec.postRenderers).toBeUndefined();
    expect(resultsOf(out.stdout).map((r) => (r.tags as Obj)?.rule)).toContain('opted-out');
    expect(wave(find(itemsOf(out.stdout), 'ExternalSecret', 'web-secret'))).toBe('-1');
  });

  it('helmReleaseChecksumPath in every config form; a bad entry is named by position', () => {
    const expected = [{ chart: 'app-template', path: ['defaultPodOptions', 'annotations'] }];
    const typed = { apiVersion: 'fn.kpt.dev/v1alpha1', kind: 'SecretRollout' };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap' };
    const option = 'app-template=defaultPodOptions.annotations';
    expect(
      readConfig({ ...typed, helmReleaseChecksumPath: [option] }, ruleCatalog)
        .helmReleaseChecksumPath,
    ).toEqual(expected);
    expect(
      readConfig({ ...cm, data: { helmReleaseChecksumPath: option } }, ruleCatalog)
        .helmReleaseChecksumPath,
    ).toEqual(expected);
    expect(() =>
      readConfig({ ...cm, data: { helmReleaseChecksumPath: `${option},x=a[].b` } }, ruleCatalog),
    ).toThrow('data.helmReleaseChecksumPath: entry 2 is not chart=path.in.values');
  });

  it('check fails on a missing post-renderer entry', () => {
    const checked = run(resourceList([es, helmRelease('web', appTemplate('web-secret'))]), {
      settings: { mode: 'check' },
    });
    expect(checked.exitCode).toBe(1);
    expect(resultsOf(checked.stdout).map((r) => (r.field as Obj | undefined)?.path)).toContain(
      'spec.postRenderers',
    );
  });

  it('a name it cannot evaluate matches nothing', () => {
    const out = runOk(
      resourceList([es, helmRelease('web', appTemplate('{{ .Values.x }}-secret'))]),
    );
    expect(
      resultsOf(out.stdout).filter((r) => (r.tags as Obj)?.rule === 'helm-release-reads'),
    ).toEqual([]);
    const hr = find(itemsOf(out.stdout), 'HelmRelease', 'web') as { spec: Obj };
    expect(hr.spec.postRenderers).toBeUndefined();
  });

  it('puts the checksum at the values path the option names for its chart', () => {
    const input = resourceList([es, helmRelease('web', appTemplate('web-secret'))]);
    const out = runOk(input, {
      helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations',
    });
    const hr = find(itemsOf(out.stdout), 'HelmRelease', 'web') as { spec: { values: Obj } };
    const annotations = (hr.spec.values.defaultPodOptions as Obj).annotations as Obj;
    expect(annotations['checksum/external-secrets']).toMatch(/^[0-9a-f]{64}$/);
    // A second run changes nothing.
    expect(
      runOk(out.stdout, { helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations' })
        .stdout,
    ).toBe(out.stdout);
  });

  it('a version bump changes its checksum, and targetNames: hashed refuses to rename its Secret', () => {
    const hr = helmRelease('web', appTemplate('web-secret'));
    const settings = { helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations' };
    const value = (version: string) => {
      const out = runOk(
        resourceList([externalSecret('web-secret', { namespace: 'shop', version }), hr]),
        settings,
      );
      const item = find(itemsOf(out.stdout), 'HelmRelease', 'web') as { spec: { values: Obj } };
      return ((item.spec.values.defaultPodOptions as Obj).annotations as Obj)[
        'checksum/external-secrets'
      ];
    };
    expect(value('1')).not.toBe(value('2'));
    const hashed = runOk(resourceList([es, hr]), { targetNames: 'hashed' });
    const unsafe = resultsOf(hashed.stdout).filter(
      (r) => (r.tags as Obj)?.rule === 'target-name-unsafe',
    );
    expect(unsafe.map((r) => r.message)).toEqual([
      expect.stringMatching(
        /^ExternalSecret shop\/web-secret: not renamed: HelmRelease shop\/web reads its Secret by name \(spec\.values\..*\) through Helm values, which targetNames: hashed cannot rewrite$/,
      ),
    ]);
  });

  it('our post-renderer entry is found by its marker and updated in place; yours are kept', () => {
    const input = withStaleEntry();
    const out = runOk(input);
    const hr = find(itemsOf(out.stdout), 'HelmRelease', 'web') as {
      spec: { postRenderers: Obj[] };
    };
    expect(hr.spec.postRenderers[0]).toEqual({
      kustomize: { images: [{ name: 'web', newTag: '2' }] },
    });
    const ours = hr.spec.postRenderers[1]?.kustomize as { patches: { patch: string }[] };
    const { patches } = ours;
    expect(patches).toHaveLength(patchedKinds.length);
    for (const { patch } of patches) {
      expect(patch).toMatch(/"checksum\/external-secrets": "[0-9a-f]{64}"/);
    }
    expect(runOk(out.stdout).stdout).toBe(out.stdout);
  });

  it('the checksum is named where a reader finds it: the first patch of our entry, in results and plan', () => {
    // Was `spec.postRenderers[checksum/external-secrets]`, a path nothing in the release has.
    const own = dump({
      postRenderers: [{ kustomize: { images: [{ name: 'web', newTag: '2' }] } }],
    });
    const input = resourceList([es, helmRelease('web', `${appTemplate('web-secret')}\n${own}`)]);
    const expected = 'spec.postRenderers[1].kustomize.patches[0].patch';
    const out = runOk(input).stdout;
    const infos = resultsOf(out).filter((r) => (r.tags as Obj)?.rule === 'checksum');
    expect(infos.map((r) => [(r.field as Obj).path, r.message])).toEqual([
      [
        expected,
        'checksum of ExternalSecret shop/web-secret, in each patch of the post-renderer entry',
      ],
    ]);
    const value = ((infos[0] as Obj).field as Obj).proposedValue as string;
    const hr = find(itemsOf(out), 'HelmRelease', 'web') as {
      spec: { postRenderers: { kustomize: { patches: { patch: string }[] } }[] };
    };
    expect(hr.spec.postRenderers[1]?.kustomize.patches[0]?.patch).toContain(value);
    // The same name once the entry is there, and in plan's JSON.
    const again = resultsOf(runOk(out).stdout).filter((r) => (r.tags as Obj)?.rule === 'checksum');
    expect(again.map((r) => (r.field as Obj).path)).toEqual([expected]);
    const planned = JSON.parse(plan(input, { format: 'json' }).stdout) as {
      checksums: { field: string }[];
    };
    expect(planned.checksums.map((c) => c.field)).toEqual([expected]);
  });

  it('moved to a values path: our old post-renderer entry is kept updated, with a warning to remove it', () => {
    // On main the entry kept its old checksum, which Flux applies after the chart: the pods'
    // annotation stayed at that value, whatever the values path said, and nothing rolled.
    const settings = { helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations' };
    const input = withStaleEntry();
    const out = runOk(input, settings).stdout;
    const hr = find(itemsOf(out), 'HelmRelease', 'web') as {
      spec: { values: Obj; postRenderers: { kustomize: { patches: { patch: string }[] } }[] };
    };
    const value = ((hr.spec.values.defaultPodOptions as Obj).annotations as Obj)[
      'checksum/external-secrets'
    ] as string;
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    const same = new Map([['checksum/external-secrets', value]]);
    expect(hr.spec.postRenderers[1]?.kustomize.patches.map((p) => p.patch)).toEqual(
      patchedKinds.map((kind) => patchText(kind, same)),
    );
    const leftover = resultsOf(out).filter(
      (r) => (r.tags as Obj)?.rule === 'post-renderer-leftover',
    );
    expect(leftover.map((r) => [r.severity, (r.field as Obj).path])).toEqual([
      ['warning', 'spec.postRenderers[1]'],
    ]);
    expect(String(leftover[0]?.message)).toMatch(/remove the entry$/);
    expect(runOk(out, settings).stdout).toBe(out);
    // What Flux does with it: the chart's pod annotation (the values path's), then the entry.
    const dir = mkdtempSync(join(tmpdir(), 'helm-leftover-'));
    try {
      const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    metadata:
      annotations: {checksum/external-secrets: "${value}"}
    spec: {containers: [{name: web, image: web:1}]}
`;
      writeFileSync(join(dir, 'rendered.yaml'), deployment);
      const patches = postRendererEntry(same).kustomize.patches;
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        dump({ resources: ['rendered.yaml'], patches }),
      );
      const rendered = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
      expect(rendered.stderr).toBe('');
      expect(loadAll(rendered.stdout)).toEqual(loadAll(deployment));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an entry of ours edited by hand is an error, not a second entry', () => {
    const entry = postRendererEntry(new Map([['checksum/external-secrets', 'stale']]));
    entry.kustomize.patches.pop();
    const stale = dump({ postRenderers: [entry] }, { lineWidth: -1 });
    const out = run(
      resourceList([es, helmRelease('web', `${appTemplate('web-secret')}\n${stale}`)]),
    );
    expect(out.exitCode).toBe(1);
    expect(resultsOf(out.stdout).map((r) => (r.field as Obj | undefined)?.path)).toContain(
      'spec.postRenderers[0]',
    );
  });

  it('check fails on a missing checksum; impact reports a bump as the release rolling', () => {
    const settings = { helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations' };
    const hr = helmRelease('web', appTemplate('web-secret'));
    const base = resourceList([es, hr]);
    const checked = run(base, { settings: { ...settings, mode: 'check' } });
    expect(checked.exitCode).toBe(1);
    expect(resultsOf(checked.stdout).map((r) => (r.field as Obj | undefined)?.path)).toContain(
      'spec.values.defaultPodOptions.annotations[checksum/external-secrets]',
    );
    const head = resourceList([
      externalSecret('web-secret', { namespace: 'shop', version: '2' }),
      hr,
    ]);
    const side = (label: string, text: string) => ({ label, text, origins: [] });
    const out = impact(side('BASE', base), side('HEAD', head), { settings, format: 'json' });
    const report = JSON.parse(out.stdout) as { rollouts: { resource: Obj }[] };
    expect(report.rollouts.map((r) => r.resource.kind)).toEqual(['HelmRelease']);
  });

  it('double-restart sees Reloader annotations anywhere in its values', () => {
    const values = `${appTemplate('web-secret')}\n  controllers2:\n    annotations:\n      reloader.stakater.com/auto: "true"`;
    const out = runOk(resourceList([es, helmRelease('web', values)]), {
      helmReleaseChecksumPath: 'app-template=defaultPodOptions.annotations',
    });
    const warned = resultsOf(out.stdout).filter((r) => (r.tags as Obj)?.rule === 'double-restart');
    expect((warned[0]?.field as Obj)?.path).toBe(
      'spec.values.controllers2.annotations[reloader.stakater.com/auto]',
    );
  });
});

// What app-template renders for one release (bjw-s common library): the patch must reach every
// pod template and change nothing else.
const rendered = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app.kubernetes.io/name: web}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}, annotations: {checksum/secrets: abc}}
    spec: {containers: [{name: app, image: web:1, envFrom: [{secretRef: {name: web-secret}}]}]}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  serviceName: db
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: db, image: db:1}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: agent:1}]}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup}
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        metadata: {labels: {app: backup}}
        spec: {restartPolicy: OnFailure, containers: [{name: backup, image: backup:1}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: migrate, image: web:1}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {ports: [{port: 80}], selector: {app: web}}
`;

describe('the post-renderer patch, applied by kustomize', () => {
  it('sets the annotation on every pod template of the patched kinds and changes nothing else', () => {
    expect(findOnPath('kubectl'), 'kubectl must be on PATH').toBeDefined();
    const annotations = new Map([
      ['checksum/external-secrets', '0123456789'.repeat(6).slice(0, 64)],
    ]);
    const { patches } = postRendererEntry(annotations).kustomize;
    const dir = mkdtempSync(join(tmpdir(), 'helm-post-render-'));
    try {
      writeFileSync(join(dir, 'rendered.yaml'), rendered);
      // helm-controller writes the same kustomization: resources plus the entry's patches
      // (internal/postrender/kustomize.go).
      writeFileSync(
        join(dir, 'kustomization.yaml'),
        dump({ resources: ['rendered.yaml'], patches }),
      );
      const out = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
      expect(out.stderr).toBe('');
      const before = loadAll(rendered) as Obj[];
      const after = loadAll(out.stdout) as Obj[];
      expect(after).toHaveLength(before.length);
      for (const item of before) {
        const name = (item.metadata as Obj).name;
        const got = after.find((a) => a.kind === item.kind && (a.metadata as Obj).name === name);
        const kind = patchedKinds.find((k) => k.kind === item.kind);
        const expected = structuredClone(item);
        if (kind) {
          let template = expected as Obj;
          for (const key of kind.template.split('.')) template = template[key] as Obj;
          const metadata = (template.metadata ?? {}) as Obj;
          template.metadata = metadata;
          metadata.annotations = {
            ...(metadata.annotations as Obj),
            'checksum/external-secrets': annotations.get('checksum/external-secrets'),
          };
        }
        expect(got, `${item.kind} ${name}`).toEqual(expected);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('examples/helmrelease-app-template through kustomize', () => {
  it('kubectl kustomize | the built CLI: the release gets its post-renderer, the source its wave', () => {
    expect(findOnPath('kubectl'), 'kubectl must be on PATH').toBeDefined();
    const example = join(repoRoot, 'examples', 'helmrelease-app-template');
    const built = spawnSync('kubectl', ['kustomize', example], { encoding: 'utf8' });
    expect(built.status).toBe(0);
    const cli = join(repoRoot, 'dist', 'secret-rollout.cjs');
    const out = spawnSync(process.execPath, [cli], { input: built.stdout, encoding: 'utf8' });
    expect(out.status).toBe(0);
    const items = loadAll(out.stdout) as Obj[];
    const hr = items.find((i) => i.kind === 'HelmRelease') as { spec: { postRenderers: Obj[] } };
    const entry = hr.spec.postRenderers[0] as { kustomize: { patches: { target: Obj }[] } };
    const { patches } = entry.kustomize;
    expect(patches.map((p) => p.target.kind)).toEqual(patchedKinds.map((k) => k.kind));
    const es = items.find((i) => i.kind === 'ExternalSecret') as { metadata: Obj };
    expect((es.metadata.annotations as Obj)['argocd.argoproj.io/sync-wave']).toBe('-1');
    expect(out.stderr).toContain('(helm-release-reads)');
  });
});

describe('annotations mappings nested in values (bench/adversarial values-annotations)', () => {
  it('keeps each found mapping’s path as steps shared with the paths below it, written out when asked', () => {
    const depth = 200;
    let values: Record<string, unknown> = { a: 'b' };
    for (let i = 0; i < depth; i++) values = { annotations: values };
    const found = valuesFound(values as never).annotations;
    expect(found).toHaveLength(depth);
    expect(found[0]?.at).toEqual(['spec', 'values', 'annotations']);
    expect(found[depth - 1]?.at).toEqual(['spec', 'values', ...Array(depth).fill('annotations')]);
    // What the found mappings hold of their paths: arrays of their own, and the distinct steps
    // they reach. Main kept a copy of the path for each (depth²/2 = 20,000 keys here).
    let held = 0;
    const steps = new Set<object>();
    for (const f of found) {
      for (const value of Object.values(f)) {
        if (Array.isArray(value)) held += value.length;
        for (
          let s = value as { up?: object } | undefined;
          s && typeof s === 'object' && 'up' in s;
          s = s.up as never
        )
          steps.add(s);
      }
    }
    expect(held + steps.size).toBeLessThanOrEqual(2 * depth);
  });
});

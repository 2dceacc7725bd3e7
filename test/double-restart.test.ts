// The double-restart lint (a workload the function annotates that another mechanism restarts) and
// the ScaledJob rollout lint, through run(): the projection must keep what they read.
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import { externalSecret, resourceList, resultsOf, runOk } from './helpers.js';

const es = externalSecret('db', { namespace: 'shop' });
const hint = 'a change can restart it twice';

/** A Deployment (or `kind` in `group`) reading db, with annotations on its metadata and template. */
const workload = (
  name: string,
  opts: { meta?: string; template?: string; kind?: string; apiVersion?: string } = {},
) => `apiVersion: ${opts.apiVersion ?? 'apps/v1'}
kind: ${opts.kind ?? 'Deployment'}
metadata:
  name: ${name}
  namespace: shop
${opts.meta ? `  annotations:\n${opts.meta.replace(/^/gm, '    ')}\n` : ''}spec:
  template:
    metadata:
${opts.template ? `      annotations:\n${opts.template.replace(/^/gm, '        ')}\n` : ''}      labels: {app: ${name}}
    spec:
      containers:
      - name: app
        envFrom:
        - secretRef: {name: db}
`;

function warnings(items: string[], config = '') {
  const cm = config
    ? `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n${config}`
    : undefined;
  const out = runOk(resourceList(items, cm));
  return resultsOf(out.stdout).filter((r) => String(r.message).includes(hint));
}
const messages = (items: string[], config = '') => warnings(items, config).map((r) => r.message);

describe('double restarts', () => {
  it('Reloader on the workload: a warning naming both, the annotation as field', () => {
    const found = warnings([es, workload('api', { meta: 'reloader.stakater.com/auto: "true"' })]);
    expect(found).toEqual([
      {
        severity: 'warning',
        message:
          'Deployment shop/api is restarted by secret-rollout\'s checksum/external-secrets and also by Stakater Reloader (reloader.stakater.com/auto: "true") when Secret db changes: a change can restart it twice. Remove reloader.stakater.com/auto, add db to secrets.exclude.reloader.stakater.com/reload, or opt out here with secret-rollout/ignore: "true"',
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', namespace: 'shop' },
        field: { path: 'metadata.annotations[reloader.stakater.com/auto]' },
        tags: { rule: 'double-restart' },
      },
    ]);
  });

  it.each([
    ['reloader.stakater.com/auto: "True"', 1],
    ['reloader.stakater.com/auto: "1"', 1],
    ['reloader.stakater.com/auto: "false"', 0],
    ['reloader.stakater.com/auto: "yes"', 0],
    ['secret.reloader.stakater.com/auto: "true"', 1],
    ['secret.reloader.stakater.com/reload: "db,other"', 1],
    ['secret.reloader.stakater.com/reload: " , "', 0],
    ['secret.reloader.stakater.com/reload: "other"', 0],
    ['secret.reloader.stakater.com/reload: "d[a-z]"', 1],
    ['secret.reloader.stakater.com/reload: "d(, db"', 1],
    ['secret.reloader.stakater.com/reload: "d("', 0],
    // Reloader's SecretProviderClass annotations follow SecretProviderClasses, not Secret db.
    ['secretproviderclass.reloader.stakater.com/auto: "true"', 0],
    ['secretproviderclass.reloader.stakater.com/reload: "db"', 0],
    // An exclusion wins over every way of following the Secret.
    [
      'reloader.stakater.com/auto: "true"\nsecrets.exclude.reloader.stakater.com/reload: "x, db"',
      0,
    ],
    [
      'secret.reloader.stakater.com/reload: db\nsecrets.exclude.reloader.stakater.com/reload: db',
      0,
    ],
    ['reloader.stakater.com/auto: "true"\nsecrets.exclude.reloader.stakater.com/reload: "d.*"', 1],
    ['reloader.stakater.com/auto: "true"\nconfigmaps.exclude.reloader.stakater.com/reload: db', 1],
    ['reloader.stakater.com/search: "true"', 1],
    ['reloader.stakater.com/search: "True"', 0],
    ['wave.pusher.com/update-on-config-change: "true"', 1],
    ['wave.pusher.com/update-on-config-change: "True"', 0],
    ['operator.1password.io/auto-restart: "TRUE"', 1],
    ['operator.1password.io/auto-restart: "false"', 0],
    ['secrets.doppler.com/reload: "true"', 1],
    ['secrets.doppler.com/reload: "1"', 0],
    ['secrets.infisical.com/auto-reload: "true"', 1],
    ['secrets.infisical.com/auto-reload: "True"', 0],
  ])('%s on the workload: %d warning(s)', (annotation, count) => {
    expect(warnings([es, workload('api', { meta: annotation })])).toHaveLength(count);
  });

  describe("Reloader reload lists as Reloader reads them: Go's regexp (RE2), `^` + entry + `$`", () => {
    const reload = (value: string) => `secret.reloader.stakater.com/reload: ${value}`;
    it.each([
      // RE2 syntax a JavaScript RegExp refuses or reads otherwise (main skipped or missed these).
      ['"(?i)DB"', 1],
      ['"(?i:D)b"', 1],
      ["'\\pL+'", 1],
      ["'db\\z'", 1],
      ['"[[:lower:]]{2}"', 1],
      // Go concatenates: `^d|x$` is "starts with d" or "ends with x" (main grouped the entry).
      ['"d|x"', 1],
      ['"x|b"', 1],
      ['"x|d"', 0],
      // JavaScript, not RE2: a lookahead and a backreference do not compile, Reloader skips them.
      ['"(?=d)db"', 0],
      ["'(d)\\1'", 0],
      // Go's strings.TrimSpace trims U+0085 and not U+FEFF; String.trim does the opposite.
      ['"\\x85db"', 1],
      ['"\\uFEFFdb"', 0],
    ])('%s: %d warning(s)', (value, count) => {
      expect(warnings([es, workload('api', { meta: reload(value) })])).toHaveLength(count);
    });

    // `(a+)+` on a name that almost matches backtracks exponentially in a backtracking engine
    // (main took 16–21 s at 31 characters); RE2 answers by construction in time linear in the
    // name. (?i) keeps each case quick on main too, where it did not compile and was skipped.
    const long = `${'a'.repeat(252)}b`;
    const secret = externalSecret('long', { namespace: 'shop', target: long });
    const reading = (value: string) =>
      workload('api', { meta: reload(value) }).replace('{name: db}', `{name: ${long}}`);
    it.each([
      ['"(?i)(A+)+B"', 1],
      ['"(?i)(A+)+C"', 0],
      ['"(?i)(A|AA)+B"', 1],
      ['"(?i)(A|AA)+"', 0],
    ])('the pathological %s on a 253-character name: %d warning(s)', (value, count) => {
      expect(warnings([secret, reading(value)])).toHaveLength(count);
    });

    it('a name longer than any Kubernetes object can have is no Secret Reloader sees', () => {
      const over = `${'a'.repeat(254)}`;
      const item = externalSecret('over', { namespace: 'shop', target: over });
      const reader = workload('api', { meta: reload('"a.*"') }).replace(
        '{name: db}',
        `{name: ${over}}`,
      );
      expect(warnings([item, reader])).toEqual([]);
    });

    it('a run compiles and matches a bounded amount of RE2, and says where it stopped', () => {
      // 6000 distinct regular expressions (≈40 KiB) are past the budget (32 KiB of distinct
      // entries at most); a list of 100 is far below it. Work is counted, not timed.
      const list = (n: number) =>
        Array.from({ length: n }, (_, i) => `x${i}*`)
          .concat('d.')
          .join(',');
      const lint = (n: number) =>
        resultsOf(runOk(resourceList([es, workload('api', { meta: reload(list(n)) })])).stdout)
          .filter((r) => /not evaluated|restart it twice/.test(String(r.message)))
          .map((r) => [r.severity, r.message, r.field]);
      const field = { path: 'metadata.annotations[secret.reloader.stakater.com/reload]' };
      expect(lint(6000)).toEqual([
        [
          'warning',
          'Deployment shop/api: secret.reloader.stakater.com/reload was not evaluated in full: the Reloader lists of this input hold more regular-expression work than one run does, so this lint cannot tell whether it names a Secret the checksum covers',
          field,
        ],
      ]);
      expect(lint(100)).toEqual([['warning', expect.stringContaining(hint), field]]);
    });

    it('entries that are not RE2: reported by workload, annotation and position, never by text', () => {
      const skipped = (items: string[]) =>
        resultsOf(runOk(resourceList(items)).stdout).filter((r) =>
          String(r.message).includes('not a valid RE2'),
        );
      const both = skipped([es, workload('api', { meta: reload('"d(, db, (?=x), x{1001}"') })]);
      expect(both).toEqual([
        {
          severity: 'warning',
          message:
            "Deployment shop/api: Stakater Reloader skips entries 1, 3, 4 of secret.reloader.stakater.com/reload: not a valid RE2 regular expression (Go's regexp), so Reloader never matches it and this lint cannot tell whether it names a Secret the checksum covers. Fix or remove it",
          resourceRef: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'api',
            namespace: 'shop',
          },
          field: { path: 'metadata.annotations[secret.reloader.stakater.com/reload]' },
          tags: { rule: 'double-restart' },
        },
      ]);
      // The valid entry still matches: the double-restart warning is there as well.
      expect(warnings([es, workload('api', { meta: reload('"d(, db"') })])).toHaveLength(1);
      const onTemplate = skipped([es, workload('api', { template: reload('"d("') })]);
      expect(onTemplate.map((r) => [r.message, r.field])).toEqual([
        [
          expect.stringContaining(
            'skips entry 1 of secret.reloader.stakater.com/reload on its pod template:',
          ),
          { path: 'spec.template.metadata.annotations[secret.reloader.stakater.com/reload]' },
        ],
      ]);
      expect(JSON.stringify(onTemplate)).not.toContain('d(');
    });

    it('the warning names the list that matched by its key, never by its entries', () => {
      const results = resultsOf(
        runOk(resourceList([es, workload('api', { meta: reload('"canary-x9, d."') })])).stdout,
      );
      expect(results.map((r) => r.message)).toContainEqual(
        expect.stringContaining('also by Stakater Reloader (secret.reloader.stakater.com/reload)'),
      );
      expect(JSON.stringify(results)).not.toContain('canary-x9');
    });
  });

  it('Reloader falls back to the pod template only when the workload has none of its keys', () => {
    const onTemplate = workload('api', { template: 'secret.reloader.stakater.com/reload: db' });
    expect(messages([es, onTemplate])).toEqual([
      expect.stringContaining(
        'also by Stakater Reloader (secret.reloader.stakater.com/reload on its pod template)',
      ),
    ]);
    expect(warnings([es, onTemplate])[0]?.field).toEqual({
      path: 'spec.template.metadata.annotations[secret.reloader.stakater.com/reload]',
    });
    // The workload's own `auto: "false"` hides the template's annotations from Reloader.
    const hidden = workload('api', {
      meta: 'reloader.stakater.com/auto: "false"',
      template: 'reloader.stakater.com/auto: "true"',
    });
    expect(warnings([es, hidden])).toEqual([]);
    // wave and the operators read the workload's metadata only.
    const waveOnTemplate = workload('api', {
      template: 'wave.pusher.com/update-on-config-change: "true"',
    });
    expect(warnings([es, waveOnTemplate])).toEqual([]);
  });

  it('Reloader reads its exclusions from the workload only, per source the checksum covers', () => {
    // On the pod template, an exclusion is not read (the template's auto is, as a fallback).
    const onTemplate = workload('api', {
      template:
        'reloader.stakater.com/auto: "true"\nsecrets.exclude.reloader.stakater.com/reload: db',
    });
    expect(warnings([es, onTemplate])).toHaveLength(1);
    // Two Secrets covered, one excluded: the warning is about the other.
    const cache = externalSecret('cache', { namespace: 'shop' });
    const both = workload('api', {
      meta: 'reloader.stakater.com/auto: "true"\nsecrets.exclude.reloader.stakater.com/reload: db',
    }).replace(
      '        - secretRef: {name: db}\n',
      '        - secretRef: {name: db}\n        - secretRef: {name: cache}\n',
    );
    expect(messages([es, cache, both])).toEqual([
      expect.stringContaining(
        'when Secret cache changes: a change can restart it twice. Remove reloader.stakater.com/auto, add cache to secrets.exclude.reloader.stakater.com/reload,',
      ),
    ]);
  });

  it('Reloader and a SecretProviderClass the pods mount: its own annotations and exclusions', () => {
    const spc = `apiVersion: secrets-store.csi.x-k8s.io/v1
kind: SecretProviderClass
metadata: {name: vault-spc, namespace: shop}
spec:
  provider: vault
  parameters: {objects: "- objectName: pw"}
`;
    const mounting = (meta: string) =>
      workload('api', { meta }).replace(
        '        envFrom:\n        - secretRef: {name: db}\n',
        '        volumeMounts: [{name: s, mountPath: /s}]\n      volumes:\n      - name: s\n        csi: {driver: secrets-store.csi.k8s.io, volumeAttributes: {secretProviderClass: vault-spc}}\n',
      );
    expect(
      messages([spc, mounting('secretproviderclass.reloader.stakater.com/reload: vault-spc')]),
    ).toEqual([
      expect.stringContaining(
        '(secretproviderclass.reloader.stakater.com/reload) when SecretProviderClass vault-spc changes: a change can restart it twice. Remove secretproviderclass.reloader.stakater.com/reload, add vault-spc to secretproviderclasses.exclude.reloader.stakater.com/reload,',
      ),
    ]);
    expect(messages([spc, mounting('secret.reloader.stakater.com/auto: "true"')])).toEqual([]);
    const excluded = mounting(
      'reloader.stakater.com/auto: "true"\nsecretproviderclasses.exclude.reloader.stakater.com/reload: vault-spc',
    );
    expect(messages([spc, excluded])).toEqual([]);
  });

  it('one warning per mechanism, naming each of its annotations', () => {
    const both = workload('api', {
      meta: 'reloader.stakater.com/auto: "true"\nsecret.reloader.stakater.com/reload: db\nwave.pusher.com/update-on-config-change: "true"',
    });
    expect(messages([es, both])).toEqual([
      expect.stringContaining(
        'Stakater Reloader (reloader.stakater.com/auto: "true", secret.reloader.stakater.com/reload) when Secret db changes: a change can restart it twice. Remove reloader.stakater.com/auto, secret.reloader.stakater.com/reload, add db to secrets.exclude.reloader.stakater.com/reload,',
      ),
      expect.stringContaining('also by wave (wave.pusher.com/update-on-config-change: "true")'),
    ]);
  });

  it('only for kinds the mechanism restarts', () => {
    const statefulSet = (meta: string) =>
      workload('db-sts', { kind: 'StatefulSet', meta }).replace(
        '  template:',
        '  serviceName: x\n  template:',
      );
    expect(warnings([es, statefulSet('secrets.doppler.com/reload: "true"')])).toEqual([]);
    expect(warnings([es, statefulSet('secrets.infisical.com/auto-reload: "true"')])).toHaveLength(
      1,
    );
    const rollout = workload('r', {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      meta: 'reloader.stakater.com/auto: "true"',
    });
    expect(warnings([es, rollout])).toHaveLength(1);
    const knative = workload('k', {
      apiVersion: 'serving.knative.dev/v1',
      kind: 'Service',
      meta: 'reloader.stakater.com/auto: "true"',
    });
    expect(warnings([es, knative])).toEqual([]);
  });

  it('not on a workload the function does not annotate', () => {
    const meta = 'reloader.stakater.com/auto: "true"';
    const other = workload('api', { meta }).replace('{name: db}', '{name: elsewhere}');
    expect(warnings([es, other])).toEqual([]);
    const optedOut = workload('api', { meta: `${meta}\nsecret-rollout/ignore: "true"` });
    expect(warnings([es, optedOut])).toEqual([]);
  });

  it('severity option: error, info, off', () => {
    const items = [es, workload('api', { meta: 'reloader.stakater.com/auto: "true"' })];
    const out = run(
      resourceList(
        items,
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  doubleRestartSeverity: error\n',
      ),
    );
    expect(out.exitCode).toBe(1);
    expect(warnings(items, '  doubleRestartSeverity: "off"\n')).toEqual([]);
    expect(warnings(items, '  doubleRestartSeverity: info\n')[0]?.severity).toBe('info');
  });

  it('VSO rolloutRestartTargets of any of its kinds, in the resource namespace', () => {
    const vds = (targets: string, namespace = 'shop') => `apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultDynamicSecret
metadata: {name: pg-creds, namespace: ${namespace}}
spec:
  mount: database
  path: creds/app
  destination: {name: pg, create: true}
  rolloutRestartTargets:
${targets}
`;
    const target = '  - {kind: Deployment, name: api}';
    expect(messages([es, workload('api'), vds(target)])).toEqual([
      'Deployment shop/api is restarted by secret-rollout\'s checksum/external-secrets and also by the Vault Secrets Operator (VaultDynamicSecret shop/pg-creds spec.rolloutRestartTargets[0]): a change can restart it twice. Remove it from rolloutRestartTargets, or opt out here with secret-rollout/ignore: "true"',
    ]);
    expect(messages([es, workload('api'), vds(target, 'other')])).toEqual([]);
    expect(messages([es, workload('api'), vds('  - {kind: StatefulSet, name: api}')])).toEqual([]);
    const rollout = workload('api', { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout' });
    expect(messages([es, rollout, vds('  - {kind: argo.Rollout, name: api}')])).toHaveLength(1);
  });
});

describe('ScaledJob rollout', () => {
  const scaledJob = (rollout: string, secret = 'db') => `apiVersion: keda.sh/v1alpha1
kind: ScaledJob
metadata: {name: reports, namespace: shop}
spec:
${rollout}  jobTargetRef:
    template:
      spec:
        restartPolicy: Never
        containers:
        - name: w
          envFrom:
          - secretRef: {name: ${secret}}
  triggers:
  - type: cron
    metadata: {timezone: UTC, start: "0 * * * *", end: "5 * * * *", desiredReplicas: "1"}
`;
  const notes = (items: string[], config?: string) =>
    resultsOf(runOk(resourceList(items, config)).stdout).filter((r) =>
      String(r.message).includes('KEDA deletes the running Jobs'),
    );

  it('an info on a ScaledJob that gets a checksum without gradual rollout', () => {
    expect(notes([es, scaledJob('')])).toEqual([
      {
        severity: 'info',
        message:
          'ScaledJob shop/reports gets a checksum on its pod template, and KEDA deletes the running Jobs of a ScaledJob on any change of its spec unless spec.rollout.strategy is gradual: a checksum change kills Jobs mid-run. Set spec.rollout.strategy: gradual to let them finish',
        resourceRef: {
          apiVersion: 'keda.sh/v1alpha1',
          kind: 'ScaledJob',
          name: 'reports',
          namespace: 'shop',
        },
        field: {
          path: 'spec.jobTargetRef.template.metadata.annotations[checksum/external-secrets]',
        },
        tags: { rule: 'scaled-job-rollout' },
      },
    ]);
    expect(notes([es, scaledJob('  rollout: {strategy: immediate}\n')])).toHaveLength(1);
  });

  it('none with gradual (or the deprecated rolloutStrategy: gradual, which wins), or without a checksum', () => {
    expect(notes([es, scaledJob('  rollout:\n    strategy: gradual\n')])).toEqual([]);
    expect(
      notes([es, scaledJob('  rolloutStrategy: gradual\n  rollout: {strategy: immediate}\n')]),
    ).toEqual([]);
    expect(
      notes([es, scaledJob('  rolloutStrategy: immediate\n  rollout: {strategy: gradual}\n')]),
    ).toHaveLength(1);
    expect(notes([es, scaledJob('')])).toHaveLength(1);
  });

  it('when the deprecated rolloutStrategy decides, the message names it and its fix', () => {
    // spec.rollout.strategy is already gradual here: "set it to gradual" would change nothing.
    const [note] = notes([
      es,
      scaledJob('  rolloutStrategy: immediate\n  rollout: {strategy: gradual}\n'),
    ]);
    expect(note?.message).toBe(
      'ScaledJob shop/reports gets a checksum on its pod template, and KEDA deletes the running Jobs of a ScaledJob on any change of its spec unless spec.rolloutStrategy (deprecated; it wins over spec.rollout.strategy) is gradual: a checksum change kills Jobs mid-run. Remove spec.rolloutStrategy and set spec.rollout.strategy: gradual to let them finish',
    );
    expect(notes([es, scaledJob('', 'unrelated')])).toEqual([]);
  });

  it('its severity is an option', () => {
    const cm = (v: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  scaledJobRolloutSeverity: "${v}"\n`;
    expect(notes([es, scaledJob('')], cm('warning'))[0]?.severity).toBe('warning');
    expect(notes([es, scaledJob('')], cm('off'))).toEqual([]);
  });
});

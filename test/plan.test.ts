// `secret-rollout plan`: what a run writes, as a table, Mermaid or JSON, from the same plan and
// the same options the run uses (arguments, --fn-config, functionConfig, the Kptfile).
import { describe, expect, it } from 'vitest';
import { plan, run } from '../src/run.js';
import { deployment, envFrom, resourceList, externalSecret as unpinned } from './helpers.js';

/** Every remoteRef pinned: no unpinned-version warning, so results are the plan's alone. */
const externalSecret = (name: string, opts: Parameters<typeof unpinned>[1] = {}) =>
  unpinned(name, opts).replace('property: user\n', 'property: user\n      version: "1"\n');

const store =
  'apiVersion: external-secrets.io/v1\nkind: ClusterSecretStore\nmetadata:\n  name: vault\nspec: {}\n';
const input = resourceList([
  deployment('app', envFrom('db'), { namespace: 'shop', wave: '-3' }),
  externalSecret('db', { namespace: 'shop' }),
  store,
]);
/** The checksum run() writes for shop/app with the default annotation. */
const checksum = /checksum\/external-secrets: "([0-9a-f]{64})/.exec(run(input).stdout)?.[1] ?? '';

/** A Kptfile as `kpt fn source` gives it: with kpt's path annotations. */
const kptfile = (dir: string, functions: string) => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
  annotations:
    config.kubernetes.io/local-config: "true"
    config.kubernetes.io/path: '${dir}Kptfile'
    internal.config.kubernetes.io/path: '${dir}Kptfile'
pipeline:
${functions}`;
const typedConfig = (path: string, storeWave: string) => `apiVersion: fn.kpt.dev/v1alpha1
kind: SecretRollout
metadata:
  name: secret-rollout
  annotations:
    config.kubernetes.io/local-config: "true"
    internal.config.kubernetes.io/path: '${path}'
storeWave: ${storeWave}
`;
const storeRow = (wave: string) =>
  `${wave.padEnd(4)}  ClusterSecretStore  vault     before shop/db`;

describe('plan', () => {
  it('lists stores, sources and consumers by wave, with the values run writes', () => {
    const out = plan(input);
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout.split('\n')).toEqual([
      'WAVE  KIND                NAME      DETAIL',
      '-5    ClusterSecretStore  vault     before shop/db',
      '-4    ExternalSecret      shop/db   writes Secret shop/db',
      `-3    Deployment          shop/app  checksum/external-secrets=${checksum.slice(0, 12)}…`,
      '',
    ]);
  });

  it('shows a line break in a name as \\n: one row per resource, no line of its own', () => {
    const forged = unpinned('db').replace('name: db', 'name: "db\\nerror: forged"');
    const out = plan(resourceList([forged.replace('spec:\n', 'spec:\n  target: {name: db}\n')]));
    // On main the table's row broke in two, the second starting 'error: forged'.
    expect(out.stdout).toMatch(/ db\\nerror: forged +writes Secret db\n/);
    expect(out.stdout.split('\n').filter((line) => line.startsWith('error'))).toEqual([]);
  });

  it('draws a Mermaid flowchart store → source → Secret → consumer', () => {
    const { stdout } = plan(input, { format: 'mermaid' });
    expect(stdout).toMatch(/^flowchart LR\n/);
    expect(stdout).toContain('["ClusterSecretStore vault<br/>wave -5"]');
    const ids = Object.fromEntries(
      [...stdout.matchAll(/ {2}(n\d+)\[?\(?\[?"([A-Za-z]+) /g)].map((m) => [m[2], m[1]]),
    );
    expect(stdout).toContain(`${ids.ClusterSecretStore} --> ${ids.ExternalSecret}`);
    expect(stdout).toContain(`${ids.ExternalSecret} --> ${ids.Secret}`);
    expect(stdout).toContain(`${ids.Secret} --> ${ids.Deployment}`);
  });

  it('prints what it could plan, then the errors, and exits 1', () => {
    const out = plan(resourceList([externalSecret('db', { wave: 'x' })]));
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe(
      'WAVE  KIND            NAME  DETAIL\n-     ExternalSecret  db    writes Secret db\n',
    );
    expect(out.stderr).toBe(
      'error: ExternalSecret db: argocd.argoproj.io/sync-wave is not a 64-bit integer [ExternalSecret db metadata.annotations[argocd.argoproj.io/sync-wave]] (malformed-field)\n',
    );
  });

  it('prints warnings always and info results with --verbose, one line each after the table', () => {
    const quiet = plan(input);
    const verbose = plan(input, { verbose: true });
    expect(verbose.stdout).toBe(quiet.stdout);
    expect(verbose.stderr.split('\n')).toEqual([
      'secret-rollout: options from defaults',
      `info: checksum of ExternalSecret shop/db [Deployment shop/app spec.template.metadata.annotations[checksum/external-secrets]] (checksum)`,
      'info: sync-wave -4, before Deployment shop/app [ExternalSecret shop/db metadata.annotations[argocd.argoproj.io/sync-wave]] (sync-wave)',
      'info: sync-wave -5, before ExternalSecret shop/db [ClusterSecretStore vault metadata.annotations[argocd.argoproj.io/sync-wave]] (sync-wave)',
      '',
    ]);
    const twice = resourceList([
      deployment('app', envFrom('db'), { namespace: 'shop' }),
      externalSecret('a', { namespace: 'shop', target: 'db' }),
      externalSecret('b', { namespace: 'shop', target: 'db' }),
    ]);
    expect(plan(twice).stderr).toBe(
      "warning: ExternalSecret shop/a and ExternalSecret shop/b all write Secret db; each consumer's checksum covers all of them [ExternalSecret shop/a] (duplicate-writer)\n" +
        "warning: ExternalSecret shop/b and ExternalSecret shop/a all write Secret db; each consumer's checksum covers all of them [ExternalSecret shop/b] (duplicate-writer)\n",
    );
  });

  it('on a wave conflict prints the table with both rows marked, then the error, exit 1', () => {
    const conflict = resourceList([
      deployment('app', envFrom('db'), { namespace: 'shop' }),
      externalSecret('db', { namespace: 'shop', wave: '3' }),
      store,
    ]);
    const out = plan(conflict);
    expect(out.exitCode).toBe(1);
    expect(out.stdout.split('\n')).toEqual([
      'WAVE  KIND                NAME      DETAIL',
      '-2    ClusterSecretStore  vault     before shop/db',
      `0     Deployment          shop/app  checksum/external-secrets=${checksum.slice(0, 12)}…; CONFLICT: not above ExternalSecret shop/db (wave 3)`,
      '3     ExternalSecret      shop/db   writes Secret shop/db; CONFLICT: not below Deployment shop/app (wave 0)',
      '',
    ]);
    expect(out.stderr).toBe(
      'error: ExternalSecret shop/db has sync-wave 3, not below Deployment shop/app (wave 0), so Argo CD may apply it too late: set argocd.argoproj.io/sync-wave to "-1" or lower, or remove it to let secret-rollout choose [ExternalSecret shop/db metadata.annotations[argocd.argoproj.io/sync-wave]] (wave-conflict)\n',
    );
    expect(plan(conflict, { format: 'mermaid' }).stdout).toContain(
      '["ExternalSecret shop/db<br/>wave 3<br/>CONFLICT"]',
    );
    // As a warning the conflict is still one: marked, exit 0.
    const warned = plan(conflict, { settings: { waveConflictSeverity: 'warning' } });
    expect(warned.exitCode).toBe(0);
    expect(warned.stdout).toContain('CONFLICT: not below Deployment shop/app (wave 0)');
    expect(warned.stderr).toMatch(/^warning: ExternalSecret shop\/db has sync-wave 3/);
  });

  it('shows the waves a run without syncWaves leaves: the input’s', () => {
    const out = plan(input, { settings: { syncWaves: 'false' } });
    expect(out.stdout.split('\n')).toEqual([
      'ordering: none (no order annotations written)',
      'WAVE  KIND                NAME      DETAIL',
      `-3    Deployment          shop/app  checksum/external-secrets=${checksum.slice(0, 12)}…`,
      '0     ClusterSecretStore  vault     before shop/db',
      '0     ExternalSecret      shop/db   writes Secret shop/db',
      '',
    ]);
  });
});

describe('plan --format json', () => {
  it('has a stable shape: nodes in table order, checksums, every result', () => {
    const out = plan(input, { format: 'json' });
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('');
    const app = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'app' };
    const db = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ExternalSecret',
      namespace: 'shop',
      name: 'db',
    };
    const vault = {
      apiVersion: 'external-secrets.io/v1',
      kind: 'ClusterSecretStore',
      name: 'vault',
    };
    const waveField = 'metadata.annotations[argocd.argoproj.io/sync-wave]';
    const checksumField = 'spec.template.metadata.annotations[checksum/external-secrets]';
    expect(JSON.parse(out.stdout)).toEqual({
      ordering: ['argocd'],
      nodes: [
        {
          ...vault,
          role: 'store',
          wave: '-5',
          waveSource: 'planned',
          before: [db],
          writes: [],
          conflicts: [],
        },
        {
          ...db,
          role: 'source',
          wave: '-4',
          waveSource: 'planned',
          before: [app],
          writes: [{ kind: 'Secret', namespace: 'shop', name: 'db' }],
          conflicts: [],
        },
        {
          ...app,
          role: 'consumer',
          wave: '-3',
          waveSource: 'written',
          before: [],
          writes: [],
          conflicts: [],
        },
      ],
      checksums: [
        {
          resource: app,
          field: checksumField,
          annotation: 'checksum/external-secrets',
          value: checksum,
          sources: [db],
        },
      ],
      results: [
        {
          message: 'checksum of ExternalSecret shop/db',
          severity: 'info',
          tags: { rule: 'checksum' },
          resourceRef: {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name: 'app',
            namespace: 'shop',
          },
          field: { path: checksumField, proposedValue: checksum },
        },
        {
          message: 'sync-wave -4, before Deployment shop/app',
          severity: 'info',
          tags: { rule: 'sync-wave' },
          resourceRef: { ...db },
          field: { path: waveField, proposedValue: '-4' },
        },
        {
          message: 'sync-wave -5, before ExternalSecret shop/db',
          severity: 'info',
          tags: { rule: 'sync-wave' },
          resourceRef: vault,
          field: { path: waveField, proposedValue: '-5' },
        },
      ],
    });
    // Key order is part of the shape (diffable output).
    expect(out.stdout).toMatch(
      /^\{\n {2}"ordering": \[\n {4}"argocd"\n {2}\],\n {2}"nodes": \[\n {4}\{\n {6}"apiVersion": "external-secrets.io\/v1",\n {6}"kind": "ClusterSecretStore",\n {6}"name": "vault",\n {6}"role": "store",/,
    );
  });

  it('marks conflicts and still prints, with exit 1', () => {
    const conflict = resourceList([
      deployment('app', envFrom('db'), { namespace: 'shop' }),
      externalSecret('db', { namespace: 'shop', wave: '3' }),
    ]);
    const out = plan(conflict, { format: 'json' });
    expect(out.exitCode).toBe(1);
    const doc = JSON.parse(out.stdout);
    expect(
      doc.nodes.map((n: Record<string, unknown>) => [n.name, n.wave, n.waveSource, n.conflicts]),
    ).toEqual([
      [
        'app',
        '0',
        'default',
        [
          {
            apiVersion: 'external-secrets.io/v1',
            kind: 'ExternalSecret',
            namespace: 'shop',
            name: 'db',
          },
        ],
      ],
      [
        'db',
        '3',
        'written',
        [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'app' }],
      ],
    ]);
    expect(doc.results.map((r: Record<string, unknown>) => r.severity)).toEqual(['info', 'error']);
  });
});

describe('plan: the options the run would use', () => {
  const withKptfile = (functions: string, ...more: string[]) =>
    resourceList([
      kptfile('', functions),
      ...more,
      deployment('app', envFrom('db'), { namespace: 'shop', wave: '-3' }),
      externalSecret('db', { namespace: 'shop' }),
      store,
    ]);

  it("reads the Kptfile's secret-rollout configMap (exec or image)", () => {
    for (const fn of [
      'exec: ../../dist/secret-rollout.cjs',
      'image: ghcr.io/example/secret-rollout:v0.1',
    ]) {
      const out = plan(
        withKptfile(`  mutators:\n  - ${fn}\n    configMap:\n      storeWave: "-9"\n`),
        { verbose: true },
      );
      expect(out.exitCode).toBe(0);
      expect(out.stdout.split('\n')[1]).toBe(storeRow('-9'));
      expect(out.stderr.split('\n')[0]).toBe(
        'secret-rollout: options from Kptfile pipeline.mutators[0].configMap',
      );
    }
  });

  it('reads configPath among the items, relative to the Kptfile, in a validator too', () => {
    const sub = resourceList([
      kptfile(
        'sub/',
        '  validators:\n  - image: example/other\n  - image: example/secret-rollout\n    configPath: ./config/fn.yaml\n',
      ),
      typedConfig('fn.yaml', '-20'),
      typedConfig('sub/config/fn.yaml', '-11'),
      deployment('app', envFrom('db'), { namespace: 'shop', wave: '-3' }),
      externalSecret('db', { namespace: 'shop' }),
      store,
    ]);
    const out = plan(sub, { verbose: true });
    expect(out.stdout.split('\n')[1]).toBe(storeRow('-11'));
    expect(out.stderr.split('\n')[0]).toBe(
      'secret-rollout: options from sub/Kptfile pipeline.validators[1].configPath sub/config/fn.yaml',
    );
  });

  it('ignores other functions and uses the defaults for one without config', () => {
    const out = plan(
      withKptfile(
        '  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4\n    configMap:\n      namespace: x\n  - exec: secret-rollout\n',
      ),
    );
    expect(out.stdout).toBe(plan(input).stdout);
  });

  it('an explicit source wins over the Kptfile', () => {
    const pkg = withKptfile(
      '  mutators:\n  - exec: secret-rollout\n    configMap:\n      storeWave: "-9"\n',
    );
    expect(plan(pkg, { settings: { storeWave: '-7' } }).stdout.split('\n')[1]).toBe(storeRow('-7'));
    const fnConfig = { path: 'c.yaml', text: typedConfig('c.yaml', '-8') };
    expect(plan(pkg, { fnConfig }).stdout.split('\n')[1]).toBe(storeRow('-8'));
  });

  it('refuses several candidates and conflicting sources, in one line naming them', () => {
    const two = plan(
      withKptfile(
        '  mutators:\n  - exec: ./secret-rollout.cjs\n  validators:\n  - image: ghcr.io/x/secret-rollout-old:v1\n',
      ),
    );
    expect(two).toEqual({
      stdout: '',
      stderr:
        "error: several secret-rollout functions in the input's Kptfiles: Kptfile pipeline.mutators[0] (exec ./secret-rollout.cjs), Kptfile pipeline.validators[0] (image ghcr.io/x/secret-rollout-old:v1); choose the configuration with --fn-config FILE or key=value (invalid-config)\n",
      exitCode: 1,
    });
    const missing = plan(
      withKptfile('  mutators:\n  - exec: secret-rollout\n    configPath: nowhere.yaml\n'),
    );
    expect(missing.stderr).toBe(
      'error: Kptfile pipeline.mutators[0].configPath nowhere.yaml (nowhere.yaml) is not among the input items; kpt fn source includes it, or give it with --fn-config (invalid-config)\n',
    );
    const both = plan(input, {
      settings: { storeWave: '-7' },
      fnConfig: { path: 'c.yaml', text: typedConfig('c.yaml', '-8') },
    });
    expect(both.stderr).toBe(
      'error: conflicting configuration: key=value arguments and --fn-config c.yaml; give only one (invalid-config)\n',
    );
    const listAndArgs = plan(
      resourceList([store], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n'),
      {
        settings: { storeWave: '-7' },
      },
    );
    expect(listAndArgs.stderr).toBe(
      "error: conflicting configuration: key=value arguments and the ResourceList's functionConfig; give only one (invalid-config)\n",
    );
  });

  it('names the source of a bad option', () => {
    const bad = plan(
      withKptfile('  mutators:\n  - exec: secret-rollout\n    configMap:\n      storeWave: soon\n'),
      { verbose: true },
    );
    // No table and no "options from" line: nothing was planned.
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe(
      'error: functionConfig (Kptfile pipeline.mutators[0].configMap): data.storeWave must be a 64-bit integer [data.storeWave] (invalid-config)\n',
    );
    const file = plan(input.replace(/functionConfig[\s\S]*$/, ''), {
      fnConfig: { path: 'c.yaml', text: 'kind: [' },
    });
    expect(file.stderr).toMatch(
      /^error: --fn-config c\.yaml: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a \] at line 1, column 8 \(invalid-config\)\n$/,
    );
  });

  it('prints no plan, in any format, when an item cannot be read or the options are bad', () => {
    // Main printed "ordering: none" and an empty table (JSON: `"ordering": []`) before the error.
    const error =
      'error: document 0: invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 2, column 1 (invalid-input)\n';
    for (const format of ['table', 'mermaid', 'json'] as const) {
      expect(plan('a: [\n', { format })).toEqual({ stdout: '', stderr: error, exitCode: 1 });
      const badOption = plan(deployment('app', envFrom('db')), {
        format,
        settings: { storeWave: 'soon' },
      });
      expect(badOption.stdout).toBe('');
      expect(badOption.exitCode).toBe(1);
    }
  });
});

describe('--fn-config for the run', () => {
  it('configures a stream as key=value does', () => {
    const stream = `${store}---\n${externalSecret('db', { namespace: 'shop' })}`;
    const viaFile = run(stream, {
      fnConfig: { path: 'c.yaml', text: typedConfig('c.yaml', '-6') },
    });
    expect(viaFile.exitCode).toBe(0);
    expect(viaFile.stdout).toBe(run(stream, { settings: { storeWave: '-6' } }).stdout);
    expect(viaFile.stdout).toContain('argocd.argoproj.io/sync-wave: "-6"');
  });
});

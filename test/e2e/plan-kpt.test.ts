// `kpt fn source . | secret-rollout plan` against what `kpt fn render` really writes, with the
// options only the Kptfile gives (configMap, configPath): the waves and checksums plan reports
// must be the ones render puts in the files. Runs the real kpt and the built CLI, on copies of
// example packages in a temporary directory (kpt runs from the example directory so the Kptfile's
// relative exec path resolves, as in kpt.test.ts).
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { findOnPath } from '../helpers.js';

const repoRoot = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'));
const cli = join(repoRoot, 'dist/secret-rollout.cjs');
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'secret-rollout-plan-')));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Obj = Record<string, unknown>;
interface Ref {
  kind: string;
  namespace?: string;
  name: string;
}
interface PlanJson {
  nodes: (Ref & { wave: string | null; waveSource: string | null })[];
  checksums: { resource: Ref; field: string; annotation: string; value: string }[];
  results: { severity: string; message: string }[];
}

function sh(command: string, args: string[], cwd: string, input?: string) {
  const r = spawnSync(command, args, { cwd, input, encoding: 'utf8', timeout: 60_000 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A copy of an example package; `edit` rewrites its Kptfile. */
function copyExample(name: string, edit: (kptfile: string) => string = (k) => k): string {
  if (findOnPath('kpt') === undefined) throw new Error('kpt is not on PATH (see README)');
  const pkg = join(tmp, `${name}-${readdirSync(tmp).length}`);
  cpSync(join(repoRoot, 'examples', name), pkg, { recursive: true });
  writeFileSync(join(pkg, 'Kptfile'), edit(readFileSync(join(pkg, 'Kptfile'), 'utf8')));
  return pkg;
}

function planOf(example: string, pkg: string, ...args: string[]) {
  const source = sh('kpt', ['fn', 'source', pkg], join(repoRoot, 'examples', example));
  expect(source.status, source.stderr).toBe(0);
  return sh(process.execPath, [cli, 'plan', ...args], tmp, source.stdout);
}

/** Every resource of the package after `kpt fn render`. */
function rendered(example: string, pkg: string): Obj[] {
  const r = sh('kpt', ['fn', 'render', '--allow-exec', pkg], join(repoRoot, 'examples', example));
  expect(r.status, r.stderr).toBe(0);
  return readdirSync(pkg)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => loadAll(readFileSync(join(pkg, f), 'utf8')) as Obj[]);
}

const at = (value: unknown, path: string[]) =>
  path.reduce<unknown>((node, key) => (node as Obj | undefined)?.[key], value);

function find(items: Obj[], ref: Ref): Obj {
  const found = items.filter(
    (i) =>
      i.kind === ref.kind &&
      at(i, ['metadata', 'name']) === ref.name &&
      at(i, ['metadata', 'namespace']) === ref.namespace,
  );
  expect(found, `${ref.kind} ${ref.namespace}/${ref.name}`).toHaveLength(1);
  return found[0] as Obj;
}

/** `spec.template.metadata.annotations[key]` → the value there. */
function fieldValue(item: Obj, field: string): unknown {
  const m = /^(.*)\.annotations\[(.*)\]$/.exec(field);
  if (!m) throw new Error(`unexpected field ${field}`);
  return at(item, [...(m[1] as string).split('.'), 'annotations', m[2] as string]);
}

/** plan's waves and checksums are exactly what render wrote. */
function expectSame(plan: PlanJson, items: Obj[]): void {
  for (const node of plan.nodes) {
    if (node.waveSource === 'default') continue;
    const wave = at(find(items, node), ['metadata', 'annotations', 'argocd.argoproj.io/sync-wave']);
    expect(wave, `${node.kind} ${node.name}`).toBe(node.wave);
  }
  for (const c of plan.checksums) {
    expect(fieldValue(find(items, c.resource), c.field), c.field).toBe(c.value);
  }
}

describe('plan from kpt fn source equals kpt fn render', () => {
  it('Kptfile configMap: checksumAnnotation and storeWave', { timeout: 120_000 }, () => {
    const withConfig = (k: string) =>
      k.replace(
        '- exec: ../../dist/secret-rollout.cjs\n',
        '- exec: ../../dist/secret-rollout.cjs\n      configMap:\n        checksumAnnotation: example.com/secret-checksum\n        storeWave: "-7"\n',
      );
    const pkg = copyExample('basic', withConfig);
    const out = planOf('basic', pkg, '--format', 'json');
    expect(out.status, out.stderr).toBe(0);
    const plan = JSON.parse(out.stdout) as PlanJson;
    expect(plan.nodes.map((n) => `${n.wave} ${n.waveSource} ${n.kind} ${n.name}`)).toEqual([
      '-7 planned ClusterSecretStore vault-backend',
      '-1 planned ExternalSecret db',
      '0 default Deployment api',
    ]);
    expect(plan.checksums.map((c) => c.annotation)).toEqual(['example.com/secret-checksum']);
    expectSame(plan, rendered('basic', pkg));

    const table = planOf('basic', pkg, '--verbose');
    expect(table.stderr.split('\n')[0]).toBe(
      'secret-rollout: options from Kptfile pipeline.mutators[0].configMap',
    );
    expect(table.stdout).toContain('example.com/secret-checksum=');
  });

  it('Kptfile configPath (examples/config-typed: storeWave -10)', { timeout: 120_000 }, () => {
    const pkg = copyExample('config-typed');
    const plan = JSON.parse(planOf('config-typed', pkg, '--format=json').stdout) as PlanJson;
    expect(plan.nodes[0]).toMatchObject({ kind: 'ClusterSecretStore', wave: '-10' });
    expectSame(plan, rendered('config-typed', pkg));
  });

  it('--fn-config wins over the Kptfile; with key=value too it is an error', () => {
    const pkg = copyExample('config-typed');
    const config = join(tmp, 'fn-config.yaml');
    writeFileSync(
      config,
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata:\n  storeWave: "-4"\n',
    );
    const out = planOf('config-typed', pkg, '--fn-config', config);
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n')[1]).toMatch(/^-4 +ClusterSecretStore +vault-backend /);
    const both = planOf('config-typed', pkg, `--fn-config=${config}`, 'storeWave=-3');
    expect(both).toEqual({
      status: 1,
      stdout: '',
      stderr: `error: conflicting configuration: key=value arguments and --fn-config ${config}; give only one (invalid-config)\n`,
    });
    const missing = planOf('config-typed', pkg, '--fn-config', join(tmp, 'nope.yaml'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /^secret-rollout: cannot read --fn-config .*nope\.yaml: no such file or directory/,
    );
    const format = planOf('config-typed', pkg, '--format', 'yaml');
    expect(format.status).toBe(1);
    expect(format.stderr.split('\n')[0]).toBe(
      'secret-rollout: --format must be one of table, mermaid, json',
    );
  });

  it('wave conflict: the table with the rows marked, the error after it, exit 1', () => {
    const pkg = copyExample('wave-conflict');
    const out = planOf('wave-conflict', pkg);
    expect(out.status).toBe(1);
    expect(out.stdout.split('\n')).toEqual([
      'WAVE  KIND            NAME                           DETAIL',
      '-2    SecretStore     storefront/gcp-secret-manager  before storefront/api-token',
      '0     Deployment      storefront/frontend            checksum/external-secrets=ce04d16c5448…; CONFLICT: not above ExternalSecret storefront/api-token (wave 3)',
      '3     ExternalSecret  storefront/api-token           writes Secret storefront/api-token; CONFLICT: not below Deployment storefront/frontend (wave 0)',
      '',
    ]);
    expect(out.stderr).toBe(
      'error: ExternalSecret storefront/api-token has sync-wave 3, not below Deployment storefront/frontend (wave 0), so Argo CD may apply it too late: set argocd.argoproj.io/sync-wave to "-1" or lower, or remove it to let secret-rollout choose [ExternalSecret storefront/api-token metadata.annotations[argocd.argoproj.io/sync-wave] external-secret.yaml] (wave-conflict)\n',
    );
  });
});

describe('--fn-config for the run', () => {
  it('configures a stream like key=value', () => {
    const pkg = copyExample('config-typed');
    const stream = readdirSync(pkg)
      .filter((f) => f.endsWith('.yaml') && f !== 'secret-rollout.yaml')
      .map((f) => readFileSync(join(pkg, f), 'utf8'))
      .join('---\n');
    const viaFile = sh(
      process.execPath,
      [cli, '--fn-config', join(pkg, 'secret-rollout.yaml')],
      tmp,
      stream,
    );
    expect(viaFile.status, viaFile.stderr).toBe(0);
    expect(viaFile.stdout).toBe(sh(process.execPath, [cli, 'storeWave=-10'], tmp, stream).stdout);
    expect(viaFile.stdout).toContain('argocd.argoproj.io/sync-wave: "-10"');
  });
});

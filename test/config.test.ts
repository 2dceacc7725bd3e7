// functionConfig: ConfigMap and SecretRollout, the same options, clear errors naming the field.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, isAnnotationKey, readConfig } from '../src/model/config.js';
import { ruleCatalog } from '../src/rules/rule-table.js';
import { run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  find,
  itemsOf,
  repoRoot,
  resourceList,
  resultsOf,
  runOk,
  templateAnnotation,
} from './helpers.js';

const configMap = (data: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'function-input' },
  data,
});
const typed = (fields: Record<string, unknown>) => ({
  apiVersion: 'fn.kpt.dev/v1alpha1',
  kind: 'SecretRollout',
  metadata: { name: 'x' },
  ...fields,
});

describe('configuration', () => {
  it('defaults for no config and for an empty ConfigMap', () => {
    expect(readConfig(undefined, ruleCatalog)).toEqual(defaultConfig);
    expect(
      readConfig(
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' } },
        ruleCatalog,
      ),
    ).toEqual(defaultConfig);
  });

  it('reads the same options from a ConfigMap (strings) and SecretRollout (typed)', () => {
    const fromStrings = readConfig(
      configMap({
        checksumAnnotation: 'example.com/secrets',
        syncWaves: 'false',
        storeWave: '-7',
        externalSecretWave: '-3',
        waveConflictSeverity: 'warning',
        imagePullSecrets: 'true',
      }),
      ruleCatalog,
    );
    const fromTyped = readConfig(
      typed({
        checksumAnnotation: 'example.com/secrets',
        syncWaves: false,
        storeWave: -7,
        externalSecretWave: -3,
        waveConflictSeverity: 'warning',
        imagePullSecrets: true,
      }),
      ruleCatalog,
    );
    expect(fromStrings).toEqual(fromTyped);
    expect(fromStrings.storeWave).toBe(-7n);
  });

  it.each([
    [configMap({ storeWave: '1.5' }), 'data.storeWave must be a 64-bit integer'],
    [configMap({ nope: 'x' }), 'unknown option data.nope'],
    [typed({ nope: 1 }), 'unknown option nope (known: checksumAnnotation,'],
    [
      configMap({ checksumAnnotation: 'bad key!' }),
      'data.checksumAnnotation must be a valid annotation key',
    ],
    [configMap({ syncWaves: 'yes' }), 'data.syncWaves must be true or false'],
    [
      typed({ waveConflictSeverity: 'warn' }),
      'waveConflictSeverity must be one of error, warning, info',
    ],
    [
      { apiVersion: 'v1', kind: 'Secret' },
      'functionConfig must be a v1 ConfigMap or fn.kpt.dev/v1alpha1 SecretRollout',
    ],
    [['a'], 'functionConfig is a list'],
    // A misspelt typed kind: named by the kind it is near, the one given never quoted.
    [
      { apiVersion: 'fn.kpt.dev/v1alpha1', kind: 'SecretRolout' },
      'its apiVersion and kind name another type; did you mean kind SecretRollout?',
    ],
    [{ apiVersion: 'v1', kind: 'Secret' }, /another type$/],
    [
      configMap({ severity: 'fatal' }),
      'data.severity: entry 1 has no colon: give rule-id:severity',
    ],
    [
      configMap({ ordering: 'argocd, argocd' }),
      'data.ordering: entry 2 names argocd again: give each deployer once',
    ],
    [typed({ ordering: ['kapp', 'depends-on', 'kapp'] }), 'ordering: entry 3 names kapp again'],
  ])('rejects %j', (config, message) => {
    expect(() => readConfig(config, ruleCatalog)).toThrow(message);
  });

  it('reports a bad config as an error result with the field, items unchanged', () => {
    const input = resourceList(
      [externalSecret('db'), deployment('app', envFrom('db'))],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  storeWave: abc\n',
    );
    const out = run(input);
    expect(out.exitCode).toBe(1);
    expect(resultsOf(out.stdout)).toEqual([
      {
        severity: 'error',
        message: expect.stringContaining('storeWave must be a 64-bit integer'),
        field: { path: 'data.storeWave' },
        tags: { rule: 'invalid-config' },
      },
    ]);
    expect(out.stdout.startsWith(input)).toBe(true);
  });

  it('takes key=value settings for streams, as kpt fn eval does for ResourceLists', () => {
    const stream = `${externalSecret('db')}---\n${deployment('app', envFrom('db'))}`;
    const out = run(stream, { settings: { checksumAnnotation: 'example.com/es' } });
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toMatch(/example\.com\/es: "[0-9a-f]{64}"/);
  });

  it('names the line and column of a bad field of a --fn-config file', () => {
    const stream = `${externalSecret('db')}---\n${deployment('app', envFrom('db'))}`;
    const error = (text: string) => run(stream, { fnConfig: { path: 'f.yaml', text } }).stderr;
    const configMap =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f\ndata:\n  ordering: argocd\n  storeWave: abc\n';
    expect(error(configMap)).toBe(
      'error: --fn-config f.yaml, line 7, column 3: data.storeWave must be a 64-bit integer [data.storeWave] (invalid-config)\n',
    );
    const flow =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata: {ordering: argocd, storWave: "1"}\n';
    expect(error(flow)).toMatch(
      /^error: --fn-config f\.yaml, line 4, column 26: unknown option data\.storWave/,
    );
    // Columns count code points, as the YAML library's own messages do: each emoji is one.
    const wide = `{apiVersion: v1, kind: ConfigMap, metadata: {name: f, annotations: {a: "${'\u{1F600}'.repeat(4)}"}}, data: {storWave: "1"}}\n`;
    expect(error(wide)).toMatch(
      /^error: --fn-config f\.yaml, line 1, column 89: unknown option data\.storWave/,
    );
    const typed =
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: f}\n"storeWave": abc\n';
    expect(error(typed)).toMatch(
      /^error: --fn-config f\.yaml, line 4, column 1: storeWave must be/,
    );
    // Every bad option at once, each on its line.
    const two = `${typed}checksumAnotation: x\n`;
    expect(error(two).split('\n')).toEqual([
      expect.stringMatching(/^error: --fn-config f\.yaml, line 4, column 1: storeWave must be/),
      expect.stringMatching(
        /^error: --fn-config f\.yaml, line 5, column 1: unknown option checksumAnotation, did you mean checksumAnnotation\?/,
      ),
      '',
    ]);
  });

  it('rejects an unknown key=value option', () => {
    const stream = `${externalSecret('db')}---\n${deployment('app', envFrom('db'))}`;
    const out = run(stream, { settings: { storWave: '-3' } });
    expect(out.exitCode).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(
      /^error: key=value arguments: unknown option storWave, did you mean storeWave\? \(known: /,
    );
  });

  it.each([
    [
      'ConfigMap',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  storeWave: "-3"\n  storeWave: "-4"\n',
    ],
    [
      'SecretRollout',
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: f}\nstoreWave: -3\nstoreWave: -4\n',
    ],
  ])('rejects an option repeated in a %s (a duplicated YAML key), naming its line', (_, config) => {
    const input = resourceList([externalSecret('db'), deployment('app', envFrom('db'))], config);
    const out = run(input);
    expect(out.exitCode).toBe(1);
    // (the input, written back unchanged, does not load: read the results alone)
    const [result, ...rest] = resultsOf(out.stdout.slice(out.stdout.indexOf('results:')));
    expect(rest).toEqual([]);
    const line = Number(
      /^functionConfig: invalid YAML: Map keys must be unique at line (\d+), column \d+$/.exec(
        String(result?.message),
      )?.[1],
    );
    expect(input.split('\n')[line - 1]).toMatch(/^\s+storeWave: "?-4"?$/);
  });

  it('rejects a key=value option given twice on the command line, naming it', () => {
    const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
    if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
    const input = `${externalSecret('db')}---\n${deployment('app', envFrom('db'))}`;
    const cliRun = (...args: string[]) =>
      spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
    const twice = cliRun('storeWave=-3', 'storeWave=-4');
    expect(twice.status).toBe(1);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toBe('secret-rollout: option storeWave given twice\n');
    const planTwice = cliRun('plan', 'storeWave=-3', 'storeWave=-3');
    expect(planTwice.status).toBe(1);
    expect(planTwice.stderr).toBe('secret-rollout: option storeWave given twice\n');
    const once = cliRun('storeWave=-9', 'externalSecretWave=-5');
    expect(once.status).toBe(0);
    expect(once.stdout).toContain('argocd.argoproj.io/sync-wave: "-5"');
  });

  it('uses the configured annotation key', () => {
    const input = resourceList(
      [externalSecret('db'), deployment('app', envFrom('db'))],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  checksumAnnotation: example.com/es\n',
    );
    const app = find(itemsOf(runOk(input).stdout), 'Deployment', 'app');
    expect(templateAnnotation(app, 'example.com/es')).toMatch(/^[0-9a-f]{64}$/);
    expect(templateAnnotation(app)).toBeUndefined();
  });

  it('validates annotation keys like Kubernetes', () => {
    expect(isAnnotationKey('checksum/external-secrets')).toBe(true);
    expect(isAnnotationKey('a.b.c/x_y.z')).toBe(true);
    expect(isAnnotationKey('plain')).toBe(true);
    expect(isAnnotationKey('Upper.Case/x')).toBe(false);
    expect(isAnnotationKey('a/b/c')).toBe(false);
    expect(isAnnotationKey(`x/${'a'.repeat(64)}`)).toBe(false);
    expect(isAnnotationKey('x/-a')).toBe(false);
  });
});

describe('summary line', () => {
  const input = (config?: string) =>
    resourceList([externalSecret('db'), deployment('app', envFrom('db'))], config);

  it('is printed on stderr with --verbose or `verbose: true`, never on stdout', () => {
    const flag = run(input(), { verbose: true });
    const configured = run(
      input('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  verbose: "true"\n'),
    );
    for (const out of [flag, configured]) {
      expect(out.exitCode).toBe(0);
      const results = resultsOf(out.stdout).length;
      expect(out.stderr).toMatch(
        new RegExp(`^secret-rollout: 2 items, 2 annotations set, ${results} results in \\d+ ms\n$`),
      );
      expect(out.stdout).not.toMatch(/secret-rollout:/);
    }
    expect(flag.stdout).toBe(run(input()).stdout);
  });

  it('counts in the singular for one', () => {
    const one = run(resourceList([deployment('app', envFrom('db'))], undefined), { verbose: true });
    expect(one.stderr).toMatch(
      /^secret-rollout: 1 item, 0 annotations set, 0 results in \d+ ms\n$/,
    );
  });

  it('is not printed by default', () => {
    expect(run(input()).stderr).toBe('');
  });
});

describe("option names that are Object.prototype's", () => {
  // Each was accepted silently (constructor, toString, isPrototypeOf: exit 0), dropped
  // (`__proto__` assigned to a plain object sets nothing) or an internal error (hasOwnProperty,
  // valueOf, __defineGetter__ called as parsers; `__proto__` as one: "is not a function").
  const names = [
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    '__proto__',
    '__defineGetter__',
  ];
  const items = [externalSecret('db'), deployment('app', envFrom('db'))];
  const stream = items.join('---\n');
  const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
  const cliRun = (args: string[], input: string) =>
    spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
  /** One line naming the option as unknown; no internal error. */
  const unknown = (stderr: string, option: string) => {
    expect(stderr).not.toContain('internal error');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`unknown option ${option} (known: checksumAnnotation,`);
  };

  it.each(names)('%s=x on the command line is an unknown option', (name) => {
    const out = cliRun([`${name}=x`], stream);
    expect(out.status).toBe(1);
    expect(out.stdout).toBe('');
    // Named as written on the command line, not as a ConfigMap's field.
    unknown(out.stderr, name);
    expect(out.stderr).toContain('key=value arguments: ');
  });

  it.each(names)('%s in a ConfigMap, a SecretRollout, a Kptfile and --fn-config', (name) => {
    const configMapText = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  ${name}: x\n`;
    const typedText = `apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: f}\n${name}: x\n`;
    for (const [config, option] of [
      [configMapText, `data.${name}`],
      [typedText, name],
    ] as const) {
      const fromList = run(resourceList(items, config));
      expect(fromList.exitCode, config).toBe(1);
      const [result, ...rest] = resultsOf(
        fromList.stdout.slice(fromList.stdout.indexOf('results:')),
      );
      expect(rest).toEqual([]);
      expect(result?.severity).toBe('error');
      unknown(String(result?.message), option);
      const fromFile = run(stream, { fnConfig: { path: 'f.yaml', text: config } });
      expect(fromFile.exitCode, config).toBe(1);
      unknown(fromFile.stderr, option);
    }
    // JSON in: JSON.parse makes `__proto__` an own key too.
    const json = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [],
      functionConfig: JSON.parse(`{"apiVersion":"v1","kind":"ConfigMap","data":{"${name}":"x"}}`),
    });
    const fromJson = cliRun([], json);
    expect(fromJson.status).toBe(1);
    expect(fromJson.stderr).not.toContain('internal error');
    expect(fromJson.stdout).toContain(`unknown option data.${name} (known: `);
    const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\npipeline:\n  mutators:\n  - exec: secret-rollout\n    configMap:\n      ${name}: x\n`;
    const planned = cliRun(['plan'], `${kptfile}---\n${stream}`);
    expect(planned.status).toBe(1);
    unknown(planned.stderr, `data.${name}`);
  });
});

// Issue #20 §2: nothing secret leaves through annotations or messages.
//
// Secret values: without `secretChecksumKey` no digest of a Secret value is written (an unkeyed
// SHA-256 of a PIN is brute-forced in seconds from any pod, README "Secret values"), one warning
// says so, and the key, when given, is never printed, whichever way it is given.
import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dump, loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionNames } from '../src/model/config.js';
import { ruleCatalog } from '../src/rules/rule-table.js';
import { check, plan, run } from '../src/run.js';
import {
  deployment,
  envFrom,
  insertedLines,
  repoRoot,
  resourceList,
  secretKeyRef,
} from './helpers.js';

const cli = path.join(repoRoot, 'dist/secret-rollout.cjs');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The built command: what CI, kpt and kustomize run. */
function cliRun(args: readonly string[], input = '') {
  const out = spawnSync(process.execPath, [cli, ...args], { input, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

// --- Secret values ---------------------------------------------------------------------------

const pinA = '731904';
const pinB = '731905';
const userValue = 'CANARY-USER-VALUE';
const caValue = 'CANARY-CA-VALUE';
const key = 'CANARY-HMAC-KEY-0f-32-random-bytes';

/** A plain Secret opted in, and a Secret an ExternalSecret's template reads, both consumed. */
const secrets = (pin: string, ca = caValue) => [
  `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
data:
  pin: ${b64(pin)}
stringData:
  user: ${userValue}
`,
  `apiVersion: v1
kind: Secret
metadata:
  name: tpl-secret
  namespace: shop
data:
  ca.crt: ${b64(ca)}
`,
  ...['app', 'app2'].map(
    (name) => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: ${name}
  namespace: shop
spec:
  secretStoreRef: {name: vault}
  target:
    template:
      templateFrom:
      - secret:
          name: tpl-secret
          items:
          - key: ca.crt
  data:
  - secretKey: user
    remoteRef: {key: app, property: user, version: "1"}
`,
  ),
  deployment('api', `${envFrom('db')}\n- secretRef: {name: app}`, { namespace: 'shop' }),
  deployment('pin-reader', secretKeyRef('db', 'pin'), { namespace: 'shop' }),
  deployment('app2-reader', envFrom('app2'), { namespace: 'shop' }),
];
const stream = (pin: string, ca?: string) => secrets(pin, ca).join('---\n');
const optIn = 'secretChecksumAnnotation=checksum/secrets';

/** A run copies its input through (the Secrets, the functionConfig): what it adds is its own. */
const ownOutput = (text: string, o: ReturnType<typeof cliRun>) =>
  `${insertedLines(text, o.stdout).join('\n')}\n${o.stderr}`;

/** Every way a run shows something: stream run, ResourceList run, plan, check, all verbose. */
function everything(pin: string, extra: readonly string[] = [], ca?: string): string {
  const args = [optIn, ...extra];
  const config = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fn}\ndata:\n${args
    .map((a) => `  ${a.replace('=', ': ')}\n`)
    .join('')}`;
  const input = stream(pin, ca);
  const list = resourceList(secrets(pin, ca), config);
  const outs = [
    ownOutput(input, cliRun(['--verbose', ...args], input)),
    ownOutput(list, cliRun(['--verbose'], list)),
    ...[
      ['plan', '--verbose'],
      ['plan', '--format', 'json'],
      ['plan', '--format', 'mermaid'],
      ['check', '--verbose'],
    ].map((command) => {
      const o = cliRun([...command, ...args], input);
      return `${o.stdout}\n${o.stderr}`;
    }),
  ];
  return outs.join('\n').replace(/ in \d+ ms/g, '');
}

describe('Secret values without secretChecksumKey', () => {
  it('leave no trace in the output: the same whatever the values are', () => {
    // Timings aside, byte for byte: nothing written depends on a value.
    expect(everything(pinB, [], 'CANARY-OTHER-CA')).toBe(everything(pinA));
  });

  it('no digest of a value, nor a checksum an attacker would build from one, is written', () => {
    const out = everything(pinA);
    const digests = [pinA, userValue, caValue].map(sha256);
    // What main wrote: the pod template's checksum over the per-key SHA-256 of the PIN, which a
    // 10⁶-guess loop reverses (bench/brute-force.mjs).
    const guessed = sha256(`[{"content":{"data":{"pin":"${sha256(pinA)}"}},"secret":"db"}]`);
    for (const trace of [...digests, guessed, pinA, b64(pinA), userValue, caValue]) {
      expect(out).not.toContain(trace);
    }
  });

  it('say so once per run, naming the option and every Secret not covered, never a value', () => {
    const out = cliRun([optIn], stream(pinA));
    expect(out.code).toBe(0);
    const warnings = out.stderr.split('\n').filter((l) => l.includes('secretChecksumKey'));
    expect(warnings).toEqual([
      'warning: secretChecksumKey is not set, so checksums cover only the type and key names of Secret shop/db, Secret shop/tpl-secret, never a digest of their values: nothing rolls when only a value changes. Set secretChecksumKey to a random key kept secret (openssl rand -hex 32) to cover values with HMAC-SHA256 (secret-checksum-key)',
    ]);
    // Without the opt-in only the templateFrom Secret counts; nothing at all without Secrets.
    const templateOnly = cliRun([], stream(pinA)).stderr;
    expect(templateOnly).toContain('key names of Secret shop/tpl-secret, never');
    const noSecrets = stream(pinA).split('---\n').slice(4).join('---\n');
    expect(cliRun([optIn], noSecrets).stderr).not.toContain('secretChecksumKey');
  });

  it('a value change moves nothing; a key added or removed does', () => {
    const sums = (text: string) =>
      cliRun(['plan', '--format', 'json', optIn], text).stdout.match(/[0-9a-f]{64}/g);
    expect(sums(stream(pinB))).toEqual(sums(stream(pinA)));
    const added = stream(pinA).replace(`  user: ${userValue}\n`, `  user: ${userValue}\n  x: y\n`);
    expect(sums(added)).not.toEqual(sums(stream(pinA)));
  });
});

describe('Secret values with secretChecksumKey', () => {
  const keyed = `secretChecksumKey=${key}`;

  it('an HMAC-SHA256 per key: a value change moves the checksums; no warning', () => {
    expect(everything(pinB, [keyed])).not.toBe(everything(pinA, [keyed]));
    expect(everything(pinA, [keyed], 'CANARY-OTHER-CA')).not.toBe(everything(pinA, [keyed]));
    const out = cliRun([optIn, keyed], stream(pinA));
    expect(out.code).toBe(0);
    expect(out.stderr).not.toContain('secretChecksumKey');
    // The documented value: the checksum over the HMAC of the one key read.
    const hmac = createHmac('sha256', key).update(pinA).digest('hex');
    expect(out.stdout).toContain(sha256(`[{"content":{"data":{"pin":"${hmac}"}},"secret":"db"}]`));
  });

  it('is never printed, however it is given', () => {
    const out = everything(pinA, [keyed]);
    for (const trace of [key, pinA, b64(pinA), userValue, caValue, sha256(pinA)]) {
      expect(out).not.toContain(trace);
    }
    // In a Kptfile's configMap (plan reads it from `kpt fn source`) and in --fn-config.
    const kptfile = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata: {name: pkg, annotations: {config.kubernetes.io/local-config: "true"}}
pipeline:
  mutators:
  - exec: secret-rollout
    configMap: {secretChecksumAnnotation: checksum/secrets, secretChecksumKey: ${key}}
`;
    const withKptfile = [kptfile, ...secrets(pinA)].join('---\n');
    const fromKptfile = [
      cliRun(['plan', '--verbose'], withKptfile),
      cliRun(['plan', '--format', 'json'], withKptfile),
      cliRun(['check', '--verbose'], resourceList([kptfile, ...secrets(pinA)])),
    ];
    for (const o of fromKptfile) expect(o.stderr).not.toContain(key);
    for (const o of fromKptfile.slice(0, 2)) expect(o.stdout).not.toContain(key);
    // A bad value of another option next to the key: the error names the option, not the key.
    const bad = cliRun([optIn, keyed, 'storeWave=x'], stream(pinA));
    expect(bad.code).toBe(1);
    expect(`${bad.stdout}${bad.stderr}`).not.toContain(key);
    // In a --fn-config file: named by its path, never its content.
    const scratch = mkdtempSync(path.join(tmpdir(), 'no-leaks-'));
    try {
      const file = path.join(scratch, 'fn.yaml');
      writeFileSync(
        file,
        `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fn}\ndata: {secretChecksumAnnotation: checksum/secrets, secretChecksumKey: ${key}}\n`,
      );
      for (const command of [['--verbose'], ['plan', '--verbose'], ['check', '--verbose']]) {
        const o = cliRun([...command, '--fn-config', file], stream(pinA));
        if (command[0] === 'plan') expect(o.stderr).toContain(`options from --fn-config ${file}`);
        const own = command[0] === '--verbose' ? ownOutput(stream(pinA), o) : o.stdout + o.stderr;
        expect(own).not.toContain(key);
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  describe('impact', () => {
    let scratch: string;
    beforeAll(() => {
      scratch = mkdtempSync(path.join(tmpdir(), 'no-leaks-'));
    });
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('names the key that changed, never a value, a digest or the key', () => {
      for (const [side, pin] of [
        ['base', pinA],
        ['head', pinB],
      ] as const) {
        mkdirSync(path.join(scratch, side), { recursive: true });
        writeFileSync(path.join(scratch, side, 'all.yaml'), stream(pin));
      }
      const [base, head] = ['base', 'head'].map((s) => path.join(scratch, s));
      const outs = ['markdown', 'json', 'sarif'].map((format) =>
        cliRun(['impact', base as string, head as string, '--format', format, optIn, keyed]),
      );
      const hmacs = [pinA, pinB].map((pin) => createHmac('sha256', key).update(pin).digest('hex'));
      for (const o of outs) {
        expect(o.code).toBe(0);
        for (const trace of [key, pinA, pinB, b64(pinA), userValue, ...hmacs]) {
          expect(`${o.stdout}${o.stderr}`).not.toContain(trace);
        }
      }
      expect(outs[1]?.stdout).toContain('data[pin] changed');
    });
  });
});

// --- Values in messages ----------------------------------------------------------------------
//
// An error (or any result) names a type, a field path, a line and a column, and resources by
// kind, namespace and name: never text of the input. Canary values go into every field of every
// kind of bad input; no message may hold one. Identifiers are not values and stay out of the
// canaries: apiVersion, kind, metadata.name and metadata.namespace, the names a reference gives
// (`name`, `secretName`, …, which messages use to name the resource), the keys of a Secret or
// ConfigMap (`key`, `secretKey`: a key name is in the pod spec that reads it), and kpt's path
// annotations (a file path).

const canary = /CANARY-\d+-VALUE|987654321098765432109/;
const identifiers = new Set([
  'apiVersion',
  'kind',
  'name',
  'namespace',
  'secretName',
  'secretNamespace',
  'configMapName',
  'configMapNamespace',
  'externalSecretName',
  'secretProviderClass',
  'key',
  'secretKey',
  'secretKeyName',
  'configPath',
]);
const pathAnnotation =
  /^(?:internal\.)?config\.kubernetes\.io\/(?:path|index)$|^config\.k8s\.io\/id$/;

let serial = 0;
const nextCanary = () => `CANARY-${++serial}-VALUE`;

/** What a run printed of its own: stderr, and what of stdout is not a copy of the input. */
function printed(input: string, out: { stdout: string; stderr: string }): string {
  let own: string;
  try {
    own = JSON.stringify((JSON.parse(out.stdout) as { results?: unknown }).results ?? null);
  } catch {
    const lines = new Set(input.split('\n'));
    own = out.stdout
      .split('\n')
      .filter((line) => !lines.has(line))
      .join('\n');
  }
  return `${own}\n${out.stderr}`;
}

function expectNoCanary(label: string, input: string, out: { stdout: string; stderr: string }) {
  const shown = printed(input, out);
  const leak = canary.exec(shown);
  const line = leak ? shown.split('\n').find((l) => l.includes(leak[0])) : '';
  expect(leak, `${label}: a message quotes input text: ${line}`).toBeNull();
}

/** Values of a YAML or JSON text replaced by canaries, identifiers kept (a text transform). */
function withCanaries(text: string): string {
  const isId = (key: string) => identifiers.has(key) || pathAnnotation.test(key);
  return (
    text
      // JSON: "key": "value"
      .replace(/"([^"\n]+)"(\s*:\s*)"[^"\n]*"/g, (all, key: string, colon: string) =>
        isId(key) ? all : `"${key}"${colon}"${nextCanary()}"`,
      )
      // YAML: key: value (block or flow), quoted or plain, not a collection, alias or block scalar
      .replace(
        /(^|[{,]\s*|^\s*(?:- )*)([A-Za-z_][\w./-]*): (?![{[|>&*!#\s])("[^"\n]*"|'[^'\n]*'|[^,}\]\n#]*[^,}\]\n#\s])/gm,
        (all, lead: string, key: string, value: string) =>
          isId(key) || value.endsWith(':')
            ? all
            : `${lead}${key}: ${value.startsWith('"') ? `"${nextCanary()}"` : value.startsWith("'") ? `'${nextCanary()}'` : nextCanary()}`,
      )
      // YAML: a scalar entry of a block sequence
      .replace(
        /^(\s*- )(?![{[|>&*!#\s-])([^:\n#]+)$/gm,
        (_all, lead: string) => lead + nextCanary(),
      )
  );
}

const badInputs = path.join(repoRoot, 'test/bad-inputs');
const badFiles = readdirSync(badInputs).filter(
  (f) => /\.(?:ya?ml|json)$/.test(f) && f !== 'cases.yaml',
);

interface Bad {
  label: string;
  text: string;
  /** key=value settings (run()) and CLI arguments. */
  args?: string[];
  check?: boolean;
}

const es = (extra = '') => `apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata:
  name: db
  namespace: shop
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  data:
  - secretKey: password
    remoteRef: {key: db/prod, version: "3"}
${extra}`;
const consumer = (annotations = '') =>
  deployment('api', envFrom('db'), { namespace: 'shop' }).replace(
    '    metadata:\n',
    `    metadata:\n${annotations ? `      annotations:\n${annotations.replace(/^/gm, '        ')}\n` : ''}`,
  );
const secret = (body: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n${body}`;
const list = (items: string[], functionConfig?: string) => resourceList(items, functionConfig);
const configMapConfig = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fn}\ndata:\n${data.replace(/^/gm, '  ')}\n`;
const typedConfig = (fields: string) =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: fn}\n${fields}\n`;

/** Bad inputs written by hand: one per kind of message that could quote what it is about. */
function handWritten(): Bad[] {
  const c = nextCanary;
  const optIn = ['secretChecksumAnnotation=checksum/secrets', 'configMapChecksumAnnotation=c/cm'];
  const bad: Bad[] = [
    // Documents that are no object: an env file piped by mistake, a scalar, a list.
    { label: 'env file', text: `DB_PASSWORD=${c()}\nAPI_TOKEN=${c()}\n` },
    { label: 'env file with colons', text: `DB_PASSWORD: ${c()}\nAPI_TOKEN: ${c()}\n` },
    { label: 'scalar document', text: `"${c()}"\n` },
    { label: 'list document', text: `- ${c()}\n- ${c()}\n` },
    { label: 'scalar and list items', text: list([`${c()}`, `- ${c()}`]) },
    {
      label: 'items a string',
      text: `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: ${c()}\n`,
    },
    { label: 'results a string', text: `${list([es()])}results: ${c()}\n` },
    // Fields the rules read as mappings or lists, given a string (stringData: "KEY=value").
    {
      label: 'stringData a string',
      text: `${secret(`stringData: "DB_PASSWORD=${c()}"`)}\n---\n${consumer()}`,
      args: optIn,
    },
    { label: 'data a string', text: `${secret(`data: ${c()}`)}\n---\n${consumer()}`, args: optIn },
    {
      label: 'data not base64',
      text: `${secret(`data:\n  password: "${c()} !"`)}\n---\n${consumer()}`,
      args: optIn,
    },
    {
      label: 'data value a list',
      text: `${secret(`data:\n  password: [${c()}]`)}\n---\n${consumer()}`,
      args: optIn,
    },
    {
      label: 'type a mapping',
      text: `${secret(`type: {x: ${c()}}\ndata: {}`)}\n---\n${consumer()}`,
      args: optIn,
    },
    { label: 'metadata a string', text: `apiVersion: v1\nkind: ConfigMap\nmetadata: ${c()}\n` },
    {
      label: 'annotations a string',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: ${c()}\n`,
    },
    {
      label: 'annotation a number',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {a: 987654321098765432109}\n`,
    },
    { label: 'spec a string', text: `${es().replace(/spec:[\s\S]*/, `spec: "${c()}"`)}` },
    {
      label: 'remoteRef a string',
      text: es().replace('remoteRef: {key: db/prod, version: "3"}', `remoteRef: ${c()}`),
    },
    {
      label: 'containers a string',
      text: `${es()}---\n${deployment('api', '', { namespace: 'shop' }).replace(/containers:[\s\S]*/, `containers: ${c()}\n`)}`,
    },
    {
      label: 'env entry a string',
      text: `${es()}---\n${deployment('api', `env:\n- ${c()}`, { namespace: 'shop' })}`,
    },
    {
      label: 'envFrom a string',
      text: `${es()}---\n${deployment('api', `envFrom: ${c()}`, { namespace: 'shop' })}`,
    },
    {
      label: 'secretKeyRef a string',
      text: `${es()}---\n${deployment('api', `env:\n- name: X\n  valueFrom: {secretKeyRef: ${c()}}`, { namespace: 'shop' })}`,
    },
    {
      label: 'volumes items a string',
      text: `${es()}---\n${deployment('api', '', { namespace: 'shop' }).replace('        image: app:1\n', `        image: app:1\n      volumes:\n      - name: v\n        secret: {secretName: db, items: ${c()}}\n`)}`,
    },
    // Annotation values the rules parse.
    {
      label: 'sync-wave',
      text: `${es()}---\n${consumer()}`.replace(
        '  namespace: shop\nspec:\n  secretStoreRef',
        `  namespace: shop\n  annotations: {argocd.argoproj.io/sync-wave: "${c()}"}\nspec:\n  secretStoreRef`,
      ),
    },
    { label: 'opt-out', text: `${es()}---\n${consumer(`secret-rollout/ignore: "${c()}"`)}` },
    {
      label: 'Reloader',
      text: `${es()}---\n${consumer(`reloader.stakater.com/auto: "true"\nsecret.reloader.stakater.com/reload: "${c()},db"`)}`,
    },
    {
      label: 'refreshInterval',
      text: `${es(`  refreshInterval: "${c()}"\n  target:\n    template:\n      templateFrom:\n      - configMap: {name: tpl, items: [{key: a}]}\n`)}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: tpl, namespace: shop}\ndata: {a: "${c()}"}\n---\n${consumer()}`,
    },
    // Check mode: the current value of an annotation the function writes.
    {
      label: 'check: checksum',
      text: `${es()}---\n${consumer(`checksum/external-secrets: "${c()}"`)}`,
      check: true,
    },
    {
      label: 'check: sync-wave',
      text: `${es().replace('  namespace: shop\n', `  namespace: shop\n  annotations: {argocd.argoproj.io/sync-wave: "${c()}"}\n`)}---\n${consumer()}`,
      check: true,
    },
    // YAML the reader refuses, with the canary where the problem is.
    {
      label: 'unterminated quote',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: "${c()}\n`,
    },
    {
      label: 'bad escape',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: "\\q${c()}"}\n`,
    },
    {
      label: 'unknown alias',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: *${c()}}\n`,
    },
    {
      label: 'unknown alias, block',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: *${c()}\n`,
    },
    {
      label: 'tag',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: !!${c()} y}\n`,
    },
    {
      label: 'verbatim tag',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: !<${c()}> y}\n`,
    },
    {
      label: 'directive',
      text: `%${c()} x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n`,
    },
    {
      label: 'YAML version',
      text: `%YAML 9.${c()}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n`,
    },
    {
      label: 'block scalar header',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: |${c()}\n    y\n`,
    },
    {
      label: 'unclosed flow',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: [${c()}, ${c()}\n`,
    },
    {
      label: 'bad indentation',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: ${c()}\n y: ${c()}\n`,
    },
    {
      label: 'tab indentation',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n\tx: ${c()}\n`,
    },
    {
      label: 'compact nested mapping',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: y: ${c()}}\n`,
    },
    {
      label: 'reserved indicator',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: @${c()}}\n`,
    },
    {
      label: 'duplicate key',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: ${c()}\n  x: ${c()}\n`,
    },
    {
      label: 'collection key',
      text: `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  ? [${c()}]\n  : y\n`,
    },
    {
      label: 'invalid YAML in a list',
      text: `${list([es()])}`.replace(
        'version: "3"}',
        `version: "3"}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: "${c()}}`,
      ),
    },
    {
      label: 'invalid JSON',
      text: `{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": ${c()}}}`,
    },
    { label: 'JSON trailing text', text: `{"apiVersion": "v1", "kind": "ConfigMap"} ${c()}` },
    {
      label: 'JSON unterminated string',
      text: `{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "${c()}`,
    },
    {
      label: 'JSON huge number',
      text: `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"a": 987654321098765432109}}`,
    },
    // A functionConfig that is no configuration.
    { label: 'functionConfig a string', text: list([es()], `${c()}`) },
    { label: 'functionConfig a list', text: list([es()], `- ${c()}`) },
    // A type the function does not know is named by the field, never quoted: kinds are input too.
    {
      label: 'functionConfig of another type',
      text: list([es()], `apiVersion: ${c()}\nkind: ${c()}\nmetadata: {name: fn}\n`),
    },
    {
      label: 'target.manifest kind',
      text: es(`  target:\n    manifest: {apiVersion: v1, kind: ${c()}}\n`),
    },
    {
      label: 'generatorRef kind',
      text: es(
        `  refreshInterval: 1h\n  dataFrom:\n  - sourceRef:\n      generatorRef: {apiVersion: generators.external-secrets.io/v1alpha1, kind: ${c()}, name: g}\n`,
      ),
    },
    {
      label: 'ConfigMap data a string',
      text: list([es()], `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fn}\ndata: ${c()}\n`),
    },
    { label: 'unknown option', text: list([es()], configMapConfig(`storeWaves: "${c()}"`)) },
    {
      label: 'podTemplates',
      text: list([es()], configMapConfig(`podTemplates: "v1/${c()}:spec,apps/${c()}:x,/${c()}:y"`)),
    },
    {
      label: 'podTemplates typed',
      text: list([es()], typedConfig(`podTemplates: ["/${c()}:a.b", "a.b/K:${c()}[]"]`)),
    },
  ];
  // Every option, with a bad value: in a ConfigMap, in the typed config, as key=value.
  for (const option of [...optionNames, ...ruleCatalog.options.keys()]) {
    bad.push(
      { label: `option ${option}`, text: list([es()], configMapConfig(`${option}: "${c()} !"`)) },
      {
        label: `typed option ${option}`,
        text: list([es()], typedConfig(`${option}: {x: ${c()}}`)),
      },
      {
        label: `typed option ${option} list`,
        text: list([es()], typedConfig(`${option}: [${c()}]`)),
      },
      { label: `option ${option}=`, text: es(), args: [`${option}=${c()} !`] },
    );
  }
  // A Kptfile whose secret-rollout function has a bad configuration (plan reads it).
  const kptfile = (fn: string) =>
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: pkg}\npipeline:\n  mutators:\n  - exec: secret-rollout\n${fn.replace(/^/gm, '    ')}\n`;
  bad.push(
    { label: 'Kptfile configMap a string', text: `${kptfile(`configMap: ${c()}`)}---\n${es()}` },
    {
      label: 'Kptfile bad option',
      text: `${kptfile(`configMap: {storeWave: "${c()}", syncWaves: "${c()}"}`)}---\n${es()}`,
    },
    {
      label: 'Kptfile unknown option',
      text: `${kptfile(`configMap: {bogus: "${c()}"}`)}---\n${es()}`,
    },
    {
      label: 'Kptfile both',
      text: `${kptfile(`configMap: {storeWave: "${c()}"}\nconfigPath: fn.yaml`)}---\n${es()}`,
    },
  );
  return bad;
}

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

const examples = path.join(repoRoot, 'examples');
const examplePackages = readdirSync(examples)
  .sort()
  .filter((example) => statSync(path.join(examples, example)).isDirectory());

/** The items of an example package's YAML files. */
function exampleItems(example: string): Value[] {
  const dir = path.join(examples, example);
  const items: Value[] = [];
  for (const file of readdirSync(dir).sort()) {
    if (!/\.ya?ml$/.test(file)) continue;
    for (const doc of loadAll(readFileSync(path.join(dir, file), 'utf8'))) {
      if (doc && typeof doc === 'object') items.push(doc as Value);
    }
  }
  return items;
}

/**
 * Every node of every item of an example package, one at a time, replaced by a canary string: a
 * string where a mapping or a list belongs, and where a scalar belongs one no field accepts (not
 * base64, no integer, no annotation key). Identifiers stay (see above).
 */
function* mutations(example: string): Generator<{ label: string; text: string }> {
  const items = exampleItems(example);
  for (const [i, item] of items.entries()) {
    for (const at of nodePaths(item, [])) {
      const mutated = items.map((other, j) => (j === i ? replaced(other, at) : other));
      yield {
        label: `${example} item ${i} ${at.join('.')}`,
        text: mutated.map((v) => dump(v, { lineWidth: -1 })).join('---\n'),
      };
    }
  }
}

function* nodePaths(node: Value, at: string[]): Generator<string[]> {
  const last = at.at(-1);
  const parent = at.at(-2);
  const kept =
    last !== undefined &&
    (identifiers.has(last) || (parent === 'annotations' && pathAnnotation.test(last)));
  if (at.length > 0 && !kept) yield at;
  if (node !== null && typeof node === 'object') {
    for (const [key, child] of Object.entries(node)) yield* nodePaths(child, [...at, key]);
  }
}

function replaced(node: Value, at: readonly string[]): Value {
  const [head, ...rest] = at;
  if (head === undefined) return `${nextCanary()} =!`;
  if (Array.isArray(node)) return node.map((v, i) => (String(i) === head ? replaced(v, rest) : v));
  if (node === null || typeof node !== 'object') return node;
  return { ...node, [head]: replaced(node[head] as Value, rest) };
}

const settingsOf = (args: readonly string[] = []) =>
  Object.fromEntries(args.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));

describe('no message quotes a value of the input', () => {
  it.each(badFiles)('test/bad-inputs/%s with canary values, through run() and the CLI', (file) => {
    const raw = readFileSync(path.join(badInputs, file), 'utf8');
    // A comment is input text too; JSON has none.
    const text = withCanaries(raw) + (file.endsWith('.json') ? '' : `# ${nextCanary()}\n`);
    for (const out of [run(text), plan(text), check(text), cliRun([], text)]) {
      expectNoCanary(file, text, out);
    }
  });

  const written = handWritten();
  it.each(written.map((b) => [b.label, b] as const))('%s, through run()', (_label, bad) => {
    const options = { settings: settingsOf(bad.args) };
    for (const out of [run(bad.text, options), plan(bad.text, options), check(bad.text, options)]) {
      expectNoCanary(bad.label, bad.text, out);
    }
  });

  // The options' messages are config.ts's whichever way they come: run() above has them all.
  const throughCli = written.filter((b) => !b.label.includes('option'));
  it.each(throughCli.map((b) => [b.label, b] as const))('%s, through the built CLI', (_, bad) => {
    const command = bad.label.startsWith('Kptfile') ? ['plan'] : bad.check ? ['check'] : [];
    expectNoCanary(bad.label, bad.text, cliRun([...command, ...(bad.args ?? [])], bad.text));
  });

  it('a bad --fn-config, through the built CLI', () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'no-leaks-'));
    try {
      // A --fn-config file that is no configuration: the message names the file, not its text.
      const config = path.join(scratch, 'fn.yaml');
      for (const text of [
        `DB_PASSWORD=${nextCanary()}\n`,
        `{a: "${nextCanary()}\n`,
        configMapConfig(`storeWave: "${nextCanary()}"`),
      ]) {
        writeFileSync(config, text);
        expectNoCanary('--fn-config', text, cliRun(['--fn-config', config], es()));
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  // One test per example package, each a few hundred runs.
  it.each(examplePackages)(
    'every node of every item of examples/%s replaced by a canary, through run()',
    (example) => {
      const options = {
        settings: { secretChecksumAnnotation: 'c/s', configMapChecksumAnnotation: 'c/cm' },
      };
      for (const { label, text } of mutations(example))
        expectNoCanary(label, text, run(text, options));
    },
  );

  it('the example canaries are many (a generator that yields nothing would pass)', () => {
    const count = examplePackages
      .flatMap(exampleItems)
      .reduce<number>((n, item) => n + [...nodePaths(item, [])].length, 0);
    expect(count).toBeGreaterThan(2500);
  });
});

// Issue #20 §2: nothing secret leaves through annotations or messages.
//
// Secret values: without `secretChecksumKey` no digest of a Secret value is written (an unkeyed
// SHA-256 of a PIN is brute-forced in seconds from any pod, README "Secret values"), one warning
// says so, and the key, when given, is never printed, whichever way it is given.
import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Every way a run shows something: stream run, ResourceList run, plan, check, all verbose. */
function everything(pin: string, extra: readonly string[] = [], ca?: string): string {
  const args = [optIn, ...extra];
  const config = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fn}\ndata:\n${args
    .map((a) => `  ${a.replace('=', ': ')}\n`)
    .join('')}`;
  const input = stream(pin, ca);
  const list = resourceList(secrets(pin, ca), config);
  // A run copies its input through (the Secrets, the functionConfig): what it adds is its own.
  const added = (text: string, o: ReturnType<typeof cliRun>) =>
    `${insertedLines(text, o.stdout).join('\n')}\n${o.stderr}`;
  const outs = [
    added(input, cliRun(['--verbose', ...args], input)),
    added(list, cliRun(['--verbose'], list)),
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
      'warning: secretChecksumKey is not set, so checksums cover only the type and key names of Secret shop/db, Secret shop/tpl-secret, never a digest of their values: nothing rolls when only a value changes. Set secretChecksumKey to a random key kept secret (openssl rand -hex 32) to cover values with HMAC-SHA256',
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
      expect(outs[1]?.stdout).toContain('data.pin changed');
    });
  });
});

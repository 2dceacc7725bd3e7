// Opt-in checksums over plain ConfigMaps and Secrets (the Helm `checksum/config` habit): per key,
// never ordered, Secret values only as digests (HMAC-SHA256 with a key).
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/model/config.js';
import { ruleCatalog } from '../../src/rules/rule-table.js';
import { run } from '../../src/run.js';
import { deployment, envFrom, externalSecret, resourceList, secretKeyRef } from '../helpers.js';
import {
  annotated,
  checksums,
  configMapEnv,
  configMapKeyEnv,
  expectError,
  expectOnlyAnnotationLines,
  moved,
  type Options,
  render,
  waveOf,
} from './harness.js';

const cmKey = 'checksum/configmaps';
const secretKey = 'checksum/secrets';
const on = { configMapChecksumAnnotation: cmKey, secretChecksumAnnotation: secretKey };

const configMap = (opts: { level?: string; meta?: string } = {}) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: app-config
  namespace: shop
${opts.meta ?? ''}data:
  LOG_LEVEL: ${opts.level ?? 'info'}
  FEATURES: "a,b"
binaryData:
  logo.png: iVBORw0KGgo=
`;

// password: "hunter2" (base64 aHVudGVyMg==), user: "app" as stringData.
const secret = (opts: { password?: string; meta?: string; type?: string } = {}) => `apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
${opts.meta ?? ''}${opts.type ? `type: ${opts.type}\n` : ''}data:
  password: ${opts.password ?? 'aHVudGVyMg=='}
stringData:
  user: app
`;

const world = (cm = configMap(), sec = secret()) => [
  cm,
  sec,
  deployment('reads-all', `${configMapEnv('app-config')}\n- secretRef: {name: db}`, {
    namespace: 'shop',
  }),
  deployment('reads-level', configMapKeyEnv('app-config', 'LOG_LEVEL'), { namespace: 'shop' }),
  deployment('reads-user', secretKeyRef('db', 'user'), { namespace: 'shop' }),
  deployment('reads-password', secretKeyRef('db', 'password'), { namespace: 'shop' }),
  deployment('elsewhere', configMapEnv('app-config'), { namespace: 'other' }),
];

describe('plain ConfigMaps and Secrets', () => {
  it('are off by default and with empty options: nothing changes', () => {
    const off: Record<string, string>[] = [
      {},
      { configMapChecksumAnnotation: '', secretChecksumAnnotation: '' },
    ];
    for (const options of off) {
      const input = resourceList(world());
      const out = run(input, { settings: options });
      expect(out.exitCode).toBe(0);
      expect(out.stdout).toBe(input);
    }
  });

  it('checksum their consumers under their own annotations, without waves', () => {
    const rendered = render(world(), on);
    expect(annotated(world(), on, cmKey)).toEqual(['shop/reads-all', 'shop/reads-level']);
    expect(annotated(world(), on, secretKey)).toEqual([
      'shop/reads-all',
      'shop/reads-user',
      'shop/reads-password',
    ]);
    expect(annotated(world(), on)).toEqual([]);
    expect(waveOf(rendered, 'ConfigMap', 'app-config')).toBeUndefined();
    expect(waveOf(rendered, 'Secret', 'db')).toBeUndefined();
    expectOnlyAnnotationLines(rendered, [cmKey, secretKey]);
  });

  it('move exactly the consumers of a changed key', () => {
    const cmMoved = (cm: string) => moved(world(), world(cm), on, cmKey);
    expect(cmMoved(configMap({ level: 'debug' }))).toEqual(['shop/reads-all', 'shop/reads-level']);
    expect(cmMoved(configMap().replace('"a,b"', '"a,b,c"'))).toEqual(['shop/reads-all']);
    expect(cmMoved(configMap().replace('iVBORw0KGgo=', 'iVBORw0KGgp='))).toEqual([
      'shop/reads-all',
    ]);
    const secretMoved = (sec: string, options: Options = on) =>
      moved(world(), world(configMap(), sec), options, secretKey);
    // A Secret's values count only with secretChecksumKey; without it, its type and key names.
    expect(secretMoved(secret({ password: 'aHVudGVyMw==' }))).toEqual([]);
    expect(
      secretMoved(secret({ password: 'aHVudGVyMw==' }), { ...on, secretChecksumKey: 'k3y' }),
    ).toEqual(['shop/reads-all', 'shop/reads-password']);
    expect(secretMoved(secret().replace('  user: app\n', '  user: app\n  host: db\n'))).toEqual([
      'shop/reads-all',
    ]);
    expect(secretMoved(secret({ type: 'kubernetes.io/basic-auth' }))).toEqual([
      'shop/reads-all',
      'shop/reads-user',
      'shop/reads-password',
    ]);
  });

  it('do not move on labels, annotations, immutable, type Opaque or data vs stringData', () => {
    const meta = '  labels: {a: b}\n  annotations: {note: n}\n';
    const cm = `${configMap({ meta })}immutable: true\n`;
    expect(moved(world(), world(cm), on, cmKey)).toEqual([]);
    const spelled = secret({ meta, type: 'Opaque' })
      .replace('data:\n  password: aHVudGVyMg==\n', 'data:\n  user: YXBw\n')
      .replace('  user: app\n', '  password: hunter2\n');
    expect(moved(world(), world(configMap(), spelled), on, secretKey)).toEqual([]);
  });

  it('cover Secret key names only, or values as HMAC-SHA256 per key when secretChecksumKey is set', () => {
    const items = [secret(), deployment('app', envFrom('db'), { namespace: 'shop' })];
    const hmac = (value: string, key: string) =>
      createHmac('sha256', key).update(value).digest('hex');
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    // Written from the documented algorithm, not produced by the code under test.
    expect(checksums(items, on, secretKey)['shop/app']).toBe(
      sha256('[{"content":{"keys":["password","user"]},"secret":"db"}]'),
    );
    const key = 'k3y-0f-at-least-32-random-bytes!';
    const keyed = { ...on, secretChecksumKey: key };
    expect(checksums(items, keyed, secretKey)['shop/app']).toBe(
      sha256(
        `[{"content":{"data":{"password":"${hmac('hunter2', key)}","user":"${hmac('app', key)}"}},"secret":"db"}]`,
      ),
    );
    const rendered = render(items, keyed);
    for (const clear of ['hunter2', 'aHVudGVyMg==', 'k3y-0f']) {
      expect(JSON.stringify(rendered.results)).not.toContain(clear);
    }
  });

  it('count a key named __proto__ like any other', () => {
    const proto = (value: string) =>
      secret().replace('  user: app\n', `  user: app\n  __proto__: ${value}\n`);
    const keyed = { ...on, secretChecksumKey: 'k3y' };
    expect(moved(world(), world(configMap(), proto('a')), on, secretKey)).toEqual([
      'shop/reads-all',
    ]);
    expect(
      moved(world(configMap(), proto('a')), world(configMap(), proto('b')), keyed, secretKey),
    ).toEqual(['shop/reads-all']);
  });

  it('share a template with ExternalSecrets: one annotation per kind of source', () => {
    const items = [
      externalSecret('api', { namespace: 'shop' }),
      configMap(),
      deployment('both', `${configMapEnv('app-config')}\n- secretRef: {name: api}`, {
        namespace: 'shop',
      }),
    ];
    const rendered = render(items, on);
    expect(checksums(items, on)['shop/both']).toMatch(/^[0-9a-f]{64}$/);
    expect(checksums(items, on, cmKey)['shop/both']).toMatch(/^[0-9a-f]{64}$/);
    expect(waveOf(rendered, 'ExternalSecret', 'api')).toBe('-1');
  });

  it.each([
    [secret({ password: 'not base64!' }), 'data[password]', 'is not base64'],
    [secret({ password: '[1]' }), 'data[password]', 'is not a string'],
    [secret({ type: '[x]' }), 'type', 'is not a string'],
    [configMap({ level: '3' }), 'data[LOG_LEVEL]', 'is not a string'],
    [
      configMap().replace('binaryData:\n  logo.png: iVBORw0KGgo=', 'binaryData: [x]'),
      'binaryData',
      'not a mapping',
    ],
  ])('report a malformed field without its value: %#', (text, field, message) => {
    const items = text.includes('kind: Secret') ? world(configMap(), text) : world(text);
    const results = expectError(items, field, message, on);
    expect(results).not.toContain('not base64!');
  });

  it('read their options: empty is off, keys are validated, the HMAC key is never shown', () => {
    const config = (data: Record<string, unknown>) =>
      readConfig({ apiVersion: 'v1', kind: 'ConfigMap', data }, ruleCatalog);
    expect(config({ secretChecksumAnnotation: '' }).secretChecksumAnnotation).toBe('');
    expect(config({ clusterExternalSecretNamespaces: 'all' }).clusterExternalSecretNamespaces).toBe(
      'all',
    );
    expect(() => config({ configMapChecksumAnnotation: 'bad key!' })).toThrow(
      'data.configMapChecksumAnnotation must be a valid annotation key',
    );
    expect(() => config({ clusterExternalSecretNamespaces: 'some' })).toThrow(
      'must be selected or all',
    );
    const typed = () =>
      readConfig(
        {
          apiVersion: 'fn.kpt.dev/v1alpha1',
          kind: 'SecretRollout',
          secretChecksumKey: 123456789,
        },
        ruleCatalog,
      );
    expect(typed).toThrow('secretChecksumKey must be a string');
    expect(typed).not.toThrow('123456789');
  });
});

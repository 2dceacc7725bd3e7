// secret-rollout/ignore: "true" on a workload or one pod template: no checksum there (an info says
// so), its sources still ordered before it, nothing on it changed; a bad value is an error.
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import {
  checksumKey,
  deployment,
  envFrom,
  externalSecret,
  find,
  itemsOf,
  resourceList,
  resultsOf,
  runOk,
  templateAnnotation,
  wave,
} from './helpers.js';

const es = externalSecret('db', { namespace: 'shop' });
const optedOut = (where: 'metadata' | 'template', value = 'true') => {
  const base = deployment('legacy', envFrom('db'), { namespace: 'shop' });
  const line = `secret-rollout/ignore: "${value}"`;
  return where === 'metadata'
    ? base.replace(/^metadata:\n/m, `metadata:\n  annotations:\n    ${line}\n`)
    : base.replace('    metadata:\n', `    metadata:\n      annotations:\n        ${line}\n`);
};

describe('opt-out', () => {
  it.each([
    ['metadata', 'metadata.annotations[secret-rollout/ignore]'],
    ['template', 'spec.template.metadata.annotations[secret-rollout/ignore]'],
  ] as const)(
    'on the %s: no checksum, an info, the ExternalSecret still before it',
    (where, field) => {
      const legacy = optedOut(where);
      const other = deployment('api', envFrom('db'), { namespace: 'shop', wave: '-3' });
      const input = resourceList([es, legacy, other]);
      const out = runOk(input).stdout;
      const items = itemsOf(out);
      expect(templateAnnotation(find(items, 'Deployment', 'legacy'))).toBeUndefined();
      expect(templateAnnotation(find(items, 'Deployment', 'api'))).toMatch(/^[0-9a-f]{64}$/);
      // The legacy item is byte for byte as it came in.
      expect(out).toContain(resourceList([legacy]).replace(/^[\s\S]*?items:\n/, ''));
      expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-4');
      expect(resultsOf(out)).toContainEqual({
        severity: 'info',
        message:
          'opted out (secret-rollout/ignore: "true"): no checksum set, though it reads ExternalSecret shop/db; they are still ordered before it',
        resourceRef: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'legacy',
          namespace: 'shop',
        },
        field: { path: field },
        tags: { rule: 'opted-out' },
      });
    },
  );

  it('orders its sources before its own wave, which it keeps', () => {
    const legacy = deployment('legacy', envFrom('db'), { namespace: 'shop', wave: '-5' }).replace(
      '  annotations:\n',
      '  annotations:\n    secret-rollout/ignore: "true"\n',
    );
    const out = runOk(resourceList([es, legacy])).stdout;
    const items = itemsOf(out);
    expect(wave(find(items, 'ExternalSecret', 'db'))).toBe('-6');
    expect(wave(find(items, 'Deployment', 'legacy'))).toBe('-5');
    expect(templateAnnotation(find(items, 'Deployment', 'legacy'))).toBeUndefined();
  });

  it('"false" opts nothing out; any other value is an error naming the field', () => {
    const off = runOk(resourceList([es, optedOut('template', 'false')])).stdout;
    expect(templateAnnotation(find(itemsOf(off), 'Deployment', 'legacy'))).toMatch(
      /^[0-9a-f]{64}$/,
    );
    const input = resourceList([es, optedOut('template', 'yes')]);
    const bad = run(input);
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout.startsWith(input)).toBe(true);
    expect(resultsOf(bad.stdout).filter((r) => r.severity === 'error')).toEqual([
      expect.objectContaining({
        message:
          'Deployment shop/legacy: spec.template.metadata.annotations[secret-rollout/ignore] must be "true" or "false"',
        field: { path: 'spec.template.metadata.annotations[secret-rollout/ignore]' },
      }),
    ]);
  });

  it('a stream, and check mode, see it too', () => {
    const stream = [es, optedOut('metadata')].join('---\n');
    const out = run(stream);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).not.toContain(checksumKey);
    expect(out.stderr).toContain('info: opted out (secret-rollout/ignore: "true")');
    const rendered = out.stdout;
    expect(run(rendered, { settings: { mode: 'check' } }).exitCode).toBe(0);
  });

  it('a workload reading no source gets no info, and its value is not checked', () => {
    const unread = optedOut('metadata', 'yes').replace('name: db', 'name: other');
    expect(run(resourceList([es, unread])).exitCode).toBe(0);
    const lone = optedOut('metadata').replace('name: db', 'name: other');
    const out = runOk(resourceList([es, lone])).stdout;
    expect(resultsOf(out).map((r) => r.message)).not.toContainEqual(
      expect.stringContaining('opted out'),
    );
  });
});

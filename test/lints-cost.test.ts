// What the lints spend on a 10k-item input, counted (never timed): work done per distinct thing
// (a Secret's keys, a kind), not again for every item that shares it.
import { describe, expect, it } from 'vitest';
import type { Config } from '../src/model/config.js';
import type { Resource } from '../src/model/resource.js';
import type { KeyedRead, LintContext, LintOutput } from '../src/rules/lints/lint.js';
import { missingKey } from '../src/rules/lints/missing-key.js';
import type { SecretSource } from '../src/rules/sources/source.js';

const context = (fields: Partial<LintContext>): LintContext => ({
  resources: [],
  bystanders: [],
  sources: [],
  consumersOf: new Map(),
  readersOf: new Map(),
  unreadable: new Set(),
  checksummed: new Map(),
  unresolved: new Map(),
  keyedReads: [],
  config: {} as Config,
  ...fields,
});

const reporter = () => {
  const reported: string[] = [];
  const output = {
    report: (_: Resource, message: string) => reported.push(message),
    silenced: () => false,
  } as unknown as LintOutput;
  return { reported, output };
};

describe('lint costs', () => {
  it("missing-key builds a Secret's keys once, however many references read it", () => {
    let built = 0;
    const source = {
      resource: { apiVersion: 'external-secrets.io/v1', kind: 'ExternalSecret', name: 'db' },
      produces: 'Secret',
      secretName: 'db',
      namespace: 'shop',
      producedKeys: () => {
        built++;
        return new Set(['user', 'password']);
      },
    } as unknown as SecretSource;
    // Producers give every reader of a name the same list of its sources.
    const sources = [source];
    const n = 1000;
    const keyedReads = Array.from(
      { length: n },
      (_, i): KeyedRead => ({
        consumer: {
          kind: 'Deployment',
          name: `app-${i}`,
          namespace: 'shop',
          value: {},
        } as Resource,
        sources,
        keys: new Set(i === 0 ? ['pasword'] : ['user']),
        podSpec: ['spec', 'template', 'spec'],
        use: 0,
      }),
    );
    const { reported, output } = reporter();
    missingKey.check(context({ keyedReads }), output);
    // Built for each read before: n.
    expect(built).toBe(1);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toContain('reads key pasword of Secret db');
    expect(reported[0]).toContain('produces only password, user');
  });
});

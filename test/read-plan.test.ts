// The read plan (rules/read-plan.ts) is the reader's whole knowledge of kinds: what it parses,
// projects or copies through. A rule that reads a field the plan leaves out would see a value
// without it, or a bystander, and say nothing: these tests are what tells.
import { describe, expect, it } from 'vitest';
import { readItems } from '../src/krm/items.js';
import { readInput } from '../src/krm/read.js';
import { defaultConfig } from '../src/model/config.js';
import { getPath } from '../src/model/path.js';
import type { Projection } from '../src/model/resource.js';
import { lints } from '../src/rules/lints/index.js';
import type { Lint } from '../src/rules/lints/lint.js';
import { kindsNoRuleReads, readPlan } from '../src/rules/read-plan.js';
import { sourceKinds, storeKinds } from '../src/rules/sources/index.js';
import { deployment, externalSecret, secretKeyRef } from './helpers.js';

const apiVersionOf = (group: string) => (group === '' ? 'v1' : `${group}/v1`);

/** Whether a value built with `projection` holds the field at `path` (`a.b[].c`). */
function projects(projection: Projection, path: string): boolean {
  let at: Projection = projection;
  for (const step of path.split('.')) {
    if (at === true) return true;
    const next = at.get(step.replace(/\[\]$/, ''));
    if (next === undefined) return false;
    at = next;
  }
  return true;
}

describe('the read plan', () => {
  it('builds every field each lint of the table says it reads, and passes none of its kinds', () => {
    const plan = readPlan(defaultConfig);
    const reads = lints.flatMap((lint) => lint.reads ?? []);
    expect(reads.length).toBeGreaterThan(0);
    for (const { group, kind, fields } of reads) {
      const apiVersion = apiVersionOf(group);
      expect(plan.passesThrough(apiVersion, kind), `${group}/${kind}`).toBeUndefined();
      for (const field of fields) {
        expect(projects(plan.projection(apiVersion, kind), field), `${kind} ${field}`).toBe(true);
      }
    }
  });

  it('reads sources and stores whole, and copies none through once its content is hashed', () => {
    // Plain ConfigMaps and Secrets are sources only with the opt-in content checksums.
    const plan = readPlan({
      ...defaultConfig,
      configMapChecksumAnnotation: 'checksum/configmaps',
      secretChecksumAnnotation: 'checksum/secrets',
    });
    for (const { group, kind } of [...sourceKinds, ...storeKinds]) {
      const apiVersion = apiVersionOf(group);
      expect(plan.projection(apiVersion, kind), `${group}/${kind}`).toBe(true);
      expect(plan.passesThrough(apiVersion, kind), `${group}/${kind}`).toBeUndefined();
    }
  });

  it('gives a lint that declares its reads a resource with those fields, not a bystander', () => {
    // Services are a kind no rule reads today: a lint that starts reading them must get them.
    const serviceLint: Lint = {
      id: 'service-reader',
      severity: 'warning',
      summary: 'A lint that reads Services',
      help: 'None: a test lint.',
      reads: [{ group: '', kind: 'Service', fields: ['spec.selector'] }],
      check: () => {},
    };
    const text =
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  selector: {app: web}\n  ports: [{port: 80}]\n';
    const without = readItems(readInput(text), readPlan(defaultConfig, []));
    expect(without.bystanders.map((b) => b.name)).toEqual(['web']);
    const read = readItems(readInput(text), readPlan(defaultConfig, [serviceLint]));
    expect(read.bystanders).toEqual([]);
    expect(read.resources.map((r) => getPath(r.value, 'spec.selector'))).toEqual([{ app: 'web' }]);
  });

  it('lists only kinds that no source, store or lint reads', () => {
    const read = new Set(
      [...sourceKinds, ...storeKinds, ...lints.flatMap((lint) => lint.reads ?? [])].map(
        ({ group, kind }) => `${apiVersionOf(group).replace(/\/v1$/, '')}/${kind}`,
      ),
    );
    const listed = [...kindsNoRuleReads].map((id) => id.replace(/\/v\d\w*\//, '/'));
    expect(listed.filter((id) => read.has(id))).toEqual([]);
  });

  it("builds a workload's metadata and its pod template's as far as rules read them", () => {
    // A Deployment's labels and its pod template's, which no rule reads: 2 of the 8 mappings of
    // its value on main (the PodSpec's place one shared empty mapping); a Namespace's labels,
    // which ClusterExternalSecrets select by, are built.
    const text = [
      deployment('web', secretKeyRef('s', 'k')),
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n  labels: {team: a}\n',
    ].join('---\n');
    const [workload, namespace] = readItems(readInput(text), readPlan(defaultConfig)).resources;
    const mappings = (value: unknown): number =>
      value !== null && typeof value === 'object'
        ? (Array.isArray(value) ? 0 : 1) + Object.values(value).reduce((n, v) => n + mappings(v), 0)
        : 0;
    expect(getPath(workload?.value, 'metadata.labels')).toBeUndefined();
    expect(getPath(workload?.value, 'spec.template.metadata')).toEqual({});
    expect(mappings(workload?.value)).toBe(6);
    expect(getPath(namespace?.value, 'metadata.labels')).toEqual({ team: 'a' });
  });

  it('builds, in its second pass, the ConfigMaps and Secrets a source reads by name', () => {
    const es = externalSecret('app', {
      namespace: 'shop',
      extra:
        '  target:\n    template:\n      templateFrom:\n      - configMap:\n          name: tpl\n          items:\n          - key: ca.crt\n',
    });
    const configMap = (name: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: shop\ndata: {ca.crt: x}\n`;
    const input = readInput([configMap('tpl'), es, configMap('other')].join('---\n'));
    const read = readItems(input, readPlan(defaultConfig));
    expect(read.bystanders.map((b) => b.name)).toEqual(['other']);
    expect(read.resources.map((r) => `${r.kind} ${r.name}`)).toEqual([
      'ConfigMap tpl',
      'ExternalSecret app',
    ]);
  });
});

// Every result names a rule of one table; the options set any rule's severity in every config
// form, an annotation silences a rule for one resource, and what makes a run fail stays.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { impactSarif } from '../src/report/impact-sarif.js';
import { lints } from '../src/rules/lints/index.js';
import { ruleCatalog, ruleTable } from '../src/rules/rule-table.js';
import { plan, run } from '../src/run.js';
import {
  deployment,
  envFrom,
  externalSecret,
  repoRoot,
  resourceList,
  resultsOf,
} from './helpers.js';

type Obj = Record<string, unknown>;

/** An ExternalSecret without a pinned version, and a Deployment reading it: one warning. */
const unpinned = externalSecret('db', { namespace: 'shop' }).replace(/ {6}version: "1"\n/, '');
const app = deployment('app', envFrom('db'), { namespace: 'shop' });
const silenced = (ids: string) =>
  unpinned.replace(
    '  namespace: shop\n',
    `  namespace: shop\n  annotations:\n    secret-rollout/silence: "${ids}"\n`,
  );

const rulesOf = (stdout: string, id: string) =>
  resultsOf(stdout).filter((r) => (r.tags as Obj | undefined)?.rule === id);
const configMap = (data: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n${data}`;
const typed = (fields: string) =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: SecretRollout\nmetadata: {name: f}\n${fields}`;

describe('the rule table', () => {
  it('has one entry per id, kebab-case, every lint among them with its help', () => {
    const ids = ruleTable.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
    for (const lint of lints) {
      expect(ruleTable).toContain(lint);
      expect(lint.help.length).toBeGreaterThan(0);
    }
  });

  it('keeps every older severity option, each naming its rule', () => {
    expect(Object.fromEntries(ruleCatalog.options)).toEqual({
      hookPhaseSeverity: 'hook-phase',
      jobChecksumSeverity: 'job-checksum',
      unpinnedVersionSeverity: 'unpinned-version',
      vaultAgentJobSeverity: 'vault-agent-job',
      crossNamespaceSeverity: 'cross-namespace',
      missingKeySeverity: 'missing-key',
      kindNearMissSeverity: 'kind-near-miss',
      doubleRestartSeverity: 'double-restart',
      scaledJobRolloutSeverity: 'scaled-job-rollout',
      csiSyncMountSeverity: 'csi-sync-mount',
      nearNameSeverity: 'near-name',
      storeRefSeverity: 'store-ref',
      unreadSourceSeverity: 'unread-source',
      duplicateItemSeverity: 'duplicate-item',
      waveConflictSeverity: 'wave-conflict',
    });
  });

  it('is the table in docs/lints.md, row for row', () => {
    const doc = readFileSync(path.join(repoRoot, 'docs/lints.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Rule ids'));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| ([a-z]+)(, fixed)? \| (.+) \|$/gm)];
    expect(
      rows.map(([, id, severity, fixed, summary]) => [id, severity, !!fixed, summary]),
    ).toEqual(ruleTable.map((r) => [r.id, r.severity, r.fixed === true, r.summary]));
  });

  it('names the rule of every result of every example package', () => {
    const known = new Set(ruleTable.map((r) => r.id));
    const examples = path.join(repoRoot, 'examples');
    let seen = 0;
    for (const pkg of readdirSync(examples)) {
      const dir = path.join(examples, pkg);
      const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'Kptfile');
      if (files.length === 0) continue;
      const text = files.map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n---\n');
      const out = plan(text, { format: 'json' });
      for (const result of (JSON.parse(out.stdout || '{"results":[]}') as Obj).results as Obj[]) {
        expect(known).toContain((result.tags as Obj).rule);
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(50);
  });

  it('is what SARIF lists, and a warning no lint reports has its own rule there', () => {
    const out = run(
      resourceList([
        app,
        externalSecret('a', { namespace: 'shop', target: 'db' }),
        externalSecret('b', { namespace: 'shop', target: 'db' }),
      ]),
    );
    const warnings = resultsOf(out.stdout).filter((r) => r.severity === 'warning');
    const log = JSON.parse(
      impactSarif(warnings as never, { version: '1', locate: () => undefined }),
    ) as { runs: { tool: { driver: { rules: Obj[] } }; results: Obj[] }[] };
    const [sarif] = log.runs;
    expect(sarif?.tool.driver.rules.map((r) => r.id)).toEqual(ruleTable.map((r) => r.id));
    expect(sarif?.results.map((r) => r.ruleId)).toEqual(warnings.map((r) => (r.tags as Obj).rule));
    expect(sarif?.results.map((r) => r.ruleId)).toContain('duplicate-writer');
    for (const result of sarif?.results ?? []) {
      expect(sarif?.tool.driver.rules[result.ruleIndex as number]?.id).toBe(result.ruleId);
    }
  });
});

describe('severity per rule, in every config form', () => {
  const items = [unpinned, app];
  /** The run's results of `id` with the severity option given in each form. */
  const forms = (id: string, value: string): Record<string, Obj[]> => {
    const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata: {name: pkg}\npipeline:\n  mutators:\n  - exec: secret-rollout\n    configMap:\n      severity: "${id}: ${value}"\n`;
    const planned = plan([kptfile, ...items].join('---\n'), { format: 'json' });
    // A stream's results are lines on stderr, the rule id last.
    const stream = run(items.join('---\n'), { settings: { severity: `${id}:${value}` } });
    const lines = stream.stderr.split('\n').filter((l) => l.endsWith(` (${id})`));
    return {
      'key=value': lines.map((l) => {
        const [, severity, message] = /^(\w+): (.*?) \[/.exec(l) ?? [];
        return { severity, message };
      }),
      ConfigMap: rulesOf(
        run(resourceList(items, configMap(`  severity: "${id}: ${value}"\n`))).stdout,
        id,
      ),
      SecretRollout: rulesOf(
        run(resourceList(items, typed(`severity:\n  ${id}: ${value}\n`))).stdout,
        id,
      ),
      '--fn-config': rulesOf(
        run(resourceList(items), {
          fnConfig: { path: 'c.yaml', text: typed(`severity: {${id}: ${value}}\n`) },
        }).stdout,
        id,
      ),
      Kptfile: ((JSON.parse(planned.stdout) as Obj).results as Obj[]).filter(
        (r) => (r.tags as Obj).rule === id,
      ),
    };
  };

  it('raises and lowers a lint, and turns it off', () => {
    for (const [form, found] of Object.entries(forms('unpinned-version', 'error'))) {
      expect(
        found.map((r) => r.severity),
        form,
      ).toEqual(['error']);
    }
    for (const [form, found] of Object.entries(forms('unpinned-version', 'off'))) {
      expect(found, form).toEqual([]);
    }
  });

  it('sets a rule no lint reports: an info raised, and off', () => {
    for (const [form, found] of Object.entries(forms('checksum', 'warning'))) {
      expect(
        found.map((r) => [r.severity, r.message]),
        form,
      ).toEqual([['warning', 'checksum of ExternalSecret shop/db']]);
    }
    for (const [form, found] of Object.entries(forms('sync-wave', 'off'))) {
      expect(found, form).toEqual([]);
    }
  });

  it("leaves a lint's notes at info whatever the lint's severity; off or silenced, they go too", () => {
    const job = (annotations = '') =>
      `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: report\n${annotations}spec:\n  template:\n    metadata:\n      annotations:\n        vault.hashicorp.com/agent-inject: "true"\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: c\n        image: report:1\n`;
    const notes = (severity: string, annotations?: string) =>
      rulesOf(
        run(
          resourceList(
            [job(annotations)],
            configMap(`  fixVaultAgentJobs: "true"\n  severity: "vault-agent-job: ${severity}"\n`),
          ),
        ).stdout,
        'vault-agent-job',
      ).map((r) => r.severity);
    expect(notes('error')).toEqual(['info']);
    expect(notes('off')).toEqual([]);
    const silence = '  annotations:\n    secret-rollout/silence: vault-agent-job\n';
    expect(notes('warning', silence)).toEqual([]);
  });

  it('keeps the older option as the same setting, and refuses both for one rule', () => {
    const old = run(resourceList([unpinned, app], configMap('  unpinnedVersionSeverity: error\n')));
    expect(rulesOf(old.stdout, 'unpinned-version').map((r) => r.severity)).toEqual(['error']);
    const both = run(
      resourceList(
        [unpinned, app],
        configMap('  unpinnedVersionSeverity: error\n  severity: "unpinned-version: info"\n'),
      ),
    );
    expect(both.exitCode).toBe(1);
    expect(resultsOf(both.stdout).map((r) => r.message)).toEqual([
      'functionConfig: data.unpinnedVersionSeverity and data.severity both set unpinned-version; give one',
    ]);
  });

  it('refuses an unknown id (by position, with the nearest) and a fixed one', () => {
    const messages = (severity: string) =>
      resultsOf(run(resourceList([app], configMap(`  severity: "${severity}"\n`))).stdout).map(
        (r) => r.message,
      );
    expect(messages('checksum: info,, unpined-version: off')).toEqual([
      'functionConfig: data.severity: entry 3 names no rule; did you mean unpinned-version?',
    ]);
    expect(messages('invalid-input: warning')).toEqual([
      "functionConfig: data.severity: invalid-input cannot be set: it reports what the run cannot read, follow, prove or make, or a check's finding: lowering it would hide a failure",
    ]);
    expect(messages('checksum: loud')).toEqual([
      'functionConfig: data.severity: checksum must be one of error, warning, info, off',
    ]);
    expect(messages('checksum')).toEqual([
      'functionConfig: data.severity: entry 1 has no colon: give rule-id:severity (severity: error, warning, info or off), entries separated by commas',
    ]);
  });
});

describe('silence per resource', () => {
  it('drops the named rules on the annotated resource only', () => {
    const other = externalSecret('other', { namespace: 'shop' }).replace(/ {6}version: "1"\n/, '');
    const out = run(
      resourceList([
        silenced('unpinned-version, checksum'),
        other,
        app,
        deployment('web', envFrom('other'), { namespace: 'shop' }),
      ]),
    );
    expect(out.exitCode).toBe(0);
    const refs = rulesOf(out.stdout, 'unpinned-version').map((r) => (r.resourceRef as Obj).name);
    expect(refs).toEqual(['other']);
    // `checksum` results name the Deployment, not the ExternalSecret: they stay.
    expect(rulesOf(out.stdout, 'checksum')).toHaveLength(2);
  });

  it('warns of an entry that names no rule or a fixed one, and applies the others', () => {
    const out = run(
      resourceList([silenced('unpined-version, invalid-input,, zzzz, unpinned-version'), app]),
    );
    expect(out.exitCode).toBe(0);
    expect(rulesOf(out.stdout, 'unpinned-version')).toEqual([]);
    expect(rulesOf(out.stdout, 'silence-annotation').map((r) => [r.message, r.field])).toEqual([
      [
        'ExternalSecret shop/db: secret-rollout/silence entry 1 names no rule; did you mean unpinned-version?',
        { path: 'metadata.annotations[secret-rollout/silence]' },
      ],
      [
        "ExternalSecret shop/db: secret-rollout/silence entry 2 names invalid-input, which cannot be silenced: it reports what the run cannot read, follow, prove or make, or a check's finding: lowering it would hide a failure",
        { path: 'metadata.annotations[secret-rollout/silence]' },
      ],
      [
        'ExternalSecret shop/db: secret-rollout/silence entry 4 names no rule',
        { path: 'metadata.annotations[secret-rollout/silence]' },
      ],
    ]);
  });

  it('warns of five entries each and counts the rest in one warning', () => {
    // On main: one warning per entry, 1000 here (20,000 entries: 620 MB, 68 MB of output).
    const out = run(resourceList([silenced(Array(1000).fill('x').join(',')), app]));
    expect(out.exitCode).toBe(0);
    const messages = rulesOf(out.stdout, 'silence-annotation').map((r) => r.message);
    expect(messages).toHaveLength(6);
    expect(messages[4]).toBe(
      'ExternalSecret shop/db: secret-rollout/silence entry 5 names no rule',
    );
    expect(messages[5]).toBe(
      'ExternalSecret shop/db: secret-rollout/silence entries 6, 7, 8, 9, 10 and 990 more name no rule or one that cannot be silenced too',
    );
  });

  it('never silences what makes the run fail', () => {
    const broken = silenced('malformed-field').replace(
      '  refreshInterval: 1h\n',
      '  refreshInterval: 1h\n  target: 7\n',
    );
    const out = run(resourceList([broken, app]));
    expect(out.exitCode).toBe(1);
    expect(rulesOf(out.stdout, 'malformed-field')).toHaveLength(1);
  });

  it('leaves a silenced resource out of a result that names several', () => {
    // unpinned-version groups the ExternalSecrets of one store; the manifest-target note is
    // folded over sources. Neither may name (or be dropped for) a resource that silences it.
    const second = unpinned.replace('  name: db\n', '  name: cache\n');
    const group = (ids: string) =>
      rulesOf(
        run(
          resourceList([
            unpinned,
            silenced(ids).replace('  name: db\n', '  name: cache\n'),
            app,
            deployment('web', envFrom('cache'), { namespace: 'shop' }),
          ]),
        ).stdout,
        'unpinned-version',
      ).map((r) => String(r.message));
    expect(run(resourceList([unpinned, second, app])).exitCode).toBe(0);
    const [alone] = group('unpinned-version');
    expect(alone).toContain('ExternalSecret shop/db ');
    expect(alone).not.toContain('cache');
    expect(group('kes-migration')[0]).toContain('cache');

    const manifest = (name: string, annotations = '') =>
      `apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata:\n  name: ${name}\n${annotations}spec:\n  secretStoreRef: {name: vault, kind: ClusterSecretStore}\n  target:\n    manifest: {apiVersion: config.example.com/v1, kind: AppConfig}\n  data:\n    - secretKey: k\n      remoteRef: {key: k, version: "1"}\n`;
    const noted = (annotations: string) =>
      resultsOf(
        run(resourceList([manifest('a', annotations), manifest('b'), manifest('c')])).stdout,
      )
        .filter((r) => (r.tags as Obj)?.rule === 'manifest-target')
        .map((r) => [(r.resourceRef as Obj).name, String(r.message).replace(/^.*\(/, '(')]);
    expect(noted('  annotations: {secret-rollout/silence: manifest-target}\n')).toEqual([
      ['b', '(2 resources: ExternalSecret b and ExternalSecret c)'],
    ]);
  });
});

// Each lint: a case that must fire and a case that must not, plus severity and the Vault fix.
import { describe, expect, it } from 'vitest';
import { run } from '../src/run.js';
import { deployment, envFrom, externalSecret, resourceList, resultsOf } from './helpers.js';

const pinned = (name: string, extra = '') =>
  externalSecret(name).replace(
    '      property: user\n',
    '      property: user\n      version: "1"\n',
  ) + extra;

const job = (name: string, annotations: string, secret = 'db') => `apiVersion: batch/v1
kind: Job
metadata:
  name: ${name}
${annotations ? `  annotations:\n${annotations.replace(/^/gm, '    ')}\n` : ''}spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        envFrom:
        - secretRef: {name: ${secret}}
`;

const vaultCronJob = (templateAnnotations: string) => `apiVersion: batch/v1
kind: CronJob
metadata:
  name: report
spec:
  schedule: "0 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
${templateAnnotations.replace(/^/gm, '            ')}
        spec:
          restartPolicy: Never
          containers:
          - name: c
            image: report:1
`;

/** Messages of results at `severity` that match `pattern`. */
function findings(items: string[], pattern: RegExp, config = '', severity = 'warning') {
  const cm = config
    ? `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n${config}`
    : undefined;
  const out = run(resourceList(items, cm));
  return resultsOf(out.stdout)
    .filter((r) => r.severity === severity && pattern.test(String(r.message)))
    .map((r) => ({
      ref: (r.resourceRef as { name: string } | undefined)?.name,
      message: String(r.message),
    }));
}

describe('lints', () => {
  it.each([
    {
      lint: 'hook phase',
      pattern: /phase beats wave/,
      fires: [pinned('db'), job('migrate', 'argocd.argoproj.io/hook: PreSync')],
      quiet: [
        pinned('db').replace(
          '  name: db\n',
          '  name: db\n  annotations:\n    argocd.argoproj.io/hook: PreSync\n',
        ),
        job('migrate', 'argocd.argoproj.io/hook: PreSync'),
      ],
      on: 'migrate',
    },
    {
      lint: 'hook phase (Helm hook)',
      pattern: /runs in the PreSync phase/,
      fires: [pinned('db'), job('migrate', 'helm.sh/hook: pre-install,pre-upgrade')],
      quiet: [pinned('db'), job('migrate', 'helm.sh/hook: post-install')],
      on: 'migrate',
    },
    {
      lint: 'job checksum',
      pattern: /template is immutable/,
      fires: [pinned('db'), job('seed', '')],
      quiet: [
        pinned('db'),
        job('seed', 'argocd.argoproj.io/sync-options: Force=true,Replace=true'),
      ],
      on: 'seed',
    },
    {
      lint: 'unpinned version',
      pattern: /cannot follow a rotation/,
      fires: [externalSecret('db'), deployment('app', envFrom('db'))],
      quiet: [pinned('db'), deployment('app', envFrom('db'))],
      on: 'db',
    },
    {
      lint: 'unpinned version (find)',
      pattern: /dataFrom\[0\] uses find/,
      fires: [
        pinned('db', '  dataFrom:\n  - find: {name: {regexp: "^db-"}}\n'),
        deployment('app', envFrom('db')),
      ],
      quiet: [pinned('db'), deployment('other', envFrom('unrelated'))],
      on: 'db',
    },
    {
      lint: 'vault agent job',
      pattern: /never completes/,
      fires: [vaultCronJob('vault.hashicorp.com/agent-inject: "true"')],
      quiet: [
        vaultCronJob(
          'vault.hashicorp.com/agent-inject: "true"\nvault.hashicorp.com/agent-pre-populate-only: "true"',
        ),
      ],
      on: 'report',
    },
    {
      lint: 'cross namespace',
      pattern: /never cross namespaces/,
      fires: [
        externalSecret('db', { namespace: 'prod' }).replace(
          '      property: user\n',
          '      property: user\n      version: "1"\n',
        ),
        deployment('app', envFrom('db'), { namespace: 'staging' }),
      ],
      quiet: [
        externalSecret('db', { namespace: 'prod' }).replace(
          '      property: user\n',
          '      property: user\n      version: "1"\n',
        ),
        deployment('app', envFrom('db'), { namespace: 'staging' }),
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: staging\nstringData: {a: b}\n',
      ],
      on: 'app',
    },
  ])('$lint: fires on the trap, quiet without it', ({ pattern, fires, quiet, on }) => {
    expect(findings(fires, pattern).map((f) => f.ref)).toEqual([on]);
    expect(findings(quiet, pattern)).toEqual([]);
  });

  it('a consumer with nothing wrong gets no warning at all', () => {
    const out = run(resourceList([pinned('db'), deployment('app', envFrom('db'))]));
    expect(out.exitCode).toBe(0);
    expect(resultsOf(out.stdout).filter((r) => r.severity !== 'info')).toEqual([]);
  });

  it('takes a severity per lint, including off', () => {
    const items = [externalSecret('db'), deployment('app', envFrom('db'))];
    expect(
      findings(items, /cannot follow/, '  unpinnedVersionSeverity: info\n', 'info'),
    ).toHaveLength(1);
    expect(
      findings(items, /cannot follow/, '  unpinnedVersionSeverity: off\n', 'info'),
    ).toHaveLength(0);
    const errors = run(
      resourceList(
        items,
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  unpinnedVersionSeverity: error\n',
      ),
    );
    expect(errors.exitCode).toBe(1);
  });

  it('sets agent-pre-populate-only when asked to', () => {
    const input = resourceList(
      [vaultCronJob('vault.hashicorp.com/agent-inject: "true"')],
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: f}\ndata:\n  fixVaultAgentJobs: "true"\n',
    );
    const out = run(input);
    expect(out.exitCode).toBe(0);
    expect(out.stdout).toContain(
      // (inside the ResourceList the template's annotations sit at column 14)
      `${' '.repeat(14)}vault.hashicorp.com/agent-pre-populate-only: "true"\n${' '.repeat(14)}vault.hashicorp.com/agent-inject: "true"\n`,
    );
    const messages = resultsOf(out.stdout).map((r) => String(r.message));
    expect(messages.filter((m) => /never completes/.test(m))).toEqual([]);
    expect(messages).toContain(
      'fixVaultAgentJobs: vault.hashicorp.com/agent-pre-populate-only is "true", so the Job can complete',
    );
    // Idempotent, results included: they describe the state, not the change.
    expect(run(out.stdout).stdout).toBe(out.stdout);
  });
});

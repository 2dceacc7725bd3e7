// `impact --format sarif`: HEAD's lints (warnings and errors) as SARIF 2.1.0, one rule per lint, at
// the file and line each item came from, so code-scanning UIs annotate the pull request.
import type * as Sarif from 'sarif';
import type { Result } from '../model/results.js';
import { lintId, lintOf, lints } from '../rules/lints/index.js';

/** Warnings and errors no lint reports: duplicate writers, wave conflicts, malformed fields. */
export const generalRule = 'secret-rollout';

export interface SarifOptions {
  version: string;
  /** Where a result's resource came from: a path relative to the repository, and a 1-based line. */
  locate: (result: Result) => { uri: string; line: number } | undefined;
}

const ruleText: Record<string, string> = {
  'hook-phase': 'A hook reads a source applied in a later sync phase',
  'job-checksum': 'A plain Job whose pod template gets a checksum: Job templates are immutable',
  'unpinned-version': 'An ExternalSecret whose remote value can rotate without a change in Git',
  'vault-agent-job': 'A Job or CronJob with the Vault Agent sidecar never completes',
  'cross-namespace': 'A workload reads a Secret that sources produce only in other namespaces',
  'missing-key': 'A reference reads a key its Secret or ConfigMap will not have',
  'kind-near-miss': 'A resource looks like a kind secret-rollout reads but is not one',
  'double-restart': 'A workload with a checksum that another mechanism restarts too',
  'scaled-job-rollout': 'A KEDA ScaledJob whose running Jobs a checksum change deletes',
  'csi-sync-mount':
    'A workload reads a Secret the Secrets Store CSI driver syncs without mounting its class',
  'near-name': 'A workload reads a Secret nothing in the input makes, next to a near name it makes',
  [generalRule]: 'Other warnings and errors of secret-rollout',
};

/**
 * SARIF plain text (2.1.0, 3.11.6): `[text](n)` is a link to a related location, so a literal `[`
 * or `]` (and a backslash) from a name in the message is escaped with a backslash.
 */
const sarifText = (text: string) => text.replace(/[\\[\]]/g, '\\$&');

export function impactSarif(lintResults: readonly Result[], options: SarifOptions): string {
  const ids = [...lints.map(lintId), generalRule];
  const rules: Sarif.ReportingDescriptor[] = ids.map((id) => ({
    id,
    shortDescription: { text: ruleText[id] ?? id },
  }));
  const results: Sarif.Result[] = lintResults.map((result) => {
    const ruleId = lintOf(result) ?? generalRule;
    const at = options.locate(result);
    const sarif: Sarif.Result = {
      ruleId,
      ruleIndex: ids.indexOf(ruleId),
      level: result.severity === 'error' ? 'error' : 'warning',
      message: { text: sarifText(result.message) },
    };
    if (at) {
      sarif.locations = [
        {
          physicalLocation: {
            artifactLocation: { uri: at.uri },
            region: { startLine: at.line },
          },
        },
      ];
    }
    return sarif;
  });
  const log: Sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'secret-rollout',
            version: options.version,
            rules,
          },
        },
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

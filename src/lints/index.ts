// The lints, as a table: a new lint is one module and one line here.
import type { Config } from '../config.js';
import type { MappingEdit } from '../plan/edits.js';
import { type Result, resourceResult } from '../results.js';
import { crossNamespace } from './cross-namespace.js';
import { hookPhase } from './hook-phase.js';
import { jobChecksum } from './job-checksum.js';
import type { Lint, LintContext } from './lint.js';
import { unpinnedVersion } from './unpinned-version.js';
import { vaultAgentJob } from './vault-agent-job.js';

export const lints: readonly Lint[] = [
  hookPhase,
  jobChecksum,
  unpinnedVersion,
  vaultAgentJob,
  crossNamespace,
];

export function runLints(
  context: LintContext,
  config: Config,
  edits: MappingEdit[],
  results: Result[],
): void {
  for (const lint of lints) {
    const severity = config[lint.option];
    if (severity === 'off') continue;
    lint.check(
      context,
      (resource, message, field) => {
        results.push(
          resourceResult(resource, severity, message, field ? { path: field } : undefined),
        );
      },
      edits,
    );
  }
}

export type { LintContext };

// The lints, as a table: a new lint is one module and one line here.
import type { Config } from '../../model/config.js';
import type { MappingEdit } from '../../model/edit.js';
import type { Resource } from '../../model/resource.js';
import { type Result, resourceResult, type Severity } from '../../model/results.js';
import { crossNamespace } from './cross-namespace.js';
import { csiSyncMount } from './csi-sync-mount.js';
import { doubleRestart } from './double-restart.js';
import { hookPhase } from './hook-phase.js';
import { jobChecksum } from './job-checksum.js';
import { kindNearMiss } from './kind-near-miss.js';
import type { Lint, LintContext } from './lint.js';
import { missingKey } from './missing-key.js';
import { nearName } from './near-name.js';
import { scaledJobRollout } from './scaled-job-rollout.js';
import { unpinnedVersion } from './unpinned-version.js';
import { vaultAgentJob } from './vault-agent-job.js';

export const lints: readonly Lint[] = [
  hookPhase,
  jobChecksum,
  unpinnedVersion,
  vaultAgentJob,
  crossNamespace,
  missingKey,
  kindNearMiss,
  doubleRestart,
  scaledJobRollout,
  csiSyncMount,
  nearName,
];

/** The lint that reported each result (`secret-rollout impact --format sarif` names its rule). */
const reportedBy = new WeakMap<Result, Lint>();

/** The rule id of the lint that reported a result: its option without `Severity`, kebab-case. */
export function lintOf(result: Result): string | undefined {
  const lint = reportedBy.get(result);
  return lint && lintId(lint);
}

export const lintId = (lint: Lint): string =>
  lint.option.replace(/Severity$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** Stage 6: every lint that is not off, at its severity, in the order of the table. */
export function runLints(
  context: LintContext,
  config: Config,
): { edits: MappingEdit[]; results: Result[] } {
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  for (const lint of lints) {
    const severity = config[lint.option];
    if (severity === 'off') continue;
    const result = (at: Severity) => (resource: Resource, message: string, field?: string) => {
      const reported = resourceResult(resource, at, message, field ? { path: field } : undefined);
      reportedBy.set(reported, lint);
      results.push(reported);
    };
    lint.check(context, { report: result(severity), note: result('info'), edits });
  }
  return { edits, results };
}

export type { LintContext };

// The lints, as a table: a new lint is one module and one line here.
import type { MappingEdit } from '../../model/edit.js';
import type { Resource } from '../../model/resource.js';
import {
  type Result,
  type Rule,
  type RuleSeverity,
  resourceResult,
  type Severity,
  setGrouped,
} from '../../model/results.js';
import { crossNamespace } from './cross-namespace.js';
import { csiSyncMount } from './csi-sync-mount.js';
import { doubleRestart } from './double-restart.js';
import { duplicateItem } from './duplicate-item.js';
import { hookPhase } from './hook-phase.js';
import { jobChecksum } from './job-checksum.js';
import { kindNearMiss } from './kind-near-miss.js';
import type { Lint, LintContext, Report } from './lint.js';
import { missingKey } from './missing-key.js';
import { nearName } from './near-name.js';
import { scaledJobRollout } from './scaled-job-rollout.js';
import { silences } from './silence.js';
import { storeRef } from './store-ref.js';
import { unpinnedVersion } from './unpinned-version.js';
import { unreadSource } from './unread-source.js';
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
  storeRef,
  unreadSource,
  duplicateItem,
];

/** Stage 6: every lint that is not off, at its severity, in the order of the table. */
export function runLints(
  context: LintContext,
  severityOf: (rule: Rule) => RuleSeverity,
): { edits: MappingEdit[]; results: Result[] } {
  const edits: MappingEdit[] = [];
  const results: Result[] = [];
  for (const lint of lints) {
    const severity = severityOf(lint);
    if (severity === 'off') continue;
    const result =
      (at: Severity): Report =>
      (resource, message, field, group) => {
        const made = resourceResult(
          lint,
          resource,
          message,
          field ? { path: field } : undefined,
          at,
        );
        if (group) setGrouped(made, group.key, group.members);
        results.push(made);
      };
    const silenced = (resource: Resource) => silences(resource, lint.id);
    lint.check(context, { report: result(severity), note: result('info'), edits, silenced });
  }
  return { edits, results };
}

export type { LintContext };

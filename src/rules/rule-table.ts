// Every rule a result can name, in one table: the lints (each declared in its module) and the
// other rules (result-rules.ts). The options read it (which severities can be set, and the older
// `<lint>Severity` option names), SARIF lists it, the docs' table is tested against it. After
// the stages, `settle` gives each result the severity the options set and drops those that are
// off or silenced by the `secret-rollout/silence` annotation of the resource they name.
import type { Config, RuleCatalog } from '../model/config.js';
import { annotationField } from '../model/edit.js';
import { nameList } from '../model/fold.js';
import { nearest } from '../model/near.js';
import type { Resource } from '../model/resource.js';
import * as declared from '../model/result-rules.js';
import {
  complete,
  describe,
  fixedReason,
  type ResourceRef,
  type Result,
  type Rule,
  type RuleSeverity,
  refOf,
  resourceResult,
  subjectOf,
} from '../model/results.js';
import { lints } from './lints/index.js';
import { silenceEntries, silenceKey } from './lints/silence.js';

/** The lints in their table's order, then the other rules by id. */
export const ruleTable: readonly Rule[] = [
  ...lints,
  ...Object.values(declared).sort((a, b) => (a.id < b.id ? -1 : 1)),
];

const byId = new Map(ruleTable.map((rule) => [rule.id, rule]));
const lintIds = new Set(lints.map((lint) => lint.id));
/** Silence entries a resource gets a warning of each; the rest are counted in one more. */
const shownEntries = 5;

/** `unpinned-version` → `unpinnedVersionSeverity`: the option each lint had before `severity`. */
export const severityOption = (id: string) =>
  `${id.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}Severity`;

export const ruleCatalog: RuleCatalog = {
  rules: ruleTable,
  options: new Map(
    [...lints, declared.waveConflict].map((rule) => [severityOption(rule.id), rule.id]),
  ),
};

/** A rule's severity under the options. */
export const severityIn =
  (config: Config) =>
  (rule: Rule): RuleSeverity =>
    (!rule.fixed && config.severity.get(rule.id)) || rule.severity;

/**
 * The results as the options and annotations want them: each at its rule's severity (a lint's
 * are already: its notes stay info), without rules that are off or silenced for their resource,
 * with a warning for each silence entry that names no rule or a fixed one.
 */
export function settle(
  results: readonly Result[],
  resources: readonly Resource[],
  config: Config,
): Result[] {
  // By ref and by resource: a deferred result names its resource until reported (subjectOf).
  const silenced = new Map<ResourceRef | Resource, Set<string>>();
  // The warnings about the silence annotations, after the results: no copy of the results to
  // push them to (10k at 10k items, outliving a scavenge on the fan-in bench).
  const added: Result[] = [];
  // An index loop: with inlining off (large inputs), for-of allocated an iterator result per item.
  for (let i = 0; i < resources.length; i++) {
    const resource = resources[i] as Resource;
    const entries = silenceEntries(resource);
    if (entries.length === 0) continue;
    const ids = new Set<string>();
    const wrong: number[] = [];
    for (const { id, entry } of entries) {
      const rule = byId.get(id);
      if (rule && !rule.fixed) ids.add(id);
      else if (wrong.push(entry) <= shownEntries) {
        added.push(silenceWarning(resource, entry, id, rule));
      }
    }
    // The rest in one warning: an annotation of 20,000 entries gave as many results, 620 MB of
    // memory and 68 MB of output for 800 KB of input (docs/limits.md).
    if (wrong.length > shownEntries) {
      const rest = wrong.slice(shownEntries).map(String);
      added.push(
        resourceResult(
          declared.silenceAnnotation,
          resource,
          `${describe(resource)}: ${silenceKey} entr${rest.length === 1 ? 'y' : 'ies'} ${nameList(rest)} name${rest.length === 1 ? 's' : ''} no rule or one that cannot be silenced too`,
          { path: annotationField(['metadata'], silenceKey) },
        ),
      );
    }
    silenced.set(refOf(resource), ids);
    silenced.set(resource, ids);
  }
  const kept = (result: Result): boolean => {
    const rule = byId.get(result.tags.rule) as Rule;
    if (rule.fixed) return true;
    const subject = subjectOf(result);
    if (subject && silenced.get(subject)?.has(rule.id)) return false;
    if (lintIds.has(rule.id)) return true;
    // Unset, a result keeps the severity its rule gave it (a rule may say info where its
    // usual warning would not apply: dependency-refresh without a reader in the input).
    const severity = config.severity.get(rule.id) ?? result.severity;
    if (severity === 'off') return false;
    if (severity !== result.severity) {
      result.severity = severity;
      // A deferred info raised above info is reported even when errors hide the info results.
      if (severity !== 'info') complete(result);
    }
    return true;
  };
  const settled = results.filter(kept);
  for (let i = 0; i < added.length; i++) {
    if (kept(added[i] as Result)) settled.push(added[i] as Result);
  }
  return settled;
}

function silenceWarning(resource: Resource, entry: number, id: string, fixed?: Rule): Result {
  // An entry is named by its position, and an id only when it is ours: messages quote no input.
  const near = fixed ? undefined : nearest(id, byId.keys());
  const why = fixed
    ? `${fixed.id}, which cannot be silenced: it reports ${fixedReason}`
    : `no rule${near ? `; did you mean ${near}?` : ''}`;
  return resourceResult(
    declared.silenceAnnotation,
    resource,
    `${describe(resource)}: ${silenceKey} entry ${entry} names ${why}`,
    { path: annotationField(['metadata'], silenceKey) },
  );
}

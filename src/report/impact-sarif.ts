// `impact --format sarif`: HEAD's warnings and errors as SARIF 2.1.0, each under its rule (the id
// every result carries in tags.rule), at the file and line each item came from, so code-scanning
// UIs annotate the pull request. The rules and their texts are the rule table's.
import type * as Sarif from 'sarif';
import type { Result, Severity } from '../model/results.js';
import { ruleTable } from '../rules/rule-table.js';

export interface SarifOptions {
  version: string;
  /** Where a result's resource came from: a path relative to the repository, and a 1-based line. */
  locate: (result: Result) => { uri: string; line: number } | undefined;
}

const levels: Record<Severity, Sarif.ReportingConfiguration.level> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

const rules: Sarif.ReportingDescriptor[] = ruleTable.map((rule) => ({
  id: rule.id,
  shortDescription: { text: rule.summary },
  fullDescription: { text: rule.help ?? rule.summary },
  defaultConfiguration: { level: levels[rule.severity] },
}));
const ruleIndex = new Map(ruleTable.map((rule, i) => [rule.id, i]));

/**
 * SARIF plain text (2.1.0, 3.11.6): `[text](n)` is a link to a related location, so a literal `[`
 * or `]` (and a backslash) from a name in the message is escaped with a backslash.
 */
const sarifText = (text: string) => text.replace(/[\\[\]]/g, '\\$&');

export function impactSarif(lintResults: readonly Result[], options: SarifOptions): string {
  const results: Sarif.Result[] = lintResults.map((result) => {
    const ruleId = result.tags.rule;
    const at = options.locate(result);
    const sarif: Sarif.Result = {
      ruleId,
      ruleIndex: ruleIndex.get(ruleId) ?? -1,
      level: levels[result.severity],
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

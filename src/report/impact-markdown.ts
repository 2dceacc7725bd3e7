// `impact --format markdown`: the report as a pull-request comment. A change that restarts
// workloads in more than one application (a monorepo: a directory each) is summed up first, by
// reason, then folded per application; a comment has a size cap (GitHub's is 65,536 characters),
// past which the report is cut between blocks and says where the full one is.
import { addTo } from '../model/fold.js';
import { formatResult, type Result } from '../model/results.js';
import type { Impact, Rollout } from './impact.js';
import { htmlName, markdownName, markdownText, mermaidText } from './markdown.js';
import { describeRef, type Ref } from './ref.js';

/** Edges past this are left out of the Mermaid picture (a comment should stay readable). */
export const maxMermaidEdges = 30;

/** Sources named per reason in the summary; the rest are counted. */
export const maxSourcesNamed = 3;

/** Names and text from manifests render as text (markdown.ts). */
const code = (ref: Ref) => markdownName(describeRef(ref));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** Code-unit order: the same on every machine, whatever the locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export interface MarkdownOptions {
  /** The comment's cap, in UTF-16 code units (never fewer than the characters GitHub counts). */
  maxChars?: number;
  /** Where the full report is written (`--output-full`), for the line that says it is cut. */
  fullReport?: string;
}

/** Lines that stay together when the report is cut: a table row, a folded application. */
interface Block {
  lines: string[];
  application?: boolean;
}

/** The comment (capped) and the full report; the same text when it fits. */
export function impactReports(
  impact: Impact,
  options: MarkdownOptions = {},
): { comment: string; full: string } {
  const blocks = reportBlocks(impact);
  const text = (kept: readonly Block[]) =>
    `${kept
      .flatMap((b) => b.lines)
      .join('\n')
      .replace(/\n+$/, '')}\n`;
  const full = text(blocks);
  const { maxChars } = options;
  if (maxChars === undefined || full.length <= maxChars) return { comment: full, full };
  const applications = blocks.filter((b) => b.application).length;
  // The blocks that fit with the line saying so; the first (title and summary) always.
  // `length`: the kept blocks' lines joined; the comment adds at most three line breaks to them
  // and the cut line (text() ends them with one, then a blank line before the cut line, and its
  // own). Counted as text() of the kept blocks, a last block that is a table row was one short.
  // Applications among the kept blocks are counted as blocks are kept, not recounted per block.
  let kept = 1;
  let length = (blocks[0] as Block).lines.join('\n').length;
  let shownApplications = (blocks[0] as Block).application ? 1 : 0;
  const cutLine = (shownNow: number) =>
    cutNotice(shownNow, applications, maxChars, options.fullReport);
  for (; kept < blocks.length; kept++) {
    const block = blocks[kept] as Block;
    const next = length + block.lines.join('\n').length + 1;
    const withIt = shownApplications + (block.application ? 1 : 0);
    if (next + cutLine(withIt).length + 3 > maxChars) break;
    length = next;
    shownApplications = withIt;
  }
  const shown = blocks.slice(0, kept);
  return { comment: `${text(shown)}\n${cutLine(shownApplications)}\n`, full };
}

/** The report as a string, capped when `maxChars` is given. */
export const impactMarkdown = (impact: Impact, options: MarkdownOptions = {}) =>
  impactReports(impact, options).comment;

/** The comment's last line when it is cut: how much is shown, and where the rest is. */
function cutNotice(shown: number, total: number, maxChars: number, fullReport?: string): string {
  const what =
    total > 0 ? `${shown} of ${plural(total, 'application')} shown, the rest` : 'the rest';
  const where =
    fullReport === undefined
      ? 'impact writes the full report to a file with `--output-full FILE`'
      : `the full report is in ${markdownName(fullReport)}`;
  return `**Cut** at ${maxChars} characters, a comment's cap: ${what} left out; ${where}.`;
}

function reportBlocks(impact: Impact): Block[] {
  const {
    rollouts,
    silentRotations,
    unchangedSilentRotations,
    waves,
    order,
    added,
    removed,
    newLints,
  } = impact;
  const blocks: Block[] = [];
  const push = (...lines: string[]) => blocks.push({ lines });
  // A source per application: two overlays' ExternalSecrets of one name are two sources.
  const sources = new Set(
    rollouts.flatMap((r) => r.reasons.map((x) => `${r.application}\u0000${describeRef(x.source)}`)),
  );
  const extras = [
    silentRotations.length > 0 ? plural(silentRotations.length, 'new silent rotation') : '',
    waves.length > 0 ? plural(waves.length, 'wave change') : '',
    order.length > 0 ? plural(order.length, 'order change') : '',
    // What was added is a workload, not a source: the sentence says so.
    added.length > 0 ? plural(added.length, 'workload added', 'workloads added') : '',
    removed.length > 0 ? plural(removed.length, 'workload removed', 'workloads removed') : '',
    newLints.length > 0 ? plural(newLints.length, 'new lint') : '',
  ].filter((s) => s !== '');
  const tail = extras.length > 0 ? `; ${extras.join(', ')}` : '';
  // An entry's application (where BASE and HEAD are directories, impact-cli.ts), named beside it
  // where the report spans more than one: two applications can render the same names.
  const byApplication = new Map<string, Rollout[]>();
  for (const r of rollouts) if (r.application !== undefined) addTo(byApplication, r.application, r);
  const applications = new Set(
    [...silentRotations, ...waves, ...order, ...added, ...removed].map((e) => e.application),
  );
  for (const name of byApplication.keys()) applications.add(name);
  const placed = ({ application }: { application?: string }) =>
    applications.size > 1 && application !== undefined ? ` in ${markdownName(application)}` : '';
  const title = '### secret-rollout impact';
  if (rollouts.length === 0) {
    push(title, '', `Nothing rolls: no workload's secret checksum changes${tail}.`, '');
  } else if (byApplication.size <= 1) {
    // One application (or a file): the table and the picture, as small pull requests read.
    const [only] = byApplication.keys();
    const where = only === undefined || only === '.' ? '' : ` in ${markdownName(only)}`;
    push(
      title,
      '',
      `**${plural(rollouts.length, 'workload')} will restart**${where} because ${plural(sources.size, 'secret source')} changed${tail}.`,
      '',
    );
    // A row a block: a long table is cut between rows.
    const [head, rule, ...rows] = rolloutTable(rollouts);
    push(head as string, rule as string);
    for (const row of rows) push(row);
    blocks.push({ lines: mermaid(impact) });
  } else {
    push(
      title,
      '',
      `**${plural(rollouts.length, 'workload')} will restart** in ${byApplication.size} applications because ${plural(sources.size, 'secret source')} changed${tail}.`,
      '',
    );
    blocks.push(...reasonTable(rollouts));
    push('#### By application', '');
    const names = [...byApplication.keys()].sort(compare);
    for (const name of names) {
      const own = byApplication.get(name) as Rollout[];
      const changed = new Set(own.flatMap((r) => r.reasons.map((x) => describeRef(x.source))));
      blocks.push({
        application: true,
        lines: [
          '<details>',
          `<summary>${htmlName(name)}: ${plural(own.length, 'workload')} (${plural(changed.size, 'source')} changed)</summary>`,
          '',
          ...rolloutTable(own),
          '</details>',
          '',
        ],
      });
    }
  }
  if (silentRotations.length > 0) {
    push(
      '#### Silent rotations',
      '',
      'New or changed in this change: these change upstream without a change in Git, so nothing restarts when they rotate:',
      '',
    );
    for (const s of silentRotations) {
      push(
        `- ${code(s.source)}${placed(s)} (read by ${s.consumers.map(code).join(', ')}): ${s.why.map(markdownText).join('; ')}`,
      );
    }
    push('');
  }
  // The ones BASE already has are not news: one line, not the same list on every pull request.
  if (unchangedSilentRotations > 0) {
    push(
      `${plural(unchangedSilentRotations, 'more silent rotation')} ${unchangedSilentRotations === 1 ? 'is' : 'are'} unchanged from the base (not listed).`,
      '',
    );
  }
  if (waves.length > 0) {
    push('#### Sync waves', '', '| Resource | Wave |', '| --- | --- |');
    for (const w of waves) {
      push(`| ${code(w.resource)}${placed(w)} | ${markdownText(w.old)} → ${markdownText(w.new)} |`);
    }
    push('');
  }
  // depends-on entries and kapp rules: who waits for whom (ordering other than argocd alone).
  if (order.length > 0) {
    const list = (refs: readonly Ref[]) => refs.map(code).join(', ') || '-';
    push(
      '#### Order',
      '',
      '| Resource | Now waits for | No longer waits for |',
      '| --- | --- | --- |',
    );
    for (const o of order)
      push(`| ${code(o.resource)}${placed(o)} | ${list(o.added)} | ${list(o.removed)} |`);
    push('');
  }
  if (added.length > 0 || removed.length > 0) {
    push('#### Workloads added or removed', '');
    for (const r of added) push(`- added: ${code(r)}${placed(r)}`);
    for (const r of removed) push(`- removed: ${code(r)}${placed(r)}`);
    push('');
  }
  if (newLints.length > 0) {
    push('#### New lints', '');
    for (const r of newLints) push(`- **${r.severity}**: ${markdownText(lintText(r))}`);
    push('');
  }
  return blocks;
}

function rolloutTable(rollouts: readonly Rollout[]): string[] {
  return [
    '| Workload | Because |',
    '| --- | --- |',
    ...rollouts.map(
      (r) =>
        `| ${code(r.resource)} | ${r.reasons.map((x) => `${code(x.source)}: ${markdownText(x.detail)}`).join('<br>')} |`,
    ),
    '',
  ];
}

/**
 * Why the workloads restart, grouped by what changed (a reason's detail: the same version bump
 * across many applications is one row), with the sources, workloads and applications it covers;
 * most workloads first.
 */
function reasonTable(rollouts: readonly Rollout[]): Block[] {
  const groups = new Map<
    string,
    { sources: Map<string, Ref>; workloads: number; applications: Set<string> }
  >();
  for (const r of rollouts) {
    for (const reason of r.reasons) {
      const group = groups.get(reason.detail) ?? {
        sources: new Map(),
        workloads: 0,
        applications: new Set(),
      };
      groups.set(reason.detail, group);
      group.sources.set(describeRef(reason.source), reason.source);
      group.workloads++;
      group.applications.add(r.application ?? '.');
    }
  }
  const rows = [...groups]
    .sort(([a, x], [b, y]) => y.workloads - x.workloads || compare(a, b))
    .map(([detail, { sources, workloads, applications }]) => {
      const names = [...sources.keys()].sort(compare);
      const named = names
        .slice(0, maxSourcesNamed)
        .map((n) => code(sources.get(n) as Ref))
        .join(', ');
      const more =
        names.length > maxSourcesNamed ? ` and ${names.length - maxSourcesNamed} more` : '';
      return {
        lines: [
          `| ${markdownText(detail)} | ${named}${more} | ${workloads} | ${applications.size} |`,
        ],
      };
    });
  return [
    { lines: ['| Why | Sources | Workloads | Applications |', '| --- | --- | ---: | ---: |'] },
    ...rows,
    { lines: [''] },
  ];
}

/** A result as `formatResult` prints it, without its severity (shown in bold before it). */
const lintText = (r: Result) =>
  formatResult({ ...r, file: undefined }).slice(`${r.severity}: `.length);

/** Source → workloads for the rollouts, capped at maxMermaidEdges. */
function mermaid({ rollouts }: Impact): string[] {
  const ids = new Map<string, string>();
  const nodes: string[] = [];
  const id = (ref: Ref) => {
    const key = describeRef(ref);
    let found = ids.get(key);
    if (!found) {
      found = `n${ids.size}`;
      ids.set(key, found);
      nodes.push(`  ${found}["${mermaidText(key)}"]`);
    }
    return found;
  };
  const edges: string[] = [];
  let total = 0;
  for (const rollout of rollouts) {
    for (const reason of rollout.reasons) {
      total++;
      if (edges.length < maxMermaidEdges) {
        edges.push(`  ${id(reason.source)} --> ${id(rollout.resource)}`);
      }
    }
  }
  const more = total > edges.length ? [`(${total - edges.length} more edges not drawn)`, ''] : [];
  return ['```mermaid', 'flowchart LR', ...nodes, ...edges, '```', '', ...more];
}

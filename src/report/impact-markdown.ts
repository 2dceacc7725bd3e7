// `impact --format markdown`: the report as a pull-request comment.
import { formatResult, type Result } from '../model/results.js';
import type { Impact } from './impact.js';
import { markdownName, markdownText, mermaidText } from './markdown.js';
import { describeRef, type Ref } from './ref.js';

/** Edges past this are left out of the Mermaid picture (a comment should stay readable). */
export const maxMermaidEdges = 30;

/** Names and text from manifests render as text (markdown.ts). */
const code = (ref: Ref) => markdownName(describeRef(ref));
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function impactMarkdown(impact: Impact): string {
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
  const out: string[] = ['### secret-rollout impact', ''];
  const sources = new Set(rollouts.flatMap((r) => r.reasons.map((x) => describeRef(x.source))));
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
  if (rollouts.length === 0) {
    out.push(`Nothing rolls: no workload's secret checksum changes${tail}.`, '');
  } else {
    out.push(
      `**${plural(rollouts.length, 'workload')} will restart** because ${plural(sources.size, 'secret source')} changed${tail}.`,
      '',
      '| Workload | Because |',
      '| --- | --- |',
      ...rollouts.map(
        (r) =>
          `| ${code(r.resource)} | ${r.reasons.map((x) => `${code(x.source)}: ${markdownText(x.detail)}`).join('<br>')} |`,
      ),
      '',
      ...mermaid(impact),
    );
  }
  if (silentRotations.length > 0) {
    out.push(
      '#### Silent rotations',
      '',
      'New or changed in this change: these change upstream without a change in Git, so nothing restarts when they rotate:',
      '',
      ...silentRotations.map(
        (s) =>
          `- ${code(s.source)} (read by ${s.consumers.map(code).join(', ')}): ${s.why.map(markdownText).join('; ')}`,
      ),
      '',
    );
  }
  // The ones BASE already has are not news: one line, not the same list on every pull request.
  if (unchangedSilentRotations > 0) {
    out.push(
      `${plural(unchangedSilentRotations, 'more silent rotation')} ${unchangedSilentRotations === 1 ? 'is' : 'are'} unchanged from the base (not listed).`,
      '',
    );
  }
  if (waves.length > 0) {
    out.push(
      '#### Sync waves',
      '',
      '| Resource | Wave |',
      '| --- | --- |',
      ...waves.map(
        (w) => `| ${code(w.resource)} | ${markdownText(w.old)} → ${markdownText(w.new)} |`,
      ),
      '',
    );
  }
  // depends-on entries and kapp rules: who waits for whom (ordering other than argocd alone).
  if (order.length > 0) {
    const list = (refs: readonly Ref[]) => refs.map(code).join(', ') || '-';
    out.push(
      '#### Order',
      '',
      '| Resource | Now waits for | No longer waits for |',
      '| --- | --- | --- |',
      ...order.map((o) => `| ${code(o.resource)} | ${list(o.added)} | ${list(o.removed)} |`),
      '',
    );
  }
  if (added.length > 0 || removed.length > 0) {
    out.push(
      '#### Workloads added or removed',
      '',
      ...added.map((r) => `- added: ${code(r)}`),
      ...removed.map((r) => `- removed: ${code(r)}`),
      '',
    );
  }
  if (newLints.length > 0) {
    out.push(
      '#### New lints',
      '',
      ...newLints.map((r) => `- **${r.severity}**: ${markdownText(lintText(r))}`),
      '',
    );
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
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

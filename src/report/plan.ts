// `secret-rollout plan`: the order and checksums of a package at a glance, as a table, as a
// Mermaid flowchart (stores → sources → Secrets → consumers), or as JSON for machines.

import { addTo } from '../model/fold.js';
import type { Resource } from '../model/resource.js';
import { describe, type Result, visible } from '../model/results.js';
import type { WaveNode } from '../rules/order/waves.js';
import { type SecretSource, writtenKindOf } from '../rules/sources/source.js';
import type { Plan } from '../rules/transform.js';
import { mermaidText } from './markdown.js';
import { jsonRef, type Ref } from './ref.js';

type Role = 'store' | 'dependency' | 'source' | 'consumer' | 'reader';
/** Order within a wave: stores and what sources read, sources, consumers and operator readers. */
const roleRank: Record<Role, number> = {
  store: 0,
  dependency: 0,
  source: 1,
  consumer: 2,
  reader: 2,
};

interface Row {
  resource: Resource;
  role: Role;
  wave: bigint | undefined;
  waveSource: 'written' | 'planned' | 'default' | undefined;
  detail: string;
  /** Resources whose waves contradict this one's: each is named with its wave. */
  conflicts: readonly WaveNode[];
  conflictDetail: string;
}

const name = (r: Resource) => `${r.namespace === undefined ? '' : `${r.namespace}/`}${r.name}`;
const produced = (s: SecretSource) =>
  `${writtenKindOf(s)} ${s.namespace === undefined ? '' : `${s.namespace}/`}${s.secretName}`;
/** Code-unit order: the same on every machine, whatever the locale. */
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const order = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
const byResource = (a: Resource, b: Resource) =>
  compare(a.namespace ?? '', b.namespace ?? '') ||
  compare(a.name, b.name) ||
  compare(a.kind, b.kind) ||
  compare(a.apiVersion, b.apiVersion) ||
  a.index - b.index;

function rows(plan: Plan): Row[] {
  // Both sides of a conflict: the explicit wave that is too late, and what it is not below.
  const after = new Map<Resource, WaveNode[]>();
  const before = new Map<Resource, WaveNode[]>();
  for (const [node, late] of plan.conflicts) {
    after.set(node.resource, [...late]);
    for (const n of late) addTo(before, n.resource, node);
  }
  const row = (resource: Resource, role: Role, detail: string): Row => {
    const node = plan.nodes.get(resource);
    const waveSource =
      node && (node.wave.explicit ? 'written' : plan.placed.has(node) ? 'planned' : 'default');
    const notBelow = after.get(resource) ?? [];
    const notAbove = before.get(resource) ?? [];
    const listed = (nodes: readonly WaveNode[]) =>
      nodes.map((n) => `${describe(n.resource)} (wave ${n.wave.value})`).join(', ');
    const conflictDetail = [
      notBelow.length > 0 ? `CONFLICT: not below ${listed(notBelow)}` : '',
      notAbove.length > 0 ? `CONFLICT: not above ${listed(notAbove)}` : '',
    ]
      .filter((s) => s !== '')
      .join('; ');
    return {
      resource,
      role,
      wave: node?.wave.value,
      waveSource,
      detail,
      conflicts: [...notBelow, ...notAbove],
      conflictDetail,
    };
  };
  const sourcesOf = sourcesByResource(plan);
  const orders = (resource: Resource) => {
    const users = (plan.nodes.get(resource)?.before ?? []).map(name);
    return users.length > 0 ? `before ${users.join(', ')}` : '';
  };
  return [
    ...plan.stores.map((store) => row(store, 'store', orders(store))),
    ...dependenciesOf(plan).map((dependency) => row(dependency, 'dependency', orders(dependency))),
    ...[...sourcesOf].map(([resource, sources]) => {
      const own = Object.entries(sources[0]?.ownAnnotations?.values ?? {});
      const annotations = own.map(([key, value]) => `, ${key}=${value.slice(0, 12)}…`).join('');
      return row(resource, 'source', `writes ${sources.map(produced).join(', ')}${annotations}`);
    }),
    ...consumersOf(plan).map((resource) => {
      const checksums = plan.checksums.get(resource) ?? [];
      const detail = checksums.map((c) => `${c.annotation}=${c.value.slice(0, 12)}…`).join(', ');
      return row(resource, 'consumer', detail || 'no checksum (ordered only)');
    }),
    ...[...readersOf(plan)].map(([resource, secrets]) =>
      row(
        resource,
        'reader',
        `reads ${secrets.join(', ')} (ordered only: its controller re-reads it)`,
      ),
    ),
  ].sort(
    (a, b) =>
      order(a.wave ?? 0n, b.wave ?? 0n) ||
      roleRank[a.role] - roleRank[b.role] ||
      compare(name(a.resource), name(b.resource)) ||
      byResource(a.resource, b.resource),
  );
}

/** What sources read from the input (templateFrom ConfigMaps, generators), each once. */
const dependenciesOf = (plan: Plan): Resource[] => [
  ...new Set(plan.sources.flatMap((s) => s.dependencies ?? [])),
];

/**
 * Operator resources that read a source's Secret (rules/readers.ts) with the Secrets they read,
 * but those already a row of their own (a store or generator that reads one).
 */
function readersOf(plan: Plan): Map<Resource, string[]> {
  const shown = new Set<Resource>([
    ...plan.stores,
    ...dependenciesOf(plan),
    ...plan.sources.map((s) => s.resource),
    ...consumersOf(plan),
  ]);
  const secrets = new Map<Resource, string[]>();
  for (const [source, readers] of plan.readersOf) {
    for (const reader of readers) {
      if (shown.has(reader)) continue;
      addTo(secrets, reader, produced(source));
    }
  }
  return secrets;
}

/** Everything that reads a source, with or without a checksum (bare Pods, pull secrets). */
function consumersOf(plan: Plan): Resource[] {
  const all = new Set<Resource>(plan.checksums.keys());
  for (const consumers of plan.consumersOf.values()) for (const c of consumers) all.add(c);
  return [...all];
}

export function planTable(plan: Plan): string {
  // Names come from the input: a line break in one must not break its row (visible()).
  const cells = rows(plan).map((r) =>
    [
      r.wave === undefined ? '-' : String(r.wave),
      r.resource.kind,
      name(r.resource),
      [r.detail, r.conflictDetail].filter((s) => s !== '').join('; '),
    ].map(visible),
  );
  const header = ['WAVE', 'KIND', 'NAME', 'DETAIL'];
  // A loop, not Math.max(...cells): a spread puts every row on the stack.
  const widths = header.map((h, i) =>
    cells.reduce((width, c) => Math.max(width, (c[i] as string).length), h.length),
  );
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return `${orderingLine(plan)}${[header, ...cells].map(line).join('\n')}\n`;
}

/**
 * The deployers the order is written for, above the table when not Argo CD's alone (the
 * default): WAVE then shows the waves Argo CD would read, which the run may not write.
 */
function orderingLine({ ordering }: Plan): string {
  if (ordering.length === 1 && ordering[0] === 'argocd') return '';
  const forms = ordering.length === 0 ? 'none (no order annotations written)' : ordering.join(', ');
  return `ordering: ${forms}\n`;
}

export function planMermaid(plan: Plan): string {
  const ids = new Map<unknown, string>();
  const id = (key: unknown) => {
    if (!ids.has(key)) ids.set(key, `n${ids.size}`);
    return ids.get(key) as string;
  };
  const lines = ['flowchart LR'];
  for (const r of rows(plan)) {
    const wave = r.wave === undefined ? '' : `<br/>wave ${r.wave}`;
    const conflict = r.conflicts.length > 0 ? '<br/>CONFLICT' : '';
    lines.push(
      `  ${id(r.resource)}["${mermaidText(`${r.resource.kind} ${name(r.resource)}`)}${wave}${conflict}"]`,
    );
  }
  for (const first of [...plan.stores, ...dependenciesOf(plan)]) {
    for (const next of plan.nodes.get(first)?.before ?? []) {
      lines.push(`  ${id(first)} --> ${id(next)}`);
    }
  }
  for (const source of plan.sources) {
    lines.push(
      `  ${id(source)}(["${mermaidText(produced(source))}"])`,
      `  ${id(source.resource)} --> ${id(source)}`,
    );
    for (const consumer of plan.consumersOf.get(source) ?? []) {
      lines.push(`  ${id(source)} --> ${id(consumer)}`);
    }
    for (const reader of plan.readersOf.get(source) ?? []) {
      lines.push(`  ${id(source)} -.-> ${id(reader)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The sources of each resource (a ClusterExternalSecret is one per namespace), in plan order. */
function sourcesByResource(plan: Plan): Map<Resource, SecretSource[]> {
  const sourcesOf = new Map<Resource, SecretSource[]>();
  for (const s of plan.sources) addTo(sourcesOf, s.resource, s);
  return sourcesOf;
}

/** Sorted, each resource once. */
const refsOf = (resources: Iterable<Resource>): Ref[] =>
  [...new Set(resources)].sort(byResource).map(jsonRef);

/**
 * The plan as one JSON document (README, "Reviewing the order"): every key always present, lists
 * sorted, waves as strings (64-bit integers, as in the annotation).
 */
export function planJson(plan: Plan, results: readonly Result[]): string {
  const sourcesOf = sourcesByResource(plan);
  const nodes = rows(plan).map((r) => ({
    ...jsonRef(r.resource),
    role: r.role,
    wave: r.wave === undefined ? null : String(r.wave),
    waveSource: r.waveSource ?? null,
    before: refsOf(plan.nodes.get(r.resource)?.before ?? []),
    writes: (sourcesOf.get(r.resource) ?? [])
      .map((s) => ({
        kind: writtenKindOf(s),
        ...(s.namespace === undefined ? {} : { namespace: s.namespace }),
        name: s.secretName,
      }))
      .sort(
        (a, b) =>
          compare(a.namespace ?? '', b.namespace ?? '') ||
          compare(a.name, b.name) ||
          compare(a.kind, b.kind),
      ),
    conflicts: refsOf(r.conflicts.map((n) => n.resource)),
  }));
  const checksums = [...plan.checksums]
    .sort(([a], [b]) => byResource(a, b))
    .flatMap(([resource, list]) =>
      list
        .map((c) => ({
          resource: jsonRef(resource),
          field: c.field,
          annotation: c.annotation,
          value: c.value,
          sources: refsOf(c.sources.map((s) => s.resource)),
        }))
        .sort((a, b) => compare(a.field, b.field)),
    );
  const { ordering } = plan;
  return `${JSON.stringify({ ordering, nodes, checksums, results }, null, 2)}\n`;
}

// `secret-rollout plan`: the order and checksums of a package at a glance, as a table or as a
// Mermaid flowchart (stores → sources → Secrets → consumers).
import type { Resource } from '../resource.js';
import type { SecretSource } from '../sources/source.js';
import type { Plan } from '../transform.js';

interface Row {
  resource: Resource;
  /** Order within a wave: stores, sources, consumers. */
  role: number;
  wave: bigint | undefined;
  detail: string;
}

const name = (r: Resource) => `${r.namespace === undefined ? '' : `${r.namespace}/`}${r.name}`;
const produced = (s: SecretSource) =>
  `${s.produces} ${s.namespace === undefined ? '' : `${s.namespace}/`}${s.secretName}`;

function rows(plan: Plan): Row[] {
  const row = (resource: Resource, role: number, detail: string): Row => ({
    resource,
    role,
    wave: plan.nodes.get(resource)?.wave.value,
    detail,
  });
  const sourcesOf = new Map<Resource, SecretSource[]>();
  for (const s of plan.sources)
    sourcesOf.set(s.resource, [...(sourcesOf.get(s.resource) ?? []), s]);
  return [
    ...plan.stores.map((store) => {
      const users = [...(plan.nodes.get(store)?.before ?? [])].map((n) => name(n.resource));
      return row(store, 0, users.length > 0 ? `before ${users.join(', ')}` : '');
    }),
    ...[...sourcesOf].map(([resource, sources]) =>
      row(resource, 1, `writes ${sources.map(produced).join(', ')}`),
    ),
    ...consumersOf(plan).map((resource) => {
      const checksums = plan.checksums.get(resource) ?? [];
      const detail = checksums.map((c) => `${c.annotation}=${c.value.slice(0, 12)}…`).join(', ');
      return row(resource, 2, detail || 'no checksum (ordered only)');
    }),
  ].sort(
    (a, b) =>
      order(a.wave ?? 0n, b.wave ?? 0n) ||
      a.role - b.role ||
      name(a.resource).localeCompare(name(b.resource)),
  );
}

const order = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** Everything that reads a source, with or without a checksum (bare Pods, pull secrets). */
function consumersOf(plan: Plan): Resource[] {
  const all = new Set<Resource>(plan.checksums.keys());
  for (const consumers of plan.consumersOf.values()) for (const c of consumers) all.add(c);
  return [...all];
}

export function planTable(plan: Plan): string {
  const cells = rows(plan).map((r) => [
    r.wave === undefined ? '-' : String(r.wave),
    r.resource.kind,
    name(r.resource),
    r.detail,
  ]);
  const header = ['WAVE', 'KIND', 'NAME', 'DETAIL'];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...cells.map((c) => (c[i] as string).length)),
  );
  const line = (row: string[]) =>
    row
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return `${[header, ...cells].map(line).join('\n')}\n`;
}

export function planMermaid(plan: Plan): string {
  const ids = new Map<unknown, string>();
  const id = (key: unknown) => {
    if (!ids.has(key)) ids.set(key, `n${ids.size}`);
    return ids.get(key) as string;
  };
  const label = (text: string) => `"${text.replaceAll('"', '#quot;')}"`;
  const lines = ['flowchart LR'];
  for (const r of rows(plan)) {
    const wave = r.wave === undefined ? '' : `<br/>wave ${r.wave}`;
    lines.push(`  ${id(r.resource)}[${label(`${r.resource.kind} ${name(r.resource)}${wave}`)}]`);
  }
  for (const store of plan.stores) {
    for (const next of plan.nodes.get(store)?.before ?? []) {
      lines.push(`  ${id(store)} --> ${id(next.resource)}`);
    }
  }
  for (const source of plan.sources) {
    lines.push(
      `  ${id(source)}([${label(produced(source))}])`,
      `  ${id(source.resource)} --> ${id(source)}`,
    );
    for (const consumer of plan.consumersOf.get(source) ?? []) {
      lines.push(`  ${id(source)} --> ${id(consumer)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

// The source tree reads downhill (ARCHITECTURE.md): every import goes from a room to a room below
// it, so no module imports from a layer above and no two rooms import each other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

const src = path.join(repoRoot, 'src');

/** Rooms from the bottom up; a room may import only rooms with a lower rank. */
const ranks: [room: string, rank: number][] = [
  ['model', 0],
  ['io', 1],
  ['krm', 1],
  ['rules/workloads', 2],
  ['rules/sources', 3],
  ['rules/order', 4],
  ['rules/lints', 5],
  ['rules', 6],
  ['report', 7],
  ['.', 8],
];

/** The room of a file under src/: its folder, or the nearest listed parent. */
function roomOf(file: string): string {
  let dir = path.relative(src, path.dirname(file)) || '.';
  while (!ranks.some(([room]) => room === dir)) {
    if (dir === '.') throw new Error(`${file} is in no room of ARCHITECTURE.md`);
    dir = path.dirname(dir);
  }
  return dir;
}
const rankOf = (room: string) => ranks.find(([r]) => r === room)?.[1] as number;

/** `from → to` edges that go uphill or sideways. */
function violations(edges: readonly { from: string; to: string }[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const [a, b] = [roomOf(from), roomOf(to)];
      return a !== b && rankOf(b) >= rankOf(a);
    })
    .map(({ from, to }) => `${path.relative(src, from)} → ${path.relative(src, to)}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|cts|cjs)$/.test(entry.name) ? [full] : [];
  });
}

/** Imports of modules under src/ (other files, such as the Lua script, are not rooms). */
function importEdges(): { from: string; to: string }[] {
  return sourceFiles(src).flatMap((from) =>
    [...readFileSync(from, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^'?]+)/g)]
      .map((m) => path.resolve(path.dirname(from), m[1] as string))
      .filter((to) => to.startsWith(`${src}${path.sep}`))
      .map((to) => ({ from, to })),
  );
}

describe('architecture', () => {
  it('every source file imports only rooms below its own', () => {
    const edges = importEdges();
    expect(edges.length).toBeGreaterThan(100);
    expect(violations(edges)).toEqual([]);
  });

  it('would report an import up or sideways', () => {
    const at = (file: string) => path.join(src, file);
    expect(
      violations([
        { from: at('model/resource.ts'), to: at('rules/transform.ts') },
        { from: at('io/input.ts'), to: at('krm/kptfile.ts') },
        { from: at('rules/workloads/shapes.ts'), to: at('rules/sources/source.ts') },
        { from: at('rules/lints/lint.ts'), to: at('rules/order/phases.ts') },
      ]),
    ).toEqual([
      'model/resource.ts → rules/transform.ts',
      'io/input.ts → krm/kptfile.ts',
      'rules/workloads/shapes.ts → rules/sources/source.ts',
    ]);
  });
});

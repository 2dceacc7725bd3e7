// The source tree reads downhill (ARCHITECTURE.md): every import goes from a room to a room below
// it, so no module imports from a layer above and no two rooms import each other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

const src = path.join(repoRoot, 'src');

/**
 * Each room and the rooms it may import (ARCHITECTURE.md's picture as data). The table must be a
 * DAG: nothing imports a room above it, no two rooms import each other.
 */
const allowed: Record<string, readonly string[]> = {
  model: [],
  'krm/yaml': ['model'],
  krm: ['krm/yaml', 'model'],
  'rules/workloads': ['model'],
  'rules/sources': ['rules/workloads', 'model'],
  'rules/order': ['model'],
  'rules/lints': ['rules/order', 'rules/sources', 'rules/workloads', 'model'],
  rules: ['rules/lints', 'rules/order', 'rules/sources', 'rules/workloads', 'model'],
  report: ['rules', 'rules/lints', 'rules/order', 'rules/sources', 'rules/workloads', 'model'],
  '.': ['krm', 'krm/yaml', 'rules', 'report', 'model'],
};

/** The room of a file under src/: its folder, or the nearest listed parent. */
function roomOf(file: string): string {
  let dir = path.relative(src, path.dirname(file)) || '.';
  while (!(dir in allowed)) {
    if (dir === '.') throw new Error(`${file} is in no room of ARCHITECTURE.md`);
    dir = path.dirname(dir);
  }
  return dir;
}

/** `from → to` edges the table does not allow. */
function violations(edges: readonly { from: string; to: string }[]): string[] {
  return edges
    .filter(({ from, to }) => {
      const [a, b] = [roomOf(from), roomOf(to)];
      return a !== b && !allowed[a]?.includes(b);
    })
    .map(({ from, to }) => `${path.relative(src, from)} → ${path.relative(src, to)}`);
}

/** A room that reaches itself through the table, if any. */
function cycle(): string | undefined {
  const reaches = (from: string, target: string, seen: Set<string>): boolean =>
    (allowed[from] ?? []).some(
      (to) => to === target || (!seen.has(to) && reaches(to, target, seen.add(to))),
    );
  return Object.keys(allowed).find((room) => reaches(room, room, new Set()));
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
  it('the rooms form a DAG', () => {
    expect(cycle()).toBeUndefined();
  });

  it('every source file imports only the rooms its room may import', () => {
    const edges = importEdges();
    expect(edges.length).toBeGreaterThan(100);
    expect(violations(edges)).toEqual([]);
  });

  it('would report an import up or sideways', () => {
    const at = (file: string) => path.join(src, file);
    expect(
      violations([
        { from: at('model/resource.ts'), to: at('rules/transform.ts') },
        { from: at('krm/yaml/parse.ts'), to: at('krm/read.ts') },
        { from: at('rules/sources/index.ts'), to: at('krm/read.ts') },
        { from: at('rules/workloads/shapes.ts'), to: at('rules/sources/source.ts') },
        { from: at('rules/lints/lint.ts'), to: at('rules/order/phases.ts') },
      ]),
    ).toEqual([
      'model/resource.ts → rules/transform.ts',
      'krm/yaml/parse.ts → krm/read.ts',
      'rules/sources/index.ts → krm/read.ts',
      'rules/workloads/shapes.ts → rules/sources/source.ts',
    ]);
  });
});

// The source tree reads downhill (ARCHITECTURE.md): every import goes from a room to a room below
// it, no two files import each other however long the way round, and the stages of rules/ import
// no later stage. The rooms and their arrows are read from ARCHITECTURE.md's diagram, so the
// picture cannot drift from the code: every import between two boxes is an arrow, every arrow an
// import.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

const src = path.join(repoRoot, 'src');

/** Files under src/ (relative, `/`-separated) and the files under src/ each one imports. */
type Graph = ReadonlyMap<string, readonly string[]>;

/**
 * Inside the diagram's `rules/` box: its sub-rooms and the sub-rooms each may import (`rules` is
 * the stages and what sits beside them). The table must be a DAG.
 */
const insideRules: Record<string, readonly string[]> = {
  'rules/workloads': [],
  'rules/sources': ['rules/workloads'],
  'rules/order': [],
  'rules/lints': ['rules/order', 'rules/sources', 'rules/workloads'],
  rules: ['rules/lints', 'rules/order', 'rules/sources', 'rules/workloads'],
};

/**
 * The stages of `transform`, in the order it runs them: a stage reads what the stages before it
 * found, so none imports a later one, directly or through other files.
 */
const stages = [
  'rules/producers.ts',
  'rules/target-names.ts',
  'rules/consumers.ts',
  'rules/readers.ts',
  'rules/checksums.ts',
  'rules/source-annotations.ts',
  'rules/argocd-health.ts',
  'rules/wave-plan.ts',
  'rules/lints/index.ts',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|cts|cjs)$/.test(entry.name) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(src, file).split(path.sep).join('/');

/** The file an import names: `./x.js` is `x.ts` (NodeNext resolution), `./x.cjs` itself. */
function resolveImport(from: string, specifier: string): string {
  const target = path.resolve(path.dirname(from), specifier);
  const file = [target, target.replace(/\.js$/, '.ts')].find((f) => existsSync(f));
  if (!file) throw new Error(`${relative(from)} imports ${specifier}, which is no file`);
  return file;
}

/** Imports of modules under src/ (other files, such as the Lua script, are not rooms). */
function importGraph(): Graph {
  return new Map(
    sourceFiles(src).map((from) => {
      const specifiers = readFileSync(from, 'utf8').matchAll(
        /(?:from|import|require)\s*\(?\s*['"](\.{1,2}\/[^'"?]+)/g,
      );
      const to = [...specifiers]
        .map((m) => resolveImport(from, m[1] as string))
        .filter((file) => file.startsWith(`${src}${path.sep}`))
        .map(relative);
      return [relative(from), [...new Set(to)]];
    }),
  );
}

/** The rooms (boxes) of a mermaid flowchart and its arrows between them. */
interface Diagram {
  /** `main.ts`, `krm/`, `krm/yaml/`: the text of each box before its first `<br/>`. */
  rooms: readonly string[];
  arrows: readonly (readonly [string, string])[];
}

/** `id`, then `["room<br/>text"]`, then `--> a & b`, each but the id optional. */
const diagramLine =
  /^\s*(\w+)(?:\["([^"<]+)(?:<br\/>[^"]*)?"\])?\s*(?:-->\s*(\w+(?:\s*&\s*\w+)*))?\s*$/;

/**
 * Reads the one mermaid block of ARCHITECTURE.md, one box a line with the arrows that leave it:
 * `id["room<br/>what it is"] --> b & c` (box and arrows may also stand on lines of their own).
 * Any other line is an error, so the test never skips what it cannot read.
 */
function readDiagram(markdown: string): Diagram {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error('ARCHITECTURE.md has no mermaid block');
  const roomOfId = new Map<string, string>();
  const ids: [string, string][] = [];
  for (const [n, line] of block.split('\n').entries()) {
    if (line.trim() === '' || line.trim() === 'flowchart TB') continue;
    const [, id, room, targets] = diagramLine.exec(line) ?? [];
    if (id === undefined || (room === undefined && targets === undefined)) {
      throw new Error(`ARCHITECTURE.md's diagram, line ${n + 1}: neither a box nor an arrow`);
    }
    if (room !== undefined) roomOfId.set(id, room.trim());
    for (const to of targets?.split('&') ?? []) ids.push([id, to.trim()]);
  }
  const roomOf = (id: string) => {
    const room = roomOfId.get(id);
    if (room === undefined) throw new Error(`ARCHITECTURE.md's diagram: no box ${id}`);
    return room;
  };
  return { rooms: [...roomOfId.values()], arrows: ids.map(([a, b]) => [roomOf(a), roomOf(b)]) };
}

/** A file's box: a root file's own (a `.d.cts` its loader's), else the deepest folder box holding it. */
function boxOf(file: string, rooms: readonly string[]): string | undefined {
  return file.includes('/')
    ? rooms
        .filter((room) => room.endsWith('/') && file.startsWith(room))
        .sort((a, b) => b.length - a.length)[0]
    : rooms.find((room) => room === file.replace(/\.d\.cts$/, '.cjs'));
}

/** A file's sub-room inside rules/: its folder, or the nearest listed parent. */
function subRoomOf(file: string): string {
  let dir = path.posix.dirname(file);
  while (!(dir in insideRules)) {
    if (dir === '.') throw new Error(`src/${file} is in no room of rules/`);
    dir = path.posix.dirname(dir);
  }
  return dir;
}

/**
 * What the diagram and the imports disagree on: files in no box, imports between two boxes with no
 * arrow, arrows with no import, boxes with no file, and inside rules/, imports the sub-room table
 * does not allow.
 */
function violations(graph: Graph, { rooms, arrows }: Diagram): string[] {
  const drawn = new Set(arrows.map(([a, b]) => `${a} → ${b}`));
  // Each import between two boxes, by the arrow it needs.
  const imports = new Map<string, string[]>();
  const wrong = [...graph.keys()]
    .filter((file) => boxOf(file, rooms) === undefined)
    .map((file) => `src/${file}: in no box`);
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [boxOf(from, rooms), boxOf(to, rooms)];
      if (a === undefined || b === undefined) continue;
      if (a !== b)
        imports.set(`${a} → ${b}`, [...(imports.get(`${a} → ${b}`) ?? []), `${from} → ${to}`]);
      else if (a === 'rules/') {
        const [x, y] = [subRoomOf(from), subRoomOf(to)];
        if (x !== y && !insideRules[x]?.includes(y)) wrong.push(`${from} → ${to}: ${x} → ${y}`);
      }
    }
  }
  for (const [arrow, by] of imports)
    if (!drawn.has(arrow)) wrong.push(`no arrow ${arrow}: ${by.join(', ')}`);
  for (const arrow of drawn) if (!imports.has(arrow)) wrong.push(`arrow ${arrow}: no such import`);
  const held = new Set([...graph.keys()].map((file) => boxOf(file, rooms)));
  for (const room of rooms) if (!held.has(room)) wrong.push(`box ${room}: no such file`);
  return wrong;
}

/** One circle (`a → b → a`) in each group of nodes that reach each other. */
function circles(graph: Graph): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  for (const start of [...graph.keys()].sort()) {
    if (done.has(start)) continue;
    // The shortest way back to `start`, breadth first.
    const cameFrom = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length && !cameFrom.has(start); i++) {
      const node = queue[i] as string;
      for (const next of graph.get(node) ?? []) {
        if (cameFrom.has(next) || done.has(next)) continue;
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
    done.add(start);
    if (!cameFrom.has(start)) continue;
    const circle = [start];
    for (let at = cameFrom.get(start) as string; at !== start; at = cameFrom.get(at) as string) {
      circle.unshift(at);
    }
    for (const node of circle) done.add(node);
    found.push([start, ...circle].join(' → '));
  }
  return found;
}

/** Every file a file reaches through its imports, with the way there. */
function reach(graph: Graph, from: string): Map<string, string> {
  const way = new Map<string, string>([[from, from]]);
  const queue = [from];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const next of graph.get(node) ?? []) {
      if (way.has(next)) continue;
      way.set(next, `${way.get(node)} → ${next}`);
      queue.push(next);
    }
  }
  return way;
}

/** Stages that reach a later stage, with the way. */
function backEdges(graph: Graph, order: readonly string[]): string[] {
  return order.flatMap((stage, i) => {
    const way = reach(graph, stage);
    return order.slice(i + 1).flatMap((later) => way.get(later) ?? []);
  });
}

/** Turns arrows between rooms into a graph (for the circle check on the diagram and tables). */
const graphOf = (arrows: readonly (readonly [string, string])[]): Graph => {
  const graph = new Map<string, string[]>();
  for (const [a, b] of arrows) graph.set(a, [...(graph.get(a) ?? []), b]);
  return graph;
};

describe('architecture', () => {
  const graph = importGraph();
  const diagram = readDiagram(readFileSync(path.join(repoRoot, 'ARCHITECTURE.md'), 'utf8'));

  it('reads the imports and the diagram', () => {
    expect(graph.size).toBeGreaterThan(90);
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
    expect(diagram.rooms).toEqual(expect.arrayContaining(['main.ts', 'rules/', 'model/']));
    expect(diagram.arrows.length).toBeGreaterThan(10);
  });

  it('the diagram and the table inside rules/ are DAGs', () => {
    expect(circles(graphOf(diagram.arrows))).toEqual([]);
    expect(
      circles(graphOf(Object.entries(insideRules).flatMap(([a, bs]) => bs.map((b) => [a, b])))),
    ).toEqual([]);
  });

  it('every import between two boxes is an arrow of the diagram, every arrow an import', () => {
    expect(violations(graph, diagram)).toEqual([]);
  });

  it('no file reaches itself through its imports', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('no stage of rules/ imports a later stage, directly or through other files', () => {
    for (const stage of stages) expect(graph.has(stage), stage).toBe(true);
    expect(backEdges(graph, stages)).toEqual([]);
  });

  it('would report what breaks the picture', () => {
    const sample: Graph = new Map([
      ['main.ts', ['run.ts', 'model/resource.ts', 'help.ts']],
      ['help.ts', []],
      ['run.ts', ['rules/transform.ts']],
      ['rules/transform.ts', ['rules/b.ts', 'rules/a.ts']],
      ['rules/a.ts', ['rules/sources/index.ts', 'rules/c.ts']],
      ['rules/sources/index.ts', ['rules/lints/lint.ts', 'model/resource.ts']],
      ['rules/c.ts', ['rules/b.ts']],
      ['rules/b.ts', []],
      ['model/resource.ts', ['model/path.ts']],
      ['model/path.ts', ['model/resource.ts']],
    ]);
    const picture = readDiagram(
      [
        '```mermaid',
        'flowchart TB',
        '  main["main.ts<br/>the process"] --> run & rules',
        '  run["run.ts"] --> rules',
        '  rules["rules/<br/>transform"]',
        '  rules --> model',
        '  model["model/"]',
        '  gone["gone.ts"]',
        '```',
      ].join('\n'),
    );
    expect(violations(sample, picture)).toEqual([
      'src/help.ts: in no box',
      'rules/sources/index.ts → rules/lints/lint.ts: rules/sources → rules/lints',
      'no arrow main.ts → model/: main.ts → model/resource.ts',
      'arrow main.ts → rules/: no such import',
      'box gone.ts: no such file',
    ]);
    expect(circles(sample)).toEqual(['model/path.ts → model/resource.ts → model/path.ts']);
    expect(backEdges(sample, ['rules/a.ts', 'rules/b.ts'])).toEqual([
      'rules/a.ts → rules/c.ts → rules/b.ts',
    ]);
    expect(() => readDiagram('```mermaid\nflowchart TB\n  a -> b\n```')).toThrow('line 2');
    expect(() => readDiagram('```mermaid\n  a["a.ts"] --> b\n```')).toThrow('no box b');
  });
});

// Mutations of YAML/JSON text: byte-level (characters flipped, inserted, deleted, truncation),
// line-level (duplicate, delete, swap, re-indent, insert YAML syntax) and structure-aware (swap or
// duplicate items and documents, drop a key, change a remoteRef version or a sync-wave, re-link a
// name, change a kind, splice in another input). All randomness comes from one seeded Rng.

/** mulberry32: small, fast, deterministic. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A per-case seed from the run's seed and the case number. */
export function caseSeed(runSeed: number, n: number): number {
  let h = (runSeed ^ Math.imul(n + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export interface Context {
  rng: Rng;
  /** Another input, for splicing. */
  other: () => string;
}

type Mutator = (text: string, c: Context) => string;

const lb = (text: string) => (text.includes('\r\n') ? '\r\n' : '\n');
/** Lines with their line breaks. */
const linesOf = (text: string) => text.split(/(?<=\n)/);
const indentOf = (line: string) => (/^ */.exec(line) as RegExpExecArray)[0].length;
const bare = (line: string) => line.replace(/\r?\n$/, '');
const eol = (line: string) => line.slice(bare(line).length);

const tokens = [
  '---',
  '--- ',
  '...',
  '&a ',
  '*a',
  '<<: *a',
  '? ',
  '\t',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  '#',
  ' #',
  ': ',
  ':',
  '- ',
  ',',
  '|',
  '>-',
  '!!str ',
  '!tag ',
  '%YAML 1.2',
  '\r',
  '\n',
  '\r\n',
  '\0',
  '\uFEFF',
  '\u2028',
  '\u0085',
  '~',
  'null',
  '\\',
  '\\"',
  '💥',
  'é',
  ' ',
  '  ',
  '0x10',
  '1e999',
  '-',
  '@',
  '`',
  '%',
];

const randomChar = (rng: Rng): string => {
  const r = rng.int(10);
  if (r < 5) return String.fromCharCode(32 + rng.int(95));
  if (r < 7) return rng.pick(tokens);
  if (r < 8) return String.fromCharCode(rng.int(32));
  if (r < 9) return String.fromCharCode(0x80 + rng.int(0x780));
  return String.fromCodePoint(rng.pick([0xfeff, 0xfffd, 0x1f600, 0x200b, 0x7f, 0xa0, 0x3000]));
};

const pos = (text: string, rng: Rng) => rng.int(text.length + 1);

const waveValues = [
  '"abc"',
  '"1.5"',
  '"99999999999999999999"',
  '"9223372036854775807"',
  '"-9223372036854775808"',
  '"9223372036854775808"',
  '"-3"',
  '" 2 "',
  '"+1"',
  '"0x1"',
  '""',
  '"-0"',
  "'07'",
  '5',
  '-1',
  '~',
  'null',
  '[1]',
  '{a: 1}',
  '"1e3"',
  '|\n  1',
  '*a',
  '&a "2"',
  '"\\u0031"',
  '"١"',
  "'-2' # wave",
];

const versionValues = [
  '"1"',
  '"2"',
  '8',
  '"v2"',
  "''",
  'null',
  '~',
  '[1]',
  '{a: 1}',
  '"0x10"',
  '1e3',
  'latest',
  '"AWSCURRENT"',
  '"9007199254740993"',
  '9007199254740993',
  'true',
  '"é"',
  '"a\\nb"',
];

const kinds = [
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'CronJob',
  'Job',
  'Pod',
  'ExternalSecret',
  'ClusterExternalSecret',
  'SecretStore',
  'ClusterSecretStore',
  'ConfigMap',
  'Secret',
  'ResourceList',
  'Kptfile',
  'SealedSecret',
  'VaultStaticSecret',
  'Namespace',
  'Service',
  'Rollout',
];

const apiVersions = [
  'v1',
  'apps/v1',
  'batch/v1',
  'external-secrets.io/v1',
  'external-secrets.io/v1beta1',
  'external-secrets.io/v1alpha1',
  'kubernetes-client.io/v1',
  'config.kubernetes.io/v1',
  'fn.kpt.dev/v1alpha1',
  'argoproj.io/v1alpha1',
];

const insertedLines = [
  '---',
  '...',
  '--- # doc',
  '# comment',
  '#',
  '',
  '<<: *a',
  '? x',
  ': y',
  '\tkey: value',
  'key:\tvalue',
  'x: &a {b: 1}',
  'x: *a',
  'annotations:',
  'metadata:',
  'annotations: {}',
  'metadata: {}',
  'checksum/external-secrets: "x"',
  'checksum/external-secrets: |-',
  'argocd.argoproj.io/sync-wave: "1"',
  'argocd.argoproj.io/sync-wave: abc',
  '"checksum/external-secrets": 1',
  'results: []',
  'functionConfig: {}',
  'items: []',
  'kind: ResourceList',
  'apiVersion: config.kubernetes.io/v1',
  '- a',
  '- {name: db}',
  '- secretRef: {name: db}',
  'name: db',
  'key: "multi',
  '  line"',
  'k: [a,',
  '  b]',
  '%YAML 1.2',
  '%TAG ! tag:example.com,2000:',
  '!!map',
  'null: ~',
  '"": x',
  '[a]: b',
  '{a: b}: c',
  'k: !!binary aGVsbG8=',
  'k: 2001-12-14',
  'k: .inf',
  '<<: [*a, *b]',
];

/** The line range [start, end) of the block that starts at `at`: it and its deeper lines. */
function blockAt(lines: readonly string[], at: number): [number, number] {
  const indent = indentOf(lines[at] as string);
  let end = at + 1;
  while (end < lines.length) {
    const l = bare(lines[end] as string);
    if (l.trim() !== '' && indentOf(l) <= indent) break;
    end++;
  }
  return [at, end];
}

/** Ranges of the documents of a stream, or of the items of a ResourceList. */
function units(lines: readonly string[]): [number, number][] {
  const itemsAt = lines.findIndex((l) => /^items:\s*$/.test(bare(l)));
  if (itemsAt >= 0) {
    const firstItem = lines.findIndex((l, i) => i > itemsAt && /^ *- /.test(l));
    if (firstItem < 0) return [];
    const dash = indentOf(lines[firstItem] as string);
    const starts: number[] = [];
    let end = lines.length;
    for (let i = firstItem; i < lines.length; i++) {
      const l = bare(lines[i] as string);
      if (l.trim() === '' || l.trimStart().startsWith('#')) continue;
      const ind = indentOf(l);
      if (ind === dash && l.slice(ind).startsWith('- ')) starts.push(i);
      else if (ind < dash || (ind === dash && dash === 0 && !l.startsWith('- '))) {
        end = i;
        break;
      }
    }
    return starts.map((s, k) => [s, starts[k + 1] ?? end]);
  }
  const ranges: [number, number][] = [];
  let start = 0;
  lines.forEach((l, i) => {
    if (/^---(\s|$)/.test(l)) {
      if (i > start) ranges.push([start, i]);
      start = i;
    }
  });
  if (lines.length > start) ranges.push([start, lines.length]);
  return ranges;
}

function lineMatching(lines: readonly string[], re: RegExp, rng: Rng): number | undefined {
  const hits: number[] = [];
  lines.forEach((l, i) => {
    if (re.test(l)) hits.push(i);
  });
  return hits.length === 0 ? undefined : rng.pick(hits);
}

function withLines(text: string, f: (lines: string[], rng: Rng) => void, rng: Rng): string {
  const lines = linesOf(text);
  if (lines.length === 0) return text;
  f(lines, rng);
  return lines.join('');
}

/** Keeps a line's break when replacing its content. */
const setLine = (lines: string[], i: number, content: string) => {
  lines[i] = content + eol(lines[i] as string);
};

export const mutators: Record<string, Mutator> = {
  // Byte level.
  flipChar: (t, { rng }) => {
    const p = rng.int(Math.max(1, t.length));
    return t.slice(0, p) + randomChar(rng) + t.slice(p + 1);
  },
  bitFlip: (t, { rng }) => {
    if (t.length === 0) return t;
    const p = rng.int(t.length);
    return (
      t.slice(0, p) + String.fromCharCode(t.charCodeAt(p) ^ (1 << rng.int(7))) + t.slice(p + 1)
    );
  },
  insertChars: (t, { rng }) => {
    const p = pos(t, rng);
    let s = '';
    for (let n = 1 + rng.int(3); n > 0; n--) s += randomChar(rng);
    return t.slice(0, p) + s + t.slice(p);
  },
  insertToken: (t, { rng }) => {
    const p = pos(t, rng);
    return t.slice(0, p) + rng.pick(tokens) + t.slice(p);
  },
  deleteChars: (t, { rng }) => {
    const p = pos(t, rng);
    return t.slice(0, p) + t.slice(p + 1 + rng.int(rng.chance(0.8) ? 4 : 200));
  },
  truncate: (t, { rng }) => t.slice(0, pos(t, rng)),
  longLine: (t, { rng }) => {
    const n = rng.pick([300, 5_000, 100_000, 1_000_000]);
    const lines = linesOf(t);
    const i = rng.int(lines.length + 1);
    const ind = ' '.repeat(indentOf(lines[i] ?? ''));
    const line = rng.pick([
      `${ind}long: ${'a'.repeat(n)}`,
      `${ind}${'k'.repeat(n)}: v`,
      `${ind}long: "${'\\u0041'.repeat(n / 6)}"`,
      `${ind}# ${'#'.repeat(n)}`,
      `${ind}long: ${'- '.repeat(n / 2)}x`,
    ]);
    lines.splice(i, 0, line + lb(t));
    return lines.join('');
  },
  deepNesting: (t, { rng }) => {
    const n = rng.pick([50, 500, 5_000, 50_000]);
    const lines = linesOf(t);
    const i = rng.int(lines.length + 1);
    const ind = ' '.repeat(indentOf(lines[i] ?? ''));
    const open = rng.pick(['[', '{a: ', '- ']);
    const close = open === '[' ? ']' : open === '- ' ? '' : '}';
    lines.splice(i, 0, `${ind}deep: ${open.repeat(n)}x${close.repeat(n)}${lb(t)}`);
    return lines.join('');
  },
  lineBreaks: (t, { rng }) =>
    rng.chance(0.5)
      ? t.replace(/\r?\n/g, '\r\n')
      : withLines(
          t,
          (lines) => {
            const i = rng.int(lines.length);
            lines[i] = `${bare(lines[i] as string)}${rng.pick(['\r\n', '\n', '\r', ''])}`;
          },
          rng,
        ),

  // Line level.
  duplicateLine: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = rng.int(lines.length);
        lines.splice(i, 0, lines[i] as string);
      },
      rng,
    ),
  deleteLine: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        lines.splice(rng.int(lines.length), 1);
      },
      rng,
    ),
  swapLines: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = rng.int(lines.length);
        const j = rng.chance(0.5) ? Math.min(lines.length - 1, i + 1) : rng.int(lines.length);
        const a = bare(lines[i] as string);
        setLine(lines, i, bare(lines[j] as string));
        setLine(lines, j, a);
      },
      rng,
    ),
  indentLine: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = rng.int(lines.length);
        const d = rng.pick([-2, -1, 1, 2]);
        const l = bare(lines[i] as string);
        setLine(lines, i, d > 0 ? ' '.repeat(d) + l : l.slice(Math.min(-d, indentOf(l))));
      },
      rng,
    ),
  insertLine: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = rng.int(lines.length + 1);
        const ind = ' '.repeat(indentOf(lines[Math.min(i, lines.length - 1)] as string));
        const line = rng.pick(insertedLines);
        lines.splice(i, 0, (/^(---|\.\.\.|%)/.test(line) ? line : ind + line) + lb(t));
      },
      rng,
    ),
  appendToLine: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = rng.int(lines.length);
        setLine(
          lines,
          i,
          bare(lines[i] as string) +
            rng.pick([' &a', ' #', ' # c', '\t# c', ' ', '\t', ':', ' *a', ' |', ',', ' {', ']']),
        );
      },
      rng,
    ),
  anchorAlias: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        // `key: value` → `key: &a value` somewhere, and another value → `*a`.
        const values: number[] = [];
        lines.forEach((l, i) => {
          if (/^ *(- )?[\w./-]+: \S/.test(l)) values.push(i);
        });
        if (values.length < 2) return;
        const a = rng.pick(values);
        const b = rng.pick(values);
        setLine(lines, a, bare(lines[a] as string).replace(/: /, ': &a '));
        if (b !== a) setLine(lines, b, bare(lines[b] as string).replace(/: .*/, ': *a'));
      },
      rng,
    ),
  mergeKey: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const blocks: number[] = [];
        lines.forEach((l, i) => {
          if (/^ *[\w./-]+:\s*$/.test(l)) blocks.push(i);
        });
        if (blocks.length < 2) return;
        const a = rng.pick(blocks);
        const b = rng.pick(blocks);
        setLine(lines, a, `${bare(lines[a] as string)} &a`);
        const child = ' '.repeat(indentOf(lines[b + 1] ?? '') || indentOf(lines[b] as string) + 2);
        lines.splice(b + 1, 0, `${child}<<: *a${lb(t)}`);
      },
      rng,
    ),
  quoteSomething: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = lineMatching(lines, /^ *(- )?[\w./-]+: ?/, rng);
        if (i === undefined) return;
        const q = rng.pick(['"', "'"]);
        const l = bare(lines[i] as string);
        setLine(
          lines,
          i,
          rng.chance(0.5)
            ? l.replace(/^( *(?:- )?)([\w./-]+):/, `$1${q}$2${q}:`)
            : l.replace(/: (.*)$/, `: ${q}$1${q}`),
        );
      },
      rng,
    ),

  // Structure aware.
  swapUnits: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const u = units(lines);
        if (u.length < 2) return;
        const [a, b] = [rng.int(u.length), rng.int(u.length)].sort((x, y) => x - y) as [
          number,
          number,
        ];
        if (a === b) return;
        const [as, ae] = u[a] as [number, number];
        const [bs, be] = u[b] as [number, number];
        const copy = [...lines];
        lines.splice(
          as,
          be - as,
          ...copy.slice(bs, be),
          ...copy.slice(ae, bs),
          ...copy.slice(as, ae),
        );
      },
      rng,
    ),
  duplicateUnit: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const u = units(lines);
        if (u.length === 0) return;
        const [s, e] = rng.pick(u);
        lines.splice(rng.chance(0.5) ? e : s, 0, ...lines.slice(s, e));
      },
      rng,
    ),
  deleteUnit: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const u = units(lines);
        if (u.length === 0) return;
        const [s, e] = rng.pick(u);
        lines.splice(s, e - s);
      },
      rng,
    ),
  dropKey: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = lineMatching(lines, /^ *[\w./"'-]+:/, rng);
        if (i === undefined) return;
        const [s, e] = blockAt(lines, i);
        lines.splice(s, e - s);
      },
      rng,
    ),
  dropFlowEntry: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = lineMatching(lines, /\{[^{}]*,[^{}]*\}/, rng);
        if (i === undefined) return;
        setLine(
          lines,
          i,
          bare(lines[i] as string).replace(
            rng.chance(0.5) ? /[\w./-]+: [^,{}]*, / : /, [\w./-]+: [^,{}]*(?=\})/,
            '',
          ),
        );
      },
      rng,
    ),
  setVersion: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const v = rng.pick(versionValues);
        const i = lineMatching(lines, /\bversion: /, rng);
        if (i !== undefined && rng.chance(0.8)) {
          setLine(
            lines,
            i,
            bare(lines[i] as string).replace(/(\bversion: )("[^"]*"|'[^']*'|[^,}\s#]+)/, `$1${v}`),
          );
          return;
        }
        const k = lineMatching(lines, /^ *(- )?key: /, rng);
        if (k === undefined) return;
        const l = lines[k] as string;
        lines.splice(
          k + 1,
          0,
          `${' '.repeat(indentOf(l) + (/^ *- /.test(l) ? 2 : 0))}version: ${v}${lb(t)}`,
        );
      },
      rng,
    ),
  setWave: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const v = rng.pick(waveValues);
        const key = 'argocd.argoproj.io/sync-wave';
        const i = lineMatching(lines, /argocd\.argoproj\.io\/sync-wave["']?: /, rng);
        if (i !== undefined && rng.chance(0.6)) {
          setLine(
            lines,
            i,
            bare(lines[i] as string).replace(
              /(sync-wave["']?: )("[^"]*"|'[^']*'|[^,}\s#]+)/,
              `$1${v}`,
            ),
          );
          return;
        }
        const a = lineMatching(lines, /^ *annotations:\s*$/, rng);
        if (a !== undefined && rng.chance(0.7)) {
          const child = indentOf(lines[a + 1] ?? '') || indentOf(lines[a] as string) + 2;
          lines.splice(a + 1, 0, `${' '.repeat(child)}${key}: ${v}${lb(t)}`);
          return;
        }
        const m = lineMatching(lines, /^ *metadata:/, rng);
        if (m === undefined) return;
        const l = bare(lines[m] as string);
        if (/\{/.test(l)) {
          setLine(lines, m, l.replace('{', `{annotations: {${key}: ${v.replace(/\n.*/, '')}}, `));
        } else {
          const child = ' '.repeat(indentOf(l) + 2);
          lines.splice(m + 1, 0, `${child}annotations:${lb(t)}`, `${child}  ${key}: ${v}${lb(t)}`);
        }
      },
      rng,
    ),
  relinkName: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const names = [...t.matchAll(/\bname: ([\w.-]+)/g)].map((m) => m[1] as string);
        const i = lineMatching(lines, /\bname: [\w.-]+/, rng);
        if (i === undefined || names.length === 0) return;
        setLine(
          lines,
          i,
          bare(lines[i] as string).replace(/\bname: [\w.-]+/, `name: ${rng.pick(names)}`),
        );
      },
      rng,
    ),
  changeKind: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = lineMatching(lines, /\b(kind|apiVersion): /, rng);
        if (i === undefined) return;
        const l = bare(lines[i] as string);
        setLine(
          lines,
          i,
          /kind: /.test(l)
            ? l.replace(/kind: \S+/, `kind: ${rng.pick(kinds)}`)
            : l.replace(/apiVersion: \S+/, `apiVersion: ${rng.pick(apiVersions)}`),
        );
      },
      rng,
    ),
  changeNamespace: (t, { rng }) =>
    withLines(
      t,
      (lines) => {
        const i = lineMatching(lines, /\bnamespace: /, rng);
        if (i === undefined) return;
        const ns = rng.pick(['shop', 'other', '""', '~', 'default']);
        setLine(
          lines,
          i,
          bare(lines[i] as string).replace(/namespace: [^,}\s#]*/, `namespace: ${ns}`),
        );
      },
      rng,
    ),
  splice: (t, c) => {
    const other = c.other();
    const a = linesOf(t);
    const b = linesOf(other);
    if (c.rng.chance(0.5)) {
      // A document or item of the other input, inserted whole.
      const u = units(b);
      if (u.length === 0) return t;
      const [s, e] = c.rng.pick(u);
      const at = c.rng.int(a.length + 1);
      return [...a.slice(0, at), ...b.slice(s, e), ...a.slice(at)].join('');
    }
    return [...a.slice(0, c.rng.int(a.length + 1)), ...b.slice(c.rng.int(b.length + 1))].join('');
  },
};

const names = Object.keys(mutators);
/** Structure-aware and line mutations are weighted up: they keep more inputs valid. */
const weighted = [
  ...names,
  ...names.filter((n) =>
    ['setVersion', 'setWave', 'swapUnits', 'duplicateUnit', 'dropKey', 'relinkName'].includes(n),
  ),
  ...names.filter((n) =>
    ['duplicateLine', 'deleteLine', 'swapLines', 'indentLine', 'insertLine'].includes(n),
  ),
];

/** Lone surrogates cannot come from UTF-8 stdin (the CLI decodes it): they become U+FFFD. */
const wellFormed = (t: string) =>
  t.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** 1 to 8 mutations (most often 1 or 2); the names of those applied. */
export function mutate(text: string, c: Context): { text: string; applied: string[] } {
  const applied: string[] = [];
  let out = text;
  do {
    const name = c.rng.pick(weighted);
    out = (mutators[name] as Mutator)(out, c);
    applied.push(name);
  } while (applied.length < 8 && c.rng.chance(0.45));
  return { text: wellFormed(out), applied };
}

// Writes YAML text by hand, in styles chosen from a "style tape" of numbers (fast-check shrinks
// the tape towards 0, which is always the plainest choice): block and flow collections, compact
// and indented sequences, plain/single/double-quoted and block scalars, quoted keys, comments,
// blank lines, shuffled keys, multi-line flow mappings. No serializer is involved, so the code
// under test sees layouts a serializer would never print.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Obj = { [key: string]: Json };

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const reserved = /^(true|false|null|yes|no|on|off|y|n|~)$/i;

/** A plain scalar that every YAML parser reads back as this string, in block and flow context. */
function plainSafe(s: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_./ -]*$/.test(s) && !s.endsWith(' ') && !reserved.test(s);
}

function plainKeySafe(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_./-]*$/.test(s) && !reserved.test(s);
}

/** Comments, some of which look like what a line-based scanner might mistake for content. */
const commentTexts = [
  '# a comment',
  '#',
  '# annotations:',
  '# checksum/external-secrets: "0000"',
  '#argocd.argoproj.io/sync-wave: "7"',
  '# metadata: {}',
  '# - name: not-an-item',
  '# items:',
  '# ---',
  '# kind: ResourceList',
];

export interface WriterOptions {
  /** Keys whose string values are never block scalars, aliases, anchors or tags. */
  inlineKeys?: readonly string[];
  /** Never write explicit keys (`? key` / `: value`). */
  noExplicitKeys?: boolean;
  /** Never separate a trailing comment with a tab. */
  noTabComments?: boolean;
}

export class Writer {
  private i = 0;
  constructor(
    private readonly tape: readonly number[],
    private readonly options: WriterOptions = {},
  ) {}

  /** A choice in [0, n); 0 is the plainest. */
  pick(n: number): number {
    if (n <= 1 || this.tape.length === 0) return 0;
    const v = this.tape[this.i++ % this.tape.length] as number;
    return v % n;
  }

  /** True about once in `n` (never for a shrunk, all-zero tape). */
  rare(n: number): boolean {
    return this.pick(n) === n - 1;
  }

  private step(): number {
    return [2, 2, 4, 2, 1, 3][this.pick(6)] as number;
  }

  comment(indent: number): string {
    const pad = this.rare(3) ? '' : ' '.repeat(indent);
    return pad + (commentTexts[this.pick(commentTexts.length)] as string);
  }

  private trailing(): string {
    if (!this.rare(7)) return '';
    const gap = this.rare(6) && !this.options.noTabComments ? '\t' : ' ';
    return `${gap}${commentTexts[this.pick(commentTexts.length)]}`;
  }

  key(k: string): string {
    if (plainKeySafe(k) && !this.rare(8)) return k;
    const c = this.pick(3);
    if (!k.includes("'") && c === 1) return `'${k}'`;
    if (c === 2 && /^[a-z]/.test(k)) {
      // A double-quoted key with an escape: `"\u0061nnotations"` is `annotations`.
      return `"\\u${k.charCodeAt(0).toString(16).padStart(4, '0')}${JSON.stringify(k).slice(2)}`;
    }
    return JSON.stringify(k);
  }

  /** Anchors defined so far in the current item: scalar value → anchor name. */
  private anchors = new Map<string, string>();
  private anchorCount = 0;

  /** Aliases only refer to anchors of the same item (document, or ResourceList entry). */
  newItem(): void {
    this.anchors.clear();
  }

  /** Node properties before a value: an anchor nobody refers to, or a redundant tag. */
  private props(tag: string): string {
    const c = this.pick(24);
    if (c === 22) return `&n${this.anchorCount++} `;
    if (c === 23) return `${tag} `;
    return '';
  }

  /** An inline scalar (never a block scalar); `aliasable` strings may be anchored or aliased. */
  scalar(v: string | number | boolean | null, aliasable = true): string {
    if (v === null) return ['~', 'null', 'Null', 'NULL'][this.pick(4)] as string;
    if (typeof v === 'boolean') return String(v);
    if (typeof v === 'number') return String(v);
    if (aliasable && v.length >= 3) {
      const anchor = this.anchors.get(v);
      if (anchor !== undefined && this.pick(3) === 2) return `*${anchor}`;
      if (anchor === undefined && this.rare(12)) {
        const name = `s${this.anchorCount++}`;
        this.anchors.set(v, name);
        return `&${name} ${this.quoted(v)}`;
      }
      if (this.rare(30)) return `!!str ${this.quoted(v)}`;
    }
    return this.quoted(v);
  }

  private quoted(v: string): string {
    const choice = this.pick(6);
    if (plainSafe(v) && choice < 4) return v;
    if (!v.includes('\n') && choice % 2 === 0) return `'${v.replaceAll("'", "''")}'`;
    return JSON.stringify(v);
  }

  flow(v: Json, key?: string): string {
    if (Array.isArray(v)) {
      const sp = this.rare(4) ? ' ' : '';
      return `[${sp}${v.map((x) => this.flow(x)).join(this.rare(5) ? ' , ' : ', ')}${sp}]`;
    }
    if (isObj(v)) {
      const keys = this.order(Object.keys(v));
      const sp = this.rare(4) ? ' ' : '';
      return `{${sp}${keys.map((k) => `${this.key(k)}: ${this.flow(v[k] as Json, k)}`).join(', ')}${sp}}`;
    }
    return this.scalar(v, key === undefined || !(this.options.inlineKeys ?? []).includes(key));
  }

  /** Keys mostly in their order, sometimes rotated or reversed. */
  order(keys: string[]): string[] {
    const c = this.pick(8);
    if (c === 6 && keys.length > 1) return [...keys.slice(1), keys[0] as string];
    if (c === 7) return [...keys].reverse();
    return keys;
  }

  /** A block mapping at `indent`; with `entry`, its first line must be a key (it gets the `- `). */
  map(obj: Obj, indent: number, entry = false, blockOnly: readonly string[] = []): string[] {
    const lines: string[] = [];
    const keys = this.order(Object.keys(obj));
    keys.forEach((k, n) => {
      if (!(entry && n === 0)) {
        if (this.rare(14)) lines.push('');
        // A comment above a key, sometimes a block of them with blank lines between: inserted
        // lines must go above the whole block, never between it and its key (invariant (f)).
        if (this.rare(9)) {
          lines.push(this.comment(indent));
          // Bounded: the tape repeats, so `rare` can answer yes forever.
          for (let more = 0; more < 3 && this.rare(4); more++) {
            lines.push(...(this.rare(2) ? [''] : []), this.comment(indent));
          }
        }
      }
      lines.push(...this.entry(k, obj[k] as Json, indent, blockOnly.includes(k)));
    });
    // Comment lines after the last entry: indented like the entries, or dedented (then they
    // read as heading the next outer key).
    if (this.rare(10)) {
      const pad = this.rare(2) ? indent : this.pick(indent + 1);
      lines.push(' '.repeat(pad) + (commentTexts[this.pick(commentTexts.length)] as string));
    }
    return lines;
  }

  entry(k: string, v: Json, indent: number, blockOnly = false): string[] {
    const pad = ' '.repeat(indent);
    const key = `${pad}${this.key(k)}${this.rare(20) ? ' ' : ''}:`;
    const space = () => (this.rare(20) ? '  ' : '');
    if (isObj(v)) {
      if (Object.keys(v).length === 0)
        return [`${key} ${this.rare(3) ? '{ }' : '{}'}${this.trailing()}`];
      if (!blockOnly && this.rare(5)) {
        if (this.rare(3)) return this.multiLineFlow(key, v, indent);
        return [`${key} ${this.flow(v)}${this.trailing()}`];
      }
      const props = blockOnly ? '' : this.props('!!map');
      const head = props === '' ? key : `${key} ${props.trimEnd()}`;
      return [`${head}${this.trailing() || space()}`, ...this.map(v, indent + this.step())];
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return [`${key} []${this.trailing()}`];
      if (!blockOnly && this.rare(5)) return [`${key} ${this.flow(v)}${this.trailing()}`];
      const seqIndent = this.pick(2) === 0 ? indent : indent + this.step();
      return [`${key}${this.trailing() || space()}`, ...this.seq(v, seqIndent)];
    }
    const inline = (this.options.inlineKeys ?? []).includes(k);
    if (
      typeof v === 'string' &&
      this.blockScalarOk(v) &&
      (v.includes('\n') || this.rare(12)) &&
      !inline
    ) {
      return this.blockScalar(key, v, indent);
    }
    if (typeof v === 'string' && /[A-Za-z0-9][ \n]+\S/.test(v) && !inline && this.rare(8)) {
      return this.multiLineQuoted(key, v, indent);
    }
    if (typeof v === 'string' && /^\S+( \S+)+$/.test(v) && this.rare(10)) {
      // A plain or double-quoted scalar continued on the next line.
      const [first, ...rest] = v.split(' ');
      const more = ' '.repeat(indent + this.step());
      if (plainSafe(v) && this.pick(2) === 0)
        return [`${key} ${first}`, `${more}${rest.join(' ')}`];
      return [
        `${key} ${JSON.stringify(first).slice(0, -1)}`,
        `${more}${JSON.stringify(rest.join(' ')).slice(1)}`,
      ];
    }
    if (v === null && this.pick(3) === 0) return [`${key}${this.trailing()}`];
    if (
      !this.options.noExplicitKeys &&
      this.rare(16) &&
      !inline &&
      v !== null &&
      typeof v !== 'object'
    ) {
      // An explicit key: `? key` then `: value`.
      return [`${pad}? ${this.key(k)}`, `${pad}: ${this.scalar(v)}`];
    }
    return [`${key} ${this.scalar(v, !inline)}${this.trailing() || space()}`];
  }

  /**
   * A string as a double-quoted (or, without line feeds, single-quoted) scalar over several lines
   * (YAML 1.2 §7.3): a space between words becomes a line break, or an escaped one (`\` at the
   * line end, the space kept before it); a run of k line feeds after a word becomes k empty lines.
   * Everything else is escaped as JSON escapes it.
   */
  private multiLineQuoted(key: string, v: string, indent: number): string[] {
    const more = ' '.repeat(indent + this.step());
    const single = !v.includes('\n') && this.rare(3);
    const body = single ? v.replaceAll("'", "''") : JSON.stringify(v).slice(1, -1);
    const lines = [''];
    const fold = single
      ? /(?<=[A-Za-z0-9]) (?=[^ ])/g
      : /(?<=[A-Za-z0-9])(?: |((?:\\n)+))(?=[^ \\])/g;
    let from = 0;
    for (const match of body.matchAll(fold)) {
      if (this.pick(3) === 0) continue; // not folded here
      lines[lines.length - 1] += body.slice(from, match.index);
      const feeds = match[1] === undefined ? 0 : match[1].length / 2;
      if (feeds === 0 && !single && this.rare(3)) {
        lines[lines.length - 1] += ' \\';
      }
      for (let n = 0; n < feeds; n++) lines.push('');
      lines.push('');
      from = match.index + match[0].length;
    }
    lines[lines.length - 1] += body.slice(from);
    const q = single ? "'" : '"';
    return lines.map((line, n) => {
      const text = `${n === 0 ? q : ''}${line}${n === lines.length - 1 ? q : ''}`;
      if (n === 0) return `${key} ${text}`;
      return text === '' ? '' : `${more}${text}`;
    });
  }

  private multiLineFlow(key: string, v: Obj, indent: number): string[] {
    const inner = ' '.repeat(indent + this.step() + 1);
    const keys = this.order(Object.keys(v));
    const body = keys.map(
      (k, n) =>
        `${inner}${this.key(k)}: ${this.flow(v[k] as Json)}${n < keys.length - 1 ? ',' : ''}`,
    );
    return [`${key} {`, ...body, `${inner}}`];
  }

  private blockScalarOk(v: string): boolean {
    if (v === '' || v.startsWith(' ') || v.includes('\r') || v.includes('\t')) return false;
    if (/\n\n$/.test(v) || v.startsWith('\n')) return false;
    return v.split('\n').every((l) => !l.endsWith(' ') && !l.startsWith(' '));
  }

  private blockScalar(key: string, v: string, indent: number): string[] {
    const inner = ' '.repeat(indent + this.step());
    const clip = v.endsWith('\n');
    const body = clip ? v.slice(0, -1) : v;
    if (!body.includes('\n') && /^\S+( \S+)+$/.test(body) && this.pick(2) === 1) {
      // Folded: single spaces between words become line breaks.
      return [`${key} >${clip ? '' : '-'}`, ...body.split(' ').map((w) => inner + w)];
    }
    return [
      `${key} |${clip ? '' : '-'}`,
      ...body.split('\n').map((l) => (l === '' ? '' : inner + l)),
    ];
  }

  seq(arr: Json[], indent: number): string[] {
    const pad = ' '.repeat(indent);
    const lines: string[] = [];
    for (const el of arr) {
      if (this.rare(12)) lines.push(this.comment(indent));
      lines.push(...this.seqEntry(el, pad, indent));
    }
    return lines;
  }

  seqEntry(el: Json, pad: string, indent: number, forceMap = false): string[] {
    if (isObj(el) && Object.keys(el).length > 0) {
      const form = this.pick(forceMap ? 14 : 12);
      if (form === 11) return [`${pad}- ${this.flow(el)}${this.trailing()}`];
      if (form === 10 || form === 12) {
        // `-` alone (or with a comment), the mapping on the following lines.
        const head = form === 12 ? `${pad}- # entry` : `${pad}-`;
        return [head, ...this.map(el, indent + 2)];
      }
      const gap = form === 9 ? 3 : 1;
      const inner = this.map(el, indent + 1 + gap, true);
      inner[0] = `${pad}-${' '.repeat(gap)}${(inner[0] as string).slice(indent + 1 + gap)}`;
      return inner;
    }
    if (isObj(el)) return [`${pad}- {}`];
    if (Array.isArray(el)) return [`${pad}- ${this.flow(el)}`];
    return [`${pad}- ${this.scalar(el)}`];
  }
}

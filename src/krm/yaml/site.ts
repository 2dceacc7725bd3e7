// Where in an item's text an annotation edit goes, as found by a locator. Every site is either
// the span of an existing value to replace, or a point to insert at: nothing else is rewritten.

export type ScalarStyle = 'plain' | 'single' | 'double';

export type Site =
  /** The annotation exists: replace its value, keeping the quoting style. */
  | { kind: 'value'; start: number; end: number; style: ScalarStyle }
  /** Insert block lines at a line start: `missing` mappings, then the annotation. */
  | { kind: 'lines'; at: number; indent: number; step: number; missing: readonly string[] }
  /** Insert into a flow mapping right after its `{`. */
  | { kind: 'flow'; at: number; empty: boolean; missing: readonly string[] }
  /** Replace an explicit null (`~`, `null`) with a flow mapping. */
  | { kind: 'null'; start: number; end: number; missing: readonly string[] };

/** Finds the site for `key` in the mapping at `path`. */
export type Locator = (
  itemText: string,
  entry: boolean,
  path: readonly string[],
  key: string,
) => Site | undefined;

/** What a site changes: `text` replaces `start`..`end` of the item's text (an insertion if equal). */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

export function spliceAt(
  text: string,
  site: Site,
  key: string,
  value: string,
  lineBreak: string,
): Splice {
  switch (site.kind) {
    case 'value':
      return { start: site.start, end: site.end, text: formatScalar(value, site.style) };
    case 'lines': {
      // Mixed line endings: use the one of the line the new lines follow (or precede).
      lineBreak = localLineBreak(text, site.at, lineBreak);
      const lines = [...site.missing, null].map((name, depth) => {
        const pad = ' '.repeat(site.indent + depth * site.step);
        if (name !== null) return `${pad}${name}:`;
        return value.includes('\n')
          ? blockLiteral(`${pad}${key}: `, value, pad + ' '.repeat(site.step), lineBreak)
          : `${pad}${key}: ${JSON.stringify(value)}`;
      });
      const needsBreak = site.at > 0 && text[site.at - 1] !== '\n';
      const block = (needsBreak ? lineBreak : '') + lines.join(lineBreak) + lineBreak;
      return { start: site.at, end: site.at, text: block };
    }
    case 'flow': {
      const inner = nestedFlow(site.missing, key, value);
      return { start: site.at, end: site.at, text: inner + (site.empty ? '' : ', ') };
    }
    case 'null':
      return {
        start: site.start,
        end: site.end,
        text: `{${nestedFlow(site.missing, key, value)}}`,
      };
  }
}

function nestedFlow(missing: readonly string[], key: string, value: string): string {
  return missing.reduceRight(
    (inner, name) => `${name}: {${inner}}`,
    `${key}: ${JSON.stringify(value)}`,
  );
}

/** Plain only where YAML cannot read the value as anything but this string. */
export function formatScalar(value: string, style: ScalarStyle): string {
  if (style === 'single' && !value.includes('\n')) return `'${value.replaceAll("'", "''")}'`;
  if (style === 'plain' && /^[A-Za-z][-\w./]*$/.test(value) && !reserved.test(value)) return value;
  return JSON.stringify(value);
}
const reserved = /^(true|false|null|yes|no|on|off|y|n)$/i;

/** A multi-line value as `key: |` with its lines indented; the chomping indicator keeps the
 * trailing line breaks exact. */
function blockLiteral(head: string, value: string, indent: string, lineBreak: string): string {
  const body = value.replace(/\n+$/, '');
  const trailing = value.length - body.length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  // A first line starting with a space needs an explicit indentation indicator.
  const indicator = body.startsWith(' ')
    ? String(indent.length - (head.length - head.trimStart().length))
    : '';
  const lines = (trailing > 1 ? value.slice(0, -1) : body).split('\n');
  return `${head}|${indicator}${chomp}${lineBreak}${lines.map((l) => (l === '' ? '' : indent + l)).join(lineBreak)}`;
}

function localLineBreak(text: string, at: number, fallback: string): string {
  const before = text.lastIndexOf('\n', at - 1);
  if (before > 0) return text[before - 1] === '\r' ? '\r\n' : '\n';
  const after = text.indexOf('\n', at);
  if (after > 0) return text[after - 1] === '\r' ? '\r\n' : '\n';
  return fallback;
}

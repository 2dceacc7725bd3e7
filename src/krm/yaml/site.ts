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

/** Finds the site for `key` in the mapping at `path` (a number: an existing list entry). */
export type Locator = (
  itemText: string,
  entry: boolean,
  path: readonly (string | number)[],
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
  /** The item is a JSON document (jsonStyleOf): what is inserted is JSON too. */
  json?: JsonStyle,
): Splice {
  if (json && site.kind !== 'lines') return jsonSplice(text, site, key, value, lineBreak, json);
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

/**
 * How a JSON document is laid out: `unit` is its indentation step ('' when it is on one line),
 * `colon` what stands between its keys and values (`": "` or `":"`).
 */
export interface JsonStyle {
  unit: string;
  colon: string;
}

/**
 * The layout of an item that is a JSON object (JSON is YAML: kubectl's `-o json` documents in a
 * stream, or an entry of a YAML ResourceList), or undefined for any other item. Only a `---` line,
 * comments and (for an entry) its `- ` may stand before the object, and nothing after it.
 */
export function jsonStyleOf(text: string, entry: boolean): JsonStyle | undefined {
  const brace = text.indexOf('{');
  if (brace < 0) return undefined;
  const before = text.slice(0, brace).replace(/#[^\r\n]*/g, '');
  if (!(entry ? /^\s*-\s+$/ : /^\s*(?:---\s+)?$/).test(before)) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(brace));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  } catch {
    return undefined;
  }
  return jsonLayout(text, brace);
}

/**
 * The layout of the JSON object whose `{` is at `brace` (a JSON input is written back with its
 * `unit` too, krm/write.ts): the step from the `{` to its first key, when that key has a line of
 * its own, and the first key's colon.
 */
export function jsonLayout(text: string, brace: number): JsonStyle {
  const keyPad = matchAt(ownLine, text, brace + 1)?.[1] ?? '';
  // From the `{` itself where the key is right of it (`- {` in a list), else from its line.
  const column = brace - text.lastIndexOf('\n', brace - 1) - 1;
  const unit = keyPad.slice(keyPad.length > column ? column : padAt(text, brace).length);
  const colon = matchAt(firstColon, text, brace)?.[1] === '' ? ':' : ': ';
  return { unit, colon };
}
const firstColon = /\{\s*"(?:[^"\\]|\\.)*"\s*:(\s?)/y;

/**
 * A site in a JSON document, filled the way its JSON is written: quoted keys and values, a
 * mapping that has its keys on their own lines gets new lines at their indentation, a one-line
 * mapping stays one line. What is not edited keeps its bytes (number spellings, escapes such as
 * Go's `\u003c`, key order), which a re-serialisation as for a JSON input would not.
 */
function jsonSplice(
  text: string,
  site: Exclude<Site, { kind: 'lines' }>,
  key: string,
  value: string,
  lineBreak: string,
  json: JsonStyle,
): Splice {
  if (site.kind === 'value') {
    return { start: site.start, end: site.end, text: JSON.stringify(value) };
  }
  const at = site.kind === 'flow' ? site.at : site.start;
  lineBreak = localLineBreak(text, at, lineBreak);
  const names = [...site.missing, key];
  const pad = padAt(text, at);
  if (site.kind === 'flow' && !site.empty) {
    // Keys on their own lines: a new first line at the first key's indentation.
    // Both after any spaces that follow the `{`, which so stay on its line.
    const start = at + (matchAt(spaces, text, at)?.[0].length ?? 0);
    const keyPad = matchAt(ownLine, text, at)?.[1];
    if (keyPad !== undefined) {
      const unit = json.unit || keyPad.slice(pad.length) || '  ';
      const entry = jsonEntry(names, value, json, lineBreak + keyPad, unit);
      return { start, end: start, text: `${lineBreak}${keyPad}${entry},` };
    }
    const entry = jsonEntry(names, value, json, '', '');
    return { start, end: start, text: `${entry},${json.colon.endsWith(' ') ? ' ' : ''}` };
  }
  // An empty `{}` or a `null`: the new mapping, on lines of its own when the document has them.
  const end = site.kind === 'flow' ? text.indexOf('}', at) : site.end;
  const { unit } = json;
  const inner = unit
    ? `${lineBreak}${pad}${unit}${jsonEntry(names, value, json, lineBreak + pad + unit, unit)}${lineBreak}${pad}`
    : jsonEntry(names, value, json, '', '');
  return { start: at, end, text: site.kind === 'flow' ? inner : `{${inner}}` };
}

const ownLine = /[ \t]*\r?\n(?:[ \t]*\r?\n)*([ \t]*)/y;
const spaces = /[ \t]*/y;

function matchAt(sticky: RegExp, text: string, at: number): RegExpExecArray | null {
  sticky.lastIndex = at;
  return sticky.exec(text);
}

/**
 * `"a": {"b": "value"}` for names a, b; on lines when `unit` is set, each line after a break
 * starting with `newLine` (the break and the indentation of the first line).
 */
function jsonEntry(
  names: readonly string[],
  value: string,
  json: JsonStyle,
  newLine: string,
  unit: string,
): string {
  const [name, ...rest] = names as [string, ...string[]];
  const head = `${JSON.stringify(name)}${json.colon}`;
  if (rest.length === 0) return head + JSON.stringify(value);
  if (!unit) return `${head}{${jsonEntry(rest, value, json, '', '')}}`;
  const inner = newLine + unit;
  return `${head}{${inner}${jsonEntry(rest, value, json, inner, unit)}${newLine}}`;
}

/** The indentation of the line `at` is on. */
function padAt(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const pad = matchAt(spaces, text, lineStart)?.[0] ?? '';
  return pad.length > at - lineStart ? pad.slice(0, at - lineStart) : pad;
}

// The line locator's edits skip the re-parse proof only on plain layout: these are the inputs
// js-yaml reads differently from a strict line-by-line reading, and each must be caught.

import { load } from 'js-yaml';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { isPlainLayout } from '../src/krm/yaml/plain-layout.js';
import { applyToValue, EditError, editText, reparseItem } from '../src/krm/yaml/splice.js';
import { annotationEdit } from '../src/model/edit.js';
import { isObject } from '../src/model/json.js';
import { run } from '../src/run.js';
import { externalSecret, resourceList, runOk } from './helpers.js';

describe('isPlainLayout', () => {
  it.each([
    ['block mappings and lists', 'a:\n  b: 1\n  c:\n  - d\n'],
    ['one-line quoted and flow values', `a: "x: [y" # '\nb: 'it''s'\nc: {d: [1, "]"]}\n`],
    ['escaped quote closed on its line', 'a: "x \\" y"\n'],
    ['plain scalars with quotes and stars inside', 'a: don\'t\nb: 5"\nc: /x/*\nd: a&b\n'],
    ['comments with anything', '# "unclosed [\na: b # {\n'],
    ['a comment before the first quote of its line', 'a: b #c "d\n  # [\n'],
    ['a tab and a quote inside a plain scalar', 'a: b\t"c\n'],
  ])('accepts %s', (_, text) => {
    expect(isPlainLayout(text)).toBe(true);
  });

  it.each([
    ['a multi-line double-quoted scalar', 'a: "x\n y"\n'],
    ['a multi-line single-quoted scalar', "a: 'x\n y'\n"],
    ['an escaped quote that leaves the string open', 'a: "x\\"\n y"\n'],
    ['a multi-line flow sequence', 'a: [x,\n y]\n'],
    ['a multi-line flow mapping', 'a: {x: 1,\n y: 2}\n'],
    ['an anchor', 'a: &x\n  b: 1\n'],
    ['an alias', 'a: *x\n'],
    ['a merge key', 'a:\n  <<: {b: 1}\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a tab in indentation', 'a:\n\tb: 1\n'],
    ['an unclosed quote after a `#` that starts no comment', 'a#b: "x\n y"\n'],
    ['an unclosed quote after a comment on an earlier line', 'a: x # c\nb: "y\n z"\n'],
    ['an unclosed quote at the start of a line', 'a:\n"b\n c": 1\n'],
  ])('refuses %s', (_, text) => {
    expect(isPlainLayout(text)).toBe(false);
  });
});

describe('isPlainLayout on the quoted values kpt writes', () => {
  // kpt quotes its annotations' values (`config.kubernetes.io/index: '0'`): every item has
  // several. Each was a stop of the search for special characters, and a line read; they are
  // passed over within one search now (counted: main searched once per quoted line, and more).
  const text = [
    '- apiVersion: apps/v1',
    '  kind: Deployment',
    '  metadata:',
    '    name: web',
    '    annotations:',
    "      config.kubernetes.io/index: '0'",
    "      config.kubernetes.io/path: 'web.yaml'",
    "      internal.config.kubernetes.io/index: '0'",
    "      internal.config.kubernetes.io/path: 'web.yaml'",
    '      internal.config.kubernetes.io/seqindent: "compact"',
    '  spec:',
    '    replicas: 2',
    '',
  ].join('\n');

  it('searches the item once', () => {
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      expect(isPlainLayout(text)).toBe(true);
      expect(test).toHaveBeenCalledTimes(1);
    } finally {
      test.mockRestore();
    }
  });

  it('searches no further than the line it is judged to', () => {
    const rest = '  template:\n    spec: {}\n'.repeat(50);
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      expect(isPlainLayout(text + rest, text.length)).toBe(true);
      // main searched on through the rest of the item, past the lines it judges.
      expect(test.mock.calls.map(([searched]) => searched.length)).toEqual([text.length]);
    } finally {
      test.mockRestore();
    }
  });

  it('still reads a line whose quote is not closed, or not alone, on it', () => {
    expect(isPlainLayout(text.replace("'web.yaml'", "'web.yaml\n        x'"))).toBe(false);
    expect(isPlainLayout(text.replace("'web.yaml'", "'web.yaml' &a"))).toBe(false);
    expect(isPlainLayout(text.replace("'web.yaml'", "'web.yaml' # '"))).toBe(true);
    expect(isPlainLayout(text.replace('"compact"', '"com\\"\n  pact"'))).toBe(false);
  });
});

describe('isPlainLayout up to an offset', () => {
  const text = 'a: b\nc: "d\n e"\nf: [g,\n h]\n';
  it('judges the lines that start before it', () => {
    expect(isPlainLayout(text, 5)).toBe(true);
    // The line at 5 opens a quote it does not close: it starts before 6, and is refused.
    expect(isPlainLayout(text, 6)).toBe(false);
    expect(isPlainLayout(text)).toBe(false);
  });
});

describe('an edit read by the line locator', () => {
  /** A Deployment entry: `after` its pod template's metadata, which the edit goes into. */
  const item = (before: string, after: string) =>
    [
      '- apiVersion: apps/v1',
      '  kind: Deployment',
      '  metadata:',
      `    name: web${before}`,
      '  spec:',
      '    template:',
      '      metadata:',
      '        labels: {app: web}',
      '      spec:',
      `        containers:${after}`,
      '',
    ].join('\n');
  const edit = annotationEdit(0, ['spec', 'template', 'metadata'], 'checksum/x', 'abc');
  const inserted = '        annotations:\n          checksum/x: "abc"\n';

  it('needs no proof where the lines it read are plain, whatever follows them', () => {
    // A multi-line flow sequence after the pod template's metadata: on main, any line of the
    // item that is not plain layout made the edit need a re-parse (a whole read of the item).
    const text = item('', ' [{name: a,\n          image: b}]');
    const splices = editText(
      text,
      true,
      [edit],
      () => {
        throw new Error('no proof needed');
      },
      '\n',
    );
    expect(splices).toMatchObject([{ text: inserted }]);
    const edited = text.slice(0, splices[0]?.start) + inserted + text.slice(splices[0]?.end);
    expect(load(edited)).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          template: {
            metadata: { labels: { app: 'web' }, annotations: { 'checksum/x': 'abc' } },
            spec: { containers: [{ name: 'a', image: 'b' }] },
          },
        },
      },
    ]);
  });

  /** The proofs editText asks for, each given the item's value with the annotation. */
  function proofs(text: string): number {
    let asked = 0;
    const splices = editText(
      text,
      true,
      [edit],
      () => {
        asked++;
        const [value] = load(text) as [{ spec: { template: { metadata: object } } }];
        const { metadata } = value.spec.template;
        value.spec.template.metadata = { ...metadata, annotations: { 'checksum/x': 'abc' } };
        return value as never;
      },
      '\n',
    );
    expect(splices).toMatchObject([{ text: inserted }]);
    return asked;
  }

  it('is proven where a line before its site is not plain', () => {
    expect(proofs(item(' # x\n    labels: {a: [b,\n      c]}', '\n        - name: a'))).toBe(1);
  });

  it('is proven where a line of the mapping it inserts into is not plain, after the site', () => {
    // The pod template's metadata is read to its end to know the key is missing: its last line
    // is read, and judged.
    const text = item('', '\n        - name: a').replace(
      'labels: {app: web}',
      'labels: {app: web}\n        x: "y\n          z"',
    );
    expect(proofs(text)).toBe(1);
    expect(proofs(item('', '\n        - name: a'))).toBe(0);
  });
});

describe('an edit that needs no proof', () => {
  /** Lines (at `pad`) that read otherwise than line by line, or alias, or merge. */
  const hazards = (pad: string) => [
    `${pad}h: "x\n${pad}annotations:\n${pad}  checksum/x: old"`,
    `${pad}h: 'x\n${pad}metadata: y'`,
    `${pad}h: [a,\n${pad}annotations: b]`,
    `${pad}h: {a: "\n${pad}template: 1"}`,
    `${pad}h: "x\n${pad}checksum/x: q"`,
    `${pad}<<: {annotations: {q: r}}`,
    `${pad}<<: {checksum/x: old}`,
    `${pad}annotations: &a {z: y}\n${pad}h: *a`,
    `${pad}h: !!str 1`,
    `${pad}annotations:\n${pad}  checksum/x: old`,
    // A tab after the `:` is separation too: replaced with the old value, the key and the new
    // value read as one plain scalar (main wrote that and exited 0).
    `${pad}annotations:\n${pad}  checksum/x:\told`,
  ];
  const lines = [
    ['apiVersion: apps/v1', 0],
    ['kind: Deployment', 0],
    ['metadata:', 2],
    ['  name: web', 2],
    ['spec:', 2],
    ['  template:', 4],
    ['    metadata:', 6],
    ['      labels:', 8],
    ['        app: web', 8],
    ['    spec:', 6],
    ['      containers:', 6],
    ['      - name: c', 8],
  ] as const;

  it('reads as expected wherever lines that need one stand', () => {
    let trusted = 0;
    for (const path of [['metadata'], ['spec', 'template', 'metadata']]) {
      const edit = annotationEdit(0, path, 'checksum/x', 'abc');
      for (let at = 1; at <= lines.length; at++) {
        const pad = ' '.repeat(lines[Math.min(at, lines.length - 1)]?.[1] ?? 0);
        for (const hazard of hazards(pad)) {
          const all: string[] = lines.map(([line]) => line);
          all.splice(at, 0, hazard);
          const text = `${all.join('\n')}\n`;
          // Past the ones that make the item invalid (a key twice).
          const expected = reparseItem(text, false);
          if (!isObject(expected)) continue;
          applyToValue(expected, edit);
          let proofs = 0;
          let splices: { start: number; end: number; text: string }[];
          try {
            splices = editText(text, false, [edit], () => ++proofs && expected, '\n');
          } catch (error) {
            if (error instanceof EditError) continue;
            throw error;
          }
          if (proofs > 0) continue;
          trusted++;
          const [one] = splices;
          if (!one) throw new Error('no splice');
          const edited = text.slice(0, one.start) + one.text + text.slice(one.end);
          expect({ text, read: reparseItem(edited, false) }).toEqual({ text, read: expected });
        }
      }
    }
    // 38 of them stand where they change nothing the locator read (main trusted 14: any such line
    // anywhere in the item made it prove the edit).
    expect(trusted).toBeGreaterThan(30);
  });
});

describe('edits on layouts js-yaml reads leniently are proven', () => {
  it('keeps merged annotations: the proof rejects an insertion that would shadow them', () => {
    const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    <<: {annotations: {team: a}}
    name: db
  spec:
    data:
    - secretKey: pw
      remoteRef: {key: db}
`;
    const out = run(input);
    // Either the edit lands where the merged annotations survive, or nothing changes and an
    // error says why; never a silent loss of the merged annotation.
    if (out.exitCode === 0) {
      expect(out.stdout).toContain('team');
    } else {
      expect(out.stdout.startsWith(input)).toBe(true);
      expect(out.stdout).toMatch(/could not insert the annotation/);
    }
  });

  it('refuses to edit next to an under-indented multi-line string (invalid YAML js-yaml accepts)', () => {
    const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    name: db
    labels:
      note: "spans
  lines"
    annotations:
      owner: a
  spec:
    data:
    - secretKey: pw
      remoteRef: {key: db}
`;
    const out = run(input);
    // A line-by-line reading would end the labels at the under-indented line and miss the
    // annotations; the conforming reader refuses the item when it is read. So: an error naming
    // it, items unchanged.
    expect(out.exitCode).toBe(1);
    expect(out.stdout.startsWith(input)).toBe(true);
    expect(out.stdout).toMatch(
      /item 0 \(ExternalSecret db\): invalid YAML: Missing closing \\"quote at line 9, column 19/,
    );
  });
});

describe('a multi-line value inserted by the line locator', () => {
  /** The edited text of `text` with the annotation set to `value`, and whether it needed a proof. */
  function inserted(text: string, path: string[], value: string) {
    const edit = annotationEdit(0, path, 'k', value);
    const expected = reparseItem(text, true);
    if (!isObject(expected)) throw new Error('not a mapping');
    applyToValue(expected, edit);
    let proofs = 0;
    const splices = editText(text, true, [edit], () => ++proofs && expected, '\n');
    const [one] = splices;
    if (!one) throw new Error('no splice');
    const edited = text.slice(0, one.start) + one.text + text.slice(one.end);
    // As js-yaml (our reader) and the conforming reader read it.
    const read = [reparseItem(edited, true), (parse(edited) as unknown[])[0]];
    return { edited, read, expected: [expected, expected], proofs };
  }

  const item = (annotations: string) =>
    `- kind: ConfigMap\n  metadata:\n    name: c\n    annotations:\n${annotations}    a: b\n  data: {}\n`;

  it.each([
    ['a carriage return (a literal block has no escapes)', 'a\r\nb'],
    ['only white space (read as indentation)', '  \n'],
  ])('reads back exactly with %s', (_, value) => {
    // Main wrote every value with a line break as a `|` block, whether or not one can hold it,
    // and trusted the edit (exit 0): `a\r\nb` read back as `a\nb`, `  \n` as `\n` by the
    // conforming reader. Where a block cannot hold the value (site.ts literalFits), it is
    // double-quoted.
    const { read, expected, proofs } = inserted(item(''), ['metadata'], value);
    expect(proofs).toBe(0);
    expect(read).toEqual(expected);
  });

  it('is not continued by a deeper comment below it', () => {
    // Inserted above the mapping's first key and the comments over it: a comment indented past
    // the block's lines was read as more of its text (main: `x\ny\n  # note`, exit 0).
    const { edited, read, expected } = inserted(item('          # note\n'), ['metadata'], 'x\ny');
    expect(read).toEqual(expected);
    expect(edited).toContain('      k: "x\\ny"\n          # note\n');
  });

  it('stays a literal block where the lines after it end one', () => {
    const { edited, read, expected } = inserted(item('      # note\n'), ['metadata'], 'x\ny');
    expect(read).toEqual(expected);
    expect(edited).toContain('      k: |-\n        x\n        y\n      # note\n');
  });
});

describe('a single-quoted value replaced by the line locator', () => {
  it('keeps its quotes only for a value they hold exactly', () => {
    // A carriage return in single quotes is a line break, folded to a space: main wrote one
    // there and trusted the edit (js-yaml read `a b`, exit 0). Such a value is double-quoted.
    const text = "- kind: ConfigMap\n  metadata:\n    annotations:\n      k: 'old'\n";
    for (const value of ['a\rb', "it's"]) {
      const edit = annotationEdit(0, ['metadata'], 'k', value);
      const expected = { kind: 'ConfigMap', metadata: { annotations: { k: value } } };
      let proofs = 0;
      const [one] = editText(text, true, [edit], () => ++proofs && expected, '\n');
      if (!one) throw new Error('no splice');
      const edited = text.slice(0, one.start) + one.text + text.slice(one.end);
      expect(proofs).toBe(0);
      expect([reparseItem(edited, true), (parse(edited) as unknown[])[0]]).toEqual([
        expected,
        expected,
      ]);
    }
  });
});

describe('a target name with a carriage return, renamed by hash', () => {
  it('is recorded exactly: a second run changes nothing', () => {
    const target = '"shop\\r\\ndb"';
    const input = resourceList([externalSecret('shop-db', { namespace: 'shop', target })]);
    const first = runOk(input, { targetNames: 'hashed' });
    // Main wrote the base name as a `|-` block with the carriage return in it (read back without
    // it), so the next run took the hashed name for the base and hashed it again.
    expect(first.stdout).toContain('secret-rollout/target-base-name: "shop\\r\\ndb"');
    expect(runOk(first.stdout, { targetNames: 'hashed' }).stdout).toBe(first.stdout);
  });
});

describe('characters JavaScript takes for white space or a line end', () => {
  it('make a line not plain, so that the edit is proven by a re-parse', () => {
    // FUZZ_SEED=12261126: `annotations\u2028:` is a key of its own to YAML; main 058521a judged
    // the item plain and placed the sync wave under it.
    for (const c of ['\u2028', '\u2029', '\u0085', '\u00a0', '\ufeff', '\u3000', '\v', '\f']) {
      const text = `metadata:\n  annotations${c}:\n    k: v\n`;
      expect(isPlainLayout(text), JSON.stringify(c)).toBe(false);
      // In a kpt-style quoted value too, and after a comment mark.
      expect(isPlainLayout(`metadata:\n  name: 'a${c}b'\n`), JSON.stringify(c)).toBe(false);
    }
    expect(isPlainLayout('metadata:\n  annotations:\n    k: v\n')).toBe(true);
    expect(isPlainLayout("metadata:\n  name: 'ab'\n")).toBe(true);
  });
});

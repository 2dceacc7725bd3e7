// The list indentation read by lines (locate-lines.ts seqIndentByLines) must be the full parser's
// (locate-cst.ts seqIndentOf) wherever it answers: it decides how a list made new is written, and
// only the full parser's reading was written before (outputs stay the same). Compared on every
// document of examples/ and testdata/, on each as a ResourceList entry, and on variants.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locateListByCst, seqIndentOf } from '../src/krm/yaml/locate-cst.js';
import { locateByLines, seqIndentByLines } from '../src/krm/yaml/locate-lines.js';
import { parseYaml, yamlProblem } from '../src/krm/yaml/parse.js';
import { isObject } from '../src/model/json.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return yamlFiles(file);
    return /\.ya?ml$/.test(name) ? [file] : [];
  });
}

/** The documents of a stream, each with its `---` line. */
const documents = (text: string) =>
  text
    .split(/^(?=---[ \t]*$)/m)
    .filter((doc) => doc.trim() !== '')
    .map((doc) => (doc.endsWith('\n') ? doc : `${doc}\n`));

/** A document as a ResourceList's `- ` entry (its lines two spaces in). */
const asEntry = (doc: string) =>
  doc
    .replace(/^---[ \t]*\n/, '')
    .replace(/^/gm, '  ')
    .replace(/^ {2}/, '- ')
    .replace(/\n {2}$/, '\n');

describe('seqIndentByLines agrees with seqIndentOf', () => {
  const docs = ['examples', 'testdata'].flatMap((dir) =>
    yamlFiles(path.join(root, dir)).flatMap((file) => documents(readFileSync(file, 'utf8'))),
  );

  it('on every document of examples/ and testdata/, and as entries', () => {
    let answered = 0;
    for (const doc of docs) {
      for (const text of [doc, asEntry(doc)]) {
        const byLines = seqIndentByLines(text);
        if (byLines === undefined) continue;
        answered++;
        expect([text, byLines]).toEqual([text, seqIndentOf(text)]);
      }
    }
    // Most manifests are read by lines.
    expect(answered).toBeGreaterThan(docs.length);
  });

  it('where the line locator inserts a missing key, the full parser inserts the list there too', () => {
    let compared = 0;
    // Items are valid YAML (a template's `{% … %}` lines are not), and mappings.
    const items = docs.filter((d) => yamlProblem(d) === undefined && isObject(parseYaml(d, 0, d)));
    for (const doc of items) {
      for (const [text, entry] of [
        [doc, false],
        [asEntry(doc), true],
      ] as const) {
        for (const [where, key] of [
          [['spec'], 'postRenderers'],
          [['metadata', 'annotations'], 'x'],
          [['spec', 'template', 'metadata'], 'y'],
        ] as const) {
          const byLines = locateByLines(text, entry, where, key);
          if (byLines?.kind !== 'lines') continue;
          const { reach: _, ...site } = byLines;
          compared++;
          expect([text, site]).toEqual([text, locateListByCst(text, entry, where, key)]);
        }
      }
    }
    expect(compared).toBeGreaterThan(items.length);
  });

  it('on layouts around block scalars, comments, null keys and nested lists', () => {
    const cases = [
      'a:\n  b:\n  - x\n',
      'a:\n  # c\n    - x\n',
      'a: |\n  - x:\n    - y\nb:\n  - z\n',
      'a:\n- b: >-\n    - q\n  c:\n  d:\n    - e\n',
      '- a:\n- b:\n  - c\n',
      '- - a:\n      - b\n',
      'a:\nb: 1\nc:\n    - d\n',
      'a: b\n  c\nd:\n- e\n',
      'a:\n  - |\n    - x\n  - y\nb:\n    - z\n',
      'k: v # c:\nl: # c\n  - m\n',
      '"q": \n  - a\n',
      'a: {b: [c]}\nd:\n  - e\n',
    ];
    for (const text of cases) {
      for (const one of [text, asEntry(text)]) {
        const byLines = seqIndentByLines(one);
        if (byLines !== undefined) expect([one, byLines]).toEqual([one, seqIndentOf(one)]);
      }
    }
  });
});

describe('seqIndentByLines on random block layouts', () => {
  it('agrees with seqIndentOf on every valid text it answers for', () => {
    const line = fc.tuple(
      fc.nat(8),
      fc.constantFrom('- ', '- - ', ''),
      fc.constantFrom('a:', 'b: v', 'c: |', 'd: >-', '# c', '- x', 'e: # c', 'x', '', 'f: "q"'),
    );
    let answered = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
        const text = lines.map(([n, dash, rest]) => `${' '.repeat(n)}${dash}${rest}\n`).join('');
        // Items are valid YAML by the conforming reader's verdict (duplicate keys refused).
        if (yamlProblem(text) !== undefined) return;
        const byLines = seqIndentByLines(text);
        if (byLines === undefined) return;
        answered++;
        expect([text, byLines]).toEqual([text, seqIndentOf(text)]);
      }),
      { numRuns: 20_000, seed: 14 },
    );
    expect(answered).toBeGreaterThan(1000);
  });
});

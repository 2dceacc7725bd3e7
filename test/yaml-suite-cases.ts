// Loads the YAML test suite (testdata/yaml-test-suite/src, see testdata/SOURCES.md) as real text:
// each file is a list of cases, later ones inheriting `name`, `yaml` and `json` from earlier ones (a field
// set to null stops inheriting) but not `fail`: the suite's data releases mark MUS6/02 valid
// although MUS6/01 before it fails, and the later entries of DK95 carry the trees of valid YAML. With the suite's visible-whitespace markers turned back into the
// characters they stand for — the rules of the suite's own bin/YAMLTestSuite.pm `unescape`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../testdata/yaml-test-suite/src',
);

export interface SuiteCase {
  /** `ID` or `ID-NN` for the NNth case after the first in its file, as the suite numbers them. */
  id: string;
  name: string;
  /** The input, byte for byte (BOM, tabs, CR, missing final line break included). */
  text: string;
  /** Invalid YAML: a conforming reader must reject it. */
  fail: boolean;
  /** The suite gives the value as JSON: without, it has no JSON form (complex keys, …). */
  json: boolean;
}

/** The suite's markers: `␣` space, `—*»` tab, `←` CR, `⇔` BOM, `↵` shown line end, `∎` no final line end. */
export function unmark(text: string): string {
  return text
    .replace(/␣/g, ' ')
    .replace(/—*»/g, '\t')
    .replace(/←/g, '\r')
    .replace(/⇔/g, '\uFEFF')
    .replace(/↵/g, '')
    .replace(/∎\n$/, '');
}

type Raw = Record<string, unknown>;

export function loadSuite(): SuiteCase[] {
  const cases: SuiteCase[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const id = file.replace(/\.yaml$/, '');
    const entries = parse(readFileSync(path.join(dir, file), 'utf8')) as Raw[];
    // Cases the suite itself marks as not to be run (valid by the productions, to be invalidated).
    if (entries[0]?.skip) continue;
    const width = entries.length > 1 ? Math.floor(Math.log10(entries.length - 1)) + 2 : 2;
    const cache: Raw = {};
    entries.forEach((entry, i) => {
      for (const key of ['name', 'yaml', 'json']) {
        if (key in entry && entry[key] == null) delete cache[key];
        else if (entry[key] !== undefined) cache[key] = entry[key];
      }
      if (typeof cache.yaml !== 'string') throw new Error(`${file}[${i}]: no yaml`);
      cases.push({
        id: i === 0 ? id : `${id}-${String(i).padStart(width, '0')}`,
        name: String(cache.name ?? ''),
        text: unmark(cache.yaml),
        fail: entry.fail === true,
        json: typeof cache.json === 'string',
      });
    });
  }
  return cases;
}

// The fallback readers' cost on inputs built to be expensive, shown by output and by counting
// work (never by time): merge-key chains (`<<: *prev`, each mapping merging the one before) and
// mappings with many keys, whose duplicate-key check the conforming reader makes.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locateByCst, seqIndentOf } from '../src/krm/yaml/locate-cst.js';
import {
  maxTokens,
  ParseError,
  parseYaml,
  secondYamlDirective,
  yamlProblem,
} from '../src/krm/yaml/parse.js';
import { run } from '../src/run.js';
import { deep } from './depth.js';

// How often the `yaml` library asks whether a node is a scalar: work its composer does (its own
// duplicate-key check did it twice per comparison of two keys).
const identity = createRequire(import.meta.url)(
  path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../node_modules/yaml/dist/nodes/identity.js',
  ),
) as { isScalar: (node: unknown) => boolean };
afterEach(() => {
  vi.restoreAllMocks();
});

/** `spec` holding mappings m0…m(n-1), each merging the one before and overriding `top`. */
function chain(links: number): string {
  let text = 'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: chain\nspec:\n';
  text += '  m0: &m0\n    top: 0\n    k0: 0\n';
  for (let i = 1; i < links; i++)
    text += `  m${i}: &m${i}\n    <<: *m${i - 1}\n    top: ${i}\n    k${i}: ${i}\n`;
  return text;
}

/** What YAML 1.1's merge key makes of chain(): m_i holds k0…k_i and its own `top`. */
function chainValue(links: number): Record<string, Record<string, number>> {
  const spec: Record<string, Record<string, number>> = {};
  for (let i = 0; i < links; i++) {
    const m: Record<string, number> = { top: i };
    for (let j = 0; j <= i; j++) m[`k${j}`] = j;
    spec[`m${i}`] = m;
  }
  return spec;
}

describe('merge keys', () => {
  it('reads a chain within the bound as YAML 1.1 merge keys define it', () => {
    // 400 links copy ≈80k keys: past js-yaml's default bound (10k), which sent the item to the
    // conforming reader's value, which refused it ("Excessive alias count").
    const text = chain(400);
    const value = parseYaml(text, 0, text) as { spec: unknown };
    expect(value.spec).toEqual(chainValue(400));
  });

  it('refuses a chain that copies more keys than the bound, naming the line', () => {
    // 1500 links copy ≈1.1M keys; a 1 MB chain (20k links) would copy 2·10⁸.
    const text = chain(1500);
    // Refused before the conforming reader builds its document of the whole item.
    const spy = vi.spyOn(identity, 'isScalar');
    expect(() => parseYaml(text, 0, text)).toThrow(ParseError);
    expect(spy).not.toHaveBeenCalled();
    expect(() => parseYaml(text, 0, text)).toThrow(
      /^merge keys \(<<\) copy more than 1,000,000 keys \(a YAML merge-key bomb\?\) at line \d+, column \d+$/,
    );
    const output = run(text).stderr;
    expect(output).toMatch(
      /^error: document 0 \(Thing chain\): merge keys \(<<\) copy more than 1,000,000 keys/m,
    );
  });
});

describe('duplicate keys', () => {
  it('are found in time linear in the keys of a mapping', () => {
    const keys = 5000;
    let text = 'a: &a 1\n';
    for (let i = 0; i < keys; i++) text += `k${i}: ${i}\n`;
    const spy = vi.spyOn(identity, 'isScalar');
    expect(yamlProblem(text)).toBeUndefined();
    // Quadratic: ≈2.5·10⁷ calls; linear: a few per key.
    expect(spy.mock.calls.length).toBeLessThan(20 * keys);
    expect(yamlProblem(`${text}k17: again\n`)).toEqual({
      message: 'Map keys must be unique',
      offset: text.length,
    });
  });

  it('are reported where the composer reports them', () => {
    const cases: [string, number | undefined][] = [
      ['a: 1\na: 2\n', 5],
      ['{a: 1, a: 2}', 7],
      ['1: a\n0x1: b\n', 5], // equal values, not equal text
      ['a: 1\n"a": 2\n', 5],
      ['~: a\nnull: b\n', 5],
      ['.nan: a\n.nan: b\n', undefined], // NaN is not equal to NaN
      ['&x a: 1\n&y a: 2\n', 11],
      ['a: {b: 1, b: 2}\nc: 1\nc: 2\n', 10], // the first duplicate by offset
      ['a: 1\na: 2\nb: "\n', 5], // a duplicate before a later error
      ['b: "\na: 1\na: 2\n', undefined], // a later duplicate inside an unclosed quote: no key
    ];
    for (const [text, offset] of cases) {
      const problem = yamlProblem(text);
      if (offset === undefined) expect(problem?.message).not.toBe('Map keys must be unique');
      else expect(problem).toEqual({ message: 'Map keys must be unique', offset });
    }
  });
});

describe('aliases where js-yaml cannot read the item', () => {
  // A multi-line flow key: js-yaml refuses it, the conforming reader builds the value.
  const tagged = (aliases: number) => {
    let text = 'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: tags\nspec:\n';
    text += '  t: {a\n    b: x}\n  l:\n';
    for (let i = 0; i < aliases; i++) text += `  - &a${i} [${i}]\n  - *a${i}\n`;
    return text;
  };

  it('reads up to 100 of them', () => {
    const text = tagged(100);
    const value = parseYaml(text, 0, text) as { spec: { t: unknown; l: number[][] } };
    expect(value.spec.t).toEqual({ 'a b': 'x' });
    expect(value.spec.l).toEqual(Array.from({ length: 200 }, (_, i) => [Math.floor(i / 2)]));
  });

  it('refuses more after one read of the item by the library, not two', () => {
    const { Composer } = createRequire(import.meta.url)('yaml') as {
      Composer: { prototype: { compose: () => unknown } };
    };
    const compose = vi.spyOn(Composer.prototype, 'compose');
    const text = tagged(101);
    expect(() => parseYaml(text, 0, text)).toThrow(/more than 100 aliases/);
    // 6d61c3f: once to judge the item (yamlProblem), once more for its value (parseDocument).
    expect(compose).toHaveBeenCalledTimes(1);
  });

  it('refuses more, naming the line of the first one past the bound', () => {
    // The library resolves each alias by walking those before it: quadratic in their number.
    const text = tagged(101);
    expect(() => parseYaml(text, 0, text)).toThrow(
      /^valid YAML, but more than 100 aliases in an item that needs the conforming reader \(a YAML 1.1 tag such as !!timestamp, a multi-line flow key\) at line 210, column 5$/,
    );
  });
});

describe('two %YAML directives in one document', () => {
  // Under test:deep: the overflow needs millions of lines.
  it.runIf(deep)(
    'are looked for line by line: millions of comment lines after one are read',
    () => {
      // At 6d61c3f one regular expression looked for them, with a backtracking entry per line of
      // the document's prefix: 3 million lines ended in `Maximum call stack size exceeded`.
      // The conforming reader now stops such a text at its token bound before this check, so the
      // check is asked directly; the reader's verdict is the bound, not an overflow.
      const text = `%YAML 1.2\n${'#\n'.repeat(3_000_000)}---\na: 1\n`;
      expect(secondYamlDirective(text)).toBeUndefined();
      expect(secondYamlDirective(`%YAML 1.2\n${'#\n'.repeat(3_000_000)}%YAML 1.2\n---\n`)).toBe(
        10 + 2 * 3_000_000,
      );
      expect(yamlProblem(text)).toMatchObject({ unread: true });
    },
  );

  it('are found with directives, blank and CRLF lines between them, not across content', () => {
    const twice = '%YAML 1.2\r\n%TAG ! tag:a,2000:\n \t# c\n\t\r\n\n%YAML\t1.2\n---\na: 1\n';
    expect(yamlProblem(twice)).toEqual({
      message: 'a document can have only one %YAML directive',
      offset: twice.lastIndexOf('%YAML'),
    });
    expect(yamlProblem('%YAML 1.2\n---\na: 1\n...\n%YAML 1.2\n---\nb: 2\n')).toBeUndefined();
    expect(yamlProblem('%YAML 1.2\n# c\nx\n%YAML 1.2\n---\nb: 2\n')).not.toEqual(
      expect.objectContaining({ message: 'a document can have only one %YAML directive' }),
    );
  });
});

describe('the fallback edit locator (locate-cst.ts)', () => {
  const mapping = (keys: number) => {
    let text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n';
    for (let i = 0; i < keys; i++) text += `  k${i}: v\n`;
    return text;
  };

  it('finds duplicate keys in work linear in the keys of a mapping', () => {
    const keys = 1000;
    const text = mapping(keys);
    const spy = vi.spyOn(identity, 'isScalar');
    expect(locateByCst(text, false, ['metadata'], 'k')).toMatchObject({ kind: 'lines' });
    // The library's check (uniqueKeys, used at 6d61c3f): ≈10⁶ calls; a set: a few per key.
    expect(spy.mock.calls.length).toBeLessThan(20 * keys);
  });

  it('still declines a text with a duplicate key', () => {
    expect(locateByCst(`${mapping(3)}  k1: again\n`, false, ['metadata'], 'k')).toBeUndefined();
  });
});

describe('tags outside the core schema', () => {
  // At 6d61c3f js-yaml refused them, so the item went to the conforming reader's value: a second
  // read of the whole item by the `yaml` library (≈1 s and ≈100 bytes of memory per byte), and
  // more than 100 aliases in it were refused.
  const { Document } = createRequire(import.meta.url)('yaml') as {
    Document: { prototype: { toJS: () => unknown } };
  };

  it('are read by js-yaml as if absent, the library reading the item once (to judge it)', () => {
    let text = 'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: tags\nspec:\n  l:\n';
    for (let i = 0; i < 1000; i++)
      text += `  - &a${i} [${i}, !custom ${i}, !!foo '']\n  - *a${i}\n`;
    const toJS = vi.spyOn(Document.prototype, 'toJS');
    const value = parseYaml(text, 0, text) as { spec: { l: unknown[] } };
    expect(toJS).not.toHaveBeenCalled();
    expect(value.spec.l).toHaveLength(2000);
    expect(value.spec.l[1]).toEqual([0, '0', '']);
    expect(run(text).exitCode).toBe(0);
  });

  it('except the YAML 1.1 tags the conforming reader resolves', () => {
    const text = 'a: !!timestamp 2001-01-01\n';
    const toJS = vi.spyOn(Document.prototype, 'toJS');
    expect((parseYaml(text, 0, text) as { a: unknown }).a).toBeInstanceOf(Date);
    expect(toJS).toHaveBeenCalled();
  });
});

describe('text made of tokens', () => {
  // The conforming reader keeps ≈300 bytes of memory per token: 3 MiB of `- - …` (1.5M tokens)
  // took 8.4 s and 880 MiB to fail (fuzz finding 54a9d0f9a29bc557, bench family flow-dash-runs).
  const { Parser } = createRequire(import.meta.url)('yaml') as {
    Parser: { prototype: { next: (source: string) => Generator<unknown> } };
  };
  /** The tokens the library's parser is handed while `read` runs. */
  function tokensGiven(read: () => void): number {
    const next = Parser.prototype.next;
    let tokens = 0;
    Parser.prototype.next = function (this: unknown, source: string) {
      tokens++;
      return next.call(this, source);
    };
    try {
      read();
    } finally {
      Parser.prototype.next = next;
    }
    return tokens;
  }
  /** The finding's shape: a JSON-layout document, a duplicated line, `deep: - - … x`. */
  const dashes = (n: number) =>
    `{\n "kind": "ExternalSecret",\n "spec": {\n  "key": "a",\n  "key": "a",\n  deep: ${'- '.repeat(n)}x\n }\n}\n`;

  it('are handed to the conforming reader up to maxTokens, then refused naming where', () => {
    // 300k dashes are 600k tokens (a `-` and a space each): on main, all of them.
    const text = dashes(300_000);
    let thrown: unknown;
    const tokens = tokensGiven(() => {
      try {
        parseYaml(text, 0, text);
      } catch (error) {
        thrown = error;
      }
    });
    expect(tokens).toBeLessThanOrEqual(maxTokens);
    expect(thrown).toBeInstanceOf(ParseError);
    expect((thrown as Error).message).toMatch(
      /^not read: more than 500,000 YAML tokens \(scalars, indicators, runs of spaces\) for the conforming reader, which keeps about 300 bytes of memory per token; the first token past the bound is at line 6, column \d+$/,
    );
  });

  it('under the bound are judged as before', () => {
    const text = dashes(1000);
    expect(yamlProblem(text)).toEqual({
      message: 'Map keys must be unique',
      offset: text.lastIndexOf('"key"'),
    });
  });

  it('are an error result naming the document, not a crash', () => {
    const out = run(`---\n${dashes(300_000)}`);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toMatch(/^error: document 0: not read: more than 500,000 YAML tokens/);
  });
});

describe('walking a deeply nested document (bench/adversarial values-annotations)', () => {
  it('copies no path per node: the paths concatenated stay linear in the nodes', () => {
    const depth = 300;
    // Nested flow mappings: the quick reader declines them, the conforming reader reads them.
    const text = `a: ${'{k: '.repeat(depth)}v${'}'.repeat(depth)}\n`;
    const concat = Array.prototype.concat;
    let copied = 0;
    const spy = vi.spyOn(Array.prototype, 'concat').mockImplementation(function (
      this: unknown[],
      ...items: unknown[]
    ) {
      copied += this.length;
      return concat.apply(this, items);
    });
    try {
      expect(yamlProblem(text)).toBeUndefined();
      expect(parseYaml(text, 0, text)).toHaveProperty('a');
      expect(seqIndentOf(text)).toBe('compact');
    } finally {
      spy.mockRestore();
    }
    // The `yaml` library's visit wrote the path to each node anew (≈depth²: 90,000 here).
    expect(copied).toBeLessThan(20 * depth);
  });
});

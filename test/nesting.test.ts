// The nesting guard (src/krm/yaml/nesting.ts): every shape of deep nesting is refused past the
// bound with the line where the level too many opens, whatever stands between the brackets, and
// YAML at the bound is read. Before it, `{a: {a: …` (keys between the brackets), flow sequences
// with scalars, block collections and JSON in a stream passed the guard and overflowed the
// conforming reader's stack ("invalid YAML: Maximum call stack size exceeded").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxDepth, tooDeep } from '../src/krm/yaml/nesting.js';
import { yamlProblem } from '../src/krm/yaml/parse.js';
import { run } from '../src/run.js';

const head = 'apiVersion: example.com/v1\nkind: Thing\nmetadata:\n  name: a\n';
const sp = (n: number) => ' '.repeat(n);

/**
 * Shapes nested exactly `depth` levels (the document's mapping is the first), and the line of
 * the level after the bound's.
 */
const shapes: Record<string, { text: (depth: number) => string; line: number }> = {
  'flow mappings with keys between the brackets': {
    text: (d) => `${head}spec: ${'{a: '.repeat(d - 1)}x${'}'.repeat(d - 1)}\n`,
    line: 5,
  },
  'flow sequences with scalars between the brackets': {
    text: (d) => `${head}spec: ${'[a, '.repeat(d - 1)}x${']'.repeat(d - 1)}\n`,
    line: 5,
  },
  'JSON in a YAML stream': {
    text: (d) => `---\n${head}spec: ${'{"a":'.repeat(d - 1)}1${'}'.repeat(d - 1)}\n`,
    line: 6,
  },
  'JSON in a ResourceList': {
    text: (d) =>
      `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- ${head
        .replaceAll('\n', '\n  ')
        .trimEnd()}\n  spec: ${'{"a":'.repeat(d - 3)}1${'}'.repeat(d - 3)}\n`,
    line: 8,
  },
  'flow collections over many lines, a comment on each': {
    text: (d) =>
      `${head}spec:\n${Array.from({ length: d - 1 }, () => '  [ # ]]\n').join('')}  x${']'.repeat(d - 1)}\n`,
    line: 5 + maxDepth,
  },
  'block mappings': {
    text: (d) =>
      `${head}spec:\n${Array.from({ length: d - 2 }, (_, i) => `${sp(i + 1)}a:\n`).join('')}${sp(d)}x\n`,
    line: 5 + maxDepth,
  },
  'block sequences of mappings': {
    // `- a:` is two levels: the sequence and the mapping in its entry.
    text: (d) =>
      `${head}spec:\n${Array.from({ length: (d - 2) / 2 }, (_, i) => `${sp(2 * i + 1)}- a:\n`).join('')}${sp(d)}x\n`,
    line: 5 + maxDepth / 2,
  },
  'block mappings around flow collections': {
    text: (d) =>
      `${head}spec:\n${Array.from({ length: d / 2 - 2 }, (_, i) => `${sp(i + 1)}a:\n`).join('')}${sp(d / 2 - 1)}b: ${'[{a: '.repeat(d / 4)}x${'}]'.repeat(d / 4)}\n`,
    line: 5 + maxDepth / 2,
  },
};

describe('the nesting guard', () => {
  it.each(Object.keys(shapes))('%s: read at the bound, refused one level deeper', (name) => {
    const shape = shapes[name] as (typeof shapes)[string];
    const atBound = run(shape.text(maxDepth));
    expect(atBound.stderr).toBe('');
    expect(atBound.exitCode).toBe(0);
    expect(tooDeep(shape.text(maxDepth))).toBeUndefined();
    const what = name.startsWith('block') && !name.includes('flow') ? 'block' : 'flow';
    const out = run(shape.text(maxDepth + 2));
    expect(out.exitCode).toBe(1);
    expect(`${out.stderr}${out.stdout}`).toContain(
      `line ${shape.line} nests YAML ${what} collections deeper than ${maxDepth} levels`,
    );
    const far = run(shape.text(8 * maxDepth));
    expect(far.exitCode).toBe(1);
    expect(far.stderr).toMatch(
      /^secret-rollout: line \d+ nests YAML (block|flow) collections deeper/,
    );
  });

  it('is not switched off by brackets, quotes or comment signs in quoted scalars', () => {
    // Each would end the count of a naive scan: a `]` in quotes, a `#` in quotes, a quote in a
    // plain scalar that is no quoted scalar.
    for (const filler of ['"]]"', "']]'", '"a # ]]"', "b'c", 'd"e', '"\\"]"', "'it''s ]'"]) {
      const text = `${head}spec: ${`{k: ${filler}, a: `.repeat(maxDepth)}x${'}'.repeat(maxDepth)}\n`;
      expect(tooDeep(text)).toBeDefined();
    }
  });

  it('takes a quoted scalar that the conforming reader ends at a dedented line for structure', () => {
    // js-yaml reads `"x …` to the end as one scalar; the `yaml` library ends it at `b:`.
    const text = `${head}spec:\n  a: "x\n  b: ${'['.repeat(maxDepth)}${']'.repeat(maxDepth)}"\n`;
    expect(tooDeep(text)).toBeDefined();
  });

  it('does not count brackets in comments, quoted, block or plain scalars', () => {
    const many = '[{'.repeat(maxDepth);
    const text = [
      head,
      `# ${many}\n`,
      'data:\n',
      `  a: "${many}"\n`,
      `  b: '${many}'\n`,
      `  c: |\n    ${many}\n    ${'- '.repeat(maxDepth)}\n`,
      `  d: it's ${many}\n`,
      `  e: [x, "${many}", '${many}'] # ${many}\n`,
    ].join('');
    expect(tooDeep(text)).toBeUndefined();
    expect(yamlProblem(text)).toBeUndefined();
  });
});

describe('a --fn-config file', () => {
  it('is refused past the bound like the input, before any reader', () => {
    const text = `apiVersion: v1\nkind: ConfigMap\ndata:\n  k: ${'{a: '.repeat(4 * maxDepth)}x${'}'.repeat(4 * maxDepth)}\n`;
    const out = run(`${head}spec: {}\n`, { fnConfig: { path: 'fn.yaml', text } });
    expect(out.exitCode).toBe(1);
    expect(`${out.stderr}${out.stdout}`).toContain(
      `line 4 nests YAML flow collections deeper than ${maxDepth} levels`,
    );
  });
});

describe('a stack overflow in the conforming reader', () => {
  it('is reported as the nesting bound, never as "Maximum call stack size exceeded"', () => {
    // The guard keeps such text from the reader; asked directly, it must still say why.
    const problem = yamlProblem(`${'['.repeat(20 * maxDepth)}${']'.repeat(20 * maxDepth)}\n`);
    expect(problem?.message).toBe(
      `Nesting deeper than the reader can follow (the bound is ${maxDepth} levels)`,
    );
  });
});

describe('the nesting guard on generated nesting', () => {
  // Levels of each kind, each with text around it that a naive count would take for brackets;
  // the text is valid YAML (the conforming reader says so), nested exactly as many levels.
  type Kind = 'flowMap' | 'flowSeq' | 'json' | 'flowComment' | 'blockMap' | 'blockSeq' | 'literal';
  const flowKinds: Kind[] = ['flowMap', 'flowSeq', 'json', 'flowComment'];
  const render = (kinds: readonly Kind[], i: number, column: number, inFlow: boolean): string => {
    const kind = kinds[i];
    if (kind === undefined) return 'x';
    const child = (c: number, flow: boolean) => render(kinds, i + 1, c, flow);
    switch (kind) {
      case 'flowMap':
        return `{q: "]}\\"#", k: ${child(column, true)}}`;
      case 'flowSeq':
        return `[a'b, '] '' #', ${child(column, true)}]`;
      case 'json':
        return `{"k":${child(column, true)}}`;
      case 'flowComment':
        return `[ # ]]}}\n${sp(column + 1)}${child(column + 1, true)}]`;
      case 'blockMap':
        return `p: it's ]} #c ]\n${sp(column)}k:\n${sp(column + 1)}${child(column + 1, inFlow)}`;
      case 'blockSeq':
        return `- "]"\n${sp(column)}- ${child(column + 2, inFlow)}`;
      case 'literal':
        return `l: |\n${sp(column + 1)}]]}} "\n${sp(column)}k:\n${sp(column + 1)}${child(column + 1, inFlow)}`;
    }
  };
  const levels = fc
    .tuple(
      fc.oneof(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: maxDepth - 3, max: maxDepth + 3 }),
      ),
      fc.array(
        fc.constantFrom<Kind>(
          'flowMap',
          'flowSeq',
          'json',
          'flowComment',
          'blockMap',
          'blockSeq',
          'literal',
        ),
        {
          minLength: 1,
          maxLength: 7,
        },
      ),
    )
    .map(([depth, pattern]) => {
      // Block levels first, flow levels after: no block collection goes in a flow one.
      const kinds = Array.from({ length: depth }, (_, i) => pattern[i % pattern.length] as Kind);
      return [
        ...kinds.filter((k) => !flowKinds.includes(k)),
        ...kinds.filter((k) => flowKinds.includes(k)),
      ];
    });

  it('refuses exactly the texts nested deeper than the bound, which the conforming reader reads', () => {
    fc.assert(
      fc.property(levels, (kinds) => {
        const text = `${render(kinds, 0, 0, false)}\n`;
        const deep = tooDeep(text);
        expect(deep !== undefined).toBe(kinds.length > maxDepth);
        if (!deep) expect(yamlProblem(text)).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });
});

describe('the nesting guard by part', () => {
  // The input's text is judged around the items, and each item where it is read (the quick
  // reader's own bound proves the items it reads shallow): the verdict, its line and its place
  // before every other error stay those of one scan of the whole text.
  const list = (items: string[], after = '', apiVersion = 'config.kubernetes.io/v1') =>
    `apiVersion: ${apiVersion}\nkind: ResourceList\nitems:\n${items.join('')}${after}`;
  const item = (i: number) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c${i}\n`;
  /** An item whose `data` nests `n` flow levels, on its line 5. */
  const deepItem = (n: number) =>
    `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: deep\n  data: ${'['.repeat(n)}${']'.repeat(n)}\n`;
  const refused = (text: string, line: number) => {
    const out = run(text);
    expect(out.exitCode).toBe(1);
    expect(out.stderr).toBe(
      `secret-rollout: line ${line} nests YAML flow collections deeper than ${maxDepth} levels\n`,
    );
    expect(tooDeep(text)).toBeDefined();
  };

  it('counts the levels around an item: read at the bound, refused one level deeper', () => {
    // The list's mapping, its sequence, the item's mapping: 3 levels before `data`'s brackets.
    expect(run(list([item(0), deepItem(maxDepth - 3), item(1)])).exitCode).toBe(0);
    refused(list([item(0), deepItem(maxDepth - 2), item(1)]), 12);
    refused(
      list([item(0), deepItem(maxDepth - 2), item(1)].map((t) => t.replace(/^/gm, '  '))),
      12,
    );
    refused(list([item(0), deepItem(maxDepth - 2)]).replaceAll('\n', '\r\n'), 12);
  });

  it('counts brackets an item leaves open into the items after it', () => {
    const open = '- apiVersion: v1\n  kind: ConfigMap\n  data: [[\n';
    refused(list(Array.from({ length: maxDepth / 2 }, () => open)), 750);
    const near = list([
      `- a: ${'['.repeat(30)}\n`,
      item(0),
      `- b: ${'['.repeat(480)}${']'.repeat(480)}\n`,
    ]);
    refused(near, 9);
  });

  it('comes before the errors found before the items are read, and after the text around them', () => {
    const deep = deepItem(2 * maxDepth);
    refused(list([item(0), deep], '', 'v9'), 12);
    refused(`${list([item(0), deep])}---\na: 1\n`, 12);
    refused(
      list(
        [item(0), deep],
        `functionConfig: ${'{a: '.repeat(2 * maxDepth)}x${'}'.repeat(2 * maxDepth)}\n`,
      ),
      12,
    );
    refused(
      list(
        [item(0)],
        `functionConfig: ${'{a: '.repeat(2 * maxDepth)}x${'}'.repeat(2 * maxDepth)}\n`,
      ),
      8,
    );
    refused(
      list(
        [item(0)],
        `results:\n- message: ${'{a: '.repeat(2 * maxDepth)}x${'}'.repeat(2 * maxDepth)}\n`,
      ),
      9,
    );
    refused(list([`- a: b: c\n`, deep]), 9);
    const kptfile = `- apiVersion: kpt.dev/v1\n  kind: Kptfile\n  metadata:\n    name: p\n  x: ${'['.repeat(2 * maxDepth)}\n`;
    refused(list([kptfile, item(0)]), 8);
  });

  it('judges the documents of a stream after a broken one', () => {
    refused(`a: 1\n---\nb: [\n---\n${'['.repeat(2 * maxDepth)}${']'.repeat(2 * maxDepth)}\n`, 5);
  });
});

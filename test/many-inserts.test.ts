// Many keys inserted into one item (ordering: kapp, one Deployment waiting for n sources gets a
// change rule each): what it costs, counted (never timed), and that the text is the one each edit
// located in the text the ones before made would give.
import { describe, expect, it, vi } from 'vitest';
import { applySplices, applyToValue, editText, reparseItem } from '../src/krm/yaml/splice.js';
import { annotationEdit, type MappingEdit } from '../src/model/edit.js';
import type { JsonObject } from '../src/model/json.js';

/**
 * A Deployment reading `secrets` Secrets, as a ResourceList's entry; `metadata`: its lines, above
 * its spec or (`below`) after it.
 */
function deployment(secrets: number, metadata = ['  metadata:', '    name: api'], below = false) {
  const lines = ['- apiVersion: apps/v1', '  kind: Deployment', ...(below ? [] : metadata)];
  lines.push('  spec:', '    template:', '      spec:', '        containers:', '        - name: c');
  lines.push('          envFrom:');
  for (let i = 0; i < secrets; i++)
    lines.push('          - secretRef:', `              name: s-${i}`);
  if (below) lines.push(...metadata);
  return `${lines.join('\n')}\n`;
}

const noProof = () => {
  throw new Error('a plain-layout edit needs no proof');
};

/** The value the edited item must read as, for a proof. */
const expected = (text: string, edits: readonly MappingEdit[]) => () => {
  const value = reparseItem(text, true) as JsonObject;
  for (const edit of edits) applyToValue(value, edit);
  return value;
};

/** The item with each edit located in the text the ones before made (main's way, n copies). */
function oneAfterAnother(text: string, edits: readonly MappingEdit[]): string {
  let edited = text;
  for (const edit of edits) {
    const splices = editText(edited, true, [edit], expected(edited, [edit]), '\n');
    edited = applySplices(edited, splices);
  }
  return edited;
}

/** The characters joined into strings while `work` ran (every copy of the item is a join). */
function joined(work: () => void): number {
  const join = vi.spyOn(Array.prototype, 'join');
  try {
    work();
    return join.mock.results.reduce((sum, r) => sum + String(r.value).length, 0);
  } finally {
    join.mockRestore();
  }
}

/**
 * The edits made at once, proven, checked against one edit after another's text: one splice; the
 * characters joined making it again, and its length.
 */
function provenOnce(item: string, edits: readonly MappingEdit[]) {
  let splices = editText(item, true, edits, expected(item, edits), '\n');
  expect(applySplices(item, splices)).toBe(oneAfterAnother(item, edits));
  expect(splices).toHaveLength(1);
  const chars = joined(() => {
    splices = editText(item, true, edits, expected(item, edits), '\n');
  });
  return { chars, inserted: (splices[0] as { text: string }).text.length };
}

describe('many keys inserted into one item', () => {
  const sources = 400;
  const item = deployment(sources);
  const edits: MappingEdit[] = [
    annotationEdit(0, ['spec', 'template', 'metadata'], 'checksum/external-secrets', 'abc'),
    ...Array.from({ length: sources }, (_, i) =>
      annotationEdit(0, ['metadata'], `kapp.k14s.io/change-rule.r-${i}`, `upsert after s-${i}`),
    ),
    // A multi-line value: a block scalar, which the key line below it ends.
    annotationEdit(0, ['metadata'], 'multi', 'two\nlines\n'),
  ];

  it('writes what one edit after another writes', () => {
    const splices = editText(item, true, edits, noProof, '\n');
    expect(applySplices(item, splices)).toBe(oneAfterAnother(item, edits));
    // One splice a place: the item's own text is never copied.
    expect(splices).toHaveLength(2);
  });

  it('copies the item once at most, not once an edit', () => {
    let splices = editText(item, true, edits, noProof, '\n');
    const chars = joined(() => {
      splices = editText(item, true, edits, noProof, '\n');
    });
    const inserted = splices.reduce((sum, s) => sum + s.text.length, 0);
    // ≈28 KB inserted into ≈20 KB. Main located each edit in a new copy of the item with the
    // ones before in it: 12.6 MB joined.
    expect(chars).toBeLessThanOrEqual(2 * inserted);
  });

  it('leaves no long list of pieces to join for the edits after it', () => {
    editText(item, true, edits, noProof, '\n');
    const join = vi.spyOn(Array.prototype, 'join');
    try {
      editText(deployment(1), true, [edits[0] as MappingEdit], noProof, '\n');
      // Two missing mappings and the key's line: 15 pieces. Not cut back, the list the many
      // keys grew (2,806 pieces) is joined again for every edit in every item after it.
      const longest = Math.max(...join.mock.contexts.map((list) => (list as unknown[]).length));
      expect(longest).toBe(15);
    } finally {
      join.mockRestore();
    }
  });
});

describe('many keys inserted into a flow mapping', () => {
  // Fewer: the one edit after another it is compared with parses a new text for each.
  const sources = 100;
  // Beyond the line locator: every edit is located by the full parser and proven.
  const item = deployment(sources, ['  metadata: {name: api}']);
  const edits = Array.from({ length: sources }, (_, i) =>
    annotationEdit(0, ['metadata'], `kapp.k14s.io/change-rule.r-${i}`, `upsert after s-${i}`),
  );

  it('writes what one edit after another writes, with one proof', () => {
    const { chars, inserted } = provenOnce(item, edits);
    // The proof's edited text, once, and what is inserted (≈7 KB into ≈5 KB). Main parsed and
    // copied a new text for every edit: ≈0.8 MB joined.
    expect(chars).toBeLessThanOrEqual(2 * (item.length + inserted));
  });
});

describe('many keys inserted into a mapping below a long list', () => {
  const sources = 400;
  const item = deployment(
    sources,
    ['  metadata:', '    name: api', '    annotations:', '      a: b'],
    true,
  );
  const edits = Array.from({ length: sources }, (_, i) =>
    annotationEdit(0, ['metadata'], `kapp.k14s.io/change-rule.r-${i}`, `upsert after s-${i}`),
  );

  it('reads the way to the mapping, and the mapping, once', () => {
    let splices = editText(item, true, edits, noProof, '\n');
    expect(applySplices(item, splices)).toBe(oneAfterAnother(item, edits));
    const indexOf = vi.spyOn(String.prototype, 'indexOf');
    try {
      splices = editText(item, true, edits, noProof, '\n');
      // A line search a line of the item, a few an edit. Main located each edit from the item's
      // top, past the 800 lines of the list, and the keys inserted before it: 493,260.
      const lines = item.split('\n').length;
      expect(indexOf.mock.calls.length).toBeLessThanOrEqual(2 * lines + 4 * edits.length);
    } finally {
      indexOf.mockRestore();
    }
  });
});

describe('many keys inserted into a flow mapping that holds many', () => {
  const keys = 100;
  const held = Array.from({ length: keys }, (_, i) => `a${i}: x`).join(', ');
  const item = deployment(1, [`  metadata: {name: api, annotations: {${held}}}`]);
  const edits = Array.from({ length: keys }, (_, i) =>
    annotationEdit(0, ['metadata'], `kapp.k14s.io/change-rule.r-${i}`, `upsert after s-${i}`),
  );

  it('looks each key up in the mapping, not through its pairs', () => {
    let splices = editText(item, true, edits, expected(item, edits), '\n');
    expect(applySplices(item, splices)).toBe(oneAfterAnother(item, edits));
    const find = vi.spyOn(Array.prototype, 'find');
    const set = vi.spyOn(Map.prototype, 'set');
    try {
      splices = editText(item, true, edits, expected(item, edits), '\n');
      // Entries of the lists searched: the readers' own, ≈80 a key (the parse the sites are found
      // in, and the proof's), 8,294 here and twice that for twice the keys. Main also searched
      // the annotations' pairs one by one for every edit, and the metadata's: 315,908 (n × m;
      // four times that for twice the keys). Now each mapping on the way is indexed once.
      let searched = 0;
      for (const list of find.mock.contexts) searched += (list as unknown[]).length;
      expect(searched).toBeLessThanOrEqual(100 * keys);
      expect(set.mock.calls.length).toBeLessThanOrEqual(4 * keys);
    } finally {
      find.mockRestore();
      set.mockRestore();
    }
  });
});

describe('many keys inserted into a JSON document', () => {
  const keys = 100;
  const edits = Array.from({ length: keys }, (_, i) =>
    annotationEdit(0, ['metadata'], `kapp.k14s.io/change-rule.r-${i}`, `upsert after s-${i}`),
  );
  /** As kubectl prints it, an entry of a ResourceList (`- {`), keys on lines or on one. */
  const item = (metadata: unknown, indent?: number) => {
    const value = { apiVersion: 'apps/v1', kind: 'Deployment', metadata, spec: { n: [1, 2] } };
    return `- ${JSON.stringify(value, null, indent).replaceAll('\n', '\n  ')}\n`;
  };

  it.each([
    ['keys on lines, annotations missing', item({ name: 'api' }, 2)],
    ['on one line, annotations missing', item({ name: 'api' })],
    ['annotations {}', item({ name: 'api', annotations: {} }, 2)],
    ['metadata null', item(null, 2)],
  ])('%s: writes what one edit after another writes, with one copy', (_, text) => {
    const { chars, inserted } = provenOnce(text, edits);
    // The proof's edited text, once, and what is inserted (≈8 KB into 0.2 KB). Main wrote
    // each entry in a new copy of the item: 276,778 to 337,671.
    expect(chars).toBeLessThanOrEqual(2 * (text.length + inserted));
  });
});

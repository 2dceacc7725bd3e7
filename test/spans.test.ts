// Document and item boundaries found by scanning lines, checked against a real parser's view.
import { describe, expect, it } from 'vitest';
import {
  SpanError,
  sequenceItems,
  splitDocuments,
  topLevelEntries,
} from '../src/krm/yaml/spans.js';

const docs = (text: string) =>
  splitDocuments(text).map((d) => ({ text: text.slice(d.start, d.end), content: d.hasContent }));

describe('splitDocuments', () => {
  it('starts a document at every marker; comments and directives alone are not content', () => {
    // The prefix of comments and directives belongs to its document: %YAML alone is none.
    expect(docs('# head\n%YAML 1.2\n---\na: 1\n---\n# c\nb: 2\n')).toEqual([
      { text: '# head\n%YAML 1.2\n---\na: 1\n', content: true },
      { text: '---\n# c\nb: 2\n', content: true },
    ]);
    expect(docs('a: 1\n...\n%YAML 1.2\n---\nb: 2\n').map((d) => d.text)).toEqual([
      'a: 1\n...\n',
      '%YAML 1.2\n---\nb: 2\n',
    ]);
    expect(docs('a: 1\n%YAML 1.2\n---\nb: 2\n').map((d) => d.text)).toEqual([
      'a: 1\n%YAML 1.2\n',
      '---\nb: 2\n',
    ]);
  });

  it('sees empty documents between markers, and content on a marker line', () => {
    expect(docs('---\n---\n# only a comment\n--- {a: 1}\n...\nb: 2')).toEqual([
      { text: '---\n', content: false },
      { text: '---\n# only a comment\n', content: false },
      { text: '--- {a: 1}\n...\n', content: true },
      { text: 'b: 2', content: true },
    ]);
  });

  it('does not split at markers inside a line or indented', () => {
    expect(docs('a: |\n  ---\nb: "---"\n----: x\n').length).toBe(1);
  });
});

describe('sequenceItems', () => {
  const items = (text: string) => {
    const entry = topLevelEntries(text, { start: 0, end: text.length }).find(
      (e) => e.key === 'items',
    );
    if (!entry) throw new Error('no items');
    return sequenceItems(text, entry).map((s) => text.slice(s.start, s.end));
  };

  it('splits at entries of either indentation, keeping comments and block scalars inside', () => {
    const text =
      'kind: ResourceList\nitems:\n- a: |\n    - not an entry\n  b: 1\n# between\n- c: 2\nfunctionConfig: {}\n';
    expect(items(text)).toEqual(['- a: |\n    - not an entry\n  b: 1\n# between\n', '- c: 2\n']);
    expect(items('items:\n  - a: 1\n  -\n    b: 2\n')).toEqual(['  - a: 1\n', '  -\n    b: 2\n']);
  });

  it('rejects a mapping or a shallower line where entries belong', () => {
    expect(() => items('items:\n  a: 1\n')).toThrow(SpanError);
    expect(() => items('items:\n  - a: 1\n b: 2\n')).toThrow(SpanError);
  });
});

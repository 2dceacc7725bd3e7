// jsonStyleOf runs once per edited item: a block item must be known for one without a search
// through its lines for a `{` (most hold none, and the search read all of them).
import { describe, expect, it, vi } from 'vitest';
import { jsonStyleOf } from '../src/krm/yaml/site.js';

describe('jsonStyleOf', () => {
  it('knows a block item at its first key, with no search for a `{`', () => {
    const item = `- apiVersion: v1\n  kind: ConfigMap\n${'  data:\n    a: b\n'.repeat(100)}`;
    const indexOf = vi.spyOn(String.prototype, 'indexOf');
    try {
      expect(jsonStyleOf(item, true)).toBeUndefined();
      // main searched the whole item for a `{` first.
      expect(indexOf.mock.calls.filter(([searched]) => searched === '{')).toEqual([]);
    } finally {
      indexOf.mockRestore();
    }
  });

  it.each([
    ['an entry', '- {"a": 1}', true, { unit: '', colon: ': ' }],
    [
      'an entry after comments',
      '# c\n- # d\n  {\n    "a":1\n  }',
      true,
      { unit: '  ', colon: ':' },
    ],
    ['a document after its marker', '---\n{"a": 1}\n', false, { unit: '', colon: ': ' }],
    // The first `{` is the comment's: what follows it is no JSON, as on main.
    ['a `{` in a comment before the object', '- # {x\n  {"a": 1}', true, undefined],
    ['a key before the object', '- a: {"b": 1}', true, undefined],
    ['an array', '- [{"a": 1}]', true, undefined],
  ])('judges %s', (_, text, entry, style) => {
    expect(jsonStyleOf(text, entry)).toEqual(style);
  });
});

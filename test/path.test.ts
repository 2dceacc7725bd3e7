// The one path syntax (src/model/path.ts): tables write `a.b[].c`, results print the match.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Json } from '../src/model/json.js';
import {
  compilePaths,
  each,
  fieldPath,
  getPath,
  parseKeys,
  parsePath,
  type Trail,
  walk,
  walkPaths,
} from '../src/model/path.js';

const matches = (value: Json, text: string, at: Trail = []) => {
  const found: [string, Json][] = [];
  walk(value, parsePath(text), (node, trail) => found.push([fieldPath(trail), node]), { at });
  return found;
};

describe('paths', () => {
  it('compile `[]` to every element of the list', () => {
    expect(parsePath('')).toEqual([]);
    expect(parsePath('containers[].env[].valueFrom')).toEqual([
      'containers',
      each,
      'env',
      each,
      'valueFrom',
    ]);
    expect(parseKeys('spec.template.metadata')).toEqual(['spec', 'template', 'metadata']);
    expect(() => parseKeys('data[]')).toThrow(/no \[\]/);
  });

  it('visit every match in document order, with where it is', () => {
    const spec: Json = { containers: [{ env: [{ name: 'a' }, { name: 'b' }] }, {}, { env: null }] };
    expect(matches(spec, 'containers[].env[]', ['spec'])).toEqual([
      ['spec.containers[0].env[0]', { name: 'a' }],
      ['spec.containers[0].env[1]', { name: 'b' }],
    ]);
    expect(matches(spec, '')).toEqual([['', spec]]);
  });

  it('end quietly at absent fields and at null ones on the way, and visit a null match', () => {
    expect(matches({ a: null }, 'a.b')).toEqual([]);
    expect(matches({ a: null }, 'a')).toEqual([['a', null]]);
    expect(matches({ a: [null] }, 'a[]')).toEqual([['a[0]', null]]);
  });

  it('report a value that is not what the path steps into, or skip it', () => {
    const mismatches: string[] = [];
    walk({ a: [1, { b: 'x' }], c: 'y' }, parsePath('a[].b'), () => {}, {
      mismatch: (_node, at, wanted) => mismatches.push(`${fieldPath(at)} ${wanted}`),
    });
    walk({ c: 'y' }, parsePath('c[]'), () => {}, {
      mismatch: (node, at, wanted) => mismatches.push(`${fieldPath(at)} ${wanted} ${node}`),
    });
    expect(mismatches).toEqual(['a[0] mapping', 'c list y']);
    expect(matches({ a: [1] }, 'a[].b')).toEqual([]);
  });

  it('read one value at a path without []', () => {
    const value = { metadata: { labels: { x: '1' }, annotations: null } };
    expect(getPath(value, 'metadata.labels')).toEqual({ x: '1' });
    expect(getPath(value, ['metadata', 'labels', 'x'])).toBe('1');
    expect(getPath(value, 'metadata.annotations')).toBeNull();
    expect(getPath(value, 'metadata.annotations.x')).toBeUndefined();
    expect(getPath(value, 'metadata.labels.x.y')).toBeUndefined();
    expect(getPath(undefined, 'a')).toBeUndefined();
  });

  it('getPath finds what walk visits, on any value and path without []', () => {
    // '0' and 'length' are also what a list has: getPath, as walk, steps into mappings only.
    const key = fc.constantFrom('a', 'b', 'c', '0', 'length');
    // Mappings keyed like the paths, so that most paths lead somewhere (or to a null, a list).
    const { json } = fc.letrec<{ json: unknown }>((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, 1, 'x', true),
        fc.array(tie('json'), { maxLength: 2 }),
        fc.dictionary(key, tie('json'), { maxKeys: 3 }),
      ),
    }));
    fc.assert(
      fc.property(json, fc.array(key, { maxLength: 4 }), (v, keys) => {
        const value = v as Json;
        const visited: Json[] = [];
        walk(value, keys, (node) => visited.push(node));
        expect(getPath(value, keys)).toEqual(visited[0]);
        expect(getPath(value, keys.join('.'))).toEqual(visited[0]);
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });

  it('walkPaths visits, for each path, what walk visits for it alone, in the same order', () => {
    const key = fc.constantFrom('a', 'b', '0');
    const { json } = fc.letrec<{ json: unknown }>((tie) => ({
      json: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, 1, 'x'),
        fc.array(tie('json'), { maxLength: 3 }),
        fc.dictionary(key, tie('json'), { maxKeys: 3 }),
      ),
    }));
    const path = fc
      .array(fc.tuple(key, fc.boolean()), { maxLength: 3 })
      .map((steps) => steps.map(([k, list]) => (list ? `${k}[]` : k)).join('.'));
    fc.assert(
      fc.property(json, fc.array(path, { minLength: 1, maxLength: 4 }), (v, texts) => {
        const value = v as Json;
        const paths = texts.map(parsePath);
        const seen = (one: (visit: (n: Json, at: Trail, i: number) => void) => void) => {
          const found = paths.map((): string[] => []);
          one((node, at, i) => found[i]?.push(`${fieldPath(at)}=${JSON.stringify(node)}`));
          return found;
        };
        const alone = seen((visit) =>
          paths.forEach((p, i) => {
            walk(value, p, (node, at) => visit(node, at, i));
          }),
        );
        const together = seen((visit) => walkPaths(value, compilePaths(paths), visit));
        expect(together).toEqual(alone);
      }),
      { seed: 20261123, numRuns: 2000 },
    );
  });

  it('print fields as results have them', () => {
    expect(fieldPath(['spec', 'template', 'metadata', 'annotations'], 'checksum/x')).toBe(
      'spec.template.metadata.annotations[checksum/x]',
    );
    expect(fieldPath(['data'], 'a.b')).toBe('data[a.b]');
    expect(fieldPath(['spec.template.spec', 'volumes', 0, 'secret'])).toBe(
      'spec.template.spec.volumes[0].secret',
    );
  });

  it("getPath finds a mapping's own fields only, with no own-property call per step", () => {
    // Object.prototype's fields, functions all but `__proto__`, are no field of a value read.
    const value = { spec: { template: { metadata: { name: 'x' } } } } as Json;
    for (const key of ['toString', 'constructor', 'hasOwnProperty', 'valueOf', '__proto__']) {
      expect(getPath(value, ['spec', key])).toBeUndefined();
      expect(getPath(value, `spec.${key}`)).toBeUndefined();
    }
    // A reader's own `__proto__` key (JSON.parse, and the conforming reader, define one) is one.
    const own = JSON.parse('{"spec": {"__proto__": {"a": 1}, "toString": "s"}}') as Json;
    expect(getPath(own, ['spec', '__proto__', 'a'])).toBe(1);
    expect(getPath(own, ['spec', 'toString'])).toBe('s');
    expect(getPath([{ a: 1 }], [0, 'a'])).toBe(1);
    expect(getPath([{ a: 1 }], [1, 'a'])).toBeUndefined();
    // Counted: every stage reads every field of every item through it (dense at 10k items:
    // 5,583 → 5,572 M instructions without the call; docs/performance.md).
    const hasOwn = vi.spyOn(Object, 'hasOwn');
    let calls = -1;
    try {
      for (let i = 0; i < 100; i++) getPath(value, ['spec', 'template', 'metadata', 'name']);
      calls = hasOwn.mock.calls.length;
    } finally {
      hasOwn.mockRestore();
    }
    // One per step before (400).
    expect(calls).toBe(0);
  });
});

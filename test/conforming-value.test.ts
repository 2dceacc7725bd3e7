// Valid YAML js-yaml does not read with its own bounds (src/krm/yaml/parse.ts): nested past 100
// nodes, js-yaml reads it now up to the depth nesting.ts lets through (the `yaml` library only
// judges it); elsewhere (a multi-line flow key) the conforming reader's value is taken from the
// verdict's document where no merge key, tag or directive can make the two reads differ, so that
// the library parses the text once, not twice (bench family values-annotations: every
// HelmRelease read, then proven, with this reader). Counted, not timed.
import { describe, expect, it, vi } from 'vitest';
import { parseYaml } from '../src/krm/yaml/parse.js';

const counted = vi.hoisted(() => ({ documents: 0, located: 0, lexed: 0, built: 0 }));
vi.mock('../src/krm/yaml/load-yaml.cjs', async (importOriginal) =>
  (await import('./counted-yaml.js')).countedYaml(importOriginal, counted),
);

/** The value of `text` and the `yaml` library's reads of it. */
function read(text: string) {
  counted.documents = 0;
  counted.lexed = 0;
  counted.built = 0;
  const value = parseYaml(text, 0, text);
  return { value, documents: counted.documents, lexed: counted.lexed, built: counted.built };
}

/** `depth` flow mappings one in another: beyond js-yaml's depth, valid YAML. */
const deepFlow = (depth: number) => `${'{a: '.repeat(depth)}{b: c}${'}'.repeat(depth)}`;
/** A multi-line flow key: valid YAML js-yaml refuses. */
const flowKey = '{a\n  b: x}';
const nested = (depth: number): unknown => {
  let value: unknown = { b: 'c' };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('the conforming value: one parse by the `yaml` library', () => {
  it('deep flow: js-yaml’s value, the library only judges (fails on main: its value built)', () => {
    const text = `x: ${deepFlow(300)}\nn: 1\n`;
    const out = read(text);
    expect(out.value).toEqual({ x: nested(300), n: 1 });
    expect(out.documents).toBe(0);
    expect(out.built).toBe(0);
    expect(out.lexed).toBe(text.length);
  });

  it('valid YAML js-yaml does not read: the verdict’s document gives the value (fails on main: a second parse)', () => {
    const text = `t: ${flowKey}\nx: ${deepFlow(5)}\n`;
    const out = read(text);
    expect(out.documents).toBe(0);
    expect(out.built).toBe(1);
    expect(out.lexed).toBe(text.length);
  });

  it('read again where a merge key, a tag or a directive would read otherwise', () => {
    const merged = read(`b: &b {k: v}\nm: {<<: *b}\nt: ${flowKey}\n`);
    expect(merged.value).toMatchObject({ m: { k: 'v' } });
    expect(merged.documents).toBe(1);
    const tagged = read(`m: {!!merge a: {k: v}}\nt: ${flowKey}\n`);
    expect(tagged.documents).toBe(1);
    const directive = read(`%YAML 1.1\n---\nt: ${flowKey}\ny: yes\n`);
    expect(directive.value).toMatchObject({ y: 'yes' });
    expect(directive.documents).toBe(1);
    // After a byte-order mark too.
    const marked = read(`\uFEFF%YAML 1.1\n---\nt: ${flowKey}\ny: yes\n`);
    expect(marked.value).toMatchObject({ y: 'yes' });
  });
});

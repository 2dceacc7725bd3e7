// The conforming reader's value (src/krm/yaml/parse.ts conformingValue) for valid YAML js-yaml
// does not read: taken from the verdict's document where no merge key, tag or directive can make
// the two reads differ, so that the `yaml` library parses the text once, not twice (bench family
// values-annotations: every HelmRelease read, then proven, with this reader). Counted, not timed.
import { describe, expect, it, vi } from 'vitest';
import { parseYaml } from '../src/krm/yaml/parse.js';

const counted = vi.hoisted(() => ({ documents: 0, located: 0, lexed: 0 }));
vi.mock('../src/krm/yaml/load-yaml.cjs', async (importOriginal) =>
  (await import('./counted-yaml.js')).countedYaml(importOriginal, counted),
);

/** The value of `text` and the `yaml` library's reads of it. */
function read(text: string) {
  counted.documents = 0;
  counted.lexed = 0;
  const value = parseYaml(text, 0, text);
  return { value, documents: counted.documents, lexed: counted.lexed };
}

/** `depth` flow mappings one in another: beyond js-yaml's depth, valid YAML. */
const deepFlow = (depth: number) => `${'{a: '.repeat(depth)}{b: c}${'}'.repeat(depth)}`;
const nested = (depth: number): unknown => {
  let value: unknown = { b: 'c' };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('the conforming value: one parse by the `yaml` library', () => {
  it('deep flow (fails on main: a second parse for the value)', () => {
    const text = `x: ${deepFlow(300)}\nn: 1\n`;
    const out = read(text);
    expect(out.value).toEqual({ x: nested(300), n: 1 });
    expect(out.documents).toBe(0);
    expect(out.lexed).toBe(text.length);
  });

  it('read again where a merge key, a tag or a directive would read otherwise', () => {
    const merged = read(`b: &b {k: v}\nm: {<<: *b}\nx: ${deepFlow(200)}\n`);
    expect(merged.value).toMatchObject({ m: { k: 'v' } });
    expect(merged.documents).toBe(1);
    const tagged = read(`m: {!!merge a: {k: v}}\nx: ${deepFlow(200)}\n`);
    expect(tagged.documents).toBe(1);
    const directive = read(`%YAML 1.1\n---\nx: ${deepFlow(200)}\ny: yes\n`);
    expect(directive.value).toMatchObject({ y: 'yes' });
    expect(directive.documents).toBe(1);
  });
});

// What the line locator reads to find a key: counted in characters looked at, not time. The
// text is a String object whose charCodeAt counts its calls (the locator reads by char codes).
import { describe, expect, it } from 'vitest';
import { locateByLines } from '../src/krm/yaml/locate-lines.js';

/**
 * `text` as a string the locator reads as it reads any, counting the char codes it asks for
 * (`reads`) and its searches for a character (`searches`: a line's end, a key's `:`).
 */
function counted(text: string): { text: string; reads: () => number; searches: () => number } {
  let calls = 0;
  let searched = 0;
  const counting = new String(text);
  Object.defineProperty(counting, 'charCodeAt', {
    value: (at: number) => {
      calls++;
      return text.charCodeAt(at);
    },
  });
  Object.defineProperty(counting, 'indexOf', {
    value: (search: string, from?: number) => {
      searched++;
      return text.indexOf(search, from);
    },
  });
  return { text: counting as unknown as string, reads: () => calls, searches: () => searched };
}

/**
 * The site of a pod template annotation in an item of `head`'s lines and then a pod template,
 * and what the locator read to find it.
 */
function locateAnnotation(head: readonly string[]) {
  const template = ['spec:', '  template:', '    metadata:', '      labels:', '        app: web'];
  const counts = counted([...head, ...template, '    spec: {}', ''].join('\n'));
  const path = ['spec', 'template', 'metadata', 'annotations'];
  return { counts, site: locateByLines(counts.text, false, path, 'x') };
}

describe('the line locator', () => {
  it("passes over a deep line without counting all of its indentation (a pod template's under the item's own metadata)", () => {
    const deep = 200;
    const indent = ' '.repeat(40);
    const head = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web'];
    const deepLines = Array.from({ length: deep }, (_, i) => `    a${i}: |\n${indent}line ${i}`);
    const { counts, site } = locateAnnotation([...head, '  annotations:', ...deepLines]);
    expect(site).toMatchObject({ kind: 'lines' });
    const reads = counts.reads;
    // Each line under `metadata:` is read to one past the top keys' column (a few char codes):
    // reading each one's 40 spaces was 8,000 and more.
    expect(reads()).toBeLessThan(deep * 2 * 6);
  });

  it("searches each line's end once on the way down a path", () => {
    // Keys nested one under the other: each line is a key of the path (or the mapping's end).
    const { counts, site } = locateAnnotation([]);
    expect(site).toMatchObject({ kind: 'lines' });
    const searches = counts.searches;
    // A line's end and a key's `:` per line read, and the reach's line end: 16. The key lines'
    // ends searched again by each step down (three more a level) made it 25.
    expect(searches()).toBeLessThanOrEqual(16);
  });
});

describe('the line locator, character by character', () => {
  /** What the locator reads to find where a pod template annotation goes in `lines`. */
  function reads(lines: readonly string[]): number {
    const counts = counted([...lines, ''].join('\n'));
    const site = locateByLines(
      counts.text,
      false,
      ['spec', 'template', 'metadata', 'annotations'],
      'x',
    );
    expect(site).toMatchObject({ kind: 'lines' });
    return counts.reads();
  }
  const template = (head: string) => [
    'spec:',
    '  template:',
    `    metadata:${head}`,
    '      labels:',
    '        app: web',
    '    spec: {}',
  ];

  it('reads no further into the line above a mapping than its indentation and first character', () => {
    // The new `annotations:` goes above the mapping's first key and any comments over it: the
    // line above is the mapping's own key line, content, which ends the walk up. Main read all of
    // it for a carriage return first (a lone one would make a comment line two lines).
    const comment = ` # ${'x'.repeat(200)}`;
    expect(reads(template(comment)) - reads(template(''))).toBeLessThan(20);
  });

  it("reads each content line's indentation once on the way down", () => {
    // Each mapping's first line: its indentation is counted finding it, and was counted again
    // to know how deep its mapping is, each key line's first character was read three times, and
    // the line above the new lines to its end (main 0c4fb3f: 150 char codes here).
    expect(reads(template(''))).toBeLessThanOrEqual(114);
  });
});

describe("the line locator on a mapping's first line", () => {
  it('searches its end once, finding it, not again reading its keys', () => {
    // Each step down finds the child mapping's first line (its end and indentation) and then
    // read that line again as the first of the mapping's keys: a search and its indentation more
    // a level (main 0c4fb3f: 16 searches and 150 char codes here; 16 and 114 with the first line's
    // character read once).
    const { counts, site } = locateAnnotation([]);
    expect(site).toMatchObject({ kind: 'lines' });
    expect(counts.searches()).toBeLessThanOrEqual(11);
    expect(counts.reads()).toBeLessThanOrEqual(89);
  });
});

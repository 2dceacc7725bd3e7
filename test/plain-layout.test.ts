// The line locator's edits skip the re-parse proof only on plain layout: these are the inputs
// js-yaml reads differently from a strict line-by-line reading, and each must be caught.
import { describe, expect, it } from 'vitest';
import { isPlainLayout } from '../src/krm/yaml/plain-layout.js';
import { run } from '../src/run.js';

describe('isPlainLayout', () => {
  it.each([
    ['block mappings and lists', 'a:\n  b: 1\n  c:\n  - d\n'],
    ['one-line quoted and flow values', `a: "x: [y" # '\nb: 'it''s'\nc: {d: [1, "]"]}\n`],
    ['escaped quote closed on its line', 'a: "x \\" y"\n'],
    ['plain scalars with quotes and stars inside', 'a: don\'t\nb: 5"\nc: /x/*\nd: a&b\n'],
    ['comments with anything', '# "unclosed [\na: b # {\n'],
    ['a comment before the first quote of its line', 'a: b #c "d\n  # [\n'],
    ['a tab and a quote inside a plain scalar', 'a: b\t"c\n'],
  ])('accepts %s', (_, text) => {
    expect(isPlainLayout(text)).toBe(true);
  });

  it.each([
    ['a multi-line double-quoted scalar', 'a: "x\n y"\n'],
    ['a multi-line single-quoted scalar', "a: 'x\n y'\n"],
    ['an escaped quote that leaves the string open', 'a: "x\\"\n y"\n'],
    ['a multi-line flow sequence', 'a: [x,\n y]\n'],
    ['a multi-line flow mapping', 'a: {x: 1,\n y: 2}\n'],
    ['an anchor', 'a: &x\n  b: 1\n'],
    ['an alias', 'a: *x\n'],
    ['a merge key', 'a:\n  <<: {b: 1}\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a tab in indentation', 'a:\n\tb: 1\n'],
    ['an unclosed quote after a `#` that starts no comment', 'a#b: "x\n y"\n'],
    ['an unclosed quote after a comment on an earlier line', 'a: x # c\nb: "y\n z"\n'],
    ['an unclosed quote at the start of a line', 'a:\n"b\n c": 1\n'],
  ])('refuses %s', (_, text) => {
    expect(isPlainLayout(text)).toBe(false);
  });
});

describe('edits on layouts js-yaml reads leniently are proven', () => {
  it('keeps merged annotations: the proof rejects an insertion that would shadow them', () => {
    const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    <<: {annotations: {team: a}}
    name: db
  spec:
    data:
    - secretKey: pw
      remoteRef: {key: db}
`;
    const out = run(input);
    // Either the edit lands where the merged annotations survive, or nothing changes and an
    // error says why; never a silent loss of the merged annotation.
    if (out.exitCode === 0) {
      expect(out.stdout).toContain('team');
    } else {
      expect(out.stdout.startsWith(input)).toBe(true);
      expect(out.stdout).toMatch(/could not insert the annotation/);
    }
  });

  it('refuses to edit next to an under-indented multi-line string (invalid YAML js-yaml accepts)', () => {
    const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: external-secrets.io/v1
  kind: ExternalSecret
  metadata:
    name: db
    labels:
      note: "spans
  lines"
    annotations:
      owner: a
  spec:
    data:
    - secretKey: pw
      remoteRef: {key: db}
`;
    const out = run(input);
    // A line-by-line reading would end the labels at the under-indented line and miss the
    // annotations; the conforming reader refuses the item when it is read. So: an error naming
    // it, items unchanged.
    expect(out.exitCode).toBe(1);
    expect(out.stdout.startsWith(input)).toBe(true);
    expect(out.stdout).toMatch(
      /item 0 \(ExternalSecret db\): invalid YAML: Missing closing \\"quote at line 9, column 19/,
    );
  });
});

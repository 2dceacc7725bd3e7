// An item's identity (apiVersion, kind, name, namespace) as the function sees it does not depend
// on the YAML style it is written in: block or flow metadata, plain, quoted, escaped, folded or
// literal scalars, a flow item. Items of some kinds are copied through unparsed (pass-through.ts);
// the identity they get must be the one the parse gives. Both halves: the identity itself
// (passesThrough against the parsed value, property), and what depends on it, an ESO templateFrom
// Secret or ConfigMap found in the input (example and property).
import fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { passesThrough } from '../../src/krm/pass-through.js';
import { peekScalar } from '../../src/krm/yaml/locate-lines.js';
import { hasUnusualCharacters } from '../../src/krm/yaml/quick-parse.js';
import { defaultConfig } from '../../src/model/config.js';
import { toResource } from '../../src/model/resource.js';
import { readPlan } from '../../src/rules/read-plan.js';
import { run } from '../../src/run.js';
import { depth } from '../depth.js';
import { externalSecret as helperExternalSecret } from '../helpers.js';

// PROPERTY_RUNS as in invariants.test.ts (300 for `npm test`, 2000 under test:deep).
const total = Number(process.env.PROPERTY_RUNS ?? depth(300, 2000));
const seed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : 20261125;

interface Identity {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string | undefined;
}

/** A scalar in one of the styles a string can take as a mapping value at `indent`. */
function scalar(value: string, style: number, indent: number): string {
  const pad = ' '.repeat(indent + 2);
  switch (style) {
    case 1:
      return `'${value}'`;
    case 2:
      return JSON.stringify(value);
    case 3: // every character escaped
      return `"${[...value].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}"`;
    case 4: // folded block scalar
      return `>-\n${pad}${value}`;
    case 5: // literal block scalar
      return `|-\n${pad}${value}`;
    case 6: // a tag
      return `!!str ${value}`;
    default:
      return value;
  }
}

/**
 * The item's text: metadata in block or flow style, or the whole item in flow style. `body`: the
 * rest of the item, one flow-style `key: value`.
 */
function render(id: Identity, body: string, styles: number[]): string {
  const [layout = 0, nameStyle = 0, nsStyle = 0, kindStyle = 0] = styles;
  const flowScalar = (v: string, s: number) => (s >= 4 ? JSON.stringify(v) : scalar(v, s, 0));
  const kind = scalar(id.kind, kindStyle % 4, 0);
  if (layout === 2) {
    const ns =
      id.namespace === undefined ? '' : `, namespace: ${flowScalar(id.namespace, nsStyle)}`;
    return `{apiVersion: ${id.apiVersion}, kind: ${kind}, metadata: {name: ${flowScalar(id.name, nameStyle)}${ns}}, ${body}}\n`;
  }
  let metadata: string;
  if (layout === 1) {
    const ns =
      id.namespace === undefined ? '' : `, namespace: ${flowScalar(id.namespace, nsStyle)}`;
    metadata = `metadata: {name: ${flowScalar(id.name, nameStyle)}${ns}}\n`;
  } else {
    const ns =
      id.namespace === undefined ? '' : `  namespace: ${scalar(id.namespace, nsStyle, 2)}\n`;
    metadata = `metadata:\n  name: ${scalar(id.name, nameStyle, 2)}\n${ns}`;
  }
  return `apiVersion: ${id.apiVersion}\nkind: ${kind}\n${metadata}${body}\n`;
}

const dnsName = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
const identityArb: fc.Arbitrary<Identity> = fc.record({
  apiVersion: fc.constantFrom('v1'),
  kind: fc.constantFrom('Secret', 'ConfigMap', 'Service'),
  name: dnsName,
  namespace: fc.option(dnsName, { nil: undefined }),
});
const stylesArb = fc.tuple(fc.nat(2), fc.nat(6), fc.nat(6), fc.nat(3));

describe('identity', () => {
  it('is the same whether the item passes through or is parsed, in every style', () => {
    fc.assert(
      fc.property(identityArb, stylesArb, (id, styles) => {
        const text = render(id, 'data: {}', styles);
        const parsed = toResource(0, load(text));
        expect({ ...parsed, index: 0 }).toMatchObject({
          apiVersion: id.apiVersion,
          kind: id.kind,
          name: id.name,
          namespace: id.namespace,
        });
        const peeked = {
          apiVersion: peekScalar(text, false, [], 'apiVersion'),
          kind: peekScalar(text, false, [], 'kind'),
        };
        const usual = !hasUnusualCharacters(text);
        const span = { start: 0, end: text.length, entry: false };
        const seen = passesThrough(text, span, readPlan(defaultConfig), peeked, usual);
        if (seen === undefined) return; // parsed: the identity above
        expect(seen).toEqual({
          apiVersion: parsed.apiVersion,
          kind: parsed.kind,
          name: parsed.name,
          namespace: parsed.namespace,
        });
      }),
      { numRuns: Math.max(100, Math.ceil(total / 4)), seed },
    );
  });
});

/** An ExternalSecret in namespace shop whose template reads `tpl` (a `secret` or `configMap`). */
const externalSecret = (from: string) =>
  helperExternalSecret('app', {
    namespace: 'shop',
    extra: `  target:\n    template:\n      templateFrom:\n      - ${from}:\n          name: tpl\n          items:\n          - key: ca.crt\n`,
  });

/** The ExternalSecret's `checksum/dependencies` and the results that mention templateFrom. */
function dependencies(stream: string) {
  const out = run(stream);
  expect(out.exitCode).toBe(0);
  const docs = out.stdout.split(/^---\n/m).map((d) => load(d) as Record<string, unknown>);
  const es = docs.find((d) => d?.kind === 'ExternalSecret') as {
    metadata: { annotations?: Record<string, string> };
  };
  const messages = out.stderr.split('\n').filter((l) => l.includes('templateFrom'));
  return { annotation: es.metadata.annotations?.['checksum/dependencies'], messages };
}

describe('templateFrom', () => {
  const data = 'data: {ca.crt: Q0E=}';
  const block = (kind: string) =>
    `${externalSecret(kind === 'Secret' ? 'secret' : 'configMap')}---\n${render(
      { apiVersion: 'v1', kind, name: 'tpl', namespace: 'shop' },
      data,
      [0, 0, 0, 0],
    )}`;

  it.each([
    ['flow metadata', [1, 0, 0, 0]],
    ['an escaped name', [0, 3, 0, 0]],
    ['a folded name', [0, 4, 0, 0]],
    ['a flow item', [2, 2, 3, 0]],
  ])('finds a Secret with %s', (_, styles) => {
    const expected = dependencies(block('Secret'));
    expect(expected.annotation).toMatch(/^[0-9a-f]{64}$/);
    const stream = `${externalSecret('secret')}---\n${render(
      { apiVersion: 'v1', kind: 'Secret', name: 'tpl', namespace: 'shop' },
      data,
      styles,
    )}`;
    expect(dependencies(stream)).toEqual(expected);
  });

  it('finds a Secret or ConfigMap in any style', () => {
    fc.assert(
      fc.property(fc.constantFrom('Secret', 'ConfigMap'), stylesArb, (kind, styles) => {
        const expected = dependencies(block(kind));
        const from = kind === 'Secret' ? 'secret' : 'configMap';
        const item = render(
          { apiVersion: 'v1', kind, name: 'tpl', namespace: 'shop' },
          data,
          styles,
        );
        expect(dependencies(`${externalSecret(from)}---\n${item}`)).toEqual(expected);
      }),
      { numRuns: Math.max(50, Math.ceil(total / 20)), seed },
    );
  });
});

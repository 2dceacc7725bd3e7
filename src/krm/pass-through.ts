// Items the read plan lets through are copied without a full parse: which kinds those are is the
// rules' knowledge (rules/read-plan.ts), handed down as the plan. The kind is first looked for on
// the item's own lines (peekScalar, by items.ts), which is cheap; an item whose kind cannot be
// read that way is parsed. The identity itself is read by the quick reader, building nothing
// else: the values a parse would give, whatever the YAML style (flow metadata, quoted, escaped or
// folded names); where it declines, the item is parsed. Passing through skips building the value,
// not the validity check: the quick reader reads the whole item whatever it builds, with the same
// verdict, and reads valid YAML only (test/quick-parse.test.ts), so an item it reads the identity
// of is valid YAML; the items it declines are parsed, by the conforming reader where they are
// beyond it. Invalid YAML is an error wherever it is: kpt and kustomize are not the only writers
// of our input (CI pipes).

import { isObject } from '../model/json.js';
import type { ReadPlan } from '../model/read-contract.js';
import type { Bystander, Projection } from '../model/resource.js';
import { effectiveNamespace } from '../model/scope.js';
import { quickRead } from './read.js';
import type { ScalarCache } from './yaml/quick-parse.js';
import type { ItemSpan } from './yaml/spans.js';

/**
 * The identity of the item at `span` in `text` when the plan lets it through unparsed, else
 * undefined (it is parsed). `peeked`: its apiVersion and kind as peekScalar reads them;
 * `usualCharacters`: all of `text` has usual characters only (read.ts Input), so the quick reader
 * need not look for others; `scalarCache`: the one the input's items are parsed with.
 */
export function passesThrough(
  text: string,
  span: ItemSpan,
  plan: ReadPlan,
  peeked: { apiVersion: string | undefined; kind: string | undefined },
  usualCharacters: boolean,
  scalarCache?: ScalarCache,
): Bystander | undefined {
  const { apiVersion, kind } = peeked;
  if (!kind || !apiVersion) return undefined;
  // Most items are parsed: their metadata is not looked for here.
  const passes = plan.passesThrough(apiVersion, kind);
  if (!passes) return undefined;
  const identity = identityOf(text, span, usualCharacters, scalarCache);
  if (identity?.apiVersion !== apiVersion || identity.kind !== kind) return undefined;
  if (!passes(identity.name)) return undefined;
  const namespace = effectiveNamespace(apiVersion, kind, identity.namespace, plan.defaultNamespace);
  return namespace === identity.namespace ? identity : { ...identity, namespace };
}

const identityProjection: Projection = new Map<string, Projection>([
  ['apiVersion', true],
  ['kind', true],
  [
    'metadata',
    new Map<string, Projection>([
      ['name', true],
      ['namespace', true],
    ]),
  ],
]);

/**
 * apiVersion, kind, name and namespace as toResource would read them from the parsed item, or
 * undefined where the quick reader declines the item or toResource would refuse them (the parse
 * then reports it).
 */
function identityOf(
  text: string,
  span: ItemSpan,
  usualCharacters: boolean,
  scalarCache: ScalarCache | undefined,
): Bystander | undefined {
  const value = quickRead(text, span, scalarCache, usualCharacters, identityProjection);
  if (!isObject(value)) return undefined;
  const { apiVersion, kind } = value;
  const metadata = value.metadata ?? {};
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !isObject(metadata)) {
    return undefined;
  }
  const name = metadata.name ?? undefined;
  const namespace = metadata.namespace ?? undefined;
  if (name !== undefined && typeof name !== 'string') return undefined;
  if (namespace !== undefined && typeof namespace !== 'string') return undefined;
  return { apiVersion: apiVersion.trim(), kind, name, namespace: namespace || undefined };
}

// The items of an input read as the read plan says (model/read-contract.ts): each parsed whole,
// projected to what the rules read, or copied through as a bystander known by its identity, then
// the second pass the plan asks for. One walk of the input; every problem becomes an error result
// naming the item.

import { isObject } from '../model/json.js';
import { getPath } from '../model/path.js';
import type { ReadPlan } from '../model/read-contract.js';
import {
  type Bystander,
  fileOfItem,
  ItemError,
  maxNodes,
  type Resource,
  toResource,
} from '../model/resource.js';
import { invalidInput, listNotRead } from '../model/result-rules.js';
import { describe, plainResult, type Result } from '../model/results.js';
import { passesThrough } from './pass-through.js';
import {
  checkItemNesting,
  checkNesting,
  type Input,
  type InputItem,
  isListKind,
  maxItemLength,
  parseItem,
  wholeDocument,
} from './read.js';
import { contentStart, lineNumberAt } from './yaml/lines.js';
import { peekScalar } from './yaml/locate-lines.js';
import { cachedFrom, ScalarCache } from './yaml/quick-parse.js';
import type { ItemSpan } from './yaml/spans.js';

/** Defined where read.ts finds a List's entries, which reads no longer item either. */
export { maxItemLength };

const itemTooLarge = `is longer than ${maxItemLength >> 20} MiB, more than the Kubernetes API server accepts for one object: not read`;

/** The largest ResourceList whose items may alias each other's anchors (see readOne). */
export const maxAliasedList = 1 << 20;
const aliasedListTooLarge = `aliases a YAML anchor of another item in a ResourceList larger than ${maxAliasedList / (1 << 20)} MiB, which is read whole to prove each edit: define the anchor in this item, or split the list`;

export interface ReadItems {
  resources: Resource[];
  /** Items copied through unparsed, known by identity only. */
  bystanders: Bystander[];
  /** An error result per item that cannot be read. */
  results: Result[];
  /** Items read from the whole document: they alias an anchor in another item. */
  aliased: Set<number>;
  /** Items whose value holds only what the plan projects. */
  projected: Set<number>;
  /**
   * A stream document is invalid YAML: documents are split by their `---` lines, and after
   * invalid YAML that split cannot be trusted (a `---` may be inside an unclosed quote).
   */
  streamBroken: boolean;
}

/** The path of a top-level key: one list, not a new empty one per peek. */
const topLevel: readonly string[] = [];

/**
 * An entry item's first lines as kpt and kustomize print them (`- apiVersion: V`, after a
 * `- # comment` line or not, then `kind: K` and a next key at the same indentation), each value
 * a bare word. Matched in place, from the item's start (sticky).
 */
const plainIdentity =
  /- (?:#[^\n]*\n {2})?apiVersion: [A-Za-z][\w./-]*\n {2}kind: [A-Za-z]\w*\n {2}(?=[^\s#-])/y;

/**
 * The item's apiVersion and kind as peekScalar reads them (a test compares both): by one match
 * where its lines are laid out as plainIdentity says, else by two peeks, each a walk of its lines
 * from its top. Only a guess at what the item is: the reader checks it against what it reads
 * (readOne, passesThrough). `itemText`: the item's text.
 */
export function peekIdentity(
  text: string,
  span: ItemSpan,
  itemText = text.slice(span.start, span.end),
): { apiVersion: string | undefined; kind: string | undefined } {
  plainIdentity.lastIndex = span.start;
  // test, not exec: no match object per item. The match ends after `kind: K\n  `, and neither
  // value holds a space: each is found back from the end of its line.
  if (span.entry && plainIdentity.test(text)) {
    const kindEnd = plainIdentity.lastIndex - 3;
    const kindStart = text.lastIndexOf(' ', kindEnd) + 1;
    const versionEnd = kindStart - '\n  kind: '.length;
    const versionStart = text.lastIndexOf(' ', versionEnd) + 1;
    return {
      apiVersion: text.slice(versionStart, versionEnd),
      kind: text.slice(kindStart, kindEnd),
    };
  }
  return {
    apiVersion: peekScalar(itemText, span.entry, topLevel, 'apiVersion'),
    kind: peekScalar(itemText, span.entry, topLevel, 'kind'),
  };
}

/** Reads every item of `input` as `plan` says. */
export function readItems(input: Input, plan: ReadPlan): ReadItems {
  const read: ReadItems = {
    resources: [],
    bystanders: [],
    results: [],
    aliased: new Set(),
    projected: new Set(),
    streamBroken: false,
  };
  const { resources, bystanders, results, aliased, projected } = read;
  // Only for many items (cachedFrom): impact plans a directory's applications that render the
  // same names one plan each.
  const scalarCache = input.items.length >= cachedFrom ? new ScalarCache() : undefined;
  const noun = input.format === 'yaml-stream' ? 'document' : 'item';
  // Bystanders the plan's second pass may ask for, once the resources are known.
  const candidates: { index: number; bystander: Bystander }[] = [];
  // Named only in an error: built there, not for each item read.
  const whereOf = (index: number) => input.items[index]?.where ?? `${noun} ${index}`;
  /** Reads one item; `passing`: it may be copied through unparsed. */
  const readOne = (item: InputItem, index: number, passing: boolean) => {
    if (read.streamBroken) return;
    if (item.error) {
      if (input.format === 'yaml-stream') read.streamBroken = true;
      results.push(plainResult(invalidInput, `${whereOf(index)}: ${item.error}`));
      return;
    }
    let value = item.value;
    let nodeBound: number | undefined;
    if (value === undefined && item.span) {
      const { span } = item;
      if (span.end - span.start > maxItemLength) {
        checkItemNesting(input.text, span);
        results.push(plainResult(invalidInput, `${whereOf(index)}: ${itemTooLarge}`));
        return;
      }
      const itemText = input.text.slice(span.start, span.end);
      const usual = 'usualCharacters' in input && input.usualCharacters;
      // Peeked once for both uses.
      const { apiVersion, kind } = peekIdentity(input.text, span, itemText);
      const bystander = passing
        ? passesThrough(input.text, span, plan, { apiVersion, kind }, usual, scalarCache)
        : undefined;
      if (bystander) {
        // Copied through unparsed, but checked: the quick reader read all of it (pass-through.ts).
        bystanders.push(bystander);
        if (plan.later.candidate(bystander)) candidates.push({ index, bystander });
        return;
      }
      // An item long enough to exceed the node bound is read whole, so that the alias-bomb
      // check (toResource) sees what it saw before; a List, as unreadList looks at its items.
      const projection =
        span.end - span.start > maxNodes || isListKind(kind)
          ? true
          : plan.projection(apiVersion, kind);
      let parsed = parseItem(input.text, span, scalarCache, usual, projection);
      if (projection !== true && 'value' in parsed) {
        // The kind the projection was chosen for must be the item's; else read it all.
        const v = parsed.value;
        if (isObject(v) && v.apiVersion === apiVersion && v.kind === kind) projected.add(index);
        else parsed = parseItem(input.text, span, scalarCache, usual);
      }
      if ('value' in parsed) ({ value, nodeBound } = parsed);
      else if (parsed.aliased && input.format === 'yaml-list') {
        // An alias to an anchor in another item: read it from the whole document, which every
        // proof of an edit then reads again whole (apply-edits.ts provenInDocument), at ≈1 s and
        // ≈100 bytes of memory per byte in the conforming reader. No renderer writes such lists
        // (kpt and kustomize write no anchors), so they are read up to a size that stays cheap.
        const { start, end } = input.document;
        if (end - start > maxAliasedList) {
          results.push(plainResult(invalidInput, `${whereOf(index)}: ${aliasedListTooLarge}`));
          return;
        }
        const items = getPath(wholeDocument(input.text, input.document), ['items']);
        value = Array.isArray(items) ? items[index] : undefined;
        aliased.add(index);
      }
      if (value === undefined) {
        // After invalid YAML a stream's split cannot be trusted: its first such error is all.
        const error = 'error' in parsed ? parsed.error : '';
        if (input.format === 'yaml-stream' && error.startsWith('invalid YAML')) {
          read.streamBroken = true;
        }
        results.push(unparsed(whereOf(index), itemText, span.entry, error, item.listFile));
        return;
      }
    }
    const list = unreadList(value);
    if (list) {
      // Named by kind, as a List mostly has no name. An error names its line too (nothing is
      // written then); a warning does not: the run's edits before it move the line, and a second
      // run on the output would say another (the fuzzer's idempotency check, faf04afc20bebf19).
      const { kind } = value as { kind: string };
      const { text } = input;
      const line =
        item.span && list.severity === 'error'
          ? `, line ${lineNumberAt(text, contentStart(text, item.span.start))}`
          : '';
      list.message = `${whereOf(index)}${nameOf(value) || ` (${kind})`}${line}: ${list.message}`;
      results.push(list);
      if (list.severity === 'error') return;
    }
    try {
      // Facts only for a projected item: the proof re-reads it whole from its text.
      const facts = projected.has(index) ? plan.facts : undefined;
      resources.push(
        toResource(index, value, nodeBound, plan.defaultNamespace, facts, item.listFile),
      );
    } catch (error) {
      if (!(error instanceof ItemError)) throw error;
      const problem = `${error.message}${notKrmHint(error, input.format)}`;
      const file = fileOfItem(value) ?? item.listFile;
      results.push(inFile(`${whereOf(index)}${nameOf(value)}`, file, problem));
    }
  };
  input.items.forEach((item, index) => {
    readOne(item, index, true);
  });
  // The documents after a broken one are not read, so not judged one by one (checkItemNesting).
  if (read.streamBroken) checkNesting(input.text);
  // The plan's second pass: what the sources read of the items copied through (ESO templateFrom),
  // which the common input has none of, so the pass above can copy every such item through.
  const wanted = candidates.length > 0 ? plan.later.wanted(resources) : () => false;
  const late = candidates.filter((c) => wanted(c.bystander));
  if (late.length > 0) {
    for (const { index } of late) readOne(input.items[index] as InputItem, index, false);
    const built = new Set(late.map((c) => c.bystander));
    // Lists of any length are never spread into a call's arguments: the stack holds them all.
    read.bystanders = bystanders.filter((b) => !built.has(b));
    resources.sort((a, b) => a.index - b.index);
  }
  return read;
}

/**
 * What a List read as one item says (kustomize reads a List's items; docs/format.md): where its
 * items are a list of mappings, that they are not read, as no rule looks into a List (one in a
 * ResourceList or a List, or one read.ts does not read the entries of); where they are something
 * else, an error. Without `items`, or with none, it is an object (kustomize's reading too).
 */
function unreadList(value: unknown): Result | undefined {
  if (!isObject(value) || !isListKind(value.kind)) return undefined;
  const { items } = value;
  if (items === undefined || items === null) return undefined;
  // A custom kind named so (an `AllowList` of CIDRs) is an item like any other: a List only where
  // its items are objects. Kubernetes' own v1 List must hold them.
  const objects = Array.isArray(items) && items.every(isObject);
  if (!objects && value.apiVersion === 'v1' && value.kind === 'List') {
    return plainResult(invalidInput, 'its items must be a list of mappings');
  }
  if (!objects || items.length === 0) return undefined;
  return plainResult(
    listNotRead,
    `its items are not read (${items.length}): give them as separate YAML documents (---), or as items of a ResourceList`,
  );
}

/**
 * What to do about an item that is no Kubernetes object (a kustomization.yaml or a values file
 * beside the manifests): kpt reads every YAML file of a package unless .krmignore lists it; a
 * stream is what the user piped in.
 */
function notKrmHint(error: ItemError, format: Input['format']): string {
  if (error.field !== 'apiVersion' && error.field !== 'kind') return '';
  const fromKpt = format === 'yaml-list' || format === 'json-list';
  return `: give it apiVersion and kind, or ${fromKpt ? "list its file in the package's .krmignore" : 'leave it out of the input'}`;
}

/**
 * ` (Kind namespace/name)` of a raw item, where it has them, as every result names a resource, so
 * an error names what the user wrote.
 */
function nameOf(value: unknown): string {
  if (!isObject(value)) return '';
  const metadata = isObject(value.metadata) ? value.metadata : undefined;
  const { kind } = value;
  const name = metadata?.name;
  const namespace = typeof metadata?.namespace === 'string' ? metadata.namespace : undefined;
  return typeof kind === 'string' && typeof name === 'string' ? labelOf(kind, namespace, name) : '';
}

/** ` (Kind namespace/name)`; an empty namespace is none, as toResource reads it. */
const labelOf = (kind: string, namespace: string | undefined, name: string) =>
  ` (${describe({ kind, namespace: namespace || undefined, name })})`;

/**
 * The error result of an item, with the file kpt read it from where its annotations say: kpt
 * shows a result's message, not its file, so the message names the file too.
 */
function inFile(item: string, file: Resource['file'], problem: string): Result {
  const result = plainResult(invalidInput, `${item}${file ? ` in ${file.path}` : ''}: ${problem}`);
  if (file) result.file = file;
  return result;
}

/**
 * The error result of an item that did not parse: its kind, name and file read from its lines, or
 * the file of the List it is an entry of.
 */
function unparsed(
  where: string,
  text: string,
  entry: boolean,
  problem: string,
  listFile: Resource['file'],
): Result {
  const peek = (key: string) => peekScalar(text, entry, ['metadata', 'annotations'], key);
  const path = peek('internal.config.kubernetes.io/path') ?? peek('config.kubernetes.io/path');
  return inFile(`${where}${peekedName(text, entry)}`, path ? { path } : listFile, problem);
}

/** ` (Kind namespace/name)` of an item that did not parse, read from its lines where they show it. */
function peekedName(text: string, entry: boolean): string {
  const kind = peekScalar(text, entry, [], 'kind');
  const name = kind && peekScalar(text, entry, ['metadata'], 'name');
  const namespace = name ? peekScalar(text, entry, ['metadata'], 'namespace') : undefined;
  return kind && name ? labelOf(kind, namespace, name) : '';
}

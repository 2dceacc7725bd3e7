// Applies edits to one item's text. Unless every edit sets a key, the line locator placed every
// edit and the item is plain layout (plain-layout.ts) up to the last line it read, the result is
// proven: the edited text must parse to exactly the original value plus the new keys and list
// entries, or the item is left alone and the edit reported as an error. Output is never altered
// silently.
import { isDeepStrictEqual } from 'node:util';
import {
  type Edit,
  isListEntryEdit,
  type ListEntryEdit,
  listField,
  type MappingEdit,
} from '../../model/edit.js';
import { isObject, type Json, type JsonObject } from '../../model/json.js';
import { grouped } from '../../model/numbers.js';
import { locateByCst, locateListByCst, seqIndentOf, whereIs } from './locate-cst.js';
import { locateByLines, locateKeysByLines, seqIndentByLines } from './locate-lines.js';
import { maxDepth } from './nesting.js';
import { maxTokens, ParseError, parseYaml } from './parse.js';
import { isPlainLayout } from './plain-layout.js';
import { quickParse, type ScalarCache } from './quick-parse.js';
import {
  type InsertSite,
  type JsonStyle,
  jsonStyleOf,
  keysSplice,
  type Locator,
  listSplice,
  type NewKey,
  type Site,
  type Splice,
  sortedKeys,
  spliceAt,
} from './site.js';

export type { Splice };

export class EditError extends Error {
  /** `offset`: where in the item's text the refused edit is, for the message's line and column. */
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
  }
}

/**
 * Sets the key in a parsed value, or appends the entry to the list there (creating the list
 * when the key is missing or null), creating missing mappings. A numeric step names an existing
 * list entry (a reference in `env[]`): missing, or not a list there, the value is left as it is,
 * and the proof, comparing with it, refuses the edit; so is a value that is no list where an
 * entry is appended.
 */
export function applyToValue(value: JsonObject, edit: Edit): void {
  let node: Json = value;
  for (const [depth, key] of edit.path.entries()) {
    if (typeof key === 'number' || Array.isArray(node)) {
      const entry: Json | undefined = Array.isArray(node) ? node[key as number] : undefined;
      if (typeof key !== 'number' || !isObject(entry)) return;
      node = entry;
      continue;
    }
    const mapping: JsonObject = node as JsonObject;
    const child = mapping[key];
    const listNext = typeof edit.path[depth + 1] === 'number';
    if (isObject(child) || (listNext && Array.isArray(child))) {
      node = child;
    } else {
      const created: JsonObject = {};
      mapping[key] = created;
      node = created;
    }
  }
  if (!isObject(node)) return;
  if (!isListEntryEdit(edit)) node[edit.key] = edit.value;
  else {
    // A copy, keys sorted as the text is written: a JSON input is written from this value.
    const list = node[edit.key] ?? null;
    if (list === null) node[edit.key] = [sortedCopy(edit.entry)];
    else if (Array.isArray(list)) list.push(sortedCopy(edit.entry));
  }
}

/**
 * `value` with the edit applied as applyToValue applies it, left as it is: a copy of each
 * mapping and list on the edit's way (the list an entry is appended to too), sharing all else.
 * The proof's expected value is made so from the value the rules read, which keeps it for the
 * run: applied in place, every proven item kept its appended entry's copy to the end
 * (helm-releases 8 MB: 36 MB live).
 */
export function withEdit(value: JsonObject, edit: Edit): JsonObject {
  const root = { ...value };
  const steps = isListEntryEdit(edit) ? [...edit.path, edit.key] : edit.path;
  let node: JsonObject | Json[] = root;
  for (let i = 0; i < steps.length; i++) {
    const key = steps[i] as string | number;
    const child: Json | undefined = Array.isArray(node)
      ? typeof key === 'number'
        ? node[key]
        : undefined
      : node[key];
    if (Array.isArray(child)) {
      const copy = child.slice();
      (node as Record<string | number, Json>)[key] = copy;
      node = copy;
    } else if (isObject(child)) {
      const copy: JsonObject = { ...child };
      (node as Record<string | number, Json>)[key] = copy;
      node = copy;
    } else break;
  }
  applyToValue(root, edit);
  return root;
}

/**
 * Why an entry cannot be appended however the item is written: nested deeper than the readers
 * follow, the output would be refused when read again (the proof, the next run). Counted before
 * any text is written, without recursion. The item's own levels above the entry: its path, the
 * list, and a ResourceList's two.
 */
export function tooDeep(edit: Edit): string | undefined {
  if (!isListEntryEdit(edit) || !nestedBeyond(edit.entry, maxDepth - edit.path.length - 3)) {
    return undefined;
  }
  return `the entry for ${listField(edit)} nests deeper than the ${maxDepth} levels the reader follows`;
}

/** Whether `value` nests collections more than `levels` deep, counted without recursion. */
function nestedBeyond(value: Json, levels: number): boolean {
  let level: Json[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > levels) return true;
    level = level.flatMap((v) => (Array.isArray(v) ? v : isObject(v) ? Object.values(v) : []));
  }
  return false;
}

/**
 * A copy of a value with every mapping's keys in the order the writers use (site.ts); it shares
 * no objects, where YAML aliases made the parsed value share them.
 */
export function sortedCopy(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (!isObject(value)) return value;
  const keys = sortedKeys(value);
  return Object.fromEntries(keys.map((key) => [key, sortedCopy(value[key] as Json)]));
}

/**
 * What one editText call's attempts share: one object, not a closure per helper and call, and
 * the same object for every call (set anew by each: editText is never called from within
 * itself), not one per edited item.
 */
interface Job {
  itemText: string;
  entry: boolean;
  /** Keys set before entries appended. */
  ordered: readonly Edit[];
  appends: boolean;
  expected: () => Json;
  lineBreak: string;
  reparse: ((text: string) => Json | undefined) | 'later' | undefined;
  json: JsonStyle | undefined;
  /** How far into `itemText` the locators read (Site's `reach`), the furthest over the edits. */
  reach: number;
  proofs: (() => ScalarCache) | undefined;
}
const noValue = (): Json => null;
const noEdits: readonly Edit[] = [];
const job: Job = {
  itemText: '',
  entry: false,
  ordered: noEdits,
  appends: false,
  expected: noValue,
  lineBreak: '\n',
  reparse: undefined,
  json: undefined,
  reach: 0,
  proofs: undefined,
};

/** Made once: a literal is a new object each time it is evaluated. */
const emptyMatch = /(?:)/;

const byLines: readonly Locator[] = [locateByLines];
const byLinesThenCst: readonly Locator[] = [locateByLines, locateByCst];
const byCst: readonly Locator[] = [locateByCst];

/**
 * Edits an item's text. `expected` gives the item's value with the edits applied; the lines locator
 * runs first and the full parser is the fallback for each edit and for a failed proof. The result
 * is what changes in `itemText`, so that the output is the input's text with new text between
 * its slices, never copied whole: one edit's splice, or (several edits, each located in the text
 * the previous one made) the whole item. Keys are set before entries are appended, whatever the
 * order of `edits`, so that the two kinds commute.
 */
export function editText(
  itemText: string,
  entry: boolean,
  edits: readonly Edit[],
  /**
   * Called only when a proof is needed (the value may have to be read again); the caller keeps
   * what it returns (apply-edits.ts), so each proof may call it.
   */
  expected: () => Json,
  lineBreak: string,
  /**
   * Reads an edited text for the proof: on its own (the default), or in its document (aliases);
   * `later`: the caller proves the result itself (in its document, with the other items' edits).
   */
  reparse?: ((text: string) => Json | undefined) | 'later',
  /**
   * The cache the proofs' re-reads share (the caller's, for all its items): each re-read with a
   * cache of its own made a constructor and V8 maps per mapping of the item, which outlived the
   * young generation (helm-releases: ≈1.5 KB an item).
   */
  proofs?: () => ScalarCache,
): Splice[] {
  // Index loops over the edits and the locators here and below, not for-of or some(): no
  // iterator result or callback per edit where the compiler does not inline (large inputs,
  // main.ts).
  let appends = false;
  for (let i = 0; i < edits.length && !appends; i++) appends = isListEntryEdit(edits[i] as Edit);
  const ordered = appends
    ? [...edits.filter((e) => !isListEntryEdit(e)), ...edits.filter(isListEntryEdit)]
    : edits;
  for (let i = 0; i < ordered.length; i++) {
    const deep = tooDeep(ordered[i] as Edit);
    if (deep) throw new EditError(deep);
  }
  // A JSON document stays JSON: its edits are written in its own style.
  const json = jsonStyleOf(itemText, entry);
  job.itemText = itemText;
  job.entry = entry;
  job.ordered = ordered;
  job.appends = appends;
  job.expected = expected;
  job.lineBreak = lineBreak;
  job.reparse = reparse;
  job.json = json;
  job.reach = 0;
  job.proofs = proofs;
  let edited: Splice[] | undefined;
  try {
    edited = editedBy(job);
  } finally {
    // Nothing kept past the call: the item's text is a slice that holds the whole input, and
    // `expected` the item's value (until the next call, maybe another input's, in one process).
    job.itemText = '';
    job.ordered = noEdits;
    job.expected = noValue;
    job.reparse = undefined;
    job.proofs = undefined;
    // A successful match keeps its subject (RegExp.input) until the next one, and the layout
    // check's search matches in every item: an empty match in an empty text lets go of it.
    emptyMatch.test('');
  }
  if (edited === undefined) {
    const append = ordered.find(isListEntryEdit);
    if (!append)
      throw new EditError('could not insert the annotation without changing anything else');
    throw new EditError(
      `could not append the entry to ${listField(append)} without changing anything else (it holds no list, or one that a YAML alias or merge key shares)`,
      whereIs(itemText, entry, append.path, append.key),
    );
  }
  return edited;
}

/**
 * The job's splices: by the line locator, trusted where the lines it read are plain layout, else
 * proven; by the full parser where the line locator finds no site or its splices fail the proof.
 */
function editedBy(job: Job): Splice[] | undefined {
  // The line locator reads plain-layout lines exactly as the parser does (plain-layout.ts), so
  // its keys need no proof where every line it read, and those before, are plain; everything
  // else, and every appended entry, is re-parsed and compared.
  const byLine = job.appends ? undefined : attempt(job, byLines, false);
  if (byLine && isPlainLayout(job.itemText, job.reach)) return byLine;
  // Found by lines but not trusted: proven as byLinesThenCst would find them (lines first).
  return byLine
    ? (provenSplices(job, byLine) ?? attempt(job, byCst, true))
    : (attempt(job, byLinesThenCst, true) ?? attempt(job, byCst, true));
}

/** Whether the edited text reads as the item's expected value (or the caller proves it later). */
function proven(job: Job, text: string): boolean {
  const { reparse } = job;
  if (reparse === 'later') return true;
  const value = reparse ? reparse(text) : reparseItem(text, job.entry, true, job.proofs?.());
  return sameValue(value ?? null, job.expected());
}

/**
 * isDeepStrictEqual of two values the readers or the rules made, without its allocations: it
 * lists each object's keys and keeps sets of them, the most of a proof's garbage after the
 * re-read itself (helm-releases: ≈10 KB a HelmRelease). The same verdict: primitives by
 * Object.is, arrays entry by entry, objects of Object.prototype by their own enumerable keys in
 * any order; any other object, and anything nested deeper than a reader reads (a value that
 * aliases itself), is isDeepStrictEqual's to judge.
 */
export function sameValue(a: Json, b: Json, depth = 0): boolean {
  if (a === b) return a !== 0 || Object.is(a, b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Object.is(a, b);
  }
  if (depth > maxDepth) return isDeepStrictEqual(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (!sameValue(a[i] as Json, b[i] as Json, depth + 1)) return false;
    }
    return true;
  }
  if (
    Object.getPrototypeOf(a) !== Object.prototype ||
    Object.getPrototypeOf(b) !== Object.prototype
  ) {
    return isDeepStrictEqual(a, b);
  }
  // for-in, not Object.keys: no list per object (own keys only: Object.prototype has none
  // enumerable).
  let count = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) continue;
    if (!Object.hasOwn(b, key) || !sameValue(a[key] as Json, b[key] as Json, depth + 1)) {
      return false;
    }
    count++;
  }
  for (const key in b) if (Object.hasOwn(b, key)) count--;
  return count === 0;
}

/** The edit's site in `text` (its reach joined to the job's), or undefined where none is found. */
function siteOf(
  job: Job,
  locators: readonly Locator[],
  text: string,
  edit: MappingEdit,
): Site | undefined {
  for (let i = 0; i < locators.length; i++) {
    const site = (locators[i] as Locator)(text, job.entry, edit.path, edit.key);
    if (site) {
      job.reach = Math.max(job.reach, site.reach ?? text.length);
      return site;
    }
  }
  return undefined;
}

/** The edit's splice in `text`, or undefined where the locators find no site for it. */
function located(
  job: Job,
  locators: readonly Locator[],
  text: string,
  edit: Edit,
): Splice | undefined {
  const { entry, lineBreak, json } = job;
  if (isListEntryEdit(edit)) {
    return appendSplice(text, entry, edit, lineBreak, json, locators[0] === locateByLines);
  }
  const site = siteOf(job, locators, text, edit);
  return site && spliceAt(text, site, edit.key, edit.value, lineBreak, json);
}

/**
 * Every edit located in the item's text as it came, when that gives the same text as one edit
 * after another: each replaces an existing value, but at most one inserts, or the insertions
 * merge (mergedInserts); none touch. Many references renamed in one item (targetNames), or
 * many annotations added to it (kapp's change rules), then cost one read of it, not one each.
 */
function atOnce(job: Job, locators: readonly Locator[]): Splice[] | undefined {
  const { itemText, lineBreak, json } = job;
  // atOnce is not tried with appends: every edit sets a key.
  const ordered = job.ordered as readonly MappingEdit[];
  const sites = sitesOf(job, locators, ordered);
  const splices: Splice[] = [];
  const inserts: { site: Site; edit: MappingEdit }[] = [];
  for (let i = 0; i < ordered.length; i++) {
    const edit = ordered[i] as MappingEdit;
    const site = sites[i];
    if (!site) return undefined;
    if (site.kind === 'value')
      splices.push(spliceAt(itemText, site, edit.key, edit.value, lineBreak, json));
    else inserts.push({ site, edit });
  }
  const [one] = inserts;
  if (one && inserts.length === 1) {
    splices.push(spliceAt(itemText, one.site, one.edit.key, one.edit.value, lineBreak, json));
  } else if (one) {
    if (!mergedInserts(job, inserts, splices)) return undefined;
    // As when each edit is located in the text the ones before made: all of the item is judged.
    job.reach = itemText.length;
  }
  splices.sort((a, b) => a.start - b.start);
  const touch = splices.some((s, i) => i > 0 && s.start <= (splices[i - 1] as Splice).end);
  return touch ? undefined : splices;
}

/**
 * Every edit's site in the item's text, each from the first locator that finds it, as siteOf
 * finds it; the line locator reads the way to a mapping and the mapping once for all the edits
 * of that mapping (locateKeysByLines), not once an edit.
 */
function sitesOf(
  job: Job,
  locators: readonly Locator[],
  edits: readonly MappingEdit[],
): (Site | undefined)[] {
  const { itemText, entry } = job;
  const sites: (Site | undefined)[] = new Array(edits.length).fill(undefined);
  for (const locator of locators) {
    if (locator !== locateByLines) {
      for (let i = 0; i < edits.length; i++) {
        const edit = edits[i] as MappingEdit;
        sites[i] ??= locator(itemText, entry, edit.path, edit.key);
      }
      continue;
    }
    // The edits of one mapping together, by their path.
    const byPath = new Map<string, number[]>();
    for (let i = 0; i < edits.length; i++) {
      const path = JSON.stringify((edits[i] as MappingEdit).path);
      const same = byPath.get(path);
      if (same) same.push(i);
      else byPath.set(path, [i]);
    }
    for (const group of byPath.values()) {
      const { path } = edits[group[0] as number] as MappingEdit;
      const keys = group.map((i) => (edits[i] as MappingEdit).key);
      const found = locateKeysByLines(itemText, entry, path, keys);
      group.forEach((i, k) => {
        sites[i] ??= found[k];
      });
    }
  }
  for (const site of sites)
    if (site) job.reach = Math.max(job.reach, site.reach ?? itemText.length);
  return sites;
}

/** A key the line locator reads back as itself wherever it is written plain (`kapp.k14s.io/x`). */
const plainKey = /^[A-Za-z0-9][-\w./]*$/;
const plain = (name: string) => plainKey.test(name);

/**
 * Several insertions' splices, one per place, added to `splices`: the text one edit after another
 * makes, or false where that is not known to be it. Each insertion goes in before the first key
 * of its mapping (or right after its `{`), so the next one located in that mapping goes in before
 * it, under the same missing mappings (which the first made); no place is in lines another place
 * reads, so insertions at different places do not see each other. Only block lines at one
 * indentation, or flow entries (`{…}`, `~`, a JSON document's in its layout), under the same
 * missing mappings, of different plain keys: elsewhere (a key given twice, other missing
 * mappings at one place) each edit is located in the text the ones before made.
 */
function mergedInserts(
  job: Job,
  inserts: readonly { site: Site; edit: MappingEdit }[],
  splices: Splice[],
): boolean {
  const places = new Map<number, { site: InsertSite; keys: NewKey[]; seen: Set<string> }>();
  for (const { site, edit } of inserts) {
    if (site.kind === 'value' || !plainKey.test(edit.key) || !site.missing.every(plain)) {
      return false;
    }
    const at = site.kind === 'null' ? site.start : site.at;
    const place = places.get(at);
    if (!place) {
      places.set(at, { site, keys: [edit], seen: new Set([edit.key]) });
      continue;
    }
    const first = place.site;
    if (
      site.kind !== first.kind ||
      (site.kind === 'lines' &&
        first.kind === 'lines' &&
        (site.indent !== first.indent || site.step !== first.step)) ||
      !sameNames(site.missing, first.missing) ||
      place.seen.has(edit.key)
    ) {
      return false;
    }
    place.keys.push(edit);
    place.seen.add(edit.key);
  }
  for (const { site, keys } of places.values()) {
    splices.push(keysSplice(job.itemText, site, keys, job.lineBreak, job.json));
  }
  return true;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/** The edits' splices found by `locators`, proven when `prove`; undefined where that fails. */
function attempt(job: Job, locators: readonly Locator[], prove: boolean): Splice[] | undefined {
  const found = locatedAll(job, locators);
  return found && prove ? provenSplices(job, found) : found;
}

/** The splices, if the item's text with them reads as expected. */
function provenSplices(job: Job, splices: Splice[]): Splice[] | undefined {
  return proven(job, applySplices(job.itemText, splices)) ? splices : undefined;
}

/** Every edit's splice found by `locators`, or undefined where one is not found. */
function locatedAll(job: Job, locators: readonly Locator[]): Splice[] | undefined {
  const { itemText, ordered } = job;
  const together = ordered.length > 1 && !job.appends ? atOnce(job, locators) : undefined;
  if (together) return together;
  const only = ordered[0];
  if (ordered.length === 1 && only) {
    // The edited text is made only for a proof: written, the splice is all it takes (on 10k
    // trusted items, ≈14 MB of item copies that were made and dropped).
    const found = located(job, locators, itemText, only);
    return found && [found];
  }
  let text = itemText;
  for (let i = 0; i < ordered.length; i++) {
    const found = located(job, locators, text, ordered[i] as Edit);
    if (!found) return undefined;
    text = applySplices(text, [found]);
  }
  // Each edit was located in the text the ones before made: what they read is no reach in the
  // item's own text, so all of it is judged.
  job.reach = itemText.length;
  return [{ start: 0, end: itemText.length, text }];
}

/**
 * An appended entry's splice: after the list's last entry, or the list new with it. With `lines`,
 * a key missing in block layout (a HelmRelease's first post-renderer) is placed by the line
 * locator, as a key set is, and the list's indentation read by lines where they can: no parse of
 * the item by the `yaml` library (helm-releases: ≈0.6 of 1.7 s at 1 MB). The proof judges the
 * result either way; where it fails, the caller tries again with the full parser's site alone.
 */
function appendSplice(
  text: string,
  entry: boolean,
  edit: ListEntryEdit,
  lineBreak: string,
  json: JsonStyle | undefined,
  lines: boolean,
): Splice | undefined {
  const byLines = lines && !json ? locateByLines(text, entry, edit.path, edit.key) : undefined;
  const site =
    byLines?.kind === 'lines' ? byLines : locateListByCst(text, entry, edit.path, edit.key);
  if (!site) return undefined;
  switch (site.kind) {
    case 'append':
    case 'append-flow':
    case 'under':
    case 'null-flow':
      return listSplice(text, site, edit.entry, lineBreak, json);
    default: {
      const seqIndent = (site === byLines && seqIndentByLines(text)) || seqIndentOf(text);
      const list = { list: [edit.entry], seqIndent };
      return spliceAt(text, site, edit.key, list, lineBreak, json);
    }
  }
}

/**
 * `text` with the splices (offsets in `text`, not overlapping) applied, in one pass: pieces
 * joined once, so many splices cost the length of the text, not that times their number.
 * Insertions at one offset keep their order (the sort is stable).
 */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const pieces: string[] = [];
  let at = 0;
  for (const { start, end, text: insert } of [...splices].sort((a, b) => a.start - b.start)) {
    pieces.push(text.slice(at, start), insert);
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

const tooLargeToProve = `could not prove the edit changes nothing else: the edited item is too large to read again (more than ${grouped(maxTokens)} YAML tokens for the conforming reader, docs/limits.md)`;

/**
 * The value of an edited item's text, read on its own; undefined when it does not parse. For a
 * proof (`proof`), an item past the token bound is an EditError saying so.
 */
export function reparseItem(
  text: string,
  entry: boolean,
  proof = false,
  cache?: ScalarCache,
): Json | undefined {
  // A proof reads as read.ts reads an item: the quick reader, which answers only for valid YAML
  // and then with js-yaml's value, else the conforming reader. Edited block layout is the quick
  // reader's: the verdict and the value cost one read of the text, not js-yaml's and the `yaml`
  // library's (helm-releases: ≈1.5 of 2.3 s at 1 MB).
  if (proof) {
    const quick = quickParse(text, 0, text.length, entry, cache);
    if (quick !== undefined) return quick;
  }
  try {
    const parsed = parseYaml(text, 0, text);
    if (!entry) return parsed;
    return Array.isArray(parsed) && parsed.length === 1 ? (parsed[0] as Json) : undefined;
  } catch (error) {
    // An edited item past the conforming reader's token bound is not "changed elsewhere" but
    // unreadable: an edit's proof says so, with the bound.
    if (proof && error instanceof ParseError && error.tooLarge)
      throw new EditError(tooLargeToProve);
    return undefined;
  }
}
